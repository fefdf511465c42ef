/**
 * A line diff of two prompts for the inspector: common prefix and suffix lines are cut first (two
 * renders of one conversation share most of their text), and the middle is compared with an LCS
 * table, bounded so a huge prompt cannot take quadratic memory (past the bound the middle is shown
 * as removed-then-added, which is still a correct, if coarse, diff).
 */
export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

const MAX_CELLS = 4_000_000;

export function diffLines(a: string, b: string): DiffLine[] {
  const x = a.split("\n");
  const y = b.split("\n");
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const out: DiffLine[] = x.slice(0, head).map((text) => ({ kind: "same", text }));
  if ((xs.length + 1) * (ys.length + 1) > MAX_CELLS) {
    out.push(...xs.map((text) => ({ kind: "removed" as const, text })), ...ys.map((text) => ({ kind: "added" as const, text })));
  } else {
    // lcs[i][j]: length of the LCS of xs[i..] and ys[j..], in one flat array.
    const w = ys.length + 1;
    const lcs = new Uint32Array((xs.length + 1) * w);
    for (let i = xs.length - 1; i >= 0; i--) {
      for (let j = ys.length - 1; j >= 0; j--) {
        lcs[i * w + j] = xs[i] === ys[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < xs.length || j < ys.length) {
      if (i < xs.length && j < ys.length && xs[i] === ys[j]) {
        out.push({ kind: "same", text: xs[i++]! });
        j++;
      } else if (j < ys.length && (i === xs.length || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
        out.push({ kind: "added", text: ys[j++]! });
      } else {
        out.push({ kind: "removed", text: xs[i++]! });
      }
    }
  }
  out.push(...x.slice(x.length - tail).map((text) => ({ kind: "same" as const, text })));
  return out;
}
