/**
 * A seeded random generator of strings from GBNF text (the printed grammar, as llama.cpp reads it),
 * with the derivation tree of named rules, so a test can tell what the grammar derived (which rule
 * produced which span). Written for the tests, independent of src/grammar.
 *
 * Uniform choices alone would almost never walk far into a marker prefix (`</tool_cal`), which is where
 * grammar and parser disagree. So the sampler now and then takes a "wish", a string it tries to write
 * next (a marker of the format, an escape, a run of spaces): at each choice it prefers the alternatives
 * that can start with the wished character, and gives up the wish as soon as the grammar cannot write
 * it. Past a length budget it takes the shortest way out of every rule, so every sample ends.
 */

type Atom =
  | { t: "lit"; cps: number[] }
  | { t: "cls"; ranges: [number, number][]; neg: boolean }
  | { t: "ref"; name: string }
  | { t: "group"; alts: Item[][] };
interface Item {
  atom: Atom;
  min: number;
  max: number;
}

export interface Node {
  rule: string;
  start: number;
  end: number;
  children: Node[];
}

function readChar(src: string, i: number): [number, number] {
  if (src[i] !== "\\") {
    const cp = src.codePointAt(i)!;
    return [cp, i + (cp > 0xffff ? 2 : 1)];
  }
  const c = src[i + 1]!;
  const hex = (n: number): [number, number] => [parseInt(src.slice(i + 2, i + 2 + n), 16), i + 2 + n];
  if (c === "n") return [10, i + 2];
  if (c === "t") return [9, i + 2];
  if (c === "r") return [13, i + 2];
  if (c === "x") return hex(2);
  if (c === "u") return hex(4);
  if (c === "U") return hex(8);
  if ('\\"[]'.includes(c)) return [c.codePointAt(0)!, i + 2];
  throw new Error(`unknown escape \\${c}`);
}

function parseGbnf(src: string): Map<string, Item[][]> {
  const rules = new Map<string, Item[][]>();
  let i = 0;
  const skip = () => {
    for (;;) {
      while (i < src.length && /\s/.test(src[i]!)) i++;
      if (src[i] === "#") while (i < src.length && src[i] !== "\n") i++;
      else return;
    }
  };
  const name = (): string => {
    const m = /^[A-Za-z0-9-]+/.exec(src.slice(i, i + 200))!;
    i += m[0].length;
    return m[0];
  };
  const atRuleStart = (): boolean => /^[A-Za-z0-9-]+\s*::=/.test(src.slice(i, i + 200));
  const alts = (inGroup: boolean): Item[][] => {
    const out: Item[][] = [[]];
    for (;;) {
      skip();
      if (i >= src.length || (!inGroup && atRuleStart())) return out;
      const c = src[i]!;
      if (c === ")") {
        if (!inGroup) throw new Error("unbalanced )");
        i++;
        return out;
      }
      if (c === "|") {
        i++;
        out.push([]);
        continue;
      }
      let atom: Atom;
      if (c === '"') {
        i++;
        const cps: number[] = [];
        while (src[i] !== '"') {
          const [cp, n] = readChar(src, i);
          cps.push(cp);
          i = n;
        }
        i++;
        atom = { t: "lit", cps };
      } else if (c === "[") {
        i++;
        const neg = src[i] === "^";
        if (neg) i++;
        const ranges: [number, number][] = [];
        while (src[i] !== "]") {
          const [lo, n] = readChar(src, i);
          i = n;
          if (src[i] === "-" && src[i + 1] !== "]") {
            const [hi, m] = readChar(src, i + 1);
            ranges.push([lo, hi]);
            i = m;
          } else ranges.push([lo, lo]);
        }
        i++;
        atom = { t: "cls", ranges, neg };
      } else if (c === "(") {
        i++;
        atom = { t: "group", alts: alts(true) };
      } else if (/[A-Za-z0-9-]/.test(c)) {
        atom = { t: "ref", name: name() };
      } else throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
      let min = 1;
      let max = 1;
      const op = src[i];
      if (op === "*") [min, max, i] = [0, Infinity, i + 1];
      else if (op === "+") [min, max, i] = [1, Infinity, i + 1];
      else if (op === "?") [min, max, i] = [0, 1, i + 1];
      else if (op === "{") {
        const j = src.indexOf("}", i);
        const [a, b] = src.slice(i + 1, j).split(",");
        min = Number(a);
        max = b === undefined ? min : b.trim() === "" ? Infinity : Number(b);
        i = j + 1;
      }
      out[out.length - 1]!.push({ atom, min, max });
    }
  };
  for (skip(); i < src.length; skip()) {
    const n = name();
    skip();
    if (!src.startsWith("::=", i)) throw new Error(`expected ::= after ${n}`);
    i += 3;
    rules.set(n, alts(false));
  }
  return rules;
}

/** Characters tried for a character class, besides the wished one. */
const POOL = [..."abcxyzABC019 _-.,:;!?'\"\\/<>[]{}()=|+*&%$#@~`^\n\t\r", "é", "ü", "😀", "｜", "▁", "中", "\u2028"].map((c) => c.codePointAt(0)!);

export interface SampleOptions {
  /** Output length after which every rule takes its shortest way out. */
  budget?: number;
  /** Strings the sampler now and then tries to write (markers, escapes, whitespace runs). */
  wishes?: readonly string[];
  /** Chance, at each choice, to take up a new wish when none is pending. */
  wishRate?: number;
}

export class GbnfSampler {
  private readonly rules: Map<string, Item[][]>;
  private readonly minLen = new Map<string, number>();
  private readonly firstMemo = new Map<string, boolean>();

  constructor(grammar: string) {
    this.rules = parseGbnf(grammar);
    for (const n of this.rules.keys()) this.minLen.set(n, Infinity);
    for (let changed = true; changed; ) {
      changed = false;
      for (const [n, alts] of this.rules) {
        const v = Math.min(...alts.map((a) => this.seqMin(a)));
        if (v < this.minLen.get(n)!) {
          this.minLen.set(n, v);
          changed = true;
        }
      }
    }
    for (const [n, v] of this.minLen) if (v === Infinity) throw new Error(`rule ${n} derives no finite string`);
  }

  private atomMin(a: Atom): number {
    switch (a.t) {
      case "lit":
        return a.cps.length;
      case "cls":
        return 1;
      case "ref": {
        const v = this.minLen.get(a.name);
        if (v === undefined) throw new Error(`undefined rule ${a.name}`);
        return v;
      }
      case "group":
        return Math.min(...a.alts.map((s) => this.seqMin(s)));
    }
  }

  private seqMin(seq: Item[]): number {
    return seq.reduce((sum, it) => sum + (it.min === 0 ? 0 : it.min * this.atomMin(it.atom)), 0);
  }

  private clsHas(a: Extract<Atom, { t: "cls" }>, cp: number): boolean {
    const inside = a.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
    return a.neg ? !inside : inside;
  }

  /** Whether `atom` can derive a string starting with `cp`. */
  private atomFirst(a: Atom, cp: number, depth: number): boolean {
    if (depth > 60) return false;
    switch (a.t) {
      case "lit":
        return a.cps[0] === cp;
      case "cls":
        return this.clsHas(a, cp);
      case "ref": {
        const key = `${a.name}\u0000${cp}`;
        const known = this.firstMemo.get(key);
        if (known !== undefined) return known;
        this.firstMemo.set(key, false); // left recursion guard
        const v = this.rules.get(a.name)!.some((s) => this.seqFirst(s, cp, depth + 1));
        this.firstMemo.set(key, v);
        return v;
      }
      case "group":
        return a.alts.some((s) => this.seqFirst(s, cp, depth + 1));
    }
  }

  private seqFirst(seq: Item[], cp: number, depth: number): boolean {
    for (const it of seq) {
      if (it.max > 0 && this.atomFirst(it.atom, cp, depth)) return true;
      if (it.min > 0 && this.atomMin(it.atom) > 0) return false;
    }
    return false;
  }

  /** One random string of the start rule, and its derivation tree. */
  sample(random: () => number, options: SampleOptions = {}, start = "root"): { text: string; tree: Node } {
    const budget = options.budget ?? 300;
    const wishes = options.wishes ?? [];
    const wishRate = options.wishRate ?? 0.05;
    const out: number[] = [];
    let wish: number[] = [];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const over = () => out.length >= budget;
    const maybeWish = () => {
      if (wish.length === 0 && wishes.length > 0 && !over() && random() < wishRate) wish = [...pick(wishes)].map((c) => c.codePointAt(0)!);
    };
    const emit = (cp: number) => {
      out.push(cp);
      if (wish.length > 0) {
        if (wish[0] === cp) wish.shift();
        else wish = [];
      }
    };
    const chooseSeq = (alts: Item[][]): Item[] => {
      maybeWish();
      if (over()) {
        const best = Math.min(...alts.map((s) => this.seqMin(s)));
        return pick(alts.filter((s) => this.seqMin(s) === best));
      }
      if (wish.length > 0) {
        const fits = alts.filter((s) => this.seqFirst(s, wish[0]!, 0));
        if (fits.length > 0) return pick(fits);
        wish = [];
      }
      const empty = alts.filter((s) => s.length === 0);
      const full = alts.filter((s) => s.length > 0);
      if (full.length === 0) return empty[0]!;
      if (empty.length > 0 && random() < 0.12) return empty[0]!;
      return pick(full);
    };
    const genAtom = (a: Atom, parent: Node): void => {
      switch (a.t) {
        case "lit":
          for (const cp of a.cps) emit(cp);
          return;
        case "cls": {
          if (wish.length > 0 && this.clsHas(a, wish[0]!)) return emit(wish[0]!);
          for (let k = 0; k < 40; k++) {
            const cp = random() < 0.7 ? pick(POOL) : 0x20 + Math.floor(random() * 0x5f);
            if (this.clsHas(a, cp)) return emit(cp);
          }
          for (let cp = 1; cp < 0x3000; cp++) if (this.clsHas(a, cp)) return emit(cp);
          throw new Error(`empty character class ${JSON.stringify(a)}`);
        }
        case "ref": {
          const node: Node = { rule: a.name, start: out.length, end: 0, children: [] };
          parent.children.push(node);
          genSeq(chooseSeq(this.rules.get(a.name)!), node);
          node.end = out.length;
          return;
        }
        case "group":
          return genSeq(chooseSeq(a.alts), parent);
      }
    };
    const genSeq = (seq: Item[], parent: Node): void => {
      for (const it of seq) {
        let n = 0;
        for (; n < it.min; n++) genAtom(it.atom, parent);
        while (n < it.max && !over()) {
          const want = wish.length > 0 && this.atomFirst(it.atom, wish[0]!, 0);
          if (!want && random() < 0.45) break;
          genAtom(it.atom, parent);
          n++;
        }
      }
    };
    const root: Node = { rule: "", start: 0, end: 0, children: [] };
    genAtom({ t: "ref", name: start }, root);
    const tree = root.children[0]!;
    // The tree counts code points; the caller gets UTF-16 offsets.
    const offsets: number[] = [0];
    for (const cp of out) offsets.push(offsets[offsets.length - 1]! + (cp > 0xffff ? 2 : 1));
    const fix = (n: Node) => {
      n.start = offsets[n.start]!;
      n.end = offsets[n.end]!;
      n.children.forEach(fix);
    };
    fix(tree);
    return { text: String.fromCodePoint(...out), tree };
  }
}
