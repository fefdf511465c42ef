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
 *
 * Its parts: where a value ends (tagged-value-end.ts, one scan for the step machine and the fast path),
 * a value's text taken in and written as JSON (tagged-value.ts), the call and its `done` event
 * (tagged-call.ts), the calls and failures it reports with their text (tagged-call-reports.ts), and the
 * tag scanning it shares with xml-calls.ts (tag-scan.ts).
 */
import type { DecoderContext, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { propertySchema } from "../coerce.js";
import type { ValueType } from "../coerce.js";
import { LiteralValueReader } from "../literal/value-reader.js";
import { skipSpace } from "./step-decoder.js";
import { isToolName, MAX_TAG, newlineBefore, partialSuffix, readTag } from "./tag-scan.js";
import { TaggedCallReports } from "./tagged-call-reports.js";
import type { TaggedSyntax } from "./tagged-syntax.js";
import { addValueText, closeValue, openValue } from "./tagged-value.js";
import type { OpenValue } from "./tagged-value.js";
import { ValueEndScan } from "./tagged-value-end.js";

export type { ParamOpen, TaggedSyntax } from "./tagged-syntax.js";

const NO_ENDS: readonly string[] = [];
const NEWLINE = 0x0a;
const CR = 0x0d;
const LT = 0x3c;

/**
 * A decoder factory for `syntax`. In a region without end marker (`ctx.selfClosing`: Qwen3.5's
 * `<function=` written without `<tool_call>`), the call's close tag ends the region and the decoder
 * reports `close` with the rest of the text.
 */
export function taggedDecoder(syntax: TaggedSyntax): DecoderFactory {
  return (ctx: DecoderContext): PayloadDecoder => new TaggedDecoder(syntax, ctx);
}

class TaggedDecoder extends TaggedCallReports {
  private body: LiteralValueReader | null = null;
  private text = "";
  /** Where a value's text ends (both the step machine and the fast path ask it). */
  private readonly valueEnd: ValueEndScan;

  constructor(syntax: TaggedSyntax, ctx: DecoderContext) {
    super(syntax, ctx);
    // Tags spelled as another family writes them (`tag-alias`) may follow a value's close tag too.
    const aliases = ctx.tolerances?.tagAliasStarts ?? [];
    this.valueEnd = new ValueEndScan(aliases.length === 0 ? syntax : { ...syntax, afterParam: [...syntax.afterParam, ...aliases] });
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
   * what follows it (and a newline before it). Each `<` is judged by the value scan valueText uses
   * (ValueEndScan), so this is valueText and run's bookkeeping of it, without the step loop.
   */
  pushPlain(text: string): string | undefined {
    return this.pushValueText(text, NO_ENDS);
  }

  /**
   * pushPlain, minding the region's markers too (see PayloadDecoder.pushOpaque): only when they all
   * start with `<`, which the value's search finds anyway.
   */
  pushOpaque(text: string, ends: readonly string[]): string | undefined {
    if (ends !== this.endsAsked) {
      this.endsAsked = ends;
      this.ltEnds = ends.every((e) => e.charCodeAt(0) === LT) ? ends : undefined;
    }
    const lt = this.ltEnds;
    return lt === undefined ? undefined : this.pushValueText(text, lt);
  }

  /** The `ends` pushOpaque was last given, and them again if they all start with `<` (else undefined). */
  private endsAsked: readonly string[] | null = null;
  private ltEnds: readonly string[] | undefined = undefined;

  private pushValueText(text: string, ends: readonly string[]): string | undefined {
    const v = this.value;
    // (A value the padded-value tolerance may still hold goes through valueText: `pad`, `padTolerated`.)
    if (v === null || v.mode !== "stream" || v.lead !== null || v.pad !== null || v.padTolerated || this.state !== "value" || text === "") return undefined;
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
    return this.valueTextWithLt(v, text, ends, s, tail, escaped, first);
  }

  /**
   * pushValueText's rest, for a push that holds a `<` (or that writeScanning could not escape): each
   * `<` is judged by the value scan, as valueText judges it (`x < 10` is text). Kept apart so that the
   * common push above stays small enough for V8 to inline into the engine's push.
   */
  private valueTextWithLt(v: OpenValue, text: string, ends: readonly string[], s: string, tail: number, escaped: string | undefined, first: number): string | undefined {
    const n = s.length;
    const p = first < 0 ? -1 : this.valueEnd.find(s, 0, first, false, v.atLineStart, ends);
    // The value ends here, or a region marker (or what may still become one) starts here: push's work.
    if (p >= 0 && this.valueEnd.verdict !== "wait") return undefined;
    const cut = p < 0 ? n - tail : p - newlineBefore(s, p, 0, true);
    return this.tookValueText(v, text, s, cut, cut === n - tail ? escaped : undefined);
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
    let name = tag === null ? undefined : this.syntax.callOpen(tag);
    const alias = tag === null || name !== undefined ? undefined : this.ctx.tolerances?.tagAlias(tag);
    if (alias?.name !== undefined) name = alias.name;
    if (tag === null || name === undefined || !isToolName(name)) {
      return this.failAt(i, "expected a call, found", true);
    }
    if (alias !== undefined) this.emit({ kind: "repaired", repair: "tag-alias", message: alias.message, text: tag });
    this.openCall(name);
    if (alias !== undefined) this.call!.aliased = true;
    return i + tag.length;
  }

  /** GLM: the name runs to the first tag or line end. */
  private nameText(s: string, i: number, final: boolean): number {
    let k = i;
    while (k < s.length && s[k] !== "<" && s[k] !== "\n") k++;
    this.text += s.slice(i, k);
    if (this.text.length > MAX_TAG) return this.failAt(k, "tool name too long");
    if (k === s.length) return final || k > i ? k : -1;
    const name = this.text.trim();
    if (s[k] === "<" && this.keyMayRunIntoName(name)) {
      // The key's close tag right after the text: the key's open tag may be missing (see nameAndKey).
      const tag = readTag(s, k, final);
      if (tag === undefined) return k > i ? k : -1;
      const split = tag !== null && tag === this.syntax.keyClose ? this.nameAndKey(name) : undefined;
      if (tag !== null && split !== undefined) {
        const open = JSON.stringify(this.syntax.keyOpen ?? "");
        this.emit({ kind: "repaired", repair: "missing-key-opener", message: `${JSON.stringify(name)} read as the tool ${JSON.stringify(split.name)} and its first key ${JSON.stringify(split.key)}, whose ${open} is missing`, text: name });
        this.openCall(split.name);
        this.announce(this.call!);
        this.text = split.key;
        this.state = "valueOpen";
        return k + tag.length;
      }
    }
    if (!isToolName(name)) return this.failAt(k, `not a tool name: ${JSON.stringify(name.slice(0, 40))}`);
    this.openCall(name);
    return k;
  }

  /**
   * A `missing-key-opener` tolerance may apply to the leading text `name`: the request declares tools
   * and accepts none of that name (a name it accepts is read as it is, at once; one it does not accept
   * is never streamed, so waiting for the tag after it holds nothing back that would have gone out).
   */
  private keyMayRunIntoName(name: string): boolean {
    const open = this.syntax.keyOpen;
    const ctx = this.ctx;
    return open !== undefined && name !== "" && ctx.declaredCallsPossible === true && ctx.tolerances?.missingKeyOpener(open) === true && ctx.acceptsDeclared?.(name) === false;
  }

  /**
   * GLM's first key run into the name (`send_command_to_shellcommand</arg_key>`): the one split of
   * `text` into an accepted declared tool's name and a key that tool's schema declares (whitespace
   * between them allowed). None, or more than one: undefined (reading it would be a guess).
   */
  private nameAndKey(text: string): { name: string; key: string } | undefined {
    let found: { name: string; key: string } | undefined;
    for (let n = 1; n < text.length; n++) {
      const name = text.slice(0, n);
      if (this.ctx.acceptsDeclared?.(name) !== true) continue;
      const key = text.slice(n).trim();
      if (key === "" || propertySchema(this.ctx.toolSchema(name), key) === undefined) continue;
      if (found !== undefined) return undefined;
      found = { name, key };
    }
    return found;
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
    let param = call.body ? undefined : this.syntax.paramOpen(tag);
    if (param === undefined && !call.body) {
      const alias = this.ctx.tolerances?.tagAlias(tag);
      if (alias?.key !== undefined) {
        param = alias.untyped === undefined ? { key: alias.key } : { key: alias.key, untyped: alias.untyped };
        // One `tag-alias` repair per call, at its first aliased tag.
        if (call.aliased !== true) {
          this.announce(call);
          this.emit({ kind: "repaired", repair: "tag-alias", message: alias.message, text: tag });
          call.aliased = true;
        }
      }
    }
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

  private openValue(key: string, untyped?: readonly ValueType[]): void {
    const opened = openValue(this.call!, key, untyped ?? this.syntax.untyped, this.syntax.cdata === true, this.ctx.tolerances?.paddedValues === true);
    this.value = opened.value;
    this.emitFragment(opened.fragment);
    this.state = "value";
  }

  /**
   * Value text from `s[i]` up to its end. Text is given to the value as soon as it cannot be part of the
   * end: held back are a `<` that may start a closing tag (with what follows it, until that is decided)
   * and a newline right before it (the one trailing newline that is stripped).
   */
  private valueText(s: string, i: number, final: boolean): number {
    // Every `<` that is plain text (HTML, code) is skipped, so that the text goes out in one piece.
    const p = this.valueEnd.find(s, i, s.indexOf("<", i), final, this.value!.atLineStart, NO_ENDS);
    const verdict = this.valueEnd.verdict;
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
    this.closeValue(nl > 0);
    return verdict === "implicit" ? p : p + this.syntax.paramClose.length;
  }

  private addValueText(text: string, at: number): void {
    this.emitFragment(addValueText(this.call!, this.value!, text, at, this.syntax.cdata === true));
  }

  private closeValue(newlineBeforeClose = false): void {
    const v = this.value!;
    this.emitFragment(closeValue(this.call!, v, this.syntax.cdata === true, newlineBeforeClose));
    // --- padded-value (helper wild-more) ---
    if (v.padRepaired !== undefined) {
      this.emit({ kind: "repaired", repair: "padded-value", message: `the spaces around the one-line value of ${JSON.stringify(v.key)} read as layout, not as its text`, text: v.padRepaired });
    }
    // --- end padded-value ---
    this.value = null;
    this.state = "call";
  }
}
