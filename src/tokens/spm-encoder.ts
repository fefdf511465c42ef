/**
 * llama.cpp's SentencePiece tokenizer (`tokenizer.ggml.model = "llama"`: Llama 2, Mistral, Gemma GGUFs),
 * from the vocabulary's scores, as llama-vocab.cpp does it: each text piece gets a leading space when
 * `add_space_prefix` (llama.cpp does so after every special token and at the start, i.e. for every
 * text piece), spaces become `▁`, the piece is split into characters, and the adjacent pair whose
 * concatenation is the highest-scoring vocabulary entry is merged (ties: leftmost) until none is left;
 * a symbol that is not a token is spelled with its bytes' `<0xNN>` tokens. Pluggable where
 * @huggingface/tokenizers' encoder goes (TextEncoderParts).
 */
import type { TextEncoderParts } from "./tokenizer.js";

interface Symbol {
  text: string;
  prev: number;
  next: number;
}

interface Bigram {
  left: number;
  right: number;
  score: number;
  text: string;
}

const encoder = new TextEncoder();

export class SpmEncoder implements TextEncoderParts {
  readonly pre_tokenizer = null;
  readonly normalizer: TextEncoderParts["normalizer"];
  readonly model: TextEncoderParts["model"];
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly tokens: readonly string[],
    private readonly scores: readonly number[],
    addSpacePrefix: boolean,
  ) {
    tokens.forEach((t, id) => {
      if (!this.ids.has(t)) this.ids.set(t, id);
    });
    this.normalizer = { _call: (text) => (addSpacePrefix ? "\u2581" : "") + text.replaceAll(" ", "\u2581") };
    this.model = { _call: (words) => words.flatMap((w) => this.encodeWord(w)) };
  }

  token_to_id(token: string): number | undefined {
    return this.ids.get(token);
  }

  private encodeWord(text: string): string[] {
    const symbols: Symbol[] = [];
    const chars = Array.from(text);
    chars.forEach((ch, i) => symbols.push({ text: ch, prev: i - 1, next: i + 1 < chars.length ? i + 1 : -1 }));
    const queue = new BigramQueue();
    const merges = new Map<string, [string, string]>();
    const tryAdd = (left: number, right: number) => {
      if (left < 0 || right < 0) return;
      const joined = symbols[left]!.text + symbols[right]!.text;
      const id = this.ids.get(joined);
      if (id === undefined) return;
      queue.push({ left, right, score: this.scores[id] ?? 0, text: joined });
      merges.set(joined, [symbols[left]!.text, symbols[right]!.text]);
    };
    for (let i = 1; i < symbols.length; i++) tryAdd(i - 1, i);
    for (let b = queue.pop(); b !== undefined; b = queue.pop()) {
      const left = symbols[b.left]!;
      const right = symbols[b.right]!;
      // Stale entry: one side was merged since (llama.cpp compares sizes; the text says the same).
      if (left.text === "" || right.text === "" || left.text + right.text !== b.text) continue;
      left.text = b.text;
      right.text = "";
      left.next = right.next;
      if (right.next >= 0) symbols[right.next]!.prev = b.left;
      tryAdd(left.prev, b.left);
      tryAdd(b.left, left.next);
    }
    const out: string[] = [];
    const resegment = (text: string) => {
      if (this.ids.has(text)) {
        out.push(text);
        return;
      }
      const parts = merges.get(text);
      if (parts !== undefined) {
        resegment(parts[0]);
        resegment(parts[1]);
        return;
      }
      for (const byte of encoder.encode(text)) out.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    };
    for (let i = symbols.length > 0 ? 0 : -1; i !== -1; i = symbols[i]!.next) resegment(symbols[i]!.text);
    return out;
  }
}

/** Max-heap on score, ties to the smaller left index (llama.cpp's comparator). */
class BigramQueue {
  private readonly heap: Bigram[] = [];
  private static before(a: Bigram, b: Bigram): boolean {
    return a.score > b.score || (a.score === b.score && a.left < b.left);
  }
  push(b: Bigram): void {
    const h = this.heap;
    h.push(b);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!BigramQueue.before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  pop(): Bigram | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && BigramQueue.before(h[l]!, h[m]!)) m = l;
        if (r < h.length && BigramQueue.before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}
