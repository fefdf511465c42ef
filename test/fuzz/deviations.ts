/**
 * The fuzzer's deviations (issue 18): for each tolerance kind of the format language, how to turn a
 * completion of the family into one that shows that deviation, from the tolerance's own data. The
 * table is typed over every kind, so a kind added to the language without a generator here is a
 * compile error. The generated text goes through the same checks as every fuzz case (no exception,
 * stream == one-shot, nothing lost), and a valid repaired call must name a declared tool: the checks
 * do not know which cases are deviations, so a repair must hold up on mutated and soup text too.
 */
import type { FormatDescription } from "../../src/formats/index.js";
import type { Payload, Tolerance } from "../../src/parse/language.js";

type Rand = () => number;
type Kind = Tolerance["kind"];
type Of<K extends Kind> = Extract<Tolerance, { kind: K }>;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** A completion `s` of the family (a fixture, or a payload piece), rewritten to show the deviation. */
type Deviate<K extends Kind> = (t: Of<K>, s: string, f: FormatDescription, r: Rand) => string;

/** Removes one occurrence of `what` (a random one), or returns undefined when there is none. */
function dropOne(s: string, what: string, r: Rand): string | undefined {
  const at: number[] = [];
  for (let i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) at.push(i);
  if (at.length === 0) return undefined;
  const i = pick(r, at);
  return s.slice(0, i) + s.slice(i + what.length);
}

/** A call to `get_weather` written in a payload's syntax (the fixtures' tools declare it). */
function callIn(p: Payload, r: Rand): string {
  const city = pick(r, ["w1", "Paris", 'w2\\"q']);
  switch (p.kind) {
    case "json-calls":
      return `{"name": "get_weather", "${p.argsKeys?.[0] ?? "arguments"}": {"city": "${city}"}}`;
    case "literal-calls":
      return `get_weather(city="${city}")`;
    default:
      return `get_weather ${city}`;
  }
}

const DEVIATIONS: { [K in Kind]: Deviate<K> } = {
  // The opener left out, its closer kept (or, when the text has no opener, a stray closer somewhere).
  "stray-closer": (t, s, _f, r) => dropOne(s, t.missing, r) ?? `${s}\n${pick(r, t.closer)}`,
  "missing-value-opener": (t, s, _f, r) => dropOne(s, t.open, r) ?? s,
  // A call (or the text) in a fence that opens the output, or (`around`) the text in a fence after a
  // sentence; sometimes with text after it.
  fence: (t, s, _f, r) => {
    const after = r() < 0.3 ? " w9" : "";
    if (t.payload === undefined) return `w5 said.\n${pick(r, t.open)}\n${s}\n\`\`\`${after}`;
    // `anywhere`: sometimes after a sentence, and sometimes a code block that is no call.
    const before = t.anywhere === true && r() < 0.5 ? "w5 said.\n\n" : "";
    const body = pick(r, [callIn(t.payload, r), callIn(t.payload, r), s, `${callIn(t.payload, r)}\nw6`, '{"w6": 1}']);
    return `${before}${pick(r, t.open)}\n${body}\n\`\`\`${after}`;
  },
  // The region holding a JSON call object.
  "other-syntax": (t, s, f, r) => {
    const end = f.regions.find((x) => x.start.includes(t.region))?.end?.[0] ?? "";
    const body = pick(r, ['{"name": "get_weather", "arguments": {"city": "w7"}}', '{"name": "f", "parameters": {}}', s]);
    return `${t.region}${body}${end}`;
  },
  // The JSON kinds' deviations are made by harness.ts itself (alias and string-argument pieces in the
  // soup, whole answers that are a bare JSON call), for every family, tolerant or not.
  "key-alias": (_t, s) => s,
  // Tags the format does not have around a JSON call (nested, as the evidence writes them), after a
  // sentence or not; sometimes not closed, or closed in the wrong order, or around prose.
  "wrapper-tag": (t, s, _f, r) => {
    const call = callIn({ kind: "json-calls" }, r);
    const outer = pick(r, t.tags);
    const inner = pick(r, t.tags);
    const body = pick(r, [call, call, s, "w6 w7"]);
    const nested = r() < 0.5 ? `${outer[0]}\n  ${inner[0]}\n    ${body}\n  ${inner[1]}\n${outer[1]}` : `${outer[0]}\n${body}\n${outer[1]}`;
    const cut = r() < 0.15 ? nested.slice(0, Math.floor(r() * nested.length)) : nested;
    return pick(r, [cut, cut, `w5 said.\n${cut}`, `${cut}\nw9`, `${outer[0]}${call}${inner[1]}`]);
  },
  // The calls as the list (or the call as the object) of a wrapper object, the whole answer; some broken.
  "wrapper-key": (t, s, _f, r) => {
    const key = pick(r, t.keys);
    const call = callIn({ kind: "json-calls" }, r);
    return pick(r, [`{"${key}": [${call}]}`, `{"type": "function", "${key}": ${call}}`, `{"${key}": ${call}`, `{\n  "${key}": [\n    ${call},\n    ${call}\n  ]\n}`, `{"${key}": []}`, `{"${key}": [${call}], "w6": 1}`, `{"${key}": ${call}}`, `{"${key}": [${call}]`, s]);
  },
  // ---- the markup repairs ----
  // The region's end marker misspelled (or a region closed by the misspelling after text).
  "misspelled-closer": (t, s, f, r) => {
    const end = regionEnd(f, t.region);
    const closer = pick(r, t.closer);
    return end !== "" && s.includes(end) ? s.replace(end, closer) : `${t.region}${s}${closer}`;
  },
  // The prefix left out, or shortened to what `instead` lists.
  "missing-name-prefix": (t, s, _f, r) => {
    const i = s.indexOf(t.prefix);
    return i < 0 ? s : s.slice(0, i) + pick(r, t.instead ?? [""]) + s.slice(i + t.prefix.length);
  },
  // The first key opener left out, with the whitespace before it: the key runs into the name.
  "missing-key-opener": (t, s) => s.replace(new RegExp(`\\s*${t.open.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`), ""),
  // A call whose argument list is written in the other brackets, with either separator and either quote.
  "argument-list": (t, s, f, r) => {
    const region = f.regions.find((x) => x.payload.kind === "literal-calls" && x.payload.dialect === t.dialect);
    if (region === undefined || region.payload.kind !== "literal-calls") return s;
    const prefix = region.payload.namePrefix ?? "";
    const q = pick(r, ['"', '<|"|>', "<escape>"]);
    const args = pick(r, [`city${pick(r, t.assign)}${q}w1${q}`, `city${pick(r, t.assign)}${q}w1${q}, unit${pick(r, t.assign)}${q}w2${q}`, ""]);
    const call = `${prefix}get_weather${t.open}${args}${t.close}`;
    return pick(r, [`${region.start[0]}${call}${region.end?.[0] ?? ""}`, `${region.start[0]}${call}`, `w3 ${region.start[0]}${call}${region.end?.[0] ?? ""} w4`, s]);
  },
  // A call whose tags are the aliases, closed by the family's own close tags.
  "tag-alias": (t, s, f, r) => {
    const p = taggedPayload(f);
    const region = f.regions[0]!;
    if (p === undefined || p.call === undefined || "key" in p.params || t.call.length === 0 || t.param.length === 0) return s;
    const open = fill(pick(r, t.call), { name: pick(r, ["get_weather", "w5"]) });
    const param = fill(pick(r, t.param), { key: "city", string: pick(r, ["true", "false", "x"]) });
    const call = `${open}\n${param}${pick(r, ["Paris", "w6 w7"])}${p.params.close}\n${p.call.close}`;
    return pick(r, [`${region.start[0]}\n${call}\n${region.end?.[0] ?? ""}`, `${region.start[0]}${call}`, s]);
  },
  // A bare call in the family's own call syntax (`payload`): the whole answer, or with text around it,
  // or two of them, or prose that starts like the tool's name.
  // ---- region markers repeated, swapped or foreign ----
  // The end marker replaced by the foreign token (or a region closed by it, text after it sometimes).
  "foreign-closer": (t, s, f, r) => {
    const end = regionEnd(f, t.region);
    const closer = pick(r, t.closer);
    return end !== "" && s.includes(end) ? s.replace(end, closer) : `${t.region}${s}${closer}${r() < 0.4 ? "\nw9" : ""}`;
  },
  // The end marker written twice (or once more after the text).
  "repeated-closer": (t, s, f, r) => {
    const end = regionEnd(f, t.region);
    return s.includes(end) ? s.replace(end, `${end}${pick(r, ["\n", "", " "])}${end}`) : `${s}\n${end}`;
  },
  "repeated-opener": (t, s, _f, r) => (s.includes(t.region) ? s.replace(t.region, `${t.region}\n${t.region}`) : `${t.region}\n${t.region}${r() < 0.5 ? "\n" : ""}${s}`),
  // A start marker written as the end marker (after a call or not).
  "closer-as-opener": (t, s, f, r) => {
    const end = regionEnd(f, t.region);
    const at = s.indexOf(t.region);
    if (at >= 0 && r() < 0.7) return `${s.slice(0, at)}${end}\n${s.slice(at + t.region.length).trimStart()}`;
    return `${r() < 0.5 ? s : ""}${end}\n${t.first}"name": "get_weather", "arguments": {"city": "w1"}}${end}`;
  },
  // A lone fence closer after the text, or a code block's opening fence.
  "fence-closer": (_t, s, _f, r) => `${s}\n${pick(r, ["```", "```\n", "```python\nw2\n```", "``` w3"])}`,
  // A call object with some strings in '...' (in the region, or the text's quotes swapped).
  "python-literal": (t, s, f, r) => {
    const end = regionEnd(f, t.region);
    const body = pick(r, [`{"arguments": {'city': 'w1'}, "name": 'get_weather'}`, `{'name': 'get_weather', 'arguments': {'city': "w2's"}}`, `{'name': 'w3', 'arguments': {}}`, `{'name': 'get_weather'}`]);
    return pick(r, [`${t.region}\n${body}\n${end}`, `${t.region}${body}`, s.replace(/"/g, "'")]);
  },
  "bare-call": (t, s, _f, r) => {
    if (t.payload === undefined) return s;
    const call = callIn(t.payload, r);
    return pick(r, [call, call, `\n${call}\n`, `${call} w8`, `w8 ${call}`, `${call}\n${call}`, call.slice(0, Math.floor(r() * call.length)), "get_weathering w8", s]);
  },
  // ---- the tagged value repair, the serving stack's syntax, the opener left out ----
  // A one-line value between tags, its newlines written as spaces (or one side only, which keeps them).
  "padded-value": (_t, s, _f, r) => {
    const pad = pick(r, [" ", "  ", "\t", " \n"]);
    const out = s.replace(/>\n([^\n<]+)\n</, (_m, v: string) => `>${pad}${v}${r() < 0.8 ? pad : ""}<`);
    return out === s ? `${s.replace(/>([^\n<]+)</, (_m, v: string) => `> ${v} <`)}` : out;
  },
  // The stack's block after the answer's text, inside reasoning, unclosed, or holding no call.
  "stack-syntax": (t, s, f, r) => {
    const call = r() < 0.8 ? callIn(t.payload, r) : s;
    const block = `${t.start}\n${call}\n${r() < 0.85 ? t.end : ""}`;
    const think = f.reasoning?.[0];
    return pick(r, [block, `w3 said.\n${block}`, `${block} w4`, think ? `${think.start[0]}${block}${think.end[0]}\n${block}` : block, `${t.start} w6 ${t.end}`]);
  },
  // The call object on its own line after text, with or without the closer, or text after the object.
  "missing-opener": (t, s, f, r) => {
    const region = f.regions.find((x) => x.start.includes(t.opener));
    const closer = region?.end?.[0] ?? "";
    const call = callIn({ kind: "json-calls" }, r);
    return pick(r, [`w2 \n${call}\n${closer}\n`, `w2\n${call}`, `w2\n${call} w3 ${closer}`, s.split(t.opener).join(""), `\n${call}${closer}`]);
  },
};

/** The end marker of the family's region opened by `start` ("" when it has none). */
function regionEnd(f: FormatDescription, start: string): string {
  return f.regions.find((x) => x.start.includes(start))?.end?.[0] ?? "";
}

/** A pattern (`<function name="{name}">`) filled in: optional parts dropped, holes given `values`. */
function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\[[^\]]*\]/g, "").replace(/\{(\w+)\}/g, (_m, hole: string) => values[hole] ?? "true");
}

/** The family's first tagged payload (its call and parameter close tags). */
function taggedPayload(f: FormatDescription): Extract<Payload, { kind: "tagged" }> | undefined {
  const leaves = (p: Payload): Payload[] => (p.kind === "by-first-char" ? [...Object.values(p.cases), p.otherwise].flatMap(leaves) : p.kind === "python-or-json" ? leaves(p.json) : [p]);
  return f.regions.flatMap((r) => leaves(r.payload)).find((p): p is Extract<Payload, { kind: "tagged" }> => p.kind === "tagged");
}

/** `s` rewritten to show one of the family's tolerated deviations (undefined: it tolerates none). */
export function deviate(f: FormatDescription, s: string, r: Rand): string | undefined {
  const list = f.tolerate ?? [];
  if (list.length === 0) return undefined;
  const t = pick(r, list);
  return (DEVIATIONS[t.kind] as Deviate<Kind>)(t, s, f, r);
}

/** The markers the family's tolerances read (stray closers, fence lines): soup pieces. */
export function deviationPieces(f: FormatDescription): string[] {
  return (f.tolerate ?? []).flatMap((t): string[] => {
    switch (t.kind) {
      case "stray-closer":
        return [...t.closer, t.missing];
      case "missing-value-opener":
        return [t.open];
      case "fence":
        return [...t.open.map((o) => `${o}\n${t.around ?? ""}`), "```"];
      case "other-syntax":
        return [t.region];
      case "wrapper-tag":
        return t.tags.flat();
      case "wrapper-key":
        return t.keys.map((k) => `{"${k}": [`);
      case "misspelled-closer":
        return [...t.closer];
      case "foreign-closer":
        return [...t.closer];
      case "repeated-closer":
      case "closer-as-opener":
        return [regionEnd(f, t.region)];
      case "repeated-opener":
        return [`${t.region}\n${t.region}`];
      case "fence-closer":
        return ["```", "```\n"];
      case "tag-alias":
        return [...t.call, ...t.param].map((x) => fill(x, { name: "get_weather", key: "city" }));
      default:
        return [];
    }
  });
}
