/**
 * A small GBNF recogniser for the grammar tests: parses llama.cpp grammar text (rules, literals,
 * character classes, groups, `|`, `*` `+` `?` `{m,n}`, `.`, comments) into a plain context-free
 * grammar over code points and decides membership with an Earley parser (Aycock-Horspool handling of
 * nullable rules), so ambiguity and right recursion are no problem. Independent of src/grammar: it
 * reads only the text the grammar builder printed, the way llama.cpp would.
 */

type Sym = { nt: number } | { test: (cp: number) => boolean; label: string };

interface Production {
  lhs: number;
  rhs: Sym[];
}

interface Token {
  kind: "name" | "def" | "lit" | "class" | "(" | ")" | "|" | "*" | "+" | "?" | "rep" | "any";
  text?: string;
  cps?: number[];
  test?: (cp: number) => boolean;
  min?: number;
  max?: number;
}

function readEscape(src: string, i: number): [number, number] {
  const c = src[i + 1];
  const hex = (len: number): [number, number] => [parseInt(src.slice(i + 2, i + 2 + len), 16), i + 2 + len];
  switch (c) {
    case "n": return [10, i + 2];
    case "t": return [9, i + 2];
    case "r": return [13, i + 2];
    case "x": return hex(2);
    case "u": return hex(4);
    case "U": return hex(8);
    case "\\": case '"': case "[": case "]": return [c.codePointAt(0)!, i + 2];
    default: throw new Error(`unknown escape \\${c} at ${i}`);
  }
}

function readChar(src: string, i: number): [number, number] {
  if (src[i] === "\\") return readEscape(src, i);
  const cp = src.codePointAt(i)!;
  return [cp, i + (cp > 0xffff ? 2 : 1)];
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("::=", i)) {
      out.push({ kind: "def" });
      i += 3;
    } else if (/[A-Za-z0-9-]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9-]/.test(src[j]!)) j++;
      out.push({ kind: "name", text: src.slice(i, j) });
      i = j;
    } else if (c === '"') {
      const cps: number[] = [];
      i++;
      while (src[i] !== '"') {
        if (i >= src.length) throw new Error("unterminated literal");
        const [cp, next] = readChar(src, i);
        cps.push(cp);
        i = next;
      }
      i++;
      out.push({ kind: "lit", cps });
    } else if (c === "[") {
      i++;
      const negate = src[i] === "^";
      if (negate) i++;
      const ranges: [number, number][] = [];
      while (src[i] !== "]") {
        if (i >= src.length) throw new Error("unterminated class");
        const [lo, next] = readChar(src, i);
        i = next;
        if (src[i] === "-" && src[i + 1] !== "]") {
          const [hi, after] = readChar(src, i + 1);
          ranges.push([lo, hi]);
          i = after;
        } else ranges.push([lo, lo]);
      }
      i++;
      const inAny = (cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
      out.push({ kind: "class", test: negate ? (cp) => !inAny(cp) : inAny, text: src.slice(0, 0) });
    } else if (c === "{") {
      const j = src.indexOf("}", i);
      const [a, b] = src.slice(i + 1, j).split(",");
      const min = Number(a);
      out.push({ kind: "rep", min, max: b === undefined ? min : b.trim() === "" ? Infinity : Number(b) });
      i = j + 1;
    } else if (c === ".") {
      out.push({ kind: "any" });
      i++;
    } else if ("()|*+?".includes(c)) {
      out.push({ kind: c as Token["kind"] });
      i++;
    } else throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
  }
  return out;
}

export class GbnfRecognizer {
  private readonly prods: Production[] = [];
  private readonly byLhs = new Map<number, Production[]>();
  private readonly names = new Map<string, number>();
  private readonly nullable = new Set<number>();
  private count = 0;
  private readonly start: number;

  constructor(grammar: string, startRule = "root") {
    const tokens = tokenize(grammar);
    let p = 0;
    const defined = new Set<string>();
    const ntOf = (name: string) => {
      let id = this.names.get(name);
      if (id === undefined) this.names.set(name, (id = this.count++));
      return id;
    };
    const fresh = () => this.count++;
    const add = (lhs: number, rhs: Sym[]) => {
      const prod = { lhs, rhs };
      this.prods.push(prod);
      this.byLhs.set(lhs, [...(this.byLhs.get(lhs) ?? []), prod]);
    };
    const atRuleStart = () => tokens[p]?.kind === "name" && tokens[p + 1]?.kind === "def";
    const alternatives = (lhs: number, closer?: ")") => {
      let seq: Sym[] = [];
      for (;;) {
        const t = tokens[p];
        if (t === undefined || (closer === undefined && atRuleStart()) || t.kind === ")") {
          add(lhs, seq);
          if (t?.kind === ")" && closer === ")") p++;
          else if (closer === ")") throw new Error("missing )");
          return;
        }
        if (t.kind === "|") {
          add(lhs, seq);
          seq = [];
          p++;
          continue;
        }
        let item: Sym[];
        p++;
        if (t.kind === "name") item = [{ nt: ntOf(t.text!) }];
        else if (t.kind === "lit") item = t.cps!.map((cp) => ({ test: (x: number) => x === cp, label: String.fromCodePoint(cp) }));
        else if (t.kind === "class") item = [{ test: t.test!, label: "[class]" }];
        else if (t.kind === "any") item = [{ test: () => true, label: "." }];
        else if (t.kind === "(") {
          const g = fresh();
          alternatives(g, ")");
          item = [{ nt: g }];
        } else throw new Error(`unexpected token ${t.kind}`);
        // Postfix operators wrap the item in fresh rules.
        for (let op = tokens[p]; op && (op.kind === "*" || op.kind === "+" || op.kind === "?" || op.kind === "rep"); op = tokens[p]) {
          p++;
          const min = op.kind === "rep" ? op.min! : op.kind === "+" ? 1 : 0;
          const max = op.kind === "rep" ? op.max! : op.kind === "?" ? 1 : Infinity;
          item = this.repeat(item, min, max, fresh, add);
        }
        seq.push(...item);
      }
    };
    while (p < tokens.length) {
      const name = tokens[p]!;
      if (name.kind !== "name" || tokens[p + 1]?.kind !== "def") throw new Error(`expected a rule at token ${p}`);
      p += 2;
      defined.add(name.text!);
      alternatives(ntOf(name.text!));
    }
    for (const name of this.names.keys()) if (!defined.has(name)) throw new Error(`rule ${name} is used but not defined`);
    const start = this.names.get(startRule);
    if (start === undefined) throw new Error(`no rule ${startRule}`);
    this.start = start;
    this.computeNullable();
  }

  private repeat(item: Sym[], min: number, max: number, fresh: () => number, add: (lhs: number, rhs: Sym[]) => void): Sym[] {
    const out: Sym[] = [];
    for (let k = 0; k < min; k++) out.push(...item);
    if (max === Infinity) {
      const star = fresh();
      add(star, []);
      add(star, [...item, { nt: star }]);
      out.push({ nt: star });
    } else {
      // (item (item (...)?)?)? nested max-min deep
      let tail: number | undefined;
      for (let k = min; k < max; k++) {
        const opt = fresh();
        add(opt, []);
        add(opt, tail === undefined ? [...item] : [...item, { nt: tail }]);
        tail = opt;
      }
      if (tail !== undefined) out.push({ nt: tail });
    }
    return out;
  }

  private computeNullable(): void {
    for (let changed = true; changed; ) {
      changed = false;
      for (const prod of this.prods) {
        if (this.nullable.has(prod.lhs)) continue;
        if (prod.rhs.every((s) => "nt" in s && this.nullable.has(s.nt))) {
          this.nullable.add(prod.lhs);
          changed = true;
        }
      }
    }
  }

  /** True when the whole text is in the language of the start rule. */
  accepts(text: string): boolean {
    const input = [...text].map((c) => c.codePointAt(0)!);
    type Item = { prod: Production; dot: number; origin: number };
    const sets: Item[][] = input.map(() => []).concat([[]]);
    const seen: Set<string>[] = sets.map(() => new Set());
    const prodIndex = new Map(this.prods.map((p, i) => [p, i]));
    const push = (i: number, item: Item) => {
      const key = `${prodIndex.get(item.prod)},${item.dot},${item.origin}`;
      if (seen[i]!.has(key)) return;
      seen[i]!.add(key);
      sets[i]!.push(item);
    };
    for (const prod of this.byLhs.get(this.start) ?? []) push(0, { prod, dot: 0, origin: 0 });
    for (let i = 0; i <= input.length; i++) {
      const set = sets[i]!;
      for (let k = 0; k < set.length; k++) {
        const item = set[k]!;
        const next = item.prod.rhs[item.dot];
        if (next === undefined) {
          for (const waiting of sets[item.origin]!) {
            const w = waiting.prod.rhs[waiting.dot];
            if (w !== undefined && "nt" in w && w.nt === item.prod.lhs) push(i, { ...waiting, dot: waiting.dot + 1 });
          }
        } else if ("nt" in next) {
          for (const prod of this.byLhs.get(next.nt) ?? []) push(i, { prod, dot: 0, origin: i });
          if (this.nullable.has(next.nt)) push(i, { ...item, dot: item.dot + 1 });
        } else if (i < input.length && next.test(input[i]!)) {
          push(i + 1, { ...item, dot: item.dot + 1 });
        }
      }
      if (i < input.length && sets[i + 1]!.length === 0) return false;
    }
    return sets[input.length]!.some((it) => it.prod.lhs === this.start && it.dot === it.prod.rhs.length && it.origin === 0);
  }
}
