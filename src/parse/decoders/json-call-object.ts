/**
 * One JSON call object being read, `{"name": "f", "arguments": {...}}`, character by character: its
 * keys (CallKeys says what each means), the name as soon as its string closes (the call opens then),
 * the arguments value streamed as it arrives (ArgsValue), and at the closing brace the call's `done`
 * or `fail`. Swapped key order buffers the arguments until the name comes.
 */
import type { DecoderEvent } from "../decoder.js";
import { startsValue } from "../literal/dialects.js";
import { ValueExtentScanner } from "../literal/extent-scanner.js";
import type { CallKeys } from "./json-call-keys.js";
import { ArgsValue } from "./json-value.js";
import { parseStringLiteral } from "./long-member.js";
import type { SeenText } from "./seen-text.js";

const WS = /\s/;

type ObjectStep = "keyOrEnd" | "key" | "colon" | "value" | "afterValue";

/** "open": reading; "closed": its `}` was read; "broken": a character no call object has there (`problem`). */
type ObjectState = "open" | "closed" | "broken";

type Fail = Extract<DecoderEvent, { kind: "fail" }>;

/** Where the string `reader` is inside opened, as a SeenText offset (its value starts at `start`). */
function offset(reader: ValueExtentScanner | undefined, start: number): number | undefined {
  const rel = reader?.openString;
  return rel === undefined ? undefined : start + rel;
}

export class CallObject {
  step: ObjectStep = "keyOrEnd";
  state: ObjectState = "open";
  /** Why the object broke (state "broken"). */
  problem = "";
  private braceSeen = false;
  private keyReader: ValueExtentScanner | undefined;
  /** Where the key and the (non-arguments) value being read start, as SeenText offsets. */
  private keyStart = 0;
  private valueStart = 0;
  private keyText = "";
  key = "";
  private valueReader: ValueExtentScanner | undefined;
  private valueText = "";
  name: string | undefined;
  private id: string | undefined;
  args: ArgsValue | undefined;
  /** The value being read is the arguments. */
  inArgs = false;
  /** Keys that are neither the name, the arguments nor the id (a misspelt `"argumentz"`). */
  readonly otherKeys: string[] = [];
  opened = false;
  // --- function-wrapper (helper wild-more) ---
  /** Inside the object under a `function-wrapper` key (its keys are the call's): 1, else 0. */
  private wrapped = 0;
  // --- end function-wrapper ---
  /** Where the object's text (so far) ends, as a SeenText offset. */
  rawEnd: number;

  constructor(
    /** Where the object's text starts, as a SeenText offset. */
    readonly rawStart: number,
    private readonly keys: CallKeys,
    private readonly seen: SeenText,
  ) {
    this.rawEnd = rawStart;
  }

  /** Where the JSON string being read (a key, a value, the arguments) is open, as a SeenText offset. */
  openStringAt(): number | undefined {
    if (this.step === "key") return offset(this.keyReader, this.keyStart);
    if (this.step === "value") return this.inArgs ? offset(this.args?.reader, this.args?.start ?? 0) : offset(this.valueReader, this.valueStart);
    return undefined;
  }

  /**
   * Reads the object's characters from `text[start]` (`base`: the SeenText offset of `text[0]`) until
   * the text ends, its `}` (state "closed", the index after it returned) or a character no call object
   * has there (state "broken", that character's index returned).
   */
  read(text: string, start: number, base: number, out: DecoderEvent[]): number {
    let i = start;
    while (i < text.length) {
      const ch = text[i]!;
      switch (this.step) {
        case "keyOrEnd":
          if (!this.braceSeen) {
            this.braceSeen = true; // the object's own `{`
            i++;
            continue;
          }
          if (WS.test(ch) || ch === ",") {
            i++;
            continue;
          }
          if (ch === "}" && this.unwrap()) {
            i++;
            continue;
          }
          if (ch === "}") return this.close(base, i + 1);
          if (ch === '"') {
            this.step = "key";
            this.keyStart = base + i;
            this.keyReader = new ValueExtentScanner("json");
            this.keyText = "";
            continue;
          }
          return this.broken(base, i, `expected a key in the call object, found ${JSON.stringify(ch)}`);
        case "key": {
          const end = this.keyReader!.feed(text, i);
          this.keyText += text.slice(i, end);
          i = end;
          if (this.keyReader!.done) {
            this.key = parseStringLiteral(this.keyText) ?? this.keyText;
            this.step = "colon";
          }
          continue;
        }
        case "colon":
          if (WS.test(ch)) {
            i++;
            continue;
          }
          if (ch !== ":") return this.broken(base, i, `expected ':' after key ${JSON.stringify(this.key)}`);
          this.step = "value";
          this.valueReader = undefined;
          this.inArgs = false;
          this.valueText = "";
          i++;
          continue;
        case "value": {
          if (!this.inArgs && this.valueReader === undefined) {
            if (WS.test(ch)) {
              i++;
              continue;
            }
            if (!startsValue(ch, "json")) return this.broken(base, i, `expected a value for key ${JSON.stringify(this.key)}`);
            if (ch === "{" && this.wrap(out)) {
              i++;
              continue;
            }
            if (this.isArgsKey()) this.startArgs(out);
            else {
              this.valueReader = new ValueExtentScanner("json");
              this.valueStart = base + i;
            }
          }
          if (this.inArgs) {
            i = this.args!.feed(text, i, base);
            if (this.args!.done) this.step = "afterValue";
            continue;
          }
          const reader = this.valueReader!;
          const end = reader.feed(text, i);
          this.valueText += text.slice(i, end);
          i = end;
          if (reader.done) {
            this.keyValue(out);
            this.step = "afterValue";
          }
          continue;
        }
        case "afterValue":
          if (WS.test(ch)) {
            i++;
            continue;
          }
          if (ch === ",") {
            this.step = "keyOrEnd";
            i++;
            continue;
          }
          if (ch === "}" && this.unwrap()) {
            i++;
            continue;
          }
          if (ch === "}") return this.close(base, i + 1);
          return this.broken(base, i, `expected ',' or '}' in the call object, found ${JSON.stringify(ch)}`);
      }
    }
    this.rawEnd = base + i;
    return i;
  }

  // --- function-wrapper (helper wild-more) ---
  /**
   * `"function": {` under a function-wrapper key, before the call's name or arguments: the keys of the
   * object it opens are the call's (reported once, as a repair), and its `}` returns to the wrapper.
   */
  private wrap(out: DecoderEvent[]): boolean {
    if (this.wrapped > 0 || this.name !== undefined || this.args !== undefined || !this.keys.wrappedCall.includes(this.key)) return false;
    this.wrapped = 1;
    this.step = "keyOrEnd";
    out.push({ kind: "repaired", repair: "function-wrapper", message: `the call object under ${this.keyText} (OpenAI's tool-call shape) read as the call`, text: this.keyText });
    return true;
  }

  /** The wrapped call object's `}`: back in the wrapper, after its value. */
  private unwrap(): boolean {
    if (this.wrapped === 0) return false;
    this.wrapped = 0;
    this.step = "afterValue";
    return true;
  }
  // --- end function-wrapper ---

  private close(base: number, next: number): number {
    this.rawEnd = base + next;
    this.state = "closed";
    return next;
  }

  private broken(base: number, at: number, problem: string): number {
    this.rawEnd = base + at;
    this.state = "broken";
    this.problem = problem;
    return at;
  }

  private isArgsKey(): boolean {
    if (this.keys.nameIsKey) return this.args === undefined && this.name === undefined;
    return this.args === undefined && this.keys.isArgs(this.key);
  }

  /** The arguments value starts (its first character not yet read). */
  private startArgs(out: DecoderEvent[]): void {
    this.inArgs = true;
    this.args = new ArgsValue(this.keys.argsAsString);
    if (this.keys.argsAliases.includes(this.key)) out.push(this.keys.aliasRepair(this.keyText, this.keys.args));
    if (this.keys.nameIsKey) {
      this.name = this.key;
      this.open(out);
    }
    if (this.opened) this.args.goLive();
  }

  /** A non-arguments key's value is complete. */
  private keyValue(out: DecoderEvent[]): void {
    const alias = this.name === undefined && this.keys.nameAliases.includes(this.key);
    const isName = this.name === undefined && this.keys.isName(this.key);
    const isId = this.keys.id.includes(this.key) && this.id === undefined;
    if (!isName && !isId) {
      if (!this.keys.isNeutral(this.key, this.valueText)) this.otherKeys.push(this.key);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(this.valueText);
    } catch {
      return;
    }
    if (typeof value !== "string") return;
    if (isId) this.id = value;
    if (isName) this.name = value;
    if (alias) out.push(this.keys.aliasRepair(this.keyText, this.keys.name));
    this.open(out);
  }

  /** Emits the call's start once its name (and, in a format with its own ids, its id) is known. */
  private open(out: DecoderEvent[], final = false): void {
    if (this.opened || this.name === undefined) return;
    // A format with its own ids: wait for the id (it may follow the arguments) unless the object ended.
    if (this.keys.id.length > 0 && this.id === undefined && !final) return;
    this.opened = true;
    out.push(this.id !== undefined ? { kind: "call", name: this.name, id: this.id } : { kind: "call", name: this.name });
    this.args?.goLive();
  }

  /** Argument bytes that may be streamed now. */
  release(out: DecoderEvent[]): void {
    if (!this.args || !this.opened) return;
    const text = this.args.release();
    if (text !== "") out.push({ kind: "args", text });
  }

  /** The object closed (or the output ended after its arguments): emit done or fail. */
  finish(out: DecoderEvent[]): void {
    const raw = this.seen.slice(this.rawStart, this.rawEnd);
    if (this.name === undefined) {
      out.push({ kind: "fail", type: "malformed", message: "the call object has no name", raw });
      return;
    }
    if (this.otherKeys.length > 0) {
      // `{"name": "f", "argumentz": {...}}`: the arguments are somewhere, but not where they belong;
      // reading it as a call without arguments (or ignoring the key) would drop the model's text.
      if (!this.opened) this.open(out, true);
      const keys = this.otherKeys.map((k) => JSON.stringify(k)).join(", ");
      const message = this.args === undefined
        ? `the call object has no arguments key (${this.keys.args.map((k) => JSON.stringify(k)).join(" or ")}) but has ${keys}`
        : `the call object has keys that are not a call's: ${keys}`;
      out.push({ kind: "fail", type: "malformed", message, name: this.name, raw });
      return;
    }
    if (!this.opened) this.open(out, true);
    if (this.args === undefined) {
      // No arguments written: a call without parameters.
      out.push({ kind: "args", text: "{}" });
      out.push({ kind: "done", arguments: "{}", value: {}, raw });
      return;
    }
    const pending = this.args.release();
    if (pending !== "") out.push({ kind: "args", text: pending });
    const { outcome, tail } = this.args.finishFrom(this.seen);
    if (!outcome.ok) {
      out.push({ kind: "fail", type: "malformed", message: outcome.message, name: this.name, raw });
      return;
    }
    if (tail !== "") out.push({ kind: "args", text: tail });
    if (outcome.fromString) {
      const text = this.seen.slice(this.args.start, this.args.end);
      out.push({ kind: "repaired", repair: "key-alias", message: "arguments written as a JSON string holding the object, read as the object", text });
    }
    out.push({ kind: "done", arguments: outcome.arguments, value: outcome.value, raw });
  }

  /** The object cannot be completed: its failure event (not yet emitted). */
  failure(type: "malformed" | "truncated", message: string): Fail {
    const event: Fail = { kind: "fail", type, message, raw: this.seen.slice(this.rawStart, this.rawEnd) };
    if (this.name !== undefined) event.name = this.name;
    return event;
  }
}
