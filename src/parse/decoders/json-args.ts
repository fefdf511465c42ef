/**
 * The decoder for a bare arguments value whose call name is already known (from a header the engine
 * or `headerArgs` read: DeepSeek, Kimi, Mistral `[ARGS]`, functionary, harmony). It streams the
 * value's bytes as they arrive. Options: the value may sit in a Markdown fence (DeepSeek R1 writes
 * ```` ```json\n{...}\n``` ````), and a body that is not JSON at all may still be the call's input
 * (harmony): then the whole body, trimmed, is the arguments text.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { startsValue } from "../literal/dialects.js";
import { ArgsValue, clip } from "./json-value.js";
import { OpenString } from "./open-string.js";
import { SeenText } from "./seen-text.js";

export interface JsonArgsOptions {
  /** The value may be wrapped in a ``` fence (with an optional language tag). */
  fence?: boolean;
  /** A body that does not start like JSON is kept as raw text arguments instead of failing. */
  rawText?: boolean;
}

/** A fence line: backticks and an optional `json` tag (checked once the line ended, or as a prefix). */
const FENCE_LINE = /^`{1,3}(?:json)?[ \t\r]*$/i;
const FENCE_PREFIX = /^`{1,3}(?:j(?:s(?:o(?:n)?)?)?)?[ \t\r]*$/i;

type Phase = "lead" | "fenceLine" | "value" | "raw" | "after" | "closed";

export class JsonArgsDecoder implements PayloadDecoder {
  private phase: Phase = "lead";
  private readonly args = new ArgsValue();
  private readonly rawParts: string[] = [];
  private trailing: string[] = [];
  /** The fence line read so far, and where it starts (SeenText offset). */
  private fence = "";
  private fenceAt = 0;

  private readonly seen: SeenText;
  private readonly string: OpenString;
  /** As in JsonCallsDecoder: the last push went through pushOpaque, and nothing else since. */
  private inOpaqueRun = false;

  constructor(
    private readonly opts: JsonArgsOptions,
    private readonly selfClosing: boolean,
    ctx: DecoderContext,
  ) {
    this.seen = new SeenText(ctx.regionText);
    this.string = new OpenString(this.seen);
    this.args.goLive();
  }

  push(text: string): DecoderEvent[] {
    this.inOpaqueRun = false;
    const out: DecoderEvent[] = [];
    this.seen.begin(text);
    let i = 0;
    while (i < text.length && this.phase !== "closed") {
      const ch = text[i]!;
      switch (this.phase) {
        case "lead":
          if (/\s/.test(ch)) i++;
          else if (this.opts.fence && ch === "`") {
            this.phase = "fenceLine";
            this.fence = "";
            this.fenceAt = this.seen.base + i;
          }
          else if (startsValue(ch, "json")) this.phase = "value";
          else if (this.opts.rawText) this.phase = "raw";
          else {
            this.phase = "after";
            this.trailing = [];
            out.push({ kind: "fail", type: "malformed", message: "expected JSON arguments, found", at: this.seen.base + i });
            if (this.selfClosing) {
              out.push({ kind: "close", rest: text.slice(i) });
              this.phase = "closed";
              return out;
            }
            this.phase = "closed";
            return out;
          }
          break;
        case "fenceLine": {
          // The fence's line is its backticks and `json`; anything else on it is no fence
          // (its text would vanish with the fence).
          const nl = text.indexOf("\n", i);
          this.fence += text.slice(i, nl < 0 ? text.length : nl);
          // Until the line ends, what came so far may still grow into one (`\`\`\`js` -> `\`\`\`json`).
          if (!(nl < 0 ? FENCE_PREFIX : FENCE_LINE).test(this.fence)) {
            out.push({ kind: "fail", type: "malformed", message: "expected a ``` fence line, found", at: this.fenceAt });
            this.phase = "closed";
            return out;
          }
          if (nl < 0) return out;
          i = nl + 1;
          this.phase = "lead";
          break;
        }
        case "value": {
          i = this.args.feed(text, i, this.seen.base);
          const fresh = this.args.release();
          if (fresh !== "") out.push({ kind: "args", text: fresh });
          if (this.args.done) {
            this.complete(out);
            if (this.selfClosing) {
              out.push({ kind: "close", rest: text.slice(i) });
              this.phase = "closed";
              return out;
            }
            this.phase = "after";
          }
          break;
        }
        case "raw":
          this.rawParts.push(text.slice(i));
          i = text.length;
          break;
        case "after":
          this.trailing.push(text.slice(i));
          i = text.length;
          break;
      }
    }
    return out;
  }

  /** The common push of a long string argument, all of it inside the string: see PayloadDecoder.pushPlain. */
  pushPlain(text: string): string | undefined {
    this.inOpaqueRun = false;
    if (this.phase !== "value" || !this.args.feedInString(text, this.seen.total)) return undefined;
    this.seen.begin(text);
    return this.args.release();
  }

  /** pushPlain for text that also holds no raw newline, so markers in it are the string's (see opaque). */
  pushOpaque(text: string): string | undefined {
    if (!this.inOpaqueRun) {
      if (this.phase !== "value") return undefined;
      const rel = this.args.reader.openString;
      if (rel === undefined || !this.string.open(this.args.start + rel)) return undefined;
      this.inOpaqueRun = true;
    }
    if (!this.args.feedInString(text, this.seen.total, true)) return undefined;
    this.seen.begin(text);
    this.string.clean();
    return this.args.release();
  }

  /** Inside a JSON string of the arguments: see PayloadDecoder.opaque. */
  opaque(): boolean {
    const rel = this.phase === "value" ? this.args.reader.openString : undefined;
    return rel !== undefined && this.string.open(this.args.start + rel);
  }

  end(_closed: boolean): DecoderEvent[] {
    const out: DecoderEvent[] = [];
    if (this.phase === "value") {
      if (this.args.reader.finish()) this.complete(out);
      else out.push({ kind: "fail", type: "truncated", message: "the arguments were cut off before their end" });
    } else if (this.phase === "raw") {
      const body = this.rawParts.join("").trim();
      out.push({ kind: "args", text: body });
      out.push({ kind: "done", arguments: body, value: body });
    } else if (this.phase === "lead" || this.phase === "fenceLine") {
      out.push({ kind: "fail", type: _closed ? "malformed" : "truncated", message: "the call has no arguments" });
    } else if (this.phase === "after") {
      // Only whitespace and a closing fence may follow the value.
      const rest = this.trailing.join("");
      if (rest.replace(/`/g, "").trim() !== "") {
        out.push({ kind: "fail", type: "malformed", message: `unexpected text after the arguments: ${clip(rest)}`, raw: rest });
      }
    }
    this.phase = "closed";
    return out;
  }

  private complete(out: DecoderEvent[]): void {
    const { outcome, tail } = this.args.finish(this.seen.slice(this.args.start, this.args.end));
    if (!outcome.ok) {
      out.push({ kind: "fail", type: "malformed", message: outcome.message });
      return;
    }
    if (tail !== "") out.push({ kind: "args", text: tail });
    out.push({ kind: "done", arguments: outcome.arguments, value: outcome.value });
  }
}

export function jsonArgs(opts: JsonArgsOptions = {}): DecoderFactory {
  return (ctx: DecoderContext) => new JsonArgsDecoder(opts, ctx.selfClosing ?? false, ctx);
}
