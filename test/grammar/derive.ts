/**
 * What a sampled string means, read from its derivation tree and the grammar's captures (which rule is a
 * call, an arguments object, a parameter's value, reasoning, content), with value decoders of our own:
 * JSON.parse for JSON, a small Python literal reader for Python, and for raw (tagged) values either the
 * text itself (a string branch) or its JSON reading. None of this uses the parser under test.
 */
import type { Capture } from "../../src/grammar/gbnf.js";
import type { Node } from "./sampler.js";

export interface DerivedCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface Derived {
  calls: DerivedCall[];
  reasoning: string;
  content: string;
}

export function derive(text: string, tree: Node, captures: ReadonlyMap<string, Capture>): Derived {
  const out: Derived = { calls: [], reasoning: "", content: "" };
  let call: DerivedCall | undefined;
  const span = (n: Node) => text.slice(n.start, n.end);
  const walk = (n: Node): void => {
    const c = captures.get(n.rule);
    switch (c?.kind) {
      case "call":
        call = { name: c.name, arguments: {} };
        out.calls.push(call);
        n.children.forEach(walk);
        call = undefined;
        return;
      case "args":
        if (call === undefined) throw new Error(`arguments outside a call at ${n.start}`);
        call.arguments = (c.decode === "json" ? JSON.parse(span(n)) : c.decode === "gemma" ? readGemma(span(n), c.quote) : readPython(span(n))) as Record<string, unknown>;
        return;
      case "param": {
        if (call === undefined) throw new Error(`parameter outside a call at ${n.start}`);
        const raw = span(n);
        if (c.decode === "json") call.arguments[c.key] = JSON.parse(raw);
        else if (c.decode === "python") call.arguments[c.key] = readPython(raw);
        else call.arguments[c.key] = isRawString(n, captures) ? raw : JSON.parse(raw);
        return;
      }
      case "reasoning":
        out.reasoning += span(n);
        return;
      case "content":
        out.content += span(n);
        return;
      default:
        n.children.forEach(walk);
    }
  };
  walk(tree);
  return out;
}

/** The value's whole span is the raw-string rule (possibly through rules that only wrap it). */
function isRawString(n: Node, captures: ReadonlyMap<string, Capture>): boolean {
  for (let m: Node | undefined = n; m !== undefined; m = m.children.length === 1 ? m.children[0] : undefined) {
    if (m.start !== n.start || m.end !== n.end) return false;
    if (captures.get(m.rule)?.kind === "raw-string") return true;
  }
  return false;
}

/** A Python literal (str with the common escapes, int, float, True/False/None, list, dict) as JSON data. */
export function readPython(src: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < src.length && " \t\n\r".includes(src[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new Error(`python literal: ${what} at ${i} in ${JSON.stringify(src)}`);
  };
  const value = (): unknown => {
    ws();
    const c = src[i];
    if (c === "'" || c === '"') return string();
    if (c === "[") return seq("]");
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (src[i] === "}") return i++, obj;
      for (;;) {
        const k = value();
        if (typeof k !== "string") fail("non-string key");
        ws();
        if (src[i++] !== ":") fail("expected :");
        obj[k as string] = value();
        ws();
        const d = src[i++];
        if (d === "}") return obj;
        if (d !== ",") fail("expected , or }");
      }
    }
    for (const [word, v] of [["True", true], ["False", false], ["None", null]] as const) {
      if (src.startsWith(word, i)) return (i += word.length), v;
    }
    const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(src.slice(i));
    if (m === null) return fail("unexpected text");
    i += m[0].length;
    return Number(m[0]);
  };
  const seq = (close: string): unknown[] => {
    i++;
    const items: unknown[] = [];
    ws();
    if (src[i] === close) return i++, items;
    for (;;) {
      items.push(value());
      ws();
      const d = src[i++];
      if (d === close) return items;
      if (d !== ",") fail(`expected , or ${close}`);
    }
  };
  const string = (): string => {
    const q = src[i++]!;
    let s = "";
    for (;;) {
      const c = src[i++];
      if (c === undefined) fail("unterminated string");
      if (c === q) return s;
      if (c !== "\\") {
        s += c;
        continue;
      }
      const e = src[i++]!;
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\\": "\\", "'": "'", '"': '"' };
      if (e in simple) s += simple[e];
      else if (e === "x" || e === "u") {
        const n = e === "x" ? 2 : 4;
        const hex = src.slice(i, i + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail(`bad \\${e} escape`);
        s += String.fromCharCode(parseInt(hex, 16));
        i += n;
      } else fail(`escape \\${e} outside what the grammar allows`);
    }
  };
  const v = value();
  ws();
  if (i !== src.length) fail("trailing text");
  return v;
}

/** The Gemma family's argument syntax: `<|"|>raw text<|"|>` strings (FunctionGemma: `<escape>`), bare keys, numbers, true/false/null. */
export function readGemma(src: string, quote = '<|"|>'): unknown {
  const Q = quote;
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`gemma literal: ${what} at ${i} in ${JSON.stringify(src)}`);
  };
  const value = (): unknown => {
    if (src.startsWith(Q, i)) {
      const end = src.indexOf(Q, i + Q.length);
      if (end < 0) fail("unterminated string");
      const s = src.slice(i + Q.length, end);
      i = end + Q.length;
      return s;
    }
    const c = src[i];
    if (c === "[" || c === "{") {
      const close = c === "[" ? "]" : "}";
      i++;
      const arr: unknown[] = [];
      const obj: Record<string, unknown> = {};
      if (src[i] === close) return i++, c === "[" ? arr : obj;
      for (;;) {
        if (c === "{") {
          const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
          if (m === null) fail("expected a key");
          i += m![0].length;
          if (src[i++] !== ":") fail("expected :");
          obj[m![0]] = value();
        } else arr.push(value());
        const d = src[i++];
        if (d === close) return c === "[" ? arr : obj;
        if (d !== ",") fail(`expected , or ${close}`);
      }
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (src.startsWith(word, i)) return (i += word.length), v;
    }
    const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(src.slice(i));
    if (m === null) return fail("unexpected text");
    i += m[0].length;
    return Number(m[0]);
  };
  const v = value();
  if (i !== src.length) fail("trailing text");
  return v;
}
