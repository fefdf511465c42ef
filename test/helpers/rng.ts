/**
 * Seeded randomness for the streaming tests: a failing split must be reproducible from the seed printed
 * in the test name, so nothing here uses Math.random.
 */

/** mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The positions where a stream may be cut: every UTF-16 index except the middle of a surrogate pair.
 * Real servers decode tokens to whole code points before sending a delta, so a delta never ends in half
 * an emoji; cutting there would only test a situation that cannot occur.
 */
export function cutPositions(text: string): number[] {
  const out: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const prev = text.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) continue;
    out.push(i);
  }
  return out;
}

/** Cuts `text` at the given sorted positions. */
export function cutAt(text: string, positions: readonly number[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const p of positions) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** One piece per code point: the "byte-by-byte" stream of llama.cpp's tests, at code-point grain. */
export function codePointPieces(text: string): string[] {
  return Array.from(text);
}

/** Cuts `text` at `count` distinct random positions (fewer if the text is short), seeded. */
export function randomPieces(text: string, count: number, random: () => number): string[] {
  const candidates = cutPositions(text);
  const chosen = new Set<number>();
  const want = Math.min(count, candidates.length);
  while (chosen.size < want) chosen.add(candidates[Math.floor(random() * candidates.length)]!);
  return cutAt(text, [...chosen].sort((x, y) => x - y));
}
