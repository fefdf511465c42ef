/**
 * Compiles a format description (plain data in the format language, language.ts) into what the engine
 * runs: each region's payload kind becomes a decoder factory, marker patterns become matchers
 * (patterns.ts), channel rules become a router. Compiled once per description object, after the
 * description is checked against the language (validate-format.ts).
 */
import { ChatwireError } from "../errors.js";
import { UNTYPED_JSON, UNTYPED_STRING } from "./coerce.js";
import type { ValueType } from "./coerce.js";
import type { DecoderFactory } from "./decoder.js";
import { compileTolerances } from "./compile-tolerances.js";
import type { CompiledTolerances, StrayCloser } from "./compile-tolerances.js";
import { bareCall } from "./decoders/bare-call.js";
import { dispatchByFirstChar } from "./decoders/dispatch.js";
import { headerArgs } from "./decoders/header-args.js";
import { jsonArgs } from "./decoders/json-args.js";
import { jsonCalls } from "./decoders/json-calls.js";
import { pythonTag } from "./decoders/python-tag.js";
import { callListDecoder } from "./decoders/pythonic.js";
import { pythonicOrJsonCalls } from "./decoders/pythonic-or-json.js";
import { literalDialect } from "./literal/dialects.js";
import { taggedDecoder } from "./decoders/tagged.js";
import { xmlCallsDecoder } from "./decoders/xml-calls.js";
import type { XmlCallsSyntax } from "./decoders/xml-calls.js";
import type { ParamOpen, TaggedSyntax } from "./decoders/tagged.js";
import type { ChannelRoute, ChannelRule, ChannelSpec, FormatDescription, Payload, RegionSpec, UntypedValues } from "./language.js";
import { onPayload, type PayloadOf, type PayloadTable } from "./payload-kinds.js";
import { compilePattern, matchWhole } from "./patterns.js";
import { validateFormat } from "./validate-format.js";
import type { CompiledPattern, Holes } from "./patterns.js";

/** A region as the engine runs it: the description's markers and its payload's decoder. */
export interface CompiledRegion extends Omit<RegionSpec, "payload"> {
  decoder: DecoderFactory;
  /** Misspellings of its end marker that also end it (in `end` too; a `misspelled-closer` repair). */
  misspelledEnds?: readonly StrayCloser[];
  /** Not opened inside reasoning (a `stack-syntax` tolerance's region). */
  outsideReasoning?: boolean;
  /** Not opened at the start of the output, where a bare call is read instead (a `missing-opener` region). */
  notAtStart?: boolean;
}

export interface CompiledChannels extends Omit<ChannelSpec, "headers" | "rules" | "otherwise" | "callPayload"> {
  /** The header text is one the format writes (one of its `headers` patterns, whole). */
  protocol(header: string): boolean;
  route(header: string): ChannelRoute;
  callDecoder: DecoderFactory;
}

export interface CompiledFormat extends Omit<FormatDescription, "regions" | "channels" | "tolerate"> {
  regions: readonly CompiledRegion[];
  channels?: CompiledChannels;
  /** The deviations the family tolerates (compile-tolerances.ts). */
  tolerances: CompiledTolerances;
}

const compiled = new WeakMap<FormatDescription, CompiledFormat>();

/**
 * The `bare-call` repair as a region: a call that starts the output (after reasoning, as llama3-json's
 * bare calls may) at one of the starts of its syntax (`{` or `[` for JSON call objects, a name's first
 * character for Python calls), read by the bare-call decoder, which hands everything back as content
 * unless the whole output is that call, naming an accepted tool.
 */
function bareCallRegion(tolerances: CompiledTolerances): CompiledRegion[] {
  const bare = tolerances.bareCall;
  if (bare === undefined) return [];
  return [{ start: bare.starts, startInPayload: true, atStartOnly: true, decoder: bareCall(bare.decoder, bare.message) }];
}

/** A region whose end marker the family may misspell (`misspelled-closer`): the misspellings end it too. */
function withMisspelledEnds(region: CompiledRegion, tolerances: CompiledTolerances): CompiledRegion {
  const misspelled = tolerances.misspelledClosers(region.start);
  if (misspelled.length === 0) return region;
  return { ...region, end: [...(region.end ?? []), ...misspelled.map((m) => m.closer)], misspelledEnds: misspelled };
}

/** The engine's form of a description (cached per description object). */
export function compileFormat(format: FormatDescription): CompiledFormat {
  const hit = compiled.get(format);
  if (hit) return hit;
  validateFormat(format);
  const { regions, channels, tolerate: _tolerate, ...rest } = format;
  const tolerances = compileTolerances(format, compilePayload);
  const out: CompiledFormat = {
    ...rest,
    regions: [],
    tolerances,
  };
  const own = regions.map(({ payload, ...region }) => withMisspelledEnds({ ...region, decoder: tolerances.decoder(region.start, compilePayload(payload)) }, tolerances));
  out.regions = [...own, ...tolerances.regions(own), ...bareCallRegion(tolerances)];
  if (channels !== undefined) out.channels = compileChannels(channels);
  compiled.set(format, out);
  return out;
}

const payloads = new WeakMap<Payload, DecoderFactory>();

/** The decoder factory for a payload kind. */
export function compilePayload(payload: Payload): DecoderFactory {
  const hit = payloads.get(payload);
  if (hit) return hit;
  const made = onPayload(DECODERS, payload);
  payloads.set(payload, made);
  return made;
}

/** The decoder factory of each payload kind. */
const DECODERS: PayloadTable<DecoderFactory> = {
  "json-calls": ({ kind: _k, ...opts }) => jsonCalls(opts),
  "json-args": ({ kind: _k, ...opts }) => jsonArgs(opts),
  "header-args": (p) => headerArgsPayload(p),
  tagged: (p) => taggedDecoder(taggedSyntax(p)),
  "xml-calls": (p) => {
    const head = p.call.head.map(compilePattern);
    const syntax: XmlCallsSyntax = {
      open: p.open,
      close: p.close,
      callElement: p.call.element,
      callName: (h) => matchWhole(head, h)?.["name"],
      params: p.params,
      itemTag: p.itemTag,
      untyped: untypedTypes(p.untyped),
    };
    if (p.jsonElement !== undefined) syntax.jsonElement = p.jsonElement;
    return xmlCallsDecoder(syntax);
  },
  "literal-calls": (p) =>
    callListDecoder({
      namePrefix: p.namePrefix ?? "",
      dialect: p.dialect,
      list: p.list ?? literalDialect(p.dialect).args?.open === "(",
      ...(p.sequence ? { sequence: true } : {}),
    }),
  "python-or-json": (p) => pythonicOrJsonCalls(compilePayload(p.json)),
  "python-tag": () => pythonTag(),
  "by-first-char": (p) => {
    const cases = new Map(Object.entries(p.cases).map(([c, q]) => [c, compilePayload(q)]));
    const otherwise = compilePayload(p.otherwise);
    return dispatchByFirstChar((first) => cases.get(first) ?? otherwise);
  },
};

function headerArgsPayload(p: PayloadOf<"header-args">): DecoderFactory {
  const patterns = p.header.map(compilePattern);
  const opts: Parameters<typeof headerArgs>[0] = {
    headerEnd: p.headerEnd,
    parseHeader(header) {
      const m = matchWhole(patterns, header);
      const name = m?.["name"];
      if (m === undefined || name === undefined || name === "") return undefined;
      const id = p.headerIsId ? header.trim() : m["id"];
      return id !== undefined ? { name, id } : { name };
    },
  };
  if (p.braceEndsHeader) opts.braceEndsHeader = true;
  if (p.fence) opts.fence = true;
  return headerArgs(opts);
}

function untypedTypes(u: UntypedValues): readonly ValueType[] {
  return u === "json" ? UNTYPED_JSON : UNTYPED_STRING;
}

/** The tagged decoder's syntax from the data: tag patterns become tag readers. */
function taggedSyntax(p: PayloadOf<"tagged">): TaggedSyntax {
  const untyped = untypedTypes(p.untyped);
  const syntax: TaggedSyntax = { paramOpen: () => undefined, paramClose: "", afterParam: [], untyped };
  let paramPrefix: string;
  if ("key" in p.params) {
    const kv = p.params;
    syntax.paramOpen = (tag) => (tag === kv.key.open ? {} : undefined);
    syntax.keyOpen = kv.key.open;
    syntax.keyClose = kv.key.close;
    syntax.valueOpen = kv.value.open;
    syntax.paramClose = kv.value.close;
    paramPrefix = kv.key.open;
  } else {
    const named = p.params;
    const open = named.open.map(compilePattern);
    paramPrefix = open[0]?.prefix ?? "";
    syntax.paramClose = named.close;
    syntax.paramOpen = (tag): ParamOpen | undefined => {
      const m = matchTag(open, tag);
      const key = m?.["key"]?.trim();
      if (key === undefined || key === "") return undefined;
      if (named.typedBy === undefined) return { key };
      const by = m?.[named.typedBy.hole];
      if (by === undefined) return { key };
      if (named.typedBy.json.includes(by)) return { key, untyped: UNTYPED_JSON };
      return named.typedBy.string.includes(by) ? { key, untyped: UNTYPED_STRING } : undefined;
    };
  }
  const afterParam = [paramPrefix];
  if (p.call !== undefined) {
    const call = p.call;
    const open = call.open.map(compilePattern);
    syntax.callOpen = (tag) => matchTag(open, tag)?.["name"];
    syntax.callClose = call.close;
    afterParam.push(call.close);
  }
  syntax.afterParam = p.afterParam ?? afterParam;
  if (p.afterParamNewline) syntax.afterParamNewline = true;
  if (p.implicitEnds) syntax.implicitEnds = p.implicitEnds;
  if (p.jsonBody) syntax.jsonBody = true;
  if (p.cdata) syntax.cdata = true;
  if (p.nameSep !== undefined) syntax.nameSep = p.nameSep;
  return syntax;
}

/** A complete tag (`<...>`) against tag patterns: exact, no surrounding text. */
function matchTag(patterns: readonly CompiledPattern[], tag: string): Holes | undefined {
  if (tag.trim() !== tag) return undefined;
  return matchWhole(patterns, tag);
}

function compileChannels(spec: ChannelSpec): CompiledChannels {
  const { headers, rules, otherwise, callPayload, ...markers } = spec;
  const compiledRules = rules.map((r) => compileRule(r));
  const grammar = headers.map(compilePattern);
  return {
    ...markers,
    callDecoder: compilePayload(callPayload),
    protocol: (header) => matchWhole(grammar, header) !== undefined,
    route(header: string): ChannelRoute {
      for (const rule of compiledRules) {
        const m = rule.match(header);
        if (m === undefined) continue;
        if (rule.to !== "call" && rule.to !== "calls") return { to: rule.to };
        const name = m["name"];
        if (name !== undefined && name !== "") return { to: rule.to, name };
      }
      return { to: otherwise };
    },
  };
}

function compileRule(rule: ChannelRule): { to: ChannelRule["to"]; match(header: string): Holes | undefined } {
  if ("find" in rule) {
    const p = compilePattern(rule.find);
    return { to: rule.to, match: (h) => p.find(h) };
  }
  if ("start" in rule) {
    const p = compilePattern(rule.start);
    return { to: rule.to, match: (h) => p.start(h) };
  }
  if ("whole" in rule) {
    if (rule.whole === "") return { to: rule.to, match: (h) => (h.trim() === "" ? {} : undefined) };
    const p = compilePattern(rule.whole);
    return { to: rule.to, match: (h) => p.whole(h) };
  }
  throw new ChatwireError("invalid_format", "a channel rule needs find, start or whole");
}
