/**
 * Free text that never contains any of some markers (a call start, the end of reasoning), optionally
 * never running more than a bounded number of whitespace characters in a row. GBNF has no "not this string", so the rules are the states of an automaton: an
 * Aho-Corasick automaton over the markers (one state per proper marker prefix; a move that would
 * complete a marker does not exist), times the length of the current whitespace run when runs are
 * bounded. Every state may end the text.
 *
 * What the model writes (free text, reasoning, string contents, raw values) is never bounded: a code
 * argument indented 30 spaces or a string of 40 spaces is the model's to write. The bound
 * (MAX_WHITESPACE) is for structural positions only: between JSON tokens and around calls.
 *
 * The same construction serves the inside of quoted strings (JSON, Python): there the alphabet is
 * restricted (`exclude`) and escape sequences (`atoms`) are extra steps that end any marker prefix.
 */
import { BoundedCache } from "../bounded-cache.js";
import { cls, lit, type GbnfBuilder } from "./gbnf.js";

/** Longest whitespace run a grammar allows in a structural position (between tokens, around calls). */
export const MAX_WHITESPACE = 20;

const WHITESPACE = [" ", "\t", "\n", "\r"];

interface State {
  next: Map<string, number>;
  fail: number;
  /** A marker ends here (itself or through its failure chain): the text may never reach it. */
  complete: boolean;
}

function automaton(markers: readonly string[]): State[] {
  const states: State[] = [{ next: new Map(), fail: 0, complete: false }];
  for (const marker of markers) {
    let s = 0;
    for (const ch of marker) {
      let t = states[s]!.next.get(ch);
      if (t === undefined) {
        t = states.length;
        states.push({ next: new Map(), fail: 0, complete: false });
        states[s]!.next.set(ch, t);
      }
      s = t;
    }
    states[s]!.complete = true;
  }
  // Breadth-first failure links, as in Aho-Corasick.
  const queue = [...states[0]!.next.values()];
  while (queue.length > 0) {
    const s = queue.shift() as number;
    for (const [ch, t] of states[s]!.next) {
      let f = states[s]!.fail;
      while (f !== 0 && !states[f]!.next.has(ch)) f = states[f]!.fail;
      const target = states[f]!.next.get(ch);
      states[t]!.fail = target !== undefined && target !== t ? target : 0;
      if (states[states[t]!.fail]!.complete) states[t]!.complete = true;
      queue.push(t);
    }
  }
  return states;
}

function step(states: State[], s: number, ch: string): number {
  for (let f = s; ; f = states[f]!.fail) {
    const t = states[f]!.next.get(ch);
    if (t !== undefined) return t;
    if (f === 0) return 0;
  }
}

export interface TextOptions {
  /**
   * Characters the text may never hold, as the inside of a GBNF character class (`"\\\\\\x00-\\x1f`):
   * the quote and backslash of a string. Whitespace and marker characters listed here are left out too.
   */
  exclude?: string;
  /** Which single characters `exclude` covers (to leave them out of marker and whitespace moves). */
  excluded?: (ch: string) => boolean;
  /** GBNF expressions that are one step of text and end any marker prefix (escape sequences). */
  atoms?: readonly string[];
  /** Longest whitespace run; absent: runs are not bounded (the text is what the model writes). */
  maxWhitespace?: number;
  /** What the whole text may not look like (a raw string that would read back as another type). */
  guard?: TextGuard;
  /**
   * The text may not start or end with a newline (a tagged value written right against its tags: the
   * parser strips one newline on each side, so an edge newline would be lost).
   */
  noEdgeNewlines?: boolean;
  /**
   * Markers that may follow the text: it may not end with a start of one that, with the marker
   * written after it, would be read as a marker there (`>` then functionary's `>>>`).
   */
  followedBy?: readonly string[];
}

/**
 * Texts that the parser would read as another type, for a raw string value in a union: the text,
 * without surrounding whitespace, may not equal one of `words` (`null`; `true`/`false` in any case), and
 * its first non-whitespace character may not be one of `firstNot` (a digit or sign for numbers, `{`
 * for objects, `[`/`(` for arrays).
 */
export interface TextGuard {
  words: readonly { text: string; caseless: boolean }[];
  firstNot: string;
}

/** The guard's automaton: "L" only whitespace so far, "F" free (anything goes), "T" a word then whitespace, "W:n:mask" the first n characters of the words in mask, undefined: dead. */
function guardStep(guard: TextGuard, g: string, ch: string): string | undefined {
  const ws = WHITESPACE.includes(ch);
  const matches = (wi: number, at: number) => {
    const w = guard.words[wi]!;
    return at < w.text.length && (w.caseless ? ch.toLowerCase() === w.text[at] : ch === w.text[at]);
  };
  if (g === "F") return "F";
  if (g === "L") {
    if (ws) return "L";
    if (guard.firstNot.includes(ch)) return undefined;
    let mask = 0;
    guard.words.forEach((_, wi) => { if (matches(wi, 0)) mask |= 1 << wi; });
    return mask === 0 ? "F" : `W:1:${mask}`;
  }
  if (g === "T") return ws ? "T" : "F";
  const [, n, m] = g.split(":").map(Number) as [number, number, number];
  if (ws) return guardAccepts(guard, g) ? "F" : "T";
  let mask = 0;
  guard.words.forEach((_, wi) => { if ((m & (1 << wi)) !== 0 && matches(wi, n)) mask |= 1 << wi; });
  return mask === 0 ? "F" : `W:${n + 1}:${mask}`;
}

function guardAccepts(guard: TextGuard, g: string): boolean {
  if (g === "T") return false;
  if (!g.startsWith("W:")) return true;
  const [, n, m] = g.split(":").map(Number) as [number, number, number];
  return !guard.words.some((w, wi) => (m & (1 << wi)) !== 0 && w.text.length === n);
}

/**
 * Adds the rules for text without `markers` (and with bounded whitespace runs) and returns the name of
 * the start rule.
 */
export function textWithout(builder: GbnfBuilder, hint: string, markers: readonly string[], options: TextOptions = {}): string {
  const rules = builtRules.get(rulesKey(hint, markers, options), () => textRules(hint, markers, options));
  const names = rules.map((r) => builder.reserve(r.hint));
  rules.forEach((r, k) => names[k]!.define(r.moves.map(([text, to]) => (to < 0 ? text : `${text}${names[to]!.name}`)).join(" | ").trimStart()));
  return names[0]!.name;
}

/**
 * One rule of the text's automaton, builder-free: its name hint and its moves, each some GBNF text and
 * the rule (its index in the list, -1 for none) it goes on to.
 */
interface TextRule {
  hint: string;
  moves: [string, number][];
}

/**
 * The rules by what decides them, so that a request's grammar does not build the same automaton again
 * (a new tool schema in every request built it for each: 0.4 MB of allocation a request, the most of
 * any step). Their keys come from formats (markers, fixed hints), not from requests, so a server
 * meets a few; bounded all the same, by entries and by the bytes an entry holds (rulesBytes).
 */
const builtRules = new BoundedCache<string, TextRule[]>(256, 4 << 20, (key, rules) => 2 * key.length + rulesBytes(rules));

/**
 * The heap a kept list of rules holds, estimated: two bytes a character, and V8's headers (a rule's
 * object and moves array; each move's pair, its string and the string it was sliced from). Measured,
 * heap after GC per entry kept: 0.7-1.0 of this estimate, 9-22 KB an entry; counting characters
 * alone (as before) took 4.5-5.5 bytes of heap for each, so its 4 M were some 20 MB.
 */
function rulesBytes(rules: readonly TextRule[]): number {
  let bytes = 0;
  for (const r of rules) {
    bytes += 96 + 2 * r.hint.length;
    for (const [text] of r.moves) bytes += 112 + 2 * text.length;
  }
  return bytes;
}

/**
 * What the rules depend on. `excluded` is a function: it is read only on whitespace, marker and guard
 * characters, so its answers on those stand for it.
 */
function rulesKey(hint: string, markers: readonly string[], options: TextOptions): string {
  const excluded = options.excluded;
  let mask = "";
  if (excluded !== undefined) {
    const chars = [...WHITESPACE, ...markers.flatMap((m) => [...m])];
    const guard = options.guard;
    if (guard !== undefined) chars.push(...guard.firstNot, ...guard.words.flatMap((w) => [...w.text, ...(w.caseless ? w.text.toUpperCase() : "")]));
    for (const ch of chars) mask += excluded(ch) ? "1" : "0";
  }
  const { exclude, atoms, maxWhitespace, guard, noEdgeNewlines, followedBy } = options;
  return JSON.stringify([hint, markers, mask, exclude ?? null, atoms ?? null, maxWhitespace ?? null, guard ?? null, noEdgeNewlines ?? null, followedBy ?? null]);
}

function textRules(hint: string, markers: readonly string[], options: TextOptions): TextRule[] {
  const real = markers.filter((m) => m !== "");
  const states = automaton(real);
  const excluded = options.excluded ?? (() => false);
  const maxWs = options.maxWhitespace;
  const whitespace = WHITESPACE.filter((ch) => !excluded(ch));
  const special = [...new Set(real.flatMap((m) => [...m]))].filter((ch) => !excluded(ch) && !WHITESPACE.includes(ch));
  const guard = options.guard;
  // A guard's characters take their own moves, like marker characters.
  if (guard !== undefined) {
    const extra = [...guard.firstNot, ...guard.words.flatMap((w) => [...w.text, ...(w.caseless ? w.text.toUpperCase() : "")])];
    for (const ch of extra) if (!special.includes(ch) && !excluded(ch) && !WHITESPACE.includes(ch)) special.push(ch);
  }
  const ids = new Map<string, number>();
  const order: [number, number, string][] = [];
  const visit = (s: number, w: number, g: string): number => {
    const k = `${s},${w},${g}`;
    let id = ids.get(k);
    if (id === undefined) {
      ids.set(k, (id = order.length));
      order.push([s, w, g]);
    }
    return id;
  };
  // The state of the guard and, with noEdgeNewlines, of the text's edges ("S" empty, "N" ends with a
  // newline, "O" otherwise), as one string.
  const edges = options.noEdgeNewlines === true;
  const stepG = (g: string, ch: string): string | undefined => {
    const [gs, e] = g.split("|") as [string, string | undefined];
    const ng = guard === undefined ? "F" : guardStep(guard, gs, ch);
    if (ng === undefined) return undefined;
    if (!edges) return ng;
    if (e === "S" && ch === "\n") return undefined;
    return `${ng}|${ch === "\n" ? "N" : "O"}`;
  };
  const acceptG = (g: string): boolean => {
    const [gs, e] = g.split("|") as [string, string | undefined];
    return (guard === undefined || guardAccepts(guard, gs)) && e !== "N";
  };
  const first = visit(0, 0, `${guard === undefined ? "F" : "L"}${edges ? "|S" : ""}`);
  const cleanEnd = (s: number): boolean =>
    (options.followedBy ?? []).every((m) => {
      let t = s;
      for (let k = 0; k < m.length; k++) {
        t = step(states, t, m[k]!);
        if (states[t]!.complete) return k === m.length - 1;
      }
      return true;
    });
  const bodies: string[][] = [];
  for (let i = 0; i < order.length; i++) {
    const [s, w, g] = order[i]!;
    const plain = stepG(g, "\u0001");
    const start = plain === undefined ? -1 : visit(0, 0, plain);
    const byTarget = new Map<number, string[]>();
    // Characters that may not be written from this state: whitespace past the bound, marker ends.
    const banned: string[] = [];
    const move = (ch: string, t: number, tw: number) => {
      const tg = stepG(g, ch);
      if (states[t]!.complete || (maxWs !== undefined && tw > maxWs) || tg === undefined) return void banned.push(ch);
      const id = visit(t, tw, tg);
      // (Whitespace is never in the shared negated class, so it always takes its own move.)
      if (id !== start || WHITESPACE.includes(ch)) byTarget.set(id, [...(byTarget.get(id) ?? []), ch]);
    };
    for (const ch of special) move(ch, step(states, s, ch), 0);
    for (const ch of whitespace) move(ch, step(states, s, ch), maxWs === undefined ? 0 : w + 1);
    // Every character that leads back to the start state shares one negated class.
    const apart = [...byTarget.values()].flat();
    const other = cls([...apart, ...banned, ...WHITESPACE.filter((ch) => !apart.includes(ch) && !banned.includes(ch))], true);
    const negated = `${other.slice(0, -1)}\\x00${options.exclude ?? ""}]`;
    const moves = start < 0 ? [] : [`${negated} @${start}`, ...(options.atoms ?? []).map((a) => `${a} @${start}`)];
    for (const [t, chars] of byTarget) moves.push(`${chars.length === 1 ? lit(chars[0] as string) : cls(chars)} @${t}`);
    // The text may end here unless the guard forbids what it is so far, or a marker after it would
    // be read as starting inside the text.
    if (acceptG(g) && cleanEnd(s)) moves.unshift("");
    bodies.push(moves);
  }
  // Only states from which the text can still end get rules (a guard can make dead ends).
  const target = (o: string): number => Number(/@(\d+)$/.exec(o)?.[1] ?? -1);
  const live = new Set<number>();
  for (let changed = true; changed; ) {
    changed = false;
    bodies.forEach((moves, i) => {
      if (!live.has(i) && moves.some((o) => o === "" || live.has(target(o)))) {
        live.add(i);
        changed = true;
      }
    });
  }
  // The start rule first, then the live ones in the order they were found (the order names are reserved in).
  const kept = [first, ...[...live].filter((i) => i !== first)];
  const at = new Map(kept.map((i, k) => [i, k]));
  return kept.map((i) => ({
    hint: i === first ? hint : `${hint}-${i}`,
    moves: bodies[i]!.filter((o) => o === "" || live.has(target(o))).map((o): [string, number] => {
      const m = /@(\d+)$/.exec(o);
      return m === null ? [o, -1] : [o.slice(0, m.index), at.get(Number(m[1]))!];
    }),
  }));
}
