/**
 * The decoder for JSON call objects: `{"name": "f", "arguments": {...}}`, an array of them, or (with
 * `sequence`) several separated by whitespace or `;` (Llama 3). It reads the object's top-level keys
 * itself, so it knows the name as soon as its string closes and streams the arguments value's bytes
 * as they arrive. Read as written: swapped key order (arguments buffered until the name comes), a
 * missing final `}` (or `]`) at the end of the output, no arguments at all (`{}`). Repaired when the
 * family tolerates it (compile-tolerances.ts `keyAliases`, each use reported): other key names for the
 * name or the arguments, and arguments written as a JSON string holding the object.
 */
import { NO_EVENTS } from "../decoder.js";
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { startsValue } from "../literal/dialects.js";
import { ValueExtentScanner } from "../literal/extent-scanner.js";
import { ArgsValue, clip } from "./json-value.js";
import { parseStringLiteral } from "./long-member.js";
import { OpenString } from "./open-string.js";
import { SeenText } from "./seen-text.js";

/** Where the string `reader` is inside opened, as a SeenText offset (its value starts at `start`). */
function offset(reader: ValueExtentScanner | undefined, start: number): number | undefined {
  const rel = reader?.openString;
  return rel === undefined ? undefined : start + rel;
}

export interface JsonCallsOptions {
  /** Keys that hold the tool name (default `name`). */
  nameKeys?: readonly string[];
  /** Keys that hold the arguments (default `arguments`). */
  argsKeys?: readonly string[];
  /** Keys that hold the model's own call id (Mistral `id`). */
  idKeys?: readonly string[];
  /** Apertus: `{"f": {...}}`, the object's only key is the name and its value the arguments. */
  nameIsKey?: boolean;
  /** Calls may follow one another, separated by whitespace or `;` (Llama 3 JSON). */
  sequence?: boolean;
}

const WS = /\s/;

/**
 * Keys a call object may carry besides its name and arguments without saying anything about them
 * (an id the format does not keep, Command R7B's `tool_call_id`; `"type": "function"`). Any other key
 * makes the object malformed: its text (a misspelt `"argumentz"`, an extra field) would otherwise be
 * lost.
 */
const NEUTRAL_KEYS: readonly string[] = ["id", "tool_call_id"];

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

type ObjectStep = "keyOrEnd" | "key" | "colon" | "value" | "afterValue";

class CallObject {
  step: ObjectStep = "keyOrEnd";
  braceSeen = false;
  keyReader: ValueExtentScanner | undefined;
  /** Where the key and the (non-arguments) value being read start, as SeenText offsets. */
  keyStart = 0;
  valueStart = 0;
  keyText = "";
  key = "";
  valueReader: ValueExtentScanner | undefined;
  valueText = "";
  name: string | undefined;
  id: string | undefined;
  args: ArgsValue | undefined;
  /** The value being read is the arguments. */
  inArgs = false;
  /** Keys that are neither the name, the arguments nor the id (a misspelt `"argumentz"`). */
  otherKeys: string[] = [];
  opened = false;
  /** Where the object's text starts and (so far) ends, as SeenText offsets. */
  rawEnd: number;
  constructor(readonly rawStart: number) {
    this.rawEnd = rawStart;
  }
}

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
  private readonly nameKeys: readonly string[];
  private readonly argsKeys: readonly string[];
  private readonly idKeys: readonly string[];
  /** The family's aliases of the name and arguments keys (repairs), without the payload's own keys. */
  private readonly nameAliases: readonly string[];
  private readonly argsAliases: readonly string[];
  /** Arguments written as a JSON string holding them are read as what they hold (a repair). */
  private readonly argsAsString: boolean;

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
    this.nameKeys = opts.nameKeys ?? ["name"];
    this.argsKeys = opts.argsKeys ?? ["arguments"];
    this.idKeys = opts.idKeys ?? [];
    const aliases = ctx.tolerances?.keyAliases;
    this.nameAliases = (aliases?.nameKeys ?? []).filter((k) => !this.nameKeys.includes(k));
    this.argsAliases = (aliases?.argsKeys ?? []).filter((k) => !this.argsKeys.includes(k));
    this.argsAsString = aliases?.argsAsString === true;
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
    return (obj.step !== "colon" && obj.step !== "value") || this.isCallKey(obj.key);
  }

  private isCallKey(key: string): boolean {
    return this.nameKeys.includes(key) || this.nameAliases.includes(key) || this.argsKeys.includes(key) || this.argsAliases.includes(key) ||
      this.idKeys.includes(key) || key === "type" || NEUTRAL_KEYS.includes(key);
  }

  /** Inside a JSON string of a call object (a key, the name, the arguments): see PayloadDecoder.opaque. */
  opaque(): boolean {
    const obj = this.obj;
    if (this.phase !== "object" || obj === undefined) return false;
    let at: number | undefined;
    if (obj.step === "key") at = offset(obj.keyReader, obj.keyStart);
    else if (obj.step === "value") at = obj.inArgs ? offset(obj.args?.reader, obj.args?.start ?? 0) : offset(obj.valueReader, obj.valueStart);
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
      this.obj = new CallObject(this.seen.base + i);
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
      this.obj = new CallObject(this.seen.base + j);
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
    let i = start;
    const base = this.seen.base;
    while (i < text.length) {
      const ch = text[i]!;
      switch (obj.step) {
        case "keyOrEnd":
          if (!obj.braceSeen) {
            obj.braceSeen = true; // the object's own `{`
            i++;
            continue;
          }
          if (WS.test(ch) || ch === ",") {
            i++;
            continue;
          }
          if (ch === "}") return this.endObject(text, i + 1, out);
          if (ch === '"') {
            obj.step = "key";
            obj.keyStart = base + i;
            obj.keyReader = new ValueExtentScanner("json");
            obj.keyText = "";
            continue;
          }
          obj.rawEnd = base + i;
          return this.failRegion(text, i, out, this.objectFailure("malformed", `expected a key in the call object, found ${JSON.stringify(ch)}`));
        case "key": {
          const end = obj.keyReader!.feed(text, i);
          obj.keyText += text.slice(i, end);
          i = end;
          if (obj.keyReader!.done) {
            obj.key = parseStringLiteral(obj.keyText) ?? obj.keyText;
            obj.step = "colon";
          }
          continue;
        }
        case "colon":
          if (WS.test(ch)) {
            i++;
            continue;
          }
          if (ch !== ":") {
            obj.rawEnd = base + i;
            return this.failRegion(text, i, out, this.objectFailure("malformed", `expected ':' after key ${JSON.stringify(obj.key)}`));
          }
          obj.step = "value";
          obj.valueReader = undefined;
          obj.inArgs = false;
          obj.valueText = "";
          i++;
          continue;
        case "value": {
          if (!obj.inArgs && obj.valueReader === undefined) {
            if (WS.test(ch)) {
              i++;
              continue;
            }
            if (!startsValue(ch, "json")) {
              obj.rawEnd = base + i;
              return this.failRegion(text, i, out, this.objectFailure("malformed", `expected a value for key ${JSON.stringify(obj.key)}`));
            }
            if (this.isArgsKey(obj)) {
              obj.inArgs = true;
              obj.args = new ArgsValue(this.argsAsString);
              if (this.argsAliases.includes(obj.key)) this.aliasRepair(obj, this.argsKeys, out);
              if (this.opts.nameIsKey) {
                obj.name = obj.key;
                this.openCall(obj, out);
              }
              if (obj.opened) obj.args.goLive();
            } else {
              obj.valueReader = new ValueExtentScanner("json");
              obj.valueStart = base + i;
            }
          }
          if (obj.inArgs) {
            i = obj.args!.feed(text, i, base);
            if (obj.args!.done) obj.step = "afterValue";
            continue;
          }
          const reader = obj.valueReader!;
          const end = reader.feed(text, i);
          obj.valueText += text.slice(i, end);
          i = end;
          if (reader.done) {
            this.keyValue(obj, out);
            obj.step = "afterValue";
          }
          continue;
        }
        case "afterValue":
          if (WS.test(ch)) {
            i++;
            continue;
          }
          if (ch === ",") {
            obj.step = "keyOrEnd";
            i++;
            continue;
          }
          if (ch === "}") return this.endObject(text, i + 1, out);
          obj.rawEnd = base + i;
          return this.failRegion(text, i, out, this.objectFailure("malformed", `expected ',' or '}' in the call object, found ${JSON.stringify(ch)}`));
      }
    }
    obj.rawEnd = base + i;
    return i;
  }

  /** The object's closing brace ends just before `next`: finish the call, then go on after it. */
  private endObject(text: string, next: number, out: DecoderEvent[]): number {
    this.obj!.rawEnd = this.seen.base + next;
    this.finishObject(out);
    this.afterObject(out, text, next);
    return this.phase === "closed" ? text.length : next;
  }

  private isArgsKey(obj: CallObject): boolean {
    if (this.opts.nameIsKey) return obj.args === undefined && obj.name === undefined;
    return obj.args === undefined && (this.argsKeys.includes(obj.key) || this.argsAliases.includes(obj.key));
  }

  /** A key the family's models write for `canonical` (a key-alias repair, kept if the call validates). */
  private aliasRepair(obj: CallObject, canonical: readonly string[], out: DecoderEvent[]): void {
    out.push({ kind: "repaired", repair: "key-alias", message: `key ${obj.keyText} read as ${JSON.stringify(canonical[0])}`, text: obj.keyText });
  }

  /** A non-arguments key's value is complete. */
  private keyValue(obj: CallObject, out: DecoderEvent[]): void {
    const alias = obj.name === undefined && this.nameAliases.includes(obj.key);
    const isName = (this.nameKeys.includes(obj.key) || alias) && obj.name === undefined;
    const isId = this.idKeys.includes(obj.key) && obj.id === undefined;
    if (!isName && !isId) {
      // `"type"` says nothing only when it says "function".
      const neutral = obj.key === "type" ? /^"function"$/.test(obj.valueText.trim()) : NEUTRAL_KEYS.includes(obj.key);
      if (!neutral) obj.otherKeys.push(obj.key);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(obj.valueText);
    } catch {
      return;
    }
    if (typeof value !== "string") return;
    if (isId) obj.id = value;
    if (isName) obj.name = value;
    if (alias) this.aliasRepair(obj, this.nameKeys, out);
    this.openCall(obj, out);
  }

  private openCall(obj: CallObject, out: DecoderEvent[], final = false): void {
    if (obj.opened || obj.name === undefined) return;
    // A format with its own ids: wait for the id (it may follow the arguments) unless the object ended.
    if (this.idKeys.length > 0 && obj.id === undefined && !final) return;
    obj.opened = true;
    out.push(obj.id !== undefined ? { kind: "call", name: obj.name, id: obj.id } : { kind: "call", name: obj.name });
    obj.args?.goLive();
  }

  private releaseArgs(out: DecoderEvent[]): void {
    const obj = this.obj;
    if (this.phase !== "object" || !obj?.args || !obj.opened) return;
    const text = obj.args.release();
    if (text !== "") out.push({ kind: "args", text });
  }

  /** The call object closed (or the output ended after its arguments): emit done or fail. */
  private finishObject(out: DecoderEvent[]): void {
    const obj = this.obj!;
    this.obj = undefined;
    this.calls++;
    const raw = this.seen.slice(obj.rawStart, obj.rawEnd);
    if (obj.name === undefined) {
      out.push({ kind: "fail", type: "malformed", message: "the call object has no name", raw });
      return;
    }
    if (obj.otherKeys.length > 0) {
      // `{"name": "f", "argumentz": {...}}`: the arguments are somewhere, but not where they belong;
      // reading it as a call without arguments (or ignoring the key) would drop the model's text.
      if (!obj.opened) this.openCall(obj, out, true);
      const keys = obj.otherKeys.map((k) => JSON.stringify(k)).join(", ");
      const message = obj.args === undefined
        ? `the call object has no arguments key (${this.argsKeys.map((k) => JSON.stringify(k)).join(" or ")}) but has ${keys}`
        : `the call object has keys that are not a call's: ${keys}`;
      out.push({ kind: "fail", type: "malformed", message, name: obj.name, raw });
      return;
    }
    if (!obj.opened) this.openCall(obj, out, true);
    if (obj.args === undefined) {
      // No arguments written: a call without parameters.
      out.push({ kind: "args", text: "{}" });
      out.push({ kind: "done", arguments: "{}", value: {}, raw });
      return;
    }
    const pending = obj.args.release();
    if (pending !== "") out.push({ kind: "args", text: pending });
    const { outcome, tail } = obj.args.finishFrom(this.seen);
    if (!outcome.ok) {
      out.push({ kind: "fail", type: "malformed", message: outcome.message, name: obj.name, raw });
      return;
    }
    if (tail !== "") out.push({ kind: "args", text: tail });
    if (outcome.fromString) {
      const text = this.seen.slice(obj.args.start, obj.args.end);
      out.push({ kind: "repaired", repair: "key-alias", message: "arguments written as a JSON string holding the object, read as the object", text });
    }
    out.push({ kind: "done", arguments: outcome.arguments, value: outcome.value, raw });
  }

  /** The current call object cannot be completed: its failure event (not yet emitted). */
  private objectFailure(type: "malformed" | "truncated", message: string): Extract<DecoderEvent, { kind: "fail" }> {
    const obj = this.obj!;
    this.obj = undefined;
    this.calls++;
    const event: Extract<DecoderEvent, { kind: "fail" }> = { kind: "fail", type, message, raw: this.seen.slice(obj.rawStart, obj.rawEnd) };
    if (obj.name !== undefined) event.name = obj.name;
    return event;
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
