/**
 * Free text that never contains any of some markers (a call start, the end of reasoning). GBNF has no
 * "not this string", so the rules are the states of an Aho-Corasick automaton over the markers: one rule
 * per proper marker prefix, each character moves to the state of the longest marker prefix the text
 * now ends with, and a move that would complete a marker does not exist. Every state may end the text.
 */
import { cls, lit, type GbnfBuilder } from "./gbnf.js";

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

/**
 * Adds the rules for text without `markers` and returns the name of the start rule. With no markers
 * the text is anything at all.
 */
export function textWithout(builder: GbnfBuilder, hint: string, markers: readonly string[]): string {
  const real = markers.filter((m) => m !== "");
  if (real.length === 0) return anyText(builder, hint);
  const states = automaton(real);
  const alphabet = [...new Set(real.flatMap((m) => [...m]))];
  // A state where a marker is complete gets no rule: no move may reach it.
  const slots = states.map((state, i) => (state.complete ? undefined : builder.reserve(i === 0 ? hint : `${hint}-${i}`)));
  const nameOf = (s: number): string => (slots[s] as { name: string }).name;
  states.forEach((_, s) => {
    const slot = slots[s];
    if (slot === undefined) return;
    const byTarget = new Map<number, string[]>();
    const special = new Set<string>();
    for (const ch of alphabet) {
      const t = step(states, s, ch);
      if (t === 0) continue;
      special.add(ch);
      if (!states[t]!.complete) byTarget.set(t, [...(byTarget.get(t) ?? []), ch]);
    }
    // Every character that leads back to the start state shares one negated class.
    const options = [`${cls(special, true)} ${nameOf(0)}`];
    for (const [t, chars] of byTarget) options.push(`${chars.length === 1 ? lit(chars[0] as string) : cls(chars)} ${nameOf(t)}`);
    slot.define(`| ${options.join(" | ")}`);
  });
  return nameOf(0);
}

/** Text that may contain anything (no markers to avoid). */
export function anyText(builder: GbnfBuilder, hint = "any-text"): string {
  return builder.add(hint, "[^\\x00]*");
}
