/**
 * Compiles a family's `tolerate` entries (language.ts, `Tolerance`) into what the engine and the
 * decoders consult. One entry of `COMPILE` per repair kind, typed over `Tolerance["kind"]`, so a kind
 * added to the language without its compiler is a compile error (as the payload kinds are). The
 * entries are also checked at run time: a description is plain data, and may come from a caller.
 */
import { ChatwireError } from "../errors.js";
import type { FormatDescription, Payload, Tolerance } from "./language.js";

type JsonCallsPayload = Extract<Payload, { kind: "json-calls" }>;

type Kind = Tolerance["kind"];
type Of<K extends Kind> = Extract<Tolerance, { kind: K }>;

/** A closer that, right after a valid call of a region, is read as that call's end (`stray-closer`). */
export interface StrayCloser {
  closer: readonly string[];
  /** The opener the model left out (named in the repair's message). */
  missing: string;
}

/**
 * Other names real models of the family give a JSON call object's keys (`key-alias`), beside the
 * payload's own: each use is a repair. `argsAsString`: arguments written as a JSON string holding the
 * object are read as that object (without it such a string is not an arguments object).
 */
export interface KeyAliases {
  nameKeys: readonly string[];
  argsKeys: readonly string[];
  argsAsString: boolean;
}

/**
 * A whole completion that is exactly one JSON call object, the family's markers missing (`bare-call`):
 * read with the family's own JSON call payload; `markers` are the region starts the model left out
 * (named in the repair's message).
 */
export interface BareCall {
  payload: JsonCallsPayload;
  markers: readonly string[];
}

/** What the engine and the decoders consult; empty for a family that tolerates nothing. */
export interface CompiledTolerances {
  /** The stray closers that may follow a call of a region with these start markers. */
  strayClosers(regionStart: readonly string[]): readonly StrayCloser[];
  /** JSON call object key aliases; undefined: the family tolerates none. */
  keyAliases: KeyAliases | undefined;
  /** Whole-completion bare calls; undefined: not tolerated. */
  bareCall: BareCall | undefined;
}

/** The accumulator the kind compilers fill. */
interface Build {
  stray: Array<{ after: string; closer: StrayCloser }>;
  keyAliases?: KeyAliases;
  bareCall?: BareCall;
}

const COMPILE: { [K in Kind]: (t: Of<K>, into: Build, format: FormatDescription) => void } = {
  "stray-closer"(t, into, format) {
    if (!format.regions.some((r) => r.start.includes(t.after))) {
      throw invalid(format, t, `"after" ${JSON.stringify(t.after)} is no region's start marker`);
    }
    if (t.closer.length === 0 || t.closer.some((c) => c === "")) throw invalid(format, t, '"closer" needs non-empty markers');
    into.stray.push({ after: t.after, closer: { closer: t.closer, missing: t.missing } });
  },
  "missing-value-opener"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  fence(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  "other-syntax"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  "key-alias"(t, into, format) {
    if (jsonCallPayloads(format).length === 0) throw invalid(format, t, "the family writes no JSON call objects");
    const keys = (name: string, v: readonly string[] | undefined): readonly string[] => {
      if (v !== undefined && (!Array.isArray(v) || v.some((k) => typeof k !== "string" || k === ""))) throw invalid(format, t, `"${name}" must be non-empty key names`);
      return v ?? [];
    };
    const nameKeys = keys("nameKeys", t.nameKeys);
    const argsKeys = keys("argsKeys", t.argsKeys);
    if (t.argsAsString !== undefined && typeof t.argsAsString !== "boolean") throw invalid(format, t, '"argsAsString" must be a boolean');
    if (nameKeys.length === 0 && argsKeys.length === 0 && t.argsAsString !== true) throw invalid(format, t, "names no alias");
    const prev = into.keyAliases;
    into.keyAliases = {
      nameKeys: [...(prev?.nameKeys ?? []), ...nameKeys],
      argsKeys: [...(prev?.argsKeys ?? []), ...argsKeys],
      argsAsString: (prev?.argsAsString ?? false) || t.argsAsString === true,
    };
  },
  "bare-call"(t, into, format) {
    const found = jsonCallRegions(format);
    if (found.length === 0) throw invalid(format, t, "the family has no region of JSON call objects");
    // A family whose output may already start with a bare `{` or `[` reads it itself (llama3-json, xLAM).
    if (format.regions.some((r) => r.atStartOnly === true && r.start.some((m) => /^\s*[[{]/.test(m)))) {
      throw invalid(format, t, "the family already reads a JSON object at the start of the output");
    }
    into.bareCall = { payload: found[0]!.payload, markers: found.flatMap((f) => f.markers) };
  },
};

/** The keys each kind may have (besides `kind`): a misspelt key is rejected by name, not ignored. */
const KEYS: { [K in Kind]: ReadonlyArray<Exclude<keyof Of<K>, "kind">> } = {
  "stray-closer": ["after", "closer", "missing", "evidence"],
  "missing-value-opener": ["open", "evidence"],
  fence: ["open", "around", "evidence"],
  "other-syntax": ["region", "payload", "evidence"],
  "key-alias": ["nameKeys", "argsKeys", "argsAsString", "evidence"],
  "bare-call": ["evidence"],
};

const NONE: CompiledTolerances = { strayClosers: () => [], keyAliases: undefined, bareCall: undefined };

const compiled = new WeakMap<FormatDescription, CompiledTolerances>();

/** The compiled tolerances of a description (cached per description object). */
export function compileTolerances(format: FormatDescription): CompiledTolerances {
  const hit = compiled.get(format);
  if (hit) return hit;
  const list = format.tolerate ?? [];
  const into: Build = { stray: [] };
  for (const t of list) {
    check(format, t);
    (COMPILE[t.kind] as (t: Tolerance, into: Build, format: FormatDescription) => void)(t, into, format);
  }
  const out = list.length === 0 ? NONE : finish(into);
  compiled.set(format, out);
  return out;
}

function finish(into: Build): CompiledTolerances {
  const byStart = new Map<readonly string[], readonly StrayCloser[]>();
  return {
    keyAliases: into.keyAliases,
    bareCall: into.bareCall,
    strayClosers(regionStart) {
      let hit = byStart.get(regionStart);
      if (hit === undefined) {
        hit = into.stray.filter((s) => regionStart.includes(s.after)).map((s) => s.closer);
        byStart.set(regionStart, hit);
      }
      return hit;
    },
  };
}

/** The JSON call payloads of a region's payload (inside a choice by first character, or Python-or-JSON). */
function jsonCallsIn(p: Payload): JsonCallsPayload[] {
  switch (p.kind) {
    case "json-calls":
      return [p];
    case "python-or-json":
      return jsonCallsIn(p.json);
    case "by-first-char":
      return [...Object.values(p.cases).flatMap(jsonCallsIn), ...jsonCallsIn(p.otherwise)];
    default:
      return [];
  }
}

/** The family's regions that hold JSON call objects, with their start markers. */
function jsonCallRegions(format: FormatDescription): Array<{ payload: JsonCallsPayload; markers: readonly string[] }> {
  return format.regions.flatMap((r) => jsonCallsIn(r.payload).map((payload) => ({ payload, markers: r.start })));
}

function jsonCallPayloads(format: FormatDescription): JsonCallsPayload[] {
  return [...format.regions.map((r) => r.payload), ...(format.channels ? [format.channels.callPayload] : [])].flatMap(jsonCallsIn);
}

/** Run-time check of one entry: a known kind, known keys, an evidence URL. */
function check(format: FormatDescription, t: Tolerance): void {
  const raw = t as unknown as Record<string, unknown>;
  const kind = raw["kind"];
  if (typeof kind !== "string" || !Object.hasOwn(KEYS, kind)) {
    throw new ChatwireError("invalid_format", `${format.id}: unknown tolerance kind ${JSON.stringify(kind)} (known: ${Object.keys(KEYS).join(", ")})`);
  }
  const allowed = new Set<string>(KEYS[kind as Kind] as readonly string[]);
  for (const key of Object.keys(raw)) {
    if (key !== "kind" && !allowed.has(key)) throw invalid(format, t, `unknown key ${JSON.stringify(key)}`);
  }
  const evidence = raw["evidence"];
  if (typeof evidence !== "string" || !/^https:\/\/\S+$/.test(evidence)) throw invalid(format, t, '"evidence" must be the https URL of a real completion');
}

function invalid(format: FormatDescription, t: Tolerance, why: string): ChatwireError {
  return new ChatwireError("invalid_format", `${format.id}: tolerance ${JSON.stringify(t.kind)}: ${why}`);
}
