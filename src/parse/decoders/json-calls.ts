/**
 * The decoder for JSON call objects: `{"name": "f", "arguments": {...}}`, an array of them, or (with
 * `sequence`) several separated by whitespace or `;` (Llama 3). This file reads what lies around the
 * objects (array brackets, separators, the text after the payload) and what a failure swallows; each
 * object is read by CallObject (json-call-object.ts), which knows the name as soon as its string
 * closes and streams the arguments as they arrive, its keys read by CallKeys (json-call-keys.ts, with
 * the family's key aliases). Read as written: a missing final `}` (or `]`) at the end of the output.
 */
import { NO_EVENTS } from "../decoder.js";
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { CallKeys } from "./json-call-keys.js";
import type { JsonCallsOptions } from "./json-call-keys.js";
import { CallObject } from "./json-call-object.js";
import { clip } from "./json-value.js";
import { OpenString } from "./open-string.js";
import { SeenText } from "./seen-text.js";

export type { JsonCallsOptions } from "./json-call-keys.js";

const WS = /\s/;

type Phase =
  | "lead" // before the payload
  | "item" // inside an array, expecting a call object or `]`
  | "itemSep" // inside an array after a call, expecting `,` or `]`
  | "object" // inside a call object
  | "seq" // after a call in sequence mode: `;`/whitespace until the next `{`
  | "after" // the payload is complete; only whitespace should follow
  | "skip" // the region failed; swallow the rest
  | "skipLine" // a call of a sequence failed; swallow the rest of its line, then calls may follow
  | "closed";

export class JsonCallsDecoder implements PayloadDecoder {
  private phase: Phase = "lead";
  private inArray = false;
  private obj: CallObject | undefined;
  /** Text of the region that belongs to no call (for a region-level failure). */
  private junk: string[] = [];
  /** Separator text held in sequence mode until we know whether another call follows. */
  private sep = "";
  /** Calls completed or failed in this region. */
  private calls = 0;
  /** A failure reported at the end, once all the text it swallows is known. */
  private pendingFail: Extract<DecoderEvent, { kind: "fail" }> | undefined;
  private readonly keys: CallKeys;

  private readonly seen: SeenText;
  private readonly string: OpenString;
  /** The events of the push in progress (handed out, and replaced, when there are any). */
  private out: DecoderEvent[] = [];
  /**
   * The last push went through pushOpaque, and nothing else has been pushed since: the text still ends
   * inside the same unbroken arguments string, so pushOpaque's checks of that need not be made again.
   */
  private inOpaqueRun = false;

  constructor(
    private readonly opts: JsonCallsOptions,
    private readonly selfClosing: boolean,
    ctx: DecoderContext,
  ) {
    this.seen = new SeenText(ctx.regionText, ctx.regionPieces);
    this.string = new OpenString(this.seen);
    this.keys = new CallKeys(opts, ctx.tolerances?.keyAliases, ctx.tolerances?.functionWrapperKeys);
  }

  push(text: string): DecoderEvent[] {
    this.inOpaqueRun = false;
    const out = this.out;
    this.seen.begin(text);
    let i = 0;
    while (i < text.length && this.phase !== "closed") {
      switch (this.phase) {
        case "lead":
        case "item":
        case "itemSep":
        case "after":
          i = this.structural(text, i, out);
          break;
        case "object":
          i = this.objectChars(text, i, out);
          break;
        case "seq":
          i = this.sequenceChars(text, i, out);
          break;
        case "skip":
          this.junk.push(text.slice(i));
          i = text.length;
          break;
        case "skipLine":
          i = this.skipLine(text, i, out);
          break;
      }
    }
    return this.handOut(out);
  }

  /** Releases streamable argument bytes, then hands out the push's events. */
  private handOut(out: DecoderEvent[]): DecoderEvent[] {
    this.releaseArgs(out);
    // Most pushes inside a long value emit at most one fragment; one that emits nothing allocates nothing.
    if (out.length === 0) return NO_EVENTS;
    this.out = [];
    return out;
  }

  /**
   * The common push of a long string argument: all of it is inside the string. Exactly what push (and
   * objectChars) does with it, without the per-character dispatch and the event.
   */
  pushPlain(text: string): string | undefined {
    this.inOpaqueRun = false;
    const obj = this.obj;
    // `seen.total` is where this text starts (its base once begun).
    if (this.phase !== "object" || obj!.step !== "value" || !obj!.inArgs || !obj!.args!.feedInString(text, this.seen.total)) return undefined;
    this.seen.begin(text);
    obj!.rawEnd = this.seen.total;
    return obj!.opened ? obj!.args!.release() : "";
  }

  /**
   * A push that stays inside an open string of the arguments (no closing quote, no raw newline, which
   * would break the string): what pushPlain does with it, and the engine need not look for markers in
   * it (they are the string's, see opaque).
   */
  pushOpaque(text: string): string | undefined {
    const obj = this.obj;
    if (!this.inOpaqueRun) {
      if (this.phase !== "object" || obj!.step !== "value" || !obj!.inArgs) return undefined;
      const rel = obj!.args!.reader.openString;
      if (rel === undefined || !this.string.open(obj!.args!.start + rel)) return undefined;
      this.inOpaqueRun = true;
    }
    const args = obj!.args!;
    if (!args.feedInString(text, this.seen.total, true)) return undefined;
    this.seen.begin(text);
    this.string.clean();
    obj!.rawEnd = this.seen.total;
    return obj!.opened ? args.release() : "";
  }

  /**
   * False once the text read so far can no longer be a call: the region failed, or an object has a key
   * no call object has (`{"answer": ...`). A reader that holds text while it may be a call (bare-call)
   * lets it go then.
   */
  mayBeCall(): boolean {
    if (this.phase === "skip" || this.phase === "skipLine" || this.pendingFail !== undefined) return false;
    const obj = this.obj;
    if (obj === undefined || this.opts.nameIsKey) return true;
    if (obj.otherKeys.length > 0) return false;
    return (obj.step !== "colon" && obj.step !== "value") || this.keys.isCallKey(obj.key);
  }

  /** Inside a JSON string of a call object (a key, the name, the arguments): see PayloadDecoder.opaque. */
  opaque(): boolean {
    const obj = this.obj;
    if (this.phase !== "object" || obj === undefined) return false;
    const at = obj.openStringAt();
    return at !== undefined && this.string.open(at);
  }

  end(closed: boolean): DecoderEvent[] {
    const out: DecoderEvent[] = [];
    switch (this.phase) {
      case "object": {
        const obj = this.obj!;
        obj.rawEnd = this.seen.total;
        // A call cut off after its arguments completed only misses its closing brace(s): accept it.
        const argsComplete = obj.args !== undefined && (obj.args.done || obj.args.reader.finish());
        const between = obj.step === "afterValue" || obj.step === "keyOrEnd" || (obj.step === "value" && obj.inArgs);
        // Only at the end of the output: before an end marker a missing brace is a malformed call.
        if (!closed && argsComplete && between && obj.name !== undefined) this.finishObject(out);
        else if (closed) out.push(this.objectFailure("malformed", "the call object is not closed before the end of its region"));
        else out.push(this.objectFailure("truncated", "the call was cut off before it ended"));
        break;
      }
      case "lead":
      case "item":
      case "itemSep":
        if (this.calls === 0) {
          out.push(closed
            ? { kind: "fail", type: "malformed", message: "no call in the region", raw: "" }
            : { kind: "fail", type: "truncated", message: "the output ended inside a call region", raw: "" });
        }
        break;
      case "skip":
      case "skipLine":
        this.reportFailure(out);
        break;
      case "after": {
        const rest = this.junk.join("");
        if (rest.trim() !== "") out.push({ kind: "fail", type: "malformed", message: `unexpected text after the calls: ${clip(rest)}`, raw: rest });
        break;
      }
      case "seq":
        if (this.selfClosing) out.push({ kind: "close", rest: this.sep });
        break;
      case "closed":
        break;
    }
    this.phase = "closed";
    return out;
  }

  /** Outside call objects: array brackets, separators, whitespace. */
  private structural(text: string, i: number, out: DecoderEvent[]): number {
    const ch = text[i]!;
    if (WS.test(ch)) {
      if (this.phase === "after") this.junk.push(ch);
      return i + 1;
    }
    if (this.phase === "after") {
      if (this.selfClosing) {
        this.close(out, text.slice(i));
        return text.length;
      }
      this.junk.push(text.slice(i));
      return text.length;
    }
    if (this.phase === "lead" && ch === "[") {
      this.inArray = true;
      this.phase = "item";
      return i + 1;
    }
    // `}{` inside an array (a missing comma, as Ollama's Cohere tests show) still starts the next call.
    if ((this.phase === "lead" || this.phase === "item" || (this.phase === "itemSep" && this.inArray)) && ch === "{") {
      this.obj = new CallObject(this.seen.base + i, this.keys, this.seen);
      this.phase = "object";
      return i; // the object reads its own `{`
    }
    if (this.inArray && ch === "]" && this.phase !== "lead") {
      this.payloadComplete(out, text, i + 1);
      return this.phase === "closed" ? text.length : i + 1;
    }
    if (this.phase === "itemSep" && ch === ",") {
      this.phase = "item";
      return i + 1;
    }
    if (this.phase === "lead") {
      // The marker was prose ("wrapped in <tool_call> tags"): not a call. Hand the text back.
      this.close(out, text.slice(i));
      return text.length;
    }
    return this.failRegion(text, i, out);
  }

  /**
   * The region's text from `i` on is not a call. In a self-closing region it is handed back to the
   * engine as text; otherwise it is swallowed until the region ends and reported with the failure
   * (`pending`, the call that broke, or the region itself).
   */
  private failRegion(text: string, i: number, out: DecoderEvent[], pending?: Extract<DecoderEvent, { kind: "fail" }>): number {
    const fail = pending ?? { kind: "fail", type: "malformed", message: "not a JSON call:", raw: "", at: this.seen.base + i };
    if (this.selfClosing) {
      out.push(fail);
      this.close(out, text.slice(i));
      return text.length;
    }
    this.pendingFail = fail;
    if (pending !== undefined && this.opts.sequence && !this.inArray) {
      // One call per line between end markers (MiniMax M1): a broken object fails with the rest of its
      // line, and the calls on the lines after it are still read.
      this.junk = [];
      this.phase = "skipLine";
      return this.skipLine(text, i, out);
    }
    this.junk = [text.slice(i)];
    this.phase = "skip";
    return text.length;
  }

  /** Reports the pending failure with the text swallowed since it (`junk`) as its raw text. */
  private reportFailure(out: DecoderEvent[]): void {
    const fail = this.pendingFail!;
    fail.raw = (fail.raw ?? "") + this.junk.join("");
    out.push(fail);
    this.pendingFail = undefined;
    this.junk = [];
  }

  private skipLine(text: string, i: number, out: DecoderEvent[]): number {
    const nl = text.indexOf("\n", i);
    if (nl < 0) {
      this.junk.push(text.slice(i));
      return text.length;
    }
    this.junk.push(text.slice(i, nl + 1));
    this.reportFailure(out);
    this.phase = "seq";
    this.sep = "";
    return nl + 1;
  }

  private close(out: DecoderEvent[], rest: string): void {
    out.push({ kind: "close", rest });
    this.phase = "closed";
  }

  /** The top-level value (array or single object) ended at `next`. */
  private payloadComplete(out: DecoderEvent[], text: string, next: number): void {
    if (this.opts.sequence && !this.inArray) {
      this.phase = "seq";
      this.sep = "";
      return;
    }
    if (this.selfClosing) {
      this.close(out, text.slice(next));
      return;
    }
    this.phase = "after";
    this.junk = [];
  }

  private sequenceChars(text: string, i: number, out: DecoderEvent[]): number {
    let j = i;
    while (j < text.length && (WS.test(text[j]!) || text[j] === ";")) j++;
    this.sep += text.slice(i, j);
    if (j === text.length) return j;
    if (text[j] === "{") {
      this.sep = "";
      this.obj = new CallObject(this.seen.base + j, this.keys, this.seen);
      this.phase = "object";
      return j;
    }
    const rest = this.sep + text.slice(j);
    this.sep = "";
    if (this.selfClosing) this.close(out, rest);
    else {
      this.phase = "after";
      this.junk = [rest];
    }
    return text.length;
  }

  /** Characters inside a call object. Returns the next index. */
  private objectChars(text: string, start: number, out: DecoderEvent[]): number {
    const obj = this.obj!;
    const next = obj.read(text, start, this.seen.base, out);
    if (obj.state === "closed") {
      this.finishObject(out);
      this.afterObject(out, text, next);
      return this.phase === "closed" ? text.length : next;
    }
    if (obj.state === "broken") return this.failRegion(text, next, out, this.objectFailure("malformed", obj.problem));
    return next;
  }

  private releaseArgs(out: DecoderEvent[]): void {
    if (this.phase === "object") this.obj?.release(out);
  }

  /** The call object closed (or the output ended after its arguments): emit done or fail. */
  private finishObject(out: DecoderEvent[]): void {
    const obj = this.obj!;
    this.obj = undefined;
    this.calls++;
    obj.finish(out);
  }

  /** The current call object cannot be completed: its failure event (not yet emitted). */
  private objectFailure(type: "malformed" | "truncated", message: string): Extract<DecoderEvent, { kind: "fail" }> {
    const obj = this.obj!;
    this.obj = undefined;
    this.calls++;
    return obj.failure(type, message);
  }

  private afterObject(out: DecoderEvent[], text: string, next: number): void {
    if (this.inArray) {
      this.phase = "itemSep";
      return;
    }
    this.payloadComplete(out, text, next);
  }
}

export function jsonCalls(opts: JsonCallsOptions = {}): DecoderFactory {
  return (ctx: DecoderContext) => new JsonCallsDecoder(opts, ctx.selfClosing ?? false, ctx);
}
