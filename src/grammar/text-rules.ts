/**
 * Free text that never contains any of some markers (a call start, the end of reasoning) and never runs
 * more than a bounded number of whitespace characters in a row (so a weak model cannot spend its budget
 * on spaces). GBNF has no "not this string", so the rules are the states of an automaton: an
 * Aho-Corasick automaton over the markers (one state per proper marker prefix; a move that would
 * complete a marker does not exist), times the length of the current whitespace run. Every state may
 * end the text.
 *
 * The same construction serves the inside of quoted strings (JSON, Python): there the alphabet is
 * restricted (`exclude`) and escape sequences (`atoms`) are extra steps that end any marker prefix.
 */
import { cls, lit, type GbnfBuilder } from "./gbnf.js";

/** Longest whitespace run any grammar allows, in free text and between tokens. */
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
  /** Longest whitespace run (default MAX_WHITESPACE). */
  maxWhitespace?: number;
}

/**
 * Adds the rules for text without `markers` (and with bounded whitespace runs) and returns the name of
 * the start rule.
 */
export function textWithout(builder: GbnfBuilder, hint: string, markers: readonly string[], options: TextOptions = {}): string {
  const real = markers.filter((m) => m !== "");
  const states = automaton(real);
  const excluded = options.excluded ?? (() => false);
  const maxWs = options.maxWhitespace ?? MAX_WHITESPACE;
  const whitespace = WHITESPACE.filter((ch) => !excluded(ch));
  const special = [...new Set(real.flatMap((m) => [...m]))].filter((ch) => !excluded(ch) && !WHITESPACE.includes(ch));
  const key = (s: number, w: number): string => `${s},${w}`;
  const ids = new Map<string, number>();
  const order: [number, number][] = [];
  const visit = (s: number, w: number): number => {
    const k = key(s, w);
    let id = ids.get(k);
    if (id === undefined) {
      ids.set(k, (id = order.length));
      order.push([s, w]);
    }
    return id;
  };
  const start = visit(0, 0);
  const bodies: string[][] = [];
  for (let i = 0; i < order.length; i++) {
    const [s, w] = order[i]!;
    const byTarget = new Map<number, string[]>();
    // Characters that may not be written from this state: whitespace past the bound, marker ends.
    const banned: string[] = [];
    const move = (ch: string, t: number, tw: number) => {
      if (states[t]!.complete || tw > maxWs) return void banned.push(ch);
      const id = visit(t, tw);
      if (id !== start) byTarget.set(id, [...(byTarget.get(id) ?? []), ch]);
    };
    for (const ch of special) move(ch, step(states, s, ch), 0);
    for (const ch of whitespace) move(ch, step(states, s, ch), w + 1);
    // Every character that leads back to the start state shares one negated class.
    const apart = [...byTarget.values()].flat();
    const other = cls([...apart, ...banned, ...WHITESPACE.filter((ch) => !apart.includes(ch) && !banned.includes(ch))], true);
    const negated = `${other.slice(0, -1)}\\x00${options.exclude ?? ""}]`;
    const moves = [`${negated} @${start}`, ...(options.atoms ?? []).map((a) => `${a} @${start}`)];
    for (const [t, chars] of byTarget) moves.push(`${chars.length === 1 ? lit(chars[0] as string) : cls(chars)} @${t}`);
    bodies.push(moves);
  }
  const names = order.map((_, i) => builder.reserve(i === 0 ? hint : `${hint}-${i}`));
  names.forEach((slot, i) => {
    slot.define(`| ${bodies[i]!.map((o) => o.replace(/@(\d+)$/, (_, n: string) => names[Number(n)]!.name)).join(" | ")}`);
  });
  return names[0]!.name;
}

/** Text that may contain anything but bounded whitespace runs (no markers to avoid). */
export function anyText(builder: GbnfBuilder, hint = "any-text"): string {
  return textWithout(builder, hint, []);
}
