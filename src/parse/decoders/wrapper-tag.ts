/**
 * The `wrapper-tag` repair's reader (compile-tolerances.ts): tags the format does not have around the
 * family's calls, `<response>\n  <tools>\n {...}\n  </tools>\n</response>`. The region opened at the
 * outer open tag (its start marker); this decoder reads whitespace and further listed open tags, then
 * hands the text to the family's call decoder (self-closing, as a bare call is read) until that one
 * says the calls ended, then reads whitespace and the close tags in reverse order, and closes the
 * region after the last one. Anything else is a `fail`: the held-call decoder around it (bare-call.ts)
 * then hands all the text back as content. It reports its repair (the tags) before the first call.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

const WS = /\s/;

export type TagPair = readonly [string, string];

class WrapperTagDecoder implements PayloadDecoder {
  private phase: "open" | "inner" | "close" | "done" = "open";
  /** The open tags read (the region's start marker first), and the close tags still due (innermost last). */
  private readonly opened: string[];
  private readonly due: string[];
  /** A tag read in part. */
  private tag = "";
  /** Payload characters read before the calls started (where the inner decoder's text starts). */
  private before = 0;
  private inner: PayloadDecoder | undefined;

  constructor(
    outer: TagPair,
    private readonly tags: readonly TagPair[],
    private readonly calls: DecoderFactory,
    private readonly ctx: DecoderContext,
  ) {
    this.opened = [outer[0]];
    this.due = [outer[1]];
  }

  push(text: string): DecoderEvent[] {
    const out: DecoderEvent[] = [];
    let i = 0;
    while (this.phase === "open" && i < text.length) {
      const ch = text[i]!;
      if (this.tag === "" && ch !== "<") {
        if (!WS.test(ch)) {
          this.startCalls(out);
          break;
        }
        i++;
        this.before++;
        continue;
      }
      this.tag += ch;
      i++;
      this.before++;
      const pair = this.tags.find((t) => t[0] === this.tag);
      if (pair !== undefined) {
        this.opened.push(pair[0]);
        this.due.push(pair[1]);
        this.tag = "";
      } else if (!this.tags.some((t) => t[0].startsWith(this.tag))) return this.fail(out, `${JSON.stringify(this.tag)} is not a wrapper tag`);
    }
    if (this.phase === "inner" && i < text.length) {
      for (const e of this.inner!.push(text.slice(i))) {
        if (e.kind !== "close") out.push(e);
        else {
          this.phase = "close";
          this.closeTags(e.rest, out);
        }
      }
      return out;
    }
    if (this.phase === "close" && i < text.length) this.closeTags(text.slice(i), out);
    return out;
  }

  /** The calls start: the family's decoder reads from here, and the repair is reported before them. */
  private startCalls(out: DecoderEvent[]): void {
    const at = this.before;
    const ctx = this.ctx;
    const shifted: DecoderContext = { ...ctx, selfClosing: true };
    if (ctx.regionText !== undefined) shifted.regionText = (from, to) => ctx.regionText!(from + at, to + at);
    if (ctx.regionPieces !== undefined) shifted.regionPieces = (from, to) => ctx.regionPieces!(from + at, to + at);
    this.inner = this.calls(shifted);
    this.phase = "inner";
    const tags = this.opened.join("") + [...this.due].reverse().join("");
    out.push({ kind: "repaired", repair: "wrapper-tag", message: `the calls inside ${this.opened.join("")} (tags the format does not have) read as calls`, text: tags });
  }

  /** After the calls: whitespace and the close tags due, innermost first; the region closes after the last. */
  private closeTags(s: string, out: DecoderEvent[]): void {
    for (let j = 0; j < s.length; j++) {
      const ch = s[j]!;
      if (this.tag === "" && WS.test(ch)) continue;
      this.tag += ch;
      const want = this.due[this.due.length - 1]!;
      if (this.tag === want) {
        this.due.pop();
        this.tag = "";
        if (this.due.length === 0) {
          this.phase = "done";
          out.push({ kind: "close", rest: s.slice(j + 1) });
          return;
        }
      } else if (!want.startsWith(this.tag)) {
        this.fail(out, `expected ${JSON.stringify(want)} after the calls`);
        return;
      }
    }
  }

  private fail(out: DecoderEvent[], message: string): DecoderEvent[] {
    this.phase = "done";
    out.push({ kind: "fail", type: "malformed", message, raw: "" });
    return out;
  }

  mayBeCall(): boolean {
    return this.phase !== "inner" || this.inner!.mayBeCall?.() !== false;
  }

  opaque(): boolean {
    return this.phase === "inner" && (this.inner!.opaque?.() ?? false);
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.phase === "done") return [];
    const out = this.phase === "inner" ? this.inner!.end(closed).filter((e) => e.kind !== "close") : [];
    // The tags never closed: not a call a reader can be sure of.
    return this.fail(out, `the output ended before ${JSON.stringify(this.due[0])}`);
  }
}

/** The wrapper region opened by `outer`'s open tag; `tags` may nest inside it; `calls` reads the calls. */
export function wrapperTag(outer: TagPair, tags: readonly TagPair[], calls: DecoderFactory): DecoderFactory {
  return (ctx: DecoderContext) => new WrapperTagDecoder(outer, tags, calls, ctx);
}
