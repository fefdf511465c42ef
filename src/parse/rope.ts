/**
 * Text that grows by many small appends (a region's text, a call's arguments) and is read back rarely
 * (when a call or region ends). Appending with `+=` would build one V8 cons node per piece: tens of
 * thousands of small objects that survive young-generation GC, and every later `slice` flattens (copies)
 * the whole text, so slicing once per call of a many-call region is quadratic.
 *
 * Here small pieces collect in a short list that is joined into one flat chunk every CHUNK characters
 * (so each character is copied once, and the pieces die young); a large piece becomes a chunk as it is,
 * without a copy. A slice touches only the chunks it covers; cutting the end (a decoder handing text
 * back) touches only the last pieces.
 */

/** Characters collected before small pieces are joined into one chunk. */
const CHUNK = 2048;

export class TextRope {
  /** Characters appended so far (minus what `truncate` cut). */
  length = 0;
  private chunks: string[] = [];
  /** ends[k]: the offset just after chunks[k]. */
  private ends: number[] = [];
  /** Small pieces since the last chunk, concatenated (a V8 cons string until it is sealed). */
  private tail = "";

  constructor(initial = "") {
    this.append(initial);
  }

  append(s: string): void {
    if (s.length === 0) return;
    if (s.length >= CHUNK) {
      this.seal();
      this.addChunk(s);
    } else {
      this.tail += s;
      if (this.tail.length >= CHUNK) this.seal();
    }
    this.length += s.length;
  }

  /** The text between two offsets (clamped to what is there). */
  slice(from: number, to: number): string {
    const parts = this.pieces(from, to);
    let out = "";
    for (const p of parts) out += p;
    return out;
  }

  /**
   * The text between two offsets as the stored pieces it spans (each cut to the range), without joining
   * them: one piece when the range lies in one chunk (always, for text that arrived in one push).
   */
  pieces(from: number, to: number): string[] {
    const end = Math.min(to, this.length);
    const start = Math.max(0, from);
    if (start >= end) return [];
    this.seal();
    // The first chunk that ends after `start`.
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! > start) hi = mid;
      else lo = mid + 1;
    }
    const out: string[] = [];
    for (let k = lo; k < this.chunks.length; k++) {
      const chunkStart = this.ends[k]! - this.chunks[k]!.length;
      if (chunkStart >= end) break;
      const c = this.chunks[k]!;
      out.push(chunkStart >= start && this.ends[k]! <= end ? c : c.slice(Math.max(0, start - chunkStart), end - chunkStart));
    }
    return out;
  }

  /** Cuts the text to its first `n` characters. */
  truncate(n: number): void {
    while (this.length > n) {
      const extra = this.length - n;
      if (this.tail.length > 0) {
        const cut = Math.min(extra, this.tail.length);
        this.tail = this.tail.slice(0, this.tail.length - cut);
        this.length -= cut;
        continue;
      }
      const last = this.chunks[this.chunks.length - 1]!;
      if (last.length > extra) {
        this.chunks[this.chunks.length - 1] = last.slice(0, last.length - extra);
        this.ends[this.ends.length - 1]! -= extra;
        this.length = n;
        return;
      }
      this.chunks.pop();
      this.ends.pop();
      this.length -= last.length;
    }
  }

  /** The whole text, as one string (kept, so asking twice costs nothing more). */
  toString(): string {
    this.seal();
    if (this.chunks.length === 0) return "";
    if (this.chunks.length > 1) {
      const all = this.chunks.join("");
      this.chunks = [all];
      this.ends = [all.length];
    }
    return this.chunks[0]!;
  }

  /** Joins the small pieces collected so far into one chunk. */
  private seal(): void {
    const s = this.tail;
    if (s.length === 0) return;
    // Reading a character makes V8 flatten the concatenation into one flat string, so the small
    // pieces and their cons nodes die young instead of being kept (and copied by the GC) per push.
    s.charCodeAt(0);
    this.tail = "";
    this.addChunk(s);
  }

  private addChunk(s: string): void {
    const prev = this.ends.length > 0 ? this.ends[this.ends.length - 1]! : 0;
    this.chunks.push(s);
    this.ends.push(prev + s.length);
  }
}
