/**
 * What the kind compilers share: the accumulator they fill (compile-tolerances.ts turns it into the
 * compiled tolerances), the type of a table of compilers over some kinds, the run-time error, and the
 * questions they ask of a description's payloads and regions.
 */
import { ChatwireError } from "../../errors.js";
import type { CompiledRegion } from "../compile-format.js";
import type { DecoderFactory } from "../decoder.js";
import type { FormatDescription, Payload, Tolerance } from "../language.js";
import type { CompiledPattern } from "../patterns.js";
import type { BareCall, KeyAliases, OtherArgumentList, StrayCloser } from "./types.js";

/** compile-format.ts's payload compiler (passed in: that file compiles the tolerances). */
export type PayloadCompiler = (payload: Payload) => DecoderFactory;

export type Kind = Tolerance["kind"];
export type Of<K extends Kind> = Extract<Tolerance, { kind: K }>;

/** One compiler per kind in `Ks`: checks its entry against the description and fills the accumulator. */
export type KindCompilers<Ks extends Kind> = { [K in Ks]: (t: Of<K>, into: Build, format: FormatDescription, compile: PayloadCompiler) => void };

type JsonCallsPayload = Extract<Payload, { kind: "json-calls" }>;

/** The accumulator the kind compilers fill. */
export interface Build {
  stray: Array<{ after: string; closer: StrayCloser }>;
  valueOpeners: Set<string>;
  others: Array<{ region: string; when: string; decoder: DecoderFactory }>;
  regions: CompiledRegion[];
  /** The regions of tags the format does not have around its calls (`wrapper-tag`): fences may wrap them too. */
  wrapped: CompiledRegion[];
  /** Fences around a region with this start marker. */
  fenced: Array<{ open: string; around: string }>;
  keyAliases?: KeyAliases;
  bareCall?: BareCall;
  wrapperKeys: string[];
  // the markup repairs
  misspelled: Array<{ region: string; closer: StrayCloser }>;
  namePrefixes: Map<string, string[]>;
  keyOpeners: Set<string>;
  argumentLists: Array<{ dialect: string; list: OtherArgumentList }>;
  tagAliases: Array<{ call: readonly CompiledPattern[]; param: readonly CompiledPattern[]; typedBy: Of<"tag-alias">["typedBy"] }>;
  paddedValues?: boolean;
  // the region marker repairs
  /** Start markers that may be written twice (`repeated-opener`). */
  repeatedOpeners: string[];
  /** Regions that may be opened by their end marker, then a newline and `first` (`closer-as-opener`). */
  closerOpeners: Array<{ region: string; first: string }>;
  /** JSON call regions whose call object may be a Python literal (`python-literal`), with its arguments keys. */
  pythonLiterals: Array<{ region: string; argsKeys: readonly string[] }>;
}

/** Every payload of the family's regions and channel calls, through the choices (leafPayloads). */
export function allPayloads(format: FormatDescription): Payload[] {
  return [...format.regions.map((r) => r.payload), ...(format.channels ? [format.channels.callPayload] : [])].flatMap(leafPayloads);
}

/** The family's region opened by `start`, which the tolerance's `field` names (invalid without one). */
export function regionOf(format: FormatDescription, t: Tolerance, start: string, field = "region"): FormatDescription["regions"][number] {
  const region = format.regions.find((r) => r.start.includes(start));
  if (region === undefined) throw invalid(format, t, `"${field}" ${JSON.stringify(start)} is no region's start marker`);
  return region;
}

/** The end markers of the family's region opened by `start` (the tolerance is invalid without them). */
export function endOf(format: FormatDescription, t: Tolerance, start: string): readonly string[] {
  const region = regionOf(format, t, start);
  if (region.end === undefined || region.end.length === 0) throw invalid(format, t, "the region has no end marker");
  return region.end;
}

/** A list of JSON key names the tolerance's `field` gives (none: empty); invalid unless each is a non-empty string. */
export function keyNames(format: FormatDescription, t: Tolerance, field: string, v: readonly string[] | undefined): readonly string[] {
  if (v !== undefined && (!Array.isArray(v) || v.some((k) => typeof k !== "string" || k === ""))) throw invalid(format, t, `"${field}" must be non-empty key names`);
  return v ?? [];
}

/** The payloads a region's payload may hand its text to (through choices by first character, Python-or-JSON). */
export function leafPayloads(p: Payload): Payload[] {
  switch (p.kind) {
    case "python-or-json":
      return leafPayloads(p.json);
    case "by-first-char":
      return [...Object.values(p.cases), p.otherwise].flatMap(leafPayloads);
    default:
      return [p];
  }
}

/** The value open tags of a payload's key-value parameters (GLM `<arg_value>`). */
export function valueOpens(p: Payload): string[] {
  return leafPayloads(p).flatMap((q) => (q.kind === "tagged" && "value" in q.params ? [q.params.value.open] : []));
}

/** The JSON call payloads of a region's payload. */
export function jsonCallsIn(p: Payload): JsonCallsPayload[] {
  return leafPayloads(p).filter((q): q is JsonCallsPayload => q.kind === "json-calls");
}

/** The family's regions that hold JSON call objects, with their start markers. */
export function jsonCallRegions(format: FormatDescription): Array<{ payload: JsonCallsPayload; markers: readonly string[]; atStart: boolean }> {
  return format.regions.flatMap((r) => jsonCallsIn(r.payload).map((payload) => ({ payload, markers: r.start, atStart: r.atStartOnly === true })));
}

/** The open tags of the family's `wrapper-tag` tolerances. */
export function wrapperOpens(format: FormatDescription): string[] {
  return (format.tolerate ?? []).flatMap((t) => (t.kind === "wrapper-tag" && Array.isArray(t.tags) ? t.tags.map((p) => p[0]) : []));
}

/** The JSON call payloads of the family's regions and channel calls. */
export function jsonCallPayloads(format: FormatDescription): JsonCallsPayload[] {
  return allPayloads(format).filter((q): q is JsonCallsPayload => q.kind === "json-calls");
}

/** The error of an entry that does not fit its description, naming the family and the kind. */
export function invalid(format: FormatDescription, t: Tolerance, why: string): ChatwireError {
  return new ChatwireError("invalid_format", `${format.id}: tolerance ${JSON.stringify(t.kind)}: ${why}`);
}
