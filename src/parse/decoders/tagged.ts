/**
 * One decoder for the tagged (XML-like) families, configured by a TaggedSyntax (compile-format.ts):
 * Qwen3-Coder `<function=f><parameter=k>v</parameter></function>`, Seed-OSS (the same inside
 * `<seed:tool_call>`), GLM `f<arg_key>k</arg_key><arg_value>v</arg_value>`, MiniMax `<invoke name="f">
 * <parameter name="k">v</parameter></invoke>` and DeepSeek V3.2's DSML tags.
 *
 * Values are raw text typed by the tool's schema (coerce.ts). The arguments JSON is written as it can be:
 * `{` when the call opens, `"k": ` when a parameter opens, a string value's text as it arrives (held back
 * only where it could be the closing tag or the one trailing newline that is stripped), any other value
 * when it is complete, `}` when the call closes.
 *
 * A closing tag inside a value (a code file that contains `</parameter>`) does not end it: the close tag
 * only counts when what follows it, after whitespace, is a tag that may really come next (another
 * parameter, the end of the call) or the end of the region. Qwen3-Coder sometimes omits `</parameter>`;
 * then a `<parameter=` or `</function>` at the start of a line ends the value.
 *
 * Text that fits none of this (junk between calls, an unknown tag, a value that never closes) makes the
 * rest of the region malformed: the decoder keeps the model's text from the start of the failed call to
 * the end of the region and reports it in one `fail` when the region ends, so nothing is lost.
 */
import type { JsonSchema } from "../../types.js";
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import type { PayloadOf } from "../payload-kinds.js";
import { TextRope } from "../rope.js";
import { couldBeNonString, propertySchema, schemaTypes, typeRawValue } from "../coerce.js";
import type { ValueType } from "../coerce.js";
import { jsonStringBody, JsonStringWriter } from "../literal/json-text.js";
import { LiteralValueReader } from "../literal/value-reader.js";
import { skipSpace, StepDecoder } from "./step-decoder.js";
import { isToolName } from "./tool-name.js";

/** What a parameter's open tag says. */
export interface ParamOpen {
  /** The key; absent when the key follows as text up to `keyClose` (GLM `<arg_key>k</arg_key>`). */
  key?: string;
  /** Types for this value when the schema does not declare the key (DSML's `string="true|false"`). */
  untyped?: readonly ValueType[];
}

/**
 * The tagged decoder's syntax: the description's tagged payload (language.ts), its tag patterns
 * compiled into readers (compile-format.ts). The fields taken over as they are keep the language's
 * meaning and documentation.
 */
export interface TaggedSyntax extends Pick<PayloadOf<"tagged">, "nameSep" | "afterParamNewline" | "implicitEnds" | "jsonBody" | "cdata"> {
  /**
   * The call's name from a complete open tag (`<function=f>` -> `f`), or undefined when the tag is not a
   * call's open tag. Absent: the call's name is the region's leading text, one call per region (GLM).
   */
  callOpen?: (tag: string) => string | undefined;
  /** The tag that closes a call; absent: the region's end closes it (GLM). */
  callClose?: string;
  /** Reads a parameter's open tag, or undefined when the tag is not one. */
  paramOpen: (tag: string) => ParamOpen | undefined;
  /** GLM: the end of the key text, and the tag that then opens the value. */
  keyClose?: string;
  valueOpen?: string;
  /** The tag that closes a value. */
  paramClose: string;
  /** What may follow `paramClose` (after whitespace) for it to be the real end of the value. */
  afterParam: readonly string[];
  /** Types for a key the tool's schema does not declare (or when no schema is known). */
  untyped: readonly ValueType[];
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const LT = 0x3c;
const GT = 0x3e;

/** Longest tag, key or call name read before the text is judged not to be one. */
const MAX_TAG = 1024;
/** How much of a value's start decides whether a union type can still be something other than a string. */
const TYPE_PROBE = 64;

type State = "between" | "name" | "call" | "key" | "valueOpen" | "value" | "body" | "failed" | "closed";

interface OpenCall {
  name: string;
  parameters: JsonSchema | undefined;
  /**
   * The arguments JSON written so far, except the bodies of streamed string values: those are the
   * model's text itself, sliced from the region once the call ends (`streamed`), so a long value is
   * not copied a second time per push nor decoded again.
   */
  args: TextRope;
  streamed: StreamedValue[];
  /** Keys read so far: a repeated key (the last one wins in JSON) makes the value be parsed whole. */
  keys: Set<string>;
  repeated: boolean;
  /** Parameters read so far. */
  n: number;
  /** The arguments came as one JSON object (`jsonBody`), already written whole. */
  body: boolean;
  /** The `call` event was sent. */
  announced: boolean;
  /** The name's separator tag (`nameSep`) was read. */
  sepSeen?: boolean;
}

/** A streamed string value: its body goes at `at` in the call's `args`; its text is `seen` from `from` to `to`. */
interface StreamedValue {
  key: string;
  at: number;
  from: number;
  to: number;
}

interface OpenValue {
  key: string;
  types: readonly ValueType[];
  /** stream: a string written as it arrives; hold: written when complete. */
  mode: "stream" | "hold";
  /** The text of a held value. */
  parts: string[];
  /** The value's first characters until it is known whether they start with the newline to strip. */
  lead: string | null;
  /** Where `lead` starts in `seen`. */
  leadAt: number;
  /** Where the value's text (after the stripped newline) starts and ends so far in `seen`; from < 0: none yet. */
  from: number;
  to: number;
  /** A streamed value: where its body goes in the call's `args`. */
  bodyAt: number;
  /** The value's start without leading whitespace, up to TYPE_PROBE characters (for the union decision). */
  probe: string;
  /** The last character given to the value was a newline (true at its start: a value starts a line). */
  atLineStart: boolean;
  writer: JsonStringWriter;
}

/**
 * A decoder factory for `syntax`. In a region without end marker (`ctx.selfClosing`: Qwen3.5's
 * `<function=` written without `<tool_call>`), the call's close tag ends the region and the decoder
 * reports `close` with the rest of the text.
 */
export function taggedDecoder(syntax: TaggedSyntax): DecoderFactory {
  return (ctx: DecoderContext): PayloadDecoder => new TaggedDecoder(syntax, ctx);
}

class TaggedDecoder extends StepDecoder<State> {
  private call: OpenCall | null = null;
  private value: OpenValue | null = null;
  private body: LiteralValueReader | null = null;
  private text = "";
  private calls = 0;
  /**
   * The model's text of the call being read (from its first character), or of the failed rest: where it
   * starts and (so far) ends, as offsets into `seen`; rawFrom < 0 when none is being kept. It is sliced
   * once, when the call ends.
   */
  private rawFrom = -1;
  private rawTo = 0;
  /** Where the step in progress started, in `seen` (a text kept from a step on starts there). */
  private stepStart = 0;
  private closing: Extract<DecoderEvent, { kind: "done" }> | null = null;
  private failure = "";
  /** Where the text the failure message quotes starts (an offset in `seen`), or -1. */
  private failureAt = -1;
  private failedName: string | undefined;

  constructor(
    private readonly syntax: TaggedSyntax,
    private readonly ctx: DecoderContext,
  ) {
    super(ctx.regionText, "between");
  }

  protected finish(s: string, closed: boolean): void {
    // Text kept after a complete call when the output ends (a cut-off `</seed:tool_c`) is read too:
    // it is no call, so it fails and is kept, instead of vanishing with the region.
    // In a region without end marker the end of the output is the region's end: what was held to see what
    // follows a tag (`</function>` closing a value whose `</parameter>` is missing) is read to the end.
    if (closed || (this.state === "between" && /\S/.test(s)) || (this.ctx.selfClosing && this.state !== "failed")) this.run(s, true);
    // Whatever was not read (closed) or is still kept (not closed) belongs to the text being kept.
    if (this.rawFrom >= 0) this.rawTo = this.seen.total;
    if (closed) this.endOfRegion();
    else if (this.state === "failed") this.emitFailure("malformed", this.failure);
    else if (this.rawFrom >= 0 || this.calls === 0) this.emitFailure("truncated", "the output ended inside a tool call");
  }

  /**
   * The common push of a long streamed string value, with any text kept from the last push before it:
   * no `<` that ends the value. Then the text goes straight out as JSON string content, except a
   * trailing newline (it may be the one stripped before the close tag), which is kept for the next push,
   * and a `<` that may still become the value's end (`</p` at the end of the push), which is kept with
   * what follows it (and a newline before it). This is exactly what valueText (and run's bookkeeping of
   * it) does with such text, without the step loop.
   */
  pushPlain(text: string): string | undefined {
    return this.pushValueText(text, NO_ENDS);
  }

  unscannedHold = 0;

  /** pushPlain, minding the region's `ends` too (see PayloadDecoder.pushPlainUnscanned). */
  pushPlainUnscanned(text: string, ends: readonly string[]): string | undefined {
    this.unscannedHold = 0;
    return this.pushValueText(text, ends);
  }

  private pushValueText(text: string, ends: readonly string[]): string | undefined {
    const v = this.value;
    if (v === null || v.mode !== "stream" || v.lead !== null || this.state !== "value" || text === "") return undefined;
    const kept = this.kept();
    const s = kept === "" ? text : kept + text;
    // Most pushes of a value hold no `<` at all: then only a trailing newline (maybe the one stripped
    // before the close tag) is kept back, and one pass over the rest escapes it and rules out `<`.
    const n = s.length;
    const lastCode = s.charCodeAt(n - 1);
    const tail = lastCode === NEWLINE ? (n >= 2 && s.charCodeAt(n - 2) === CR ? 2 : 1) : lastCode === CR ? 1 : 0;
    const escaped = v.writer.writeScanning(s, n - tail);
    const first = escaped === undefined ? s.indexOf("<") : v.writer.stopAt;
    if (first < 0 && escaped !== undefined) return this.tookValueText(v, text, s, n - tail, escaped);
    return this.valueTextWithLt(v, text, ends, kept, s, tail, escaped, first);
  }

  /**
   * pushValueText's rest, for a push that holds a `<` (or that writeScanning could not escape): each
   * `<` is judged as valueText would (`x < 10` is text). Kept apart so that the common push above
   * stays small enough for V8 to inline into the engine's push.
   */
  private valueTextWithLt(v: OpenValue, text: string, ends: readonly string[], kept: string, s: string, tail: number, escaped: string | undefined, first: number): string | undefined {
    const n = s.length;
    const follow = this.followersOf(ends);
    let wait = -1;
    for (let p = first; p >= 0; p = s.indexOf("<", p + 1)) {
      // Every tag this can be starts `<` + one of `follow` (`</`, `<p`): any other `<` is text.
      if (follow !== undefined && p + 1 < n && follow.indexOf(s[p + 1]!) < 0) continue;
      for (let k = 0; k < ends.length; k++) {
        const at = tokenAt(s, p, ends[k]!, false);
        if (at === "no") continue;
        // A tail that may still become an end marker: the engine holds it, as its scan would; the
        // text before it is taken as pushPlain takes it (nothing, when the tail is all of the push).
        const q = p - kept.length;
        if (at === "full" || q < 0) return undefined;
        if (q === 0) {
          this.unscannedHold = text.length;
          return "";
        }
        const took = this.pushValueText(text.slice(0, q), NO_ENDS);
        if (took !== undefined) this.unscannedHold = text.length - q;
        return took;
      }
      // After a `<` that makes the value wait, later ones are only checked for end markers (above).
      if (wait >= 0) continue;
      const verdict = this.endAt(s, 0, p, false);
      if (verdict === "text") continue;
      if (verdict !== "wait") return undefined;
      wait = p;
      if (ends.length === 0) break;
    }
    const cut = wait < 0 ? n - tail : wait - newlineBefore(s, wait, 0, true);
    return this.tookValueText(v, text, s, cut, cut === n - tail ? escaped : undefined);
  }

  /** The `ends` whose followers `follow` holds, and those followers (see followersOf). */
  private followEnds: readonly string[] | null = null;
  private follow: string | undefined = "";

  /**
   * The characters that can follow the `<` of a tag that ends a value or the region: the second
   * character of the value's close tag, of its implicit ends, and of `ends`; undefined (any character)
   * when one of them is a lone `<`.
   */
  private followersOf(ends: readonly string[]): string | undefined {
    if (ends === this.followEnds) return this.follow;
    const tags = [this.syntax.paramClose, ...(this.syntax.implicitEnds ?? []).map((e) => e.tag), ...ends];
    this.follow = tags.some((t) => t.length < 2) ? undefined : [...new Set(tags.map((t) => t.charAt(1)))].join("");
    this.followEnds = ends;
    return this.follow;
  }

  /**
   * The bookkeeping of a push taken by pushValueText: `s` (kept text + `text`) is value text up to
   * `cut`, the rest is kept; `escaped` is that text as JSON string content, when already made.
   */
  private tookValueText(v: OpenValue, text: string, s: string, cut: number, escaped: string | undefined): string {
    this.seen.begin(text);
    this.keep(cut === s.length ? "" : s.slice(cut));
    if (cut === 0) return "";
    const base = this.seen.total - s.length;
    if (this.rawFrom >= 0) this.rawTo = base + cut;
    v.atLineStart = s.charCodeAt(cut - 1) === NEWLINE;
    if (v.from < 0) v.from = base;
    v.to = base + cut;
    return escaped ?? v.writer.write(cut === s.length ? s : s.slice(0, cut));
  }

  /** The region's end marker was seen: whatever is open must be complete now. */
  private endOfRegion(): void {
    switch (this.state) {
      case "failed":
        return this.emitFailure("malformed", this.failure);
      case "between":
        if (this.calls === 0) this.emitFailure("malformed", "no tool call in the region");
        return;
      case "name": {
        // GLM without arguments: `<tool_call>f</tool_call>`.
        const name = this.text.trim();
        if (!isToolName(name)) return this.emitFailure("malformed", "no tool call in the region");
        this.openCall(name);
        return this.closeCallNow();
      }
      case "call":
        // The region closed after complete parameters without the call's own close tag: accepted.
        return this.closeCallNow();
      default:
        return this.emitFailure("malformed", `the region ended inside ${this.state === "value" ? "a value" : "a tag"}`);
    }
  }

  private closeCallNow(): void {
    this.closeCall();
    this.finishClosing();
  }

  private emitFailure(type: "malformed" | "truncated", message: string): void {
    const ev: DecoderEvent = { kind: "fail", type, message };
    if (this.failureAt >= 0 && message === this.failure) ev.at = this.failureAt;
    const name = this.call?.announced ? this.call.name : this.failedName;
    if (name !== undefined) ev.name = name;
    if (this.rawFrom >= 0) ev.raw = this.seen.slice(this.rawFrom, this.rawTo);
    this.emit(ev);
    this.call = null;
    this.value = null;
    this.rawFrom = -1;
  }

  protected run(s: string, final: boolean): number {
    let i = 0;
    while (i < s.length && this.state !== "closed") {
      const wasFailed = this.state === "failed";
      this.stepStart = this.origin + i;
      const j = this.step(s, i, final);
      if (j < 0) break;
      if (this.rawFrom >= 0) this.rawTo = this.origin + j;
      this.finishClosing();
      if (!wasFailed && this.state === "failed" && this.ctx.selfClosing) {
        // No end marker to wait for: report now and hand the rest back to the engine.
        this.emitFailure("malformed", this.failure);
        this.close();
      }
      if (this.isClosed()) {
        this.emit({ kind: "close", rest: s.slice(j) });
        return s.length;
      }
      i = j;
    }
    return i;
  }

  /** One step from `s[i]`: returns the next index (it may equal `i` when the state changed), -1 to wait. */
  private step(s: string, i: number, final: boolean): number {
    switch (this.state) {
      case "between":
        return this.between(s, i, final);
      case "name":
        return this.nameText(s, i, final);
      case "call":
        return this.inCall(s, i, final);
      case "key":
        return this.keyText(s, i, final);
      case "valueOpen":
        return this.valueOpen(s, i, final);
      case "value":
        return this.valueText(s, i, final);
      case "body":
        return this.jsonBody(s, i);
      default:
        // failed: the rest of the region is collected into the failure's text.
        return s.length;
    }
  }

  private fail(message: string, at = -1): void {
    this.state = "failed";
    this.failure = message;
    this.failureAt = at;
    this.failedName = this.call?.announced ? this.call.name : undefined;
    this.keepRaw();
  }

  private between(s: string, i: number, final: boolean): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    if (this.syntax.callOpen === undefined) {
      if (this.calls > 0) return this.failAt(i, "text after the tool call");
      this.keepRaw(true);
      this.text = "";
      this.state = "name";
      return i;
    }
    const tag = readTag(s, i, final);
    if (tag === undefined) return -1;
    this.keepRaw(true);
    const name = tag === null ? undefined : this.syntax.callOpen(tag);
    if (tag === null || name === undefined || !isToolName(name)) {
      return this.failAt(i, "expected a call, found", true);
    }
    this.openCall(name);
    return i + tag.length;
  }

  /** Keeps the model's text from the start of the step in progress (`restart`: even if some is kept). */
  private keepRaw(restart = false): void {
    if (this.rawFrom >= 0 && !restart) return;
    this.rawFrom = this.stepStart;
    this.rawTo = this.stepStart;
  }

  /** Fails at `s[i]`; `quote`: the message ends with a quote of the text from there (see DecoderEvent). */
  private failAt(i: number, message: string, quote = false): number {
    this.fail(message, quote ? this.origin + i : -1);
    return i;
  }

  /** GLM: the name runs to the first tag or line end. */
  private nameText(s: string, i: number, final: boolean): number {
    let k = i;
    while (k < s.length && s[k] !== "<" && s[k] !== "\n") k++;
    this.text += s.slice(i, k);
    if (this.text.length > MAX_TAG) return this.failAt(k, "tool name too long");
    if (k === s.length) return final || k > i ? k : -1;
    const name = this.text.trim();
    if (!isToolName(name)) return this.failAt(k, `not a tool name: ${JSON.stringify(name.slice(0, 40))}`);
    this.openCall(name);
    return k;
  }

  private inCall(s: string, i: number, final: boolean): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    const call = this.call!;
    if (s[i] === "{" && this.syntax.jsonBody && call.n === 0 && !call.body) {
      this.announce(call);
      this.body = new LiteralValueReader("json", "bracketed");
      this.state = "body";
      return i;
    }
    const tag = readTag(s, i, final);
    if (tag === undefined) return -1;
    if (tag === null) return this.failAt(i, "expected a parameter, found", true);
    if (tag === this.syntax.nameSep && call.n === 0 && !call.sepSeen) {
      call.sepSeen = true;
      return i + tag.length;
    }
    if (tag === this.syntax.callClose) {
      this.announce(call);
      this.closeCall();
      if (this.ctx.selfClosing) this.close();
      return i + tag.length;
    }
    const param = call.body ? undefined : this.syntax.paramOpen(tag);
    if (param === undefined) return this.failAt(i, `unexpected tag ${JSON.stringify(tag)}`);
    this.announce(call);
    if (param.key === undefined) {
      this.text = "";
      this.state = "key";
    } else {
      this.openValue(param.key, param.untyped);
    }
    return i + tag.length;
  }

  /** GLM: the key text up to `</arg_key>`. */
  private keyText(s: string, i: number, final: boolean): number {
    const close = this.syntax.keyClose ?? "";
    const k = s.indexOf(close, i);
    if (k >= 0) {
      this.text += s.slice(i, k);
      this.state = "valueOpen";
      return k + close.length;
    }
    const keep = final ? 0 : partialSuffix(s, i, [close]);
    this.text += s.slice(i, s.length - keep);
    if (this.text.length > MAX_TAG) return this.failAt(s.length - keep, "parameter name too long");
    return s.length - keep > i ? s.length - keep : final ? s.length : -1;
  }

  private valueOpen(s: string, i: number, final: boolean): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    const tag = readTag(s, i, final);
    if (tag === undefined) return -1;
    const open = this.syntax.valueOpen ?? "";
    if (tag === null && i < s.length && this.ctx.tolerances?.missingValueOpener(open) === true) {
      // The value's open tag is missing and text follows the key: the value is that text, up to its
      // close tag (a `missing-value-opener` tolerance; the call must still validate to count).
      const key = this.text.trim();
      this.emit({ kind: "repaired", repair: "missing-value-opener", message: `the value of ${JSON.stringify(key)} has no ${JSON.stringify(open)}: read up to its ${JSON.stringify(this.syntax.paramClose)}`, text: this.syntax.paramClose });
      this.openValue(key);
      return i;
    }
    if (tag !== open) return this.failAt(i, `expected ${open}`);
    this.openValue(this.text.trim());
    return i + tag.length;
  }

  /** DSML: the arguments as one JSON object, written as it is read. */
  private jsonBody(s: string, i: number): number {
    const reader = this.body!;
    const rest = reader.push(s.slice(i));
    this.emitArgs(reader.take());
    const j = s.length - rest.length;
    if (reader.error !== undefined) return this.failAt(j, `arguments: ${reader.error}`);
    if (!reader.done) return j;
    this.call!.body = true;
    this.body = null;
    this.state = "call";
    return j;
  }

  /**
   * A call opens. It is announced (the `call` event) at once, except in a region without end marker
   * (a bare `<function=`, which prose may mention): there only once a parameter or the call's close
   * tag confirms it, so that prose fails the region before any call is named and stays plain text.
   */
  private openCall(name: string): void {
    this.call = { name, parameters: this.ctx.toolSchema(name), args: new TextRope(), streamed: [], keys: new Set(), repeated: false, n: 0, body: false, announced: false };
    this.state = "call";
    if (!this.ctx.selfClosing) this.announce(this.call);
  }

  private announce(call: OpenCall): void {
    if (call.announced) return;
    call.announced = true;
    this.emit({ kind: "call", name: call.name });
  }

  private closeCall(): void {
    const call = this.call!;
    this.announce(call);
    if (!call.body) this.emitArgs(call.n === 0 ? "{}" : "}");
    // The value is the arguments text parsed: one source of truth. A long streamed string is decoded
    // from its pieces, and the whole text is joined only if someone reads `arguments` (the engine does
    // not: its client got the text as fragments), so no large copy is made per call.
    const seen = this.seen;
    const args = call.args;
    const streamed = call.streamed;
    let whole: string | undefined;
    const text = (): string => (whole ??= withBodies(args.toString(), streamed, seen));
    let value: unknown;
    if (streamed.length === 0) value = JSON.parse(args.toString());
    else if (call.repeated || call.keys.has("__proto__")) value = JSON.parse(text());
    else {
      // The JSON without the streamed bodies parses to `""` for each of them; their text is the model's.
      const obj = JSON.parse(args.toString()) as Record<string, unknown>;
      for (const m of streamed) obj[m.key] = m.from < 0 ? "" : seen.slice(m.from, m.to);
      value = obj;
    }
    this.closing = {
      kind: "done",
      get arguments(): string {
        return text();
      },
      value,
    };
    this.emit(this.closing);
    this.calls++;
    this.call = null;
    this.state = "between";
  }

  /** After the step that closed a call has added its text to `raw`: the call's raw text is complete. */
  private finishClosing(): void {
    if (this.closing === null) return;
    if (this.rawFrom >= 0) this.closing.raw = this.seen.slice(this.rawFrom, this.rawTo);
    this.closing = null;
    this.rawFrom = -1;
  }

  private emitArgs(text: string): void {
    if (text === "") return;
    this.call!.args.append(text);
    this.emitFragment(text);
  }

  /** An arguments fragment for the client only: the body of a streamed value (see OpenCall.args). */
  private emitFragment(text: string): void {
    if (text === "") return;
    const last = this.events[this.events.length - 1];
    if (last?.kind === "args") last.text += text;
    else this.emit({ kind: "args", text });
  }

  private openValue(key: string, untyped?: readonly ValueType[]): void {
    const call = this.call!;
    const schema = propertySchema(call.parameters, key);
    const types = schema !== undefined ? schemaTypes(schema, call.parameters) : (untyped ?? this.syntax.untyped);
    const stream = types.length === 1 && types[0] === "string" && !this.syntax.cdata;
    // `{` is written with the first key, so that a JSON body can still replace the parameters.
    const keyJson = JSON.stringify(key);
    if (call.keys.has(key)) call.repeated = true;
    call.keys.add(key);
    this.emitArgs((call.n > 0 ? ", " : "{") + keyJson + ": " + (stream ? '"' : ""));
    call.n++;
    this.value = {
      key, types, mode: stream ? "stream" : "hold", parts: [], lead: "", leadAt: -1, from: -1, to: -1,
      bodyAt: call.args.length, probe: "", atLineStart: true, writer: new JsonStringWriter(),
    };
    this.state = "value";
  }

  /**
   * Value text from `s[i]` up to its end. Text is given to the value as soon as it cannot be part of the
   * end: held back are a `<` that may start a closing tag (with what follows it, until that is decided)
   * and a newline right before it (the one trailing newline that is stripped).
   */
  private valueText(s: string, i: number, final: boolean): number {
    // Skip every `<` that is plain text (HTML, code), so that the text goes out in one piece.
    let p = s.indexOf("<", i);
    let verdict: ReturnType<TaggedDecoder["endAt"]> = "text";
    while (p >= 0) {
      verdict = this.endAt(s, i, p, final);
      if (verdict !== "text") break;
      p = s.indexOf("<", p + 1);
    }
    if (p < 0) {
      const keep = final ? 0 : newlineBefore(s, s.length, i, true);
      this.addValueText(s.slice(i, s.length - keep), this.origin + i);
      return s.length - keep > i ? s.length - keep : final ? s.length : -1;
    }
    const nl = newlineBefore(s, p, i, verdict === "wait");
    if (verdict === "wait") {
      if (p - nl > i) {
        this.addValueText(s.slice(i, p - nl), this.origin + i);
        return p - nl;
      }
      return -1;
    }
    this.addValueText(s.slice(i, p - nl), this.origin + i);
    this.closeValue();
    return verdict === "implicit" ? p : p + this.syntax.paramClose.length;
  }

  /** Whether the `<` at `s[p]` ends the value: its close tag, an implicit end, plain text, or wait for more. */
  private endAt(s: string, i: number, p: number, final: boolean): "close" | "implicit" | "text" | "wait" {
    const close = this.syntax.paramClose;
    const atClose = tokenAt(s, p, close, final);
    if (atClose === "full") {
      const after = this.realNext(s, p + close.length, final);
      if (after !== "no") return after === "yes" ? "close" : "wait";
    } else if (atClose === "partial") {
      return "wait";
    }
    const lineStart = p > i ? s[p - 1] === "\n" : this.value!.atLineStart;
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

  /** Text of the value, `at` its offset in `seen` (a value's text is one stretch of the region's). */
  private addValueText(text: string, at: number): void {
    const v = this.value!;
    let t = text;
    if (v.lead !== null) {
      // Strip one leading newline; a lone "\r" waits for the next character.
      const leadAt = at - v.lead.length;
      const lead = v.lead + t;
      if (lead === "" || lead === "\r") {
        v.lead = lead;
        v.leadAt = leadAt;
        return;
      }
      v.lead = null;
      const strip = lead.startsWith("\r\n") ? 2 : lead.startsWith("\n") ? 1 : 0;
      t = strip === 0 ? lead : lead.slice(strip);
      at = leadAt + strip;
    }
    if (t === "") return;
    if (v.from < 0) v.from = at;
    v.to = at + t.length;
    v.atLineStart = t.charCodeAt(t.length - 1) === NEWLINE;
    if (v.mode === "stream") {
      this.emitFragment(v.writer.write(t));
      return;
    }
    v.parts.push(t);
    if (v.probe.length >= TYPE_PROBE || !v.types.includes("string") || this.syntax.cdata) return;
    v.probe = (v.probe + t).trimStart().slice(0, TYPE_PROBE);
    if (v.probe !== "" && !couldBeNonString(v.probe, v.types)) {
      // It can only be a string now: write what came so far and stream the rest.
      v.mode = "stream";
      this.emitArgs('"');
      v.bodyAt = this.call!.args.length;
      this.emitFragment(v.writer.write(v.parts.join("")));
    }
  }

  private closeValue(): void {
    const v = this.value!;
    if (v.lead !== null && v.lead !== "") {
      // A value that is only a "\r": it is the value's text.
      const lead = v.lead;
      v.lead = null;
      if (v.from < 0) v.from = v.leadAt;
      v.to = v.leadAt + lead.length;
      if (v.mode === "stream") this.emitFragment(v.writer.write(lead));
      else v.parts.push(lead);
    }
    if (v.mode === "stream") {
      this.emitFragment(v.writer.end());
      this.call!.streamed.push({ key: v.key, at: v.bodyAt, from: v.from, to: v.to });
      this.emitArgs('"');
    } else {
      const text = v.parts.join("");
      const wrapped = this.syntax.cdata === true ? unwrapCdata(text) : undefined;
      this.emitArgs(wrapped !== undefined ? `"${jsonStringBody(wrapped)}"` : typeRawValue(text, v.types).json);
    }
    this.value = null;
    this.state = "call";
  }
}

/** The arguments JSON with the bodies of the streamed values put in (what the client got as fragments). */
function withBodies(skeleton: string, streamed: readonly StreamedValue[], seen: { slice(from: number, to: number): string }): string {
  let out = "";
  let prev = 0;
  for (const m of streamed) {
    out += skeleton.slice(prev, m.at) + (m.from < 0 ? "" : jsonStringBody(seen.slice(m.from, m.to)));
    prev = m.at;
  }
  return out + skeleton.slice(prev);
}

/** The text of a `<![CDATA[...]]>` section that is the whole value (whitespace around it allowed). */
function unwrapCdata(text: string): string | undefined {
  const t = text.trim();
  return t.startsWith("<![CDATA[") && t.endsWith("]]>") ? t.slice(9, -3) : undefined;
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

function hasNewline(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s[i] === "\n") return true;
  return false;
}


/**
 * The tag starting at `s[i]` (through its `>`); null when `s[i]` does not start a tag (or it is too long
 * to be one), undefined when more text is needed.
 */
function readTag(s: string, i: number, final: boolean): string | null | undefined {
  if (s[i] !== "<") return null;
  // A tag holds no other `<`, and only MAX_TAG characters are looked at: a search to the end of a long
  // text per tag would be quadratic (`<function=` repeated).
  const end = Math.min(s.length, i + MAX_TAG);
  for (let k = i + 1; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c === GT) return s.slice(i, k + 1);
    if (c === LT) return null;
  }
  return !final && s.length - i < MAX_TAG ? undefined : null;
}

const NO_ENDS: readonly string[] = [];

/** The length of a newline (`\n`, `\r\n`, or when `partial` a `\r` that may precede `\n`) ending at `s[p]`. */
function newlineBefore(s: string, p: number, floor: number, partial: boolean): number {
  if (p - 1 < floor) return 0;
  if (s[p - 1] === "\n") return p - 2 >= floor && s[p - 2] === "\r" ? 2 : 1;
  return partial && s[p - 1] === "\r" ? 1 : 0;
}

/** Whether `token` is at `s[p]`: in full, cut off by the end of `s` (unless final), or not. */
function tokenAt(s: string, p: number, token: string, final: boolean): "full" | "partial" | "no" {
  if (s.startsWith(token, p)) return "full";
  if (final || s.length - p >= token.length) return "no";
  // Compared in place: a slice per `<` of a push of code would be an allocation per check.
  for (let k = p; k < s.length; k++) if (s.charCodeAt(k) !== token.charCodeAt(k - p)) return "no";
  return "partial";
}

/** The length of the longest tail of `s[from..]` that is a proper prefix of one of `tokens`. */
function partialSuffix(s: string, from: number, tokens: readonly string[]): number {
  let best = 0;
  for (const t of tokens) {
    for (let k = Math.min(t.length - 1, s.length - from); k > best; k--) {
      if (s.endsWith(t.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}
