/**
 * The arguments value of a JSON call, captured as the model wrote it. While the call's name is known
 * (`live`), its bytes are released for streaming as they arrive; before that they are kept until the
 * name shows up (key order may be swapped). A value written as a JSON *string* that holds the object
 * (Granite 4, some Qwen fine-tunes) is only released when complete, decoded, so the streamed
 * fragments always add up to the final `arguments` text.
 */
import { ValueExtentScanner } from "../literal/extent-scanner.js";
import { parseWithLongMember } from "./long-member.js";
import type { SeenText } from "./seen-text.js";

/** `fromString`: the value was a JSON string holding the arguments, read as what it holds. */
export type ArgsOutcome = { ok: true; arguments: string; value: unknown; fromString?: true } | { ok: false; message: string };

export class ArgsValue {
  /** Finds where the value ends; JSON.parse reads it once it is complete. */
  readonly reader = new ValueExtentScanner("json");
  /** Where the value starts and (so far) ends, as offsets into the decoder's SeenText. */
  start = -1;
  end = -1;
  /** The part of the value not yet released for streaming. */
  private pending = "";
  private live = false;

  /** `stringHoldsArgs`: a JSON string value that holds JSON is read as what it holds (else it stays a string). */
  constructor(private readonly stringHoldsArgs = true) {}

  get done(): boolean {
    return this.reader.done;
  }

  /**
   * Consumes the value's characters from `text[from]`; returns the index after the last one taken.
   * `base` is the offset of `text[0]` in the decoder's SeenText.
   */
  feed(text: string, from: number, base: number): number {
    const end = this.reader.feed(text, from);
    if (this.start < 0) this.start = base + from;
    this.end = base + end;
    // Only what is still to be streamed is kept; a value whose name is pending is kept whole.
    if (end > from && this.reader.kind !== "string") this.pending += text.slice(from, end);
    return end;
  }

  /**
   * The streaming fast path: reads all of `text` (at offset `base`) if it stays inside a string of the
   * value (`line`: and holds no raw newline), with the same effect as feed; otherwise reads nothing and
   * returns false.
   */
  feedInString(text: string, base: number, line = false): boolean {
    if (text === "" || !this.reader.feedInString(text, line)) return false;
    this.end = base + text.length;
    if (this.reader.kind !== "string") this.pending = this.pending === "" ? text : this.pending + text;
    return true;
  }

  /** The name is known: buffered bytes may go out. */
  goLive(): void {
    this.live = true;
  }

  /** Bytes not yet released that may be streamed now (never for a string-encoded value). */
  release(): string {
    if (!this.live || this.reader.kind === "string" || this.pending === "") return "";
    const out = this.pending;
    this.pending = "";
    return out;
  }

  /**
   * The final arguments, plus what is still to be released so fragments add up to them. `raw` is the
   * value's whole text (the SeenText slice from `start` to `end`).
   */
  /** As finish, reading the value's text from `seen`; a long string member is not joined to parse it. */
  finishFrom(seen: SeenText): { outcome: ArgsOutcome; tail: string } {
    const raw = seen.slice(this.start, this.end);
    if (this.reader.kind !== "object" || !this.reader.finish()) return this.finish(raw);
    const parsed = parseWithLongMember(seen, this.start, this.end, this.reader.members);
    if (parsed === undefined) return this.finish(raw);
    const tail = this.pending;
    this.pending = "";
    return { outcome: { ok: true, arguments: raw, value: parsed.value }, tail };
  }

  finish(raw: string): { outcome: ArgsOutcome; tail: string } {
    const ended = this.reader.finish();
    if (!ended) return { outcome: { ok: false, message: "arguments cut off before their end" }, tail: "" };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { outcome: { ok: false, message: `arguments are not valid JSON: ${clip(raw)}` }, tail: "" };
    }
    if (this.reader.kind === "string" && this.stringHoldsArgs) {
      // A string holding JSON: decode it and use the inner text as the arguments.
      const inner = value as string;
      try {
        const decoded: unknown = JSON.parse(inner);
        return { outcome: { ok: true, arguments: inner, value: decoded, fromString: true }, tail: inner };
      } catch {
        return { outcome: { ok: true, arguments: raw, value }, tail: raw };
      }
    }
    const tail = this.pending;
    this.pending = "";
    return { outcome: { ok: true, arguments: raw, value }, tail };
  }
}

export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
