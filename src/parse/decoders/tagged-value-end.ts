/**
 * Where a tagged value ends: the one scan of a value's text that both of the tagged decoder's paths use,
 * the step machine (valueText) and the streaming fast path (pushPlain, pushOpaque), so that the
 * two cannot read the same text differently.
 *
 * A `<` in a value is plain text (HTML, code, `x < 10`) unless it starts the value's close tag followed
 * by a tag that may really come next (afterParam) or the region's end, or an implicit end (a
 * `<parameter=` at a line start when Qwen3-Coder omitted `</parameter>`). While the text that decides
 * has not arrived, the verdict is `wait`.
 */
import type { TaggedSyntax } from "./tagged-syntax.js";
import { MAX_TAG, tokenAt } from "./tag-scan.js";
import { skipSpace } from "./step-decoder.js";

/**
 * What a `<` in a value is: the value's close tag, an implicit end (the value ends before it), plain
 * text, not decided yet, or the start of one of the region's markers (in full, or a tail of the text
 * that may become one).
 */
export type ValueEnd = "close" | "implicit" | "text" | "wait" | "regionEnd";

type EndSyntax = Pick<TaggedSyntax, "paramClose" | "implicitEnds" | "afterParam" | "afterParamNewline">;

const NO_ENDS: readonly string[] = [];
const LT = 0x3c;
/** Up to this many characters, a loop finds a `<` faster than a native call (see nextLt). */
const SHORT = 16;

export class ValueEndScan {
  /** The verdict on the `<` the last `find` returned ("text" when it returned -1). */
  verdict: ValueEnd = "text";
  /** followersOf(NO_ENDS), and the last other `ends` asked for with its followers. */
  private readonly ownFollow: string | undefined;
  private followEnds: readonly string[] = NO_ENDS;
  private follow: string | undefined;
  /** pairsOf(NO_ENDS), and pairsOf the last other `ends` asked for (see followersFor). */
  private readonly ownPairs: readonly number[] | undefined;
  private pairs: readonly number[] | undefined;

  constructor(private readonly syntax: EndSyntax) {
    this.ownFollow = this.followersOf(NO_ENDS);
    this.follow = this.ownFollow;
    this.ownPairs = this.pairsOf(NO_ENDS);
    this.pairs = this.ownPairs;
  }

  /**
   * The first `<` of `s`, from `first` (the index of a `<`, or -1), that ends the value or may end it,
   * or -1 when every `<` is text; `verdict` says which. The value's text in `s` starts at `i`
   * (`atLineStart`: a `<` there starts a line). With `ends` (the region's end markers), each `<` is
   * checked against them first, and one found after a `wait` still counts: it is what the engine's own
   * scan for markers would have acted on.
   *
   * A streaming push holds a few characters, and a native call (indexOf, startsWith) costs more than
   * comparing them one by one: the character after each `<`, and in a short text the next `<`, are
   * found in place.
   */
  find(s: string, i: number, first: number, final: boolean, atLineStart: boolean, ends: readonly string[]): number {
    const n = s.length;
    const follow = ends.length === 0 ? this.ownFollow : this.followersFor(ends);
    const pairs = ends.length === 0 ? this.ownPairs : this.pairs;
    let wait = -1;
    for (let p = first; p >= 0; p = nextLt(s, p + 1)) {
      // Every tag this can be starts `<` + one of `follow` (`</`, `<p`), and `<` + one of `pairs` in
      // its next two characters (`</p`, `</t`, `<pa`): any other `<` is text (`</div>`, `<p>`).
      if (p + 1 < n) {
        const c = s.charCodeAt(p + 1);
        if (follow !== undefined && !holdsCode(follow, c)) continue;
        if (pairs !== undefined && p + 2 < n && !holdsPair(pairs, c * 0x10000 + s.charCodeAt(p + 2))) continue;
      }
      for (let k = 0; k < ends.length; k++) {
        const at = tokenAt(s, p, ends[k]!, final);
        if (at === "no") continue;
        this.verdict = "regionEnd";
        return p;
      }
      // After a `<` that makes the value wait, later ones are only checked for end markers (above).
      if (wait >= 0) continue;
      const verdict = this.endAt(s, i, p, final, atLineStart);
      if (verdict === "text") continue;
      this.verdict = verdict;
      if (verdict !== "wait" || ends.length === 0) return p;
      wait = p;
    }
    this.verdict = wait < 0 ? "text" : "wait";
    return wait;
  }

  private followersFor(ends: readonly string[]): string | undefined {
    if (ends !== this.followEnds) {
      this.follow = this.followersOf(ends);
      this.pairs = this.pairsOf(ends);
      this.followEnds = ends;
    }
    return this.follow;
  }

  /** The tags followersOf reads, each starting with `<`: the close tag, the implicit ends, `ends`. */
  private tagsWith(ends: readonly string[]): string[] {
    return [this.syntax.paramClose, ...(this.syntax.implicitEnds ?? []).map((e) => e.tag), ...ends];
  }

  /**
   * followersOf, two characters deep: the second and third character of each of those tags, as one
   * number (second * 0x10000 + third); undefined when one of them is shorter than three characters.
   * A `<` whose next two characters are none of these starts none of the tags, in full or in part.
   */
  private pairsOf(ends: readonly string[]): readonly number[] | undefined {
    const tags = this.tagsWith(ends);
    if (tags.some((t) => t.length < 3)) return undefined;
    return [...new Set(tags.map((t) => t.charCodeAt(1) * 0x10000 + t.charCodeAt(2)))];
  }

  /**
   * The characters that can follow the `<` of a tag that ends a value or the region: the second
   * character of the value's close tag, of its implicit ends, and of `ends`; undefined (any character)
   * when one of them is a lone `<`.
   */
  private followersOf(ends: readonly string[]): string | undefined {
    const tags = this.tagsWith(ends);
    return tags.some((t) => t.length < 2) ? undefined : [...new Set(tags.map((t) => t.charAt(1)))].join("");
  }

  /** Whether the `<` at `s[p]` ends the value: its close tag, an implicit end, plain text, or wait for more. */
  private endAt(s: string, i: number, p: number, final: boolean, atLineStart: boolean): "close" | "implicit" | "text" | "wait" {
    const close = this.syntax.paramClose;
    const atClose = tokenAt(s, p, close, final);
    if (atClose === "full") {
      const after = this.realNext(s, p + close.length, final);
      if (after !== "no") return after === "yes" ? "close" : "wait";
    } else if (atClose === "partial") {
      return "wait";
    }
    const lineStart = p > i ? s[p - 1] === "\n" : atLineStart;
    for (const end of this.syntax.implicitEnds ?? []) {
      if (!lineStart && end.inline !== true) continue;
      const at = tokenAt(s, p, end.tag, final);
      if (at === "partial") return "wait";
      if (at === "no") continue;
      const next = end.then !== undefined
        ? closedBy(s, p + end.tag.length, end.then, final)
        : end.after ? this.realNext(s, p + end.tag.length, final, end.after) : completeOnLine(s, p + end.tag.length, final);
      if (next !== "no") return next === "yes" ? "implicit" : "wait";
    }
    return "text";
  }

  /** After a close tag: is the next thing (after whitespace) a tag that may follow it, or the region end? */
  private realNext(s: string, j: number, final: boolean, after = this.syntax.afterParam): "yes" | "no" | "wait" {
    const k = skipSpace(s, j);
    if (k === s.length) return final ? "yes" : "wait";
    // Whitespace without a newline (`</parameter> <parameter=x>`) is a line of code; no whitespace at all
    // is the one-line form (`<parameter=a>1</parameter></function>`).
    if (after === this.syntax.afterParam && this.syntax.afterParamNewline && k > j && !hasNewline(s, j, k)) return "no";
    for (const tag of after) {
      const at = tokenAt(s, k, tag, final);
      if (at !== "no") return at === "full" ? "yes" : "wait";
    }
    return "no";
  }
}

/** Whether an open tag whose prefix ended at `s[j]` closes with `>` before the line (or a `<`) ends. */
function completeOnLine(s: string, j: number, final: boolean): "yes" | "no" | "wait" {
  for (let i = j; i < s.length && i - j < MAX_TAG; i++) {
    const c = s[i]!;
    if (c === ">") return i > j ? "yes" : "no";
    if (c === "\n" || c === "<") return "no";
  }
  return final || s.length - j >= MAX_TAG ? "no" : "wait";
}

/**
 * Whether the text from `s[j]` reaches the tag `then[0]` before any other `<` (within MAX_TAG), and each
 * later tag of `then` follows the one before it after whitespace only.
 */
function closedBy(s: string, j: number, then: readonly string[], final: boolean): "yes" | "no" | "wait" {
  const lt = s.indexOf("<", j);
  if (lt < 0 || lt - j > MAX_TAG) return final || s.length - j > MAX_TAG ? "no" : "wait";
  let k = lt;
  for (let t = 0; t < then.length; t++) {
    if (t > 0) {
      k = skipSpace(s, k);
      if (k === s.length) return final ? "no" : "wait";
    }
    const at = tokenAt(s, k, then[t]!, final);
    if (at !== "full") return at === "partial" ? "wait" : "no";
    k += then[t]!.length;
  }
  return "yes";
}

/**
 * The index of the first `<` of `s` at or after `from`, or -1: in the few characters of a streaming
 * push a loop (see ValueEndScan.find), in a long text (a one-shot parse) the native search.
 */
function nextLt(s: string, from: number): number {
  if (s.length - from > SHORT) return s.indexOf("<", from);
  for (let k = from; k < s.length; k++) if (s.charCodeAt(k) === LT) return k;
  return -1;
}

/** Whether `pairs` (a few numbers, see ValueEndScan.pairsOf) holds `pair`. */
function holdsPair(pairs: readonly number[], pair: number): boolean {
  for (let k = 0; k < pairs.length; k++) if (pairs[k] === pair) return true;
  return false;
}

/** Whether the (short) string `chars` holds the character `code`. */
function holdsCode(chars: string, code: number): boolean {
  for (let k = 0; k < chars.length; k++) if (chars.charCodeAt(k) === code) return true;
  return false;
}

function hasNewline(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s[i] === "\n") return true;
  return false;
}
