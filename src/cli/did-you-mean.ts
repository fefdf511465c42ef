/** "did you mean": the known name nearest to a mistyped one (edit distance), when it is close enough to be the intent. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  // One edit in three characters at most: `--tempate` -> `--template`, not `--x` -> `--json`.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(typed.length, best.length) / 3)) ? best : undefined;
}

/** Levenshtein distance, with a transposition counted as one edit (`--tmeplate`). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (rows[i - 2] as number[])[j - 2] as number + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
