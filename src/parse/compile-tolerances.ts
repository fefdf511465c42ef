/**
 * Compiles a family's `tolerate` entries (language.ts, `Tolerance`) into what the engine and the
 * decoders consult (tolerances/types.ts). One compiler per repair kind, in tables by what the repair
 * is about (tolerances/calls.ts, markers.ts, markup.ts), joined into `COMPILE`, typed over
 * `Tolerance["kind"]`, so a kind added to the language without its compiler is a compile error (as the
 * payload kinds are). The entries are also checked at run time: a description is plain data, and may
 * come from a caller.
 */
import { ChatwireError } from "../errors.js";
import { dispatchByFirstChar } from "./decoders/dispatch.js";
import { pythonLiteralCall } from "./decoders/python-literal-call.js";
import type { FormatDescription, Tolerance } from "./language.js";
import { matchWhole } from "./patterns.js";
import { UNTYPED_JSON, UNTYPED_STRING } from "./coerce.js";
import { invalid } from "./tolerances/build.js";
import type { Build, Kind, KindCompilers, Of, PayloadCompiler } from "./tolerances/build.js";
import { CALL_FORMS } from "./tolerances/calls.js";
import { REGION_MARKERS } from "./tolerances/markers.js";
import { CALL_MARKUP } from "./tolerances/markup.js";
import { closerOpenerRegion, fencedRegion, repeatedOpenerRegion } from "./tolerances/regions.js";
import type { CompiledTolerances, StrayCloser, TagAlias } from "./tolerances/types.js";

export type { PayloadCompiler } from "./tolerances/build.js";
export type { BareCall, CompiledTolerances, KeyAliases, OtherArgumentList, StrayCloser, TagAlias } from "./tolerances/types.js";

/** Every kind's compiler: a kind in none of the tables does not compile. */
const COMPILE: KindCompilers<Kind> = { ...CALL_FORMS, ...REGION_MARKERS, ...CALL_MARKUP };

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
  "padded-value": ["evidence"],
  "stack-syntax": ["start", "end", "payload", "evidence"],
  "missing-opener": ["opener", "evidence"],
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
  paddedValues: false,
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
    paddedValues: into.paddedValues === true,
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
      // `python-literal`: a call object written as a Python literal, read when the JSON reading fails.
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
        ...into.repeatedOpeners.flatMap((m) => own.filter((r) => r.start.includes(m)).map((r) => repeatedOpenerRegion(r, m))),
        ...into.closerOpeners.flatMap(({ region, first }) => own.filter((r) => r.start.includes(region)).map((r) => closerOpenerRegion(r, first))),
      ];
    },
    // the markup repairs
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

