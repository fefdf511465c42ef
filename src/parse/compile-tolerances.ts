/**
 * Compiles a family's `tolerate` entries (language.ts, `Tolerance`) into what the engine and the
 * decoders consult. One entry of `COMPILE` per repair kind, typed over `Tolerance["kind"]`, so a kind
 * added to the language without its compiler is a compile error (as the payload kinds are). The
 * entries are also checked at run time: a description is plain data, and may come from a caller.
 */
import { ChatwireError } from "../errors.js";
import type { CompiledRegion } from "./compile-format.js";
import type { DecoderFactory } from "./decoder.js";
import { closedBareCall, heldCall } from "./decoders/bare-call.js";
import { dispatchByFirstChar } from "./decoders/dispatch.js";
import { callStarts } from "./decoders/pythonic.js";
import { repairing } from "./decoders/repairing.js";
import { wrapperTag } from "./decoders/wrapper-tag.js";
import { pythonLiteralCall } from "./decoders/python-literal-call.js";
import type { FormatDescription, Payload, Tolerance } from "./language.js";
import { literalDialect } from "./literal/dialects.js";
import type { LiteralDialect } from "./literal/dialects.js";
import { compilePattern, matchWhole } from "./patterns.js";
import type { CompiledPattern } from "./patterns.js";
import { UNTYPED_JSON, UNTYPED_STRING } from "./coerce.js";
import type { ValueType } from "./coerce.js";
import type { RepairKind } from "../types.js";

/** compile-format.ts's payload compiler (passed in: that file compiles the tolerances). */
export type PayloadCompiler = (payload: Payload) => DecoderFactory;

type JsonCallsPayload = Extract<Payload, { kind: "json-calls" }>;

type Kind = Tolerance["kind"];
type Of<K extends Kind> = Extract<Tolerance, { kind: K }>;

/**
 * A marker that, right after a valid call of a region (whitespace between), is read as part of that
 * call: the closer of an opener the model left out (`stray-closer`), a fence's closing line (`fence`).
 */
export interface StrayCloser {
  closer: string;
  repair: RepairKind;
  /** The repair's message. */
  message: string;
  /** Only when the closer ends its line or the output (`fence-closer`: "```python" opens a code block). */
  lineEnd?: boolean;
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
  /** Keys of a protocol envelope that say nothing about the call (JSON-RPC's `jsonrpc`). */
  envelopeKeys?: readonly string[];
}

/**
 * A whole completion that is exactly one call, the family's markers missing (`bare-call`): read from
 * one of `starts` at the start of the output by `decoder`, the family's own reader of that call syntax
 * (self-closing there); `message` is the repair's, naming the markers the model left out.
 */
export interface BareCall {
  decoder: DecoderFactory;
  starts: readonly string[];
  message: string;
}

/** What the engine and the decoders consult; empty for a family that tolerates nothing. */
export interface CompiledTolerances {
  /** The stray closers that may follow a call of a region with these start markers. */
  strayClosers(regionStart: readonly string[]): readonly StrayCloser[];
  /** A tagged value whose open tag `open` is missing may be read up to its close tag. */
  missingValueOpener(open: string): boolean;
  /** The decoder of a region with these start markers, given its own (`other-syntax` may wrap it). */
  decoder(regionStart: readonly string[], own: DecoderFactory): DecoderFactory;
  /**
   * Regions the tolerances add, given the family's own (compiled): a fenced call in place of the
   * markers, and a fenced variant of a region (`fence` with `around`).
   */
  regions(own: readonly CompiledRegion[]): CompiledRegion[];
  /** JSON call object key aliases; undefined: the family tolerates none. */
  keyAliases: KeyAliases | undefined;
  /** Whole-completion bare calls; undefined: not tolerated. */
  bareCall: BareCall | undefined;
  /** Keys of a JSON object whose list value holds the calls (`wrapper-key`); empty: none. */
  wrapperKeys: readonly string[];
  // ---- wild-markup: the markup repairs (misspelled closers, missing tag pieces, tag aliases) ----
  /** Misspellings of the end marker of a region with these start markers (`misspelled-closer`). */
  misspelledClosers(regionStart: readonly string[]): readonly StrayCloser[];
  /** What a literal call may write instead of its name prefix `prefix` ("": nothing; `missing-name-prefix`). */
  missingNamePrefix(prefix: string): readonly string[];
  /** A tagged call's first key open tag `open` may be missing, the key run into the name (`missing-key-opener`). */
  missingKeyOpener(open: string): boolean;
  /** Other argument lists of the family's calls in `dialect` (`argument-list`). */
  argumentLists(dialect: string): readonly OtherArgumentList[];
  /** A tagged open tag spelled as another family writes it (`tag-alias`); undefined: none. */
  tagAlias(tag: string): TagAlias | undefined;
  /** The literal starts of the aliased open tags (`<parameter name=`): they may follow a value's close tag. */
  tagAliasStarts: readonly string[];
  // --- padded-value (helper wild-more) ---
  /** A one-line tagged value padded with spaces or tabs on both sides is read without the padding. */
  paddedValues: boolean;
  // --- end padded-value ---
}

/** An argument list a literal call may be written in instead of its dialect's (`argument-list`). */
export interface OtherArgumentList {
  /** The dialect with this argument list (values as the dialect's own). */
  dialect: LiteralDialect;
  message: string;
}

/** What an aliased tag opens: a call (`name`) or a parameter (`key`, typed by `untyped` when set). */
export interface TagAlias {
  name?: string;
  key?: string;
  untyped?: readonly ValueType[];
  message: string;
}

/** The accumulator the kind compilers fill. */
interface Build {
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
  // wild-markup
  misspelled: Array<{ region: string; closer: StrayCloser }>;
  namePrefixes: Map<string, string[]>;
  keyOpeners: Set<string>;
  argumentLists: Array<{ dialect: string; list: OtherArgumentList }>;
  tagAliases: Array<{ call: readonly CompiledPattern[]; param: readonly CompiledPattern[]; typedBy: Of<"tag-alias">["typedBy"] }>;
  // --- padded-value (helper wild-more) ---
  paddedValues?: boolean;
  // --- end padded-value ---
  // wild-fix3
  /** Start markers that may be written twice (`repeated-opener`). */
  repeatedOpeners: string[];
  /** Regions that may be opened by their end marker, then a newline and `first` (`closer-as-opener`). */
  closerOpeners: Array<{ region: string; first: string }>;
  /** JSON call regions whose call object may be a Python literal (`python-literal`), with its arguments keys. */
  pythonLiterals: Array<{ region: string; argsKeys: readonly string[] }>;
}

const COMPILE: { [K in Kind]: (t: Of<K>, into: Build, format: FormatDescription, compile: PayloadCompiler) => void } = {
  "stray-closer"(t, into, format) {
    if (!format.regions.some((r) => r.start.includes(t.after))) {
      throw invalid(format, t, `"after" ${JSON.stringify(t.after)} is no region's start marker`);
    }
    if (t.closer.length === 0 || t.closer.some((c) => c === "")) throw invalid(format, t, '"closer" needs non-empty markers');
    for (const c of t.closer) {
      const message = `${JSON.stringify(c)} after a call written without ${JSON.stringify(t.missing)} read as the call's closer`;
      into.stray.push({ after: t.after, closer: { closer: c, repair: "stray-closer", message } });
    }
  },
  "missing-value-opener"(t, into, format) {
    if (!format.regions.some((r) => valueOpens(r.payload).includes(t.open))) {
      throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is no value open tag of the family's payloads`);
    }
    into.valueOpeners.add(t.open);
  },
  fence(t, into, format, compile) {
    if (t.open.length === 0 || t.open.some((o) => !o.startsWith("```"))) throw invalid(format, t, '"open" needs fence lines that start with ```');
    if ((t.payload === undefined) === (t.around === undefined)) throw invalid(format, t, 'needs exactly one of "payload" and "around"');
    if (t.anywhere !== undefined && (typeof t.anywhere !== "boolean" || t.payload === undefined)) throw invalid(format, t, '"anywhere" is a boolean, with "payload"');
    if (t.around !== undefined) {
      const around = t.around;
      if (!format.regions.some((r) => r.start.includes(around)) && !wrapperOpens(format).includes(around)) {
        throw invalid(format, t, `"around" ${JSON.stringify(around)} is no region's start marker`);
      }
      for (const open of t.open) {
        into.fenced.push({ open, around });
        into.stray.push({ after: `${open}\n${around}`, closer: { closer: "```", repair: "fence", message: `the closing \`\`\` of the ${open} fence around the call read as part of it` } });
      }
      return;
    }
    const decoder = compile(t.payload!);
    for (const open of t.open) {
      const message = `the ${open} fence around the call read as part of it`;
      if (t.anywhere === true) {
        // After text too: held until the fence closes, a call only if its whole body is calls.
        into.regions.push({ start: [`${open}\n`], end: ["```"], quietIfNotCall: true, decoder: heldCall(decoder, { repair: "fence", message, text: open }, "region") });
        continue;
      }
      into.regions.push({
        start: [`${open}\n`],
        end: ["```"],
        atStartOnly: true,
        quietIfNotCall: true,
        decoder: repairing(decoder, { repair: "fence", message, text: open }),
      });
    }
  },
  "other-syntax"(t, into, format, compile) {
    if (!format.regions.some((r) => r.start.includes(t.region))) throw invalid(format, t, `"region" ${JSON.stringify(t.region)} is no region's start marker`);
    if (t.when.length !== 1 || /\s/.test(t.when)) throw invalid(format, t, '"when" must be one non-space character');
    const message = `${t.region} holding a ${t.payload.kind} payload (the family's other syntax) read as a call`;
    into.others.push({ region: t.region, when: t.when, decoder: repairing(compile(t.payload), { repair: "other-syntax", message, text: t.region }) });
  },
  "key-alias"(t, into, format) {
    if (jsonCallPayloads(format).length === 0) throw invalid(format, t, "the family writes no JSON call objects");
    const keys = (name: string, v: readonly string[] | undefined): readonly string[] => {
      if (v !== undefined && (!Array.isArray(v) || v.some((k) => typeof k !== "string" || k === ""))) throw invalid(format, t, `"${name}" must be non-empty key names`);
      return v ?? [];
    };
    const nameKeys = keys("nameKeys", t.nameKeys);
    const argsKeys = keys("argsKeys", t.argsKeys);
    const envelopeKeys = keys("envelopeKeys", t.envelopeKeys);
    if (t.argsAsString !== undefined && typeof t.argsAsString !== "boolean") throw invalid(format, t, '"argsAsString" must be a boolean');
    if (nameKeys.length === 0 && argsKeys.length === 0 && envelopeKeys.length === 0 && t.argsAsString !== true) throw invalid(format, t, "names no alias");
    const prev = into.keyAliases;
    into.keyAliases = {
      nameKeys: [...(prev?.nameKeys ?? []), ...nameKeys],
      argsKeys: [...(prev?.argsKeys ?? []), ...argsKeys],
      argsAsString: (prev?.argsAsString ?? false) || t.argsAsString === true,
      envelopeKeys: [...(prev?.envelopeKeys ?? []), ...envelopeKeys],
    };
  },
  "wrapper-tag"(t, into, format, compile) {
    const found = jsonCallRegions(format);
    if (found.length === 0) throw invalid(format, t, "the family has no region of JSON call objects");
    if (!Array.isArray(t.tags) || t.tags.length === 0 || t.tags.some((p) => !Array.isArray(p) || p.length !== 2 || !p.every((m) => typeof m === "string" && /^<\S+>$/.test(m)))) {
      throw invalid(format, t, '"tags" must be [open, close] pairs of tags');
    }
    const calls = compile(found[0]!.payload);
    for (const pair of t.tags) into.wrapped.push({ start: [pair[0]], decoder: heldCall(wrapperTag(pair, t.tags, calls), undefined, "region") });
  },
  "wrapper-key"(t, into, format) {
    if (jsonCallPayloads(format).length === 0) throw invalid(format, t, "the family writes no JSON call objects");
    if (!Array.isArray(t.keys) || t.keys.length === 0 || t.keys.some((k) => typeof k !== "string" || k === "")) throw invalid(format, t, '"keys" must be non-empty key names');
    into.wrapperKeys.push(...t.keys);
  },
  "bare-call"(t, into, format, compile) {
    const p = t.payload;
    if (p !== undefined && p.kind !== "json-calls" && p.kind !== "literal-calls") throw invalid(format, t, '"payload" must be a json-calls or literal-calls payload');
    if (p === undefined || p.kind === "json-calls") {
      const found = jsonCallRegions(format);
      if (found.length === 0) throw invalid(format, t, "the family has no region of JSON call objects");
      // The markers left out: those of a region that is not itself a bare start (xLAM's `[`).
      const missing = JSON.stringify((found.find((f) => !f.atStart) ?? found[0]!).markers[0] ?? "");
      into.bareCall = { decoder: compile(p ?? found[0]!.payload), starts: ["{", "["], message: `a completion that is only JSON call objects, without ${missing}, read as calls` };
    } else {
      // Its own call syntax: a literal-calls payload of one of the family's regions (same dialect and name prefix).
      const own = format.regions.filter((r) => leafPayloads(r.payload).some((q) => q.kind === "literal-calls" && q.dialect === p.dialect && (q.namePrefix ?? "") === (p.namePrefix ?? "")));
      if (own.length === 0) throw invalid(format, t, `the family writes no ${p.dialect} calls of that syntax`);
      const missing = [...new Set(own.flatMap((r) => r.start))].map((m) => JSON.stringify(m)).join(" or ");
      into.bareCall = { decoder: compile(p), starts: callStarts(p.namePrefix ?? ""), message: `a completion that is only a ${p.dialect} call, without ${missing}, read as a call` };
    }
    // A family whose output may already start with such a call reads it itself (llama3-json's `{`,
    // xLAM's `[`): the bare call starts only where the family's own regions do not.
    const own = (b: string): boolean => format.regions.some((r) => r.atStartOnly === true && r.start.some((m) => m.trimStart().startsWith(b)));
    const starts = into.bareCall.starts.filter((b) => !own(b));
    if (starts.length === 0) throw invalid(format, t, "the family already reads a call at the start of the output");
    into.bareCall = { ...into.bareCall, starts };
  },
  // ---- wild-markup: the markup repairs ----
  "misspelled-closer"(t, into, format) {
    const region = format.regions.find((r) => r.start.includes(t.region));
    if (region === undefined) throw invalid(format, t, `"region" ${JSON.stringify(t.region)} is no region's start marker`);
    if (region.end === undefined || region.end.length === 0) throw invalid(format, t, "the region has no end marker to misspell");
    if (t.closer.length === 0 || t.closer.some((c) => c === "" || region.end!.includes(c))) throw invalid(format, t, '"closer" needs non-empty markers other than the region\'s own');
    for (const c of t.closer) {
      const message = `${JSON.stringify(c)} read as the region's end marker ${JSON.stringify(region.end[0])}`;
      into.misspelled.push({ region: t.region, closer: { closer: c, repair: "misspelled-closer", message } });
    }
  },
  "missing-name-prefix"(t, into, format) {
    if (t.prefix === "" || !allPayloads(format).some((p) => p.kind === "literal-calls" && p.namePrefix === t.prefix)) {
      throw invalid(format, t, `"prefix" ${JSON.stringify(t.prefix)} is no name prefix of the family's literal calls`);
    }
    const instead = t.instead ?? [""];
    if (instead.length === 0 || instead.some((x) => typeof x !== "string" || x === t.prefix || (x !== "" && !t.prefix.endsWith(x)))) {
      throw invalid(format, t, '"instead" must be what is left of the prefix: "" or a shorter end of it');
    }
    into.namePrefixes.set(t.prefix, [...(into.namePrefixes.get(t.prefix) ?? []), ...instead]);
  },
  "missing-key-opener"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "tagged" && p.call === undefined && "key" in p.params && p.params.key.open === t.open)) {
      throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is no key open tag of a call named by its leading text`);
    }
    into.keyOpeners.add(t.open);
  },
  "argument-list"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "literal-calls" && p.dialect === t.dialect)) throw invalid(format, t, `the family writes no ${t.dialect} calls`);
    const d = literalDialect(t.dialect);
    const own = d.args!;
    if ([t.open, t.close, ...t.assign].some((c) => c.length !== 1) || t.assign.length === 0) throw invalid(format, t, '"open", "close" and each "assign" must be one character');
    if (t.open === own.open) throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is the dialect's own`);
    const dialect: LiteralDialect = { ...d, name: `${d.name} with ${t.open}${t.close}`, args: { ...own, open: t.open, close: t.close, assign: t.assign[0]!, ...(t.assign.length > 1 ? { assignAlso: t.assign.slice(1) } : {}) } };
    const message = `arguments written in ${t.open}${t.close} instead of ${own.open}${own.close} read as the call's argument list`;
    into.argumentLists.push({ dialect: t.dialect, list: { dialect, message } });
  },
  "tag-alias"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "tagged")) throw invalid(format, t, "the family writes no tagged calls");
    const patterns = (name: string, list: readonly string[], hole: string): CompiledPattern[] => {
      const out = list.map(compilePattern);
      if (out.some((p) => !p.holes.includes(hole))) throw invalid(format, t, `"${name}" patterns need a {${hole}} hole`);
      return out;
    };
    if (t.call.length + t.param.length === 0) throw invalid(format, t, "names no tag");
    into.tagAliases.push({ call: patterns("call", t.call, "name"), param: patterns("param", t.param, "key"), typedBy: t.typedBy });
  },
  // ---- wild-fix3: region markers repeated, swapped or foreign ----
  "foreign-closer"(t, into, format) {
    const end = endOf(format, t, t.region);
    if (t.closer.length === 0 || t.closer.some((c) => c === "" || end.includes(c))) throw invalid(format, t, '"closer" needs non-empty markers other than the region\'s own');
    for (const c of t.closer) {
      const message = `${JSON.stringify(c)} (another protocol's token) read as the region's end marker ${JSON.stringify(end[0])}`;
      into.misspelled.push({ region: t.region, closer: { closer: c, repair: "foreign-closer", message } });
    }
  },
  "repeated-closer"(t, into, format) {
    for (const c of endOf(format, t, t.region)) {
      const message = `${JSON.stringify(c)} written again after the call's own read as part of it`;
      into.stray.push({ after: t.region, closer: { closer: c, repair: "repeated-closer", message } });
    }
  },
  "repeated-opener"(t, into, format) {
    const region = format.regions.find((r) => r.start.includes(t.region));
    if (region === undefined) throw invalid(format, t, `"region" ${JSON.stringify(t.region)} is no region's start marker`);
    if (region.startInPayload !== undefined && region.startInPayload !== false) throw invalid(format, t, "the region's start marker is part of its payload");
    into.repeatedOpeners.push(t.region);
  },
  "closer-as-opener"(t, into, format) {
    endOf(format, t, t.region);
    if (t.first.length !== 1 || /\s/.test(t.first)) throw invalid(format, t, '"first" must be one non-space character');
    into.closerOpeners.push({ region: t.region, first: t.first });
  },
  "python-literal"(t, into, format) {
    const region = format.regions.find((r) => r.start.includes(t.region));
    if (region === undefined) throw invalid(format, t, `"region" ${JSON.stringify(t.region)} is no region's start marker`);
    const json = jsonCallsIn(region.payload);
    if (json.length === 0 || region.payload.kind !== "json-calls") throw invalid(format, t, "the region holds no JSON call objects");
    if (region.end === undefined || region.end.length === 0) throw invalid(format, t, "the region has no end marker");
    into.pythonLiterals.push({ region: t.region, argsKeys: json[0]!.argsKeys ?? ["arguments"] });
  },
  "fence-closer"(t, into, format) {
    if (!format.regions.some((r) => r.start.includes(t.after))) throw invalid(format, t, `"after" ${JSON.stringify(t.after)} is no region's start marker`);
    into.stray.push({ after: t.after, closer: { closer: "```", repair: "fence-closer", message: "a lone ``` after the call (its opening fence never written) read as part of it", lineEnd: true } });
  },

  // --- padded-value (helper wild-more) ---
  "padded-value"(t, into, format) {
    const payloads = [...format.regions.map((r) => r.payload), ...(format.channels ? [format.channels.callPayload] : [])].flatMap(leafPayloads);
    if (!payloads.some((p) => p.kind === "tagged")) throw invalid(format, t, "the family writes no tagged values");
    into.paddedValues = true;
  },
  // --- end padded-value ---
  // --- stack-syntax (helper wild-more) ---
  "stack-syntax"(t, into, format, compile) {
    if (typeof t.start !== "string" || t.start.trim() === "" || typeof t.end !== "string" || t.end.trim() === "") throw invalid(format, t, '"start" and "end" must be non-empty markers');
    if (format.regions.some((r) => r.start.includes(t.start))) throw invalid(format, t, `"start" ${JSON.stringify(t.start)} is already one of the family's own markers`);
    const message = `a call in the serving stack's prompted syntax ${t.start}...${t.end} read as a call`;
    into.regions.push({
      start: [t.start],
      end: [t.end],
      quietIfNotCall: true,
      outsideReasoning: true,
      decoder: repairing(compile(t.payload), { repair: "stack-syntax", message, text: `${t.start}…${t.end}` }),
    });
  },
  // --- end stack-syntax ---
  // --- missing-opener (helper wild-more) ---
  "missing-opener"(t, into, format, compile) {
    const region = format.regions.find((r) => r.start.includes(t.opener));
    if (region === undefined || region.end === undefined || region.end.length === 0) throw invalid(format, t, `"opener" ${JSON.stringify(t.opener)} is no start marker of a region with an end marker`);
    const payload = jsonCallsIn(region.payload)[0];
    if (payload === undefined) throw invalid(format, t, "the region holds no JSON call objects");
    const closer = region.end[0]!;
    const message = `${JSON.stringify(closer)} after a JSON call object written without ${JSON.stringify(t.opener)} read as the call's closer`;
    into.regions.push({
      start: ["\n{"],
      startInPayload: 1,
      end: region.end,
      quietIfNotCall: true,
      outsideReasoning: true,
      notAtStart: true,
      decoder: closedBareCall(compile(payload), { message, text: closer }),
    });
  },
  // --- end missing-opener ---
};

/** The keys each kind may have (besides `kind`): a misspelt key is rejected by name, not ignored. */
const KEYS: { [K in Kind]: ReadonlyArray<Exclude<keyof Of<K>, "kind">> } = {
  "stray-closer": ["after", "closer", "missing", "evidence"],
  "missing-value-opener": ["open", "evidence"],
  fence: ["open", "payload", "around", "anywhere", "evidence"],
  "other-syntax": ["region", "when", "payload", "evidence"],
  "key-alias": ["nameKeys", "argsKeys", "argsAsString", "envelopeKeys", "evidence"],
  "wrapper-tag": ["tags", "evidence"],
  "wrapper-key": ["keys", "evidence"],
  "bare-call": ["payload", "evidence"],
  "misspelled-closer": ["region", "closer", "evidence"],
  "missing-name-prefix": ["prefix", "instead", "evidence"],
  "missing-key-opener": ["open", "evidence"],
  "argument-list": ["dialect", "open", "close", "assign", "evidence"],
  "tag-alias": ["call", "param", "typedBy", "evidence"],
  // --- padded-value (helper wild-more) ---
  "padded-value": ["evidence"],
  // --- end padded-value ---
  // --- stack-syntax (helper wild-more) ---
  "stack-syntax": ["start", "end", "payload", "evidence"],
  // --- end stack-syntax ---
  // --- missing-opener (helper wild-more) ---
  "missing-opener": ["opener", "evidence"],
  // --- end missing-opener ---
  // wild-fix3
  "foreign-closer": ["region", "closer", "evidence"],
  "repeated-closer": ["region", "evidence"],
  "repeated-opener": ["region", "evidence"],
  "closer-as-opener": ["region", "first", "evidence"],
  "fence-closer": ["after", "evidence"],
  "python-literal": ["region", "evidence"],
};

/** A family that tolerates nothing (tests build one tolerance on it). */
export const NO_TOLERANCES: CompiledTolerances = {
  strayClosers: () => [],
  missingValueOpener: () => false,
  decoder: (_start, own) => own,
  regions: () => [],
  keyAliases: undefined,
  bareCall: undefined,
  wrapperKeys: [],
  misspelledClosers: () => [],
  missingNamePrefix: () => [],
  missingKeyOpener: () => false,
  argumentLists: () => [],
  tagAlias: () => undefined,
  tagAliasStarts: [],
  // --- padded-value (helper wild-more) ---
  paddedValues: false,
  // --- end padded-value ---
};

const compiled = new WeakMap<FormatDescription, CompiledTolerances>();

/** The compiled tolerances of a description (cached per description object). */
export function compileTolerances(format: FormatDescription, compile: PayloadCompiler): CompiledTolerances {
  const hit = compiled.get(format);
  if (hit) return hit;
  const list = format.tolerate ?? [];
  const into: Build = { stray: [], valueOpeners: new Set(), others: [], regions: [], wrapped: [], fenced: [], wrapperKeys: [], misspelled: [], namePrefixes: new Map(), keyOpeners: new Set(), argumentLists: [], tagAliases: [], repeatedOpeners: [], closerOpeners: [], pythonLiterals: [] };
  for (const t of list) {
    check(format, t);
    (COMPILE[t.kind] as (t: Tolerance, into: Build, format: FormatDescription, compile: PayloadCompiler) => void)(t, into, format, compile);
  }
  const out = list.length === 0 ? NO_TOLERANCES : finish(into);
  compiled.set(format, out);
  return out;
}

function finish(into: Build): CompiledTolerances {
  const byStart = new Map<readonly string[], readonly StrayCloser[]>();
  return {
    keyAliases: into.keyAliases,
    bareCall: into.bareCall,
    // --- padded-value (helper wild-more) ---
    paddedValues: into.paddedValues === true,
    // --- end padded-value ---
    wrapperKeys: into.wrapperKeys,
    strayClosers(regionStart) {
      let hit = byStart.get(regionStart);
      if (hit === undefined) {
        hit = into.stray.filter((s) => regionStart.includes(s.after)).map((s) => s.closer);
        byStart.set(regionStart, hit);
      }
      return hit;
    },
    missingValueOpener: (open) => into.valueOpeners.has(open),
    decoder(regionStart, own) {
      // wild-fix3: a call object written as a Python literal, read when the JSON reading fails.
      const literal = into.pythonLiterals.find((p) => regionStart.includes(p.region));
      const base = literal === undefined ? own : pythonLiteralCall(own, literal.argsKeys, `a call object written as a Python literal (strings in '...') read as the call`);
      const others = into.others.filter((o) => regionStart.includes(o.region));
      if (others.length === 0) return base;
      const byFirst = new Map(others.map((o) => [o.when, o.decoder]));
      return dispatchByFirstChar((first) => byFirst.get(first) ?? base);
    },
    regions(own) {
      const wrappable = [...own, ...into.wrapped];
      return [
        ...into.regions,
        ...into.wrapped,
        ...into.fenced.flatMap(({ open, around }) => wrappable.filter((r) => r.start.includes(around)).map((r) => fencedRegion(r, open, around))),
        // wild-fix3
        ...into.repeatedOpeners.flatMap((m) => own.filter((r) => r.start.includes(m)).map((r) => repeatedOpenerRegion(r, m))),
        ...into.closerOpeners.flatMap(({ region, first }) => own.filter((r) => r.start.includes(region)).map((r) => closerOpenerRegion(r, first))),
      ];
    },
    // wild-markup
    misspelledClosers: (regionStart) => into.misspelled.filter((m) => regionStart.includes(m.region)).map((m) => m.closer),
    missingNamePrefix: (prefix) => into.namePrefixes.get(prefix) ?? [],
    missingKeyOpener: (open) => into.keyOpeners.has(open),
    argumentLists: (dialect) => into.argumentLists.filter((a) => a.dialect === dialect).map((a) => a.list),
    tagAlias: (tag) => tagAliasOf(into.tagAliases, tag),
    tagAliasStarts: [...new Set(into.tagAliases.flatMap((a) => [...a.call, ...a.param].map((p) => literalStart(p.source))))],
  };
}

/** A pattern's literal text before its first hole, quote, optional part or escape (`<parameter name=`). */
function literalStart(source: string): string {
  const cut = source.search(/[{["\\]/);
  return cut < 0 ? source : source.slice(0, cut);
}

/** The first alias pattern a complete open tag matches: a call's open tag, or a parameter's. */
function tagAliasOf(aliases: Build["tagAliases"], tag: string): TagAlias | undefined {
  if (aliases.length === 0 || tag.trim() !== tag) return undefined;
  for (const a of aliases) {
    const name = matchWhole(a.call, tag)?.["name"];
    if (name !== undefined && name !== "") return { name, message: `the call's open tag ${JSON.stringify(tag)} (another family's spelling) read as the family's` };
    const m = matchWhole(a.param, tag);
    const key = m?.["key"]?.trim();
    if (m === undefined || key === undefined || key === "") continue;
    const message = `the parameter's open tag ${JSON.stringify(tag)} (another family's spelling) read as the family's`;
    const by = a.typedBy === undefined ? undefined : m[a.typedBy.hole];
    if (by === undefined) return { key, message };
    if (a.typedBy!.json.includes(by)) return { key, untyped: UNTYPED_JSON, message };
    if (a.typedBy!.string.includes(by)) return { key, untyped: UNTYPED_STRING, message };
  }
  return undefined;
}

/** Every payload of the family's regions and channel calls, through the choices (leafPayloads). */
function allPayloads(format: FormatDescription): Payload[] {
  return [...format.regions.map((r) => r.payload), ...(format.channels ? [format.channels.callPayload] : [])].flatMap(leafPayloads);
}

/**
 * `region` opened by `around` with the fence line `open` before it: the fence line is part of its start
 * marker (so it is held only as a marker prefix is), and reported once the call validates.
 */
function fencedRegion(region: CompiledRegion, open: string, around: string): CompiledRegion {
  const inPayload = region.startInPayload;
  const out: CompiledRegion = {
    ...region,
    start: [`${open}\n${around}`],
    decoder: repairing(region.decoder, { repair: "fence", message: `the ${open} fence around the call read as part of it`, text: open }),
  };
  // The payload part of the start marker is still the original marker's (or its last N characters).
  if (inPayload === true) out.startInPayload = around.length;
  return out;
}

// ---- wild-fix3: region markers repeated, swapped or foreign ----

/** The end markers of the family's region opened by `start` (the tolerance is invalid without them). */
function endOf(format: FormatDescription, t: Tolerance, start: string): readonly string[] {
  const region = format.regions.find((r) => r.start.includes(start));
  if (region === undefined) throw invalid(format, t, `"region" ${JSON.stringify(start)} is no region's start marker`);
  if (region.end === undefined || region.end.length === 0) throw invalid(format, t, "the region has no end marker");
  return region.end;
}

/** `region` opened by its start marker `m` written twice: both are its start marker, the first reported. */
function repeatedOpenerRegion(region: CompiledRegion, m: string): CompiledRegion {
  return {
    ...region,
    start: [`${m}\n${m}`],
    decoder: repairing(region.decoder, { repair: "repeated-opener", message: `${JSON.stringify(m)} written twice read as one`, text: m }),
  };
}

/**
 * `region` opened by its end marker, a newline and the payload's first character `first` (that
 * character is payload): a call or text, never an error of its own (quiet), as the closer was text.
 */
function closerOpenerRegion(region: CompiledRegion, first: string): CompiledRegion {
  const closer = region.end![0]!;
  return {
    ...region,
    start: [`${closer}\n${first}`],
    startInPayload: first.length,
    quietIfNotCall: true,
    decoder: repairing(region.decoder, { repair: "closer-as-opener", message: `${JSON.stringify(closer)} before the call read as its start marker ${JSON.stringify(region.start[0])}`, text: closer }),
  };
}
// ---- end of the wild-fix3 block ----

/** The payloads a region's payload may hand its text to (through choices by first character, Python-or-JSON). */
function leafPayloads(p: Payload): Payload[] {
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
function valueOpens(p: Payload): string[] {
  return leafPayloads(p).flatMap((q) => (q.kind === "tagged" && "value" in q.params ? [q.params.value.open] : []));
}

/** The JSON call payloads of a region's payload. */
function jsonCallsIn(p: Payload): JsonCallsPayload[] {
  return leafPayloads(p).filter((q): q is JsonCallsPayload => q.kind === "json-calls");
}

/** The family's regions that hold JSON call objects, with their start markers. */
function jsonCallRegions(format: FormatDescription): Array<{ payload: JsonCallsPayload; markers: readonly string[]; atStart: boolean }> {
  return format.regions.flatMap((r) => jsonCallsIn(r.payload).map((payload) => ({ payload, markers: r.start, atStart: r.atStartOnly === true })));
}

/** The open tags of the family's `wrapper-tag` tolerances. */
function wrapperOpens(format: FormatDescription): string[] {
  return (format.tolerate ?? []).flatMap((t) => (t.kind === "wrapper-tag" && Array.isArray(t.tags) ? t.tags.map((p) => p[0]) : []));
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
