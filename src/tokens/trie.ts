/**
 * Leftmost-longest matching of a fixed set of strings (added-token texts), as the Rust tokenizers'
 * Aho-Corasick `LeftmostLongest` splitter does: scanning left to right, the first position where some
 * entry starts wins, and among entries starting there the longest. A regular expression with one
 * alternative per entry costs O(text x entries) (Gemma 3 has 6,415 added tokens); this trie costs one
 * table lookup per character plus the length of the candidates actually tried.
 */
interface Node {
  next: Map<number, Node>;
  /** Set when an entry ends here. */
  value: string | undefined;
}

export interface TrieMatch {
  start: number;
  end: number;
  text: string;
}

export class TextTrie {
  private readonly root: Node = { next: new Map(), value: undefined };
  /**
   * Which UTF-16 code units start an entry (1) or not (0), up to the largest that does: the scan for a
   * match's start reads this per character of the text, where a Map lookup per character was the most
   * of a served prompt's token-id cost (a 7 K-character prompt, two or three added tokens in it).
   */
  private readonly starts: Uint8Array;
  readonly size: number;

  constructor(texts: Iterable<string>) {
    let size = 0;
    for (const text of texts) {
      if (text === "") continue;
      let node = this.root;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let child = node.next.get(c);
        if (child === undefined) {
          child = { next: new Map(), value: undefined };
          node.next.set(c, child);
        }
        node = child;
      }
      if (node.value === undefined) size++;
      node.value = text;
    }
    this.size = size;
    let top = -1;
    for (const c of this.root.next.keys()) top = Math.max(top, c);
    this.starts = new Uint8Array(top + 1);
    for (const c of this.root.next.keys()) this.starts[c] = 1;
  }

  /** The longest entry starting at `start`, or undefined. */
  matchAt(text: string, start: number): string | undefined {
    let node: Node | undefined = this.root;
    let found: string | undefined;
    for (let i = start; i < text.length; i++) {
      node = node.next.get(text.charCodeAt(i));
      if (node === undefined) break;
      if (node.value !== undefined) found = node.value;
    }
    return found;
  }

  /** Every non-overlapping leftmost-longest match, in order. */
  *matches(text: string): Generator<TrieMatch> {
    if (this.size === 0) return;
    const starts = this.starts;
    for (let i = 0; i < text.length; ) {
      const c = text.charCodeAt(i);
      if (c >= starts.length || starts[c] === 0) {
        i++;
        continue;
      }
      const found = this.matchAt(text, i);
      if (found === undefined) {
        i++;
        continue;
      }
      yield { start: i, end: i + found.length, text: found };
      i += found.length;
    }
  }

  /** `text` with every match replaced by `replace(match)`. */
  replaceAll(text: string, replace: (match: string) => string): string {
    let out = "";
    let last = 0;
    for (const m of this.matches(text)) {
      out += text.slice(last, m.start) + replace(m.text);
      last = m.end;
    }
    return last === 0 ? text : out + text.slice(last);
  }
}
