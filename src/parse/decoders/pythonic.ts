/**
 * Decoders for calls written as code: Python calls with keyword arguments, `[f(a=1, b="x"), g()]`
 * (Llama 3.2/4 pythonic, LFM2, tagged-pythonic), and Gemma 4's `call:f{city:<|"|>London<|"|>,n:3}`.
 * One call-list machine reads names and separators; the arguments are read by the literal reader
 * (literal/value-reader.ts) in the syntax's dialect, which writes their JSON as it reads, so string
 * arguments stream.
 *
 * Values are literals with their own types (`3` is a number, `'3'` a string), so they are not retyped
 * by the schema; ajv checks them against it afterwards.
 *
 * A call's `raw` text is its own (`f(a=1)`); the list's brackets and commas belong to no call. Text that
 * is not a call: before any call is named it fails the region (prose such as `[1]` or `[see docs]`, which
 * the engine keeps as plain content when the region is marked quiet); inside a call it fails that call.
 * In a region without end marker (a bare `[...]`) the failure also ends the region there, and the rest of
 * the text is handed back to the engine; in a region with an end marker the rest of the region is kept
 * as the failed call's text. A bare list may be prose (`[note(s)]`), so there a call is named only once
 * its arguments look real (a first `name=`, or `()`); elsewhere as soon as its `(` is read.
 *
 * LFM2's choice between these calls and JSON ones is pythonic-or-json.ts; where a failed list item
 * ends, list-item-skipper.ts.
 */
import type { OtherArgumentList } from "../compile-tolerances.js";
import type { DecoderContext, DecoderEvent, DecoderFactory } from "../decoder.js";
import { literalDialect } from "../literal/dialects.js";
import type { ArgumentList, LiteralDialect, LiteralDialectName } from "../literal/dialects.js";
import { LiteralValueReader, readLiteral } from "../literal/value-reader.js";
import type { LiteralValueReaderOptions } from "../literal/value-reader.js";
import { propertySchema, schemaTypes, typeRawValue } from "../coerce.js";
import { TextRope } from "../rope.js";
import { ItemSkipper, MAX_FAILED_ITEMS } from "./list-item-skipper.js";
import { skipSpace, StepDecoder } from "./step-decoder.js";

export interface CallListSyntax {
  /** Written before each call's name (Gemma 4: `call:`). */
  namePrefix: string;
  /** The arguments' dialect; its argument list (`(a=1)`, `{a:1}`) follows the name. */
  dialect: LiteralDialect | LiteralDialectName;
  /** Calls may sit in a Python list, `[f(), g()]`. */
  list: boolean;
  /** Outside a list, calls may follow one another separated by whitespace (Olmo 3: one per line). */
  sequence?: boolean;
}

export const PYTHON_CALLS: CallListSyntax = { namePrefix: "", dialect: "python", list: true };

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_.\-]/;
const MAX_NAME = 256;

type State = "start" | "item" | "prefix" | "name" | "args" | "after" | "end" | "failed" | "closed";

const NAME_STARTS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"];

/** What a call of a syntax with this name prefix starts with outside a list: the prefix, or a name's first character. */
export function callStarts(namePrefix: string): string[] {
  return namePrefix !== "" ? [namePrefix] : NAME_STARTS;
}

export function callListDecoder(syntax: CallListSyntax): DecoderFactory {
  return (ctx: DecoderContext) => new CallListDecoder(syntax, ctx);
}

/** Python calls, `[f(a=1), g()]` or a bare `f(a=1)`. */
export const pythonicCalls: DecoderFactory = callListDecoder(PYTHON_CALLS);

class CallListDecoder extends StepDecoder<State> {
  private bracketed = false;
  private calls = 0;
  private name = "";
  private reader: LiteralValueReader | null = null;
  /** The current call's `call` event was sent. */
  private announced = false;
  /**
   * The current call's arguments JSON so far. Ropes, not arrays of pieces: a streamed call adds a piece
   * per push, and an array would keep every small piece alive (copied by each young-generation GC).
   */
  private argParts = new TextRope();
  /** The current call's text from its name on; after a failure, also the rest of the region. */
  private raw = new TextRope();
  private failure = "";
  /** Where the text the failure message quotes starts (an offset in `seen`), or -1. */
  private failureAt = -1;
  /** The failure ends at the end of its line (see failAt). */
  private lineFailure = false;
  /** Lines of a sequence that failed on their own (each reported already). */
  private failedLines = 0;
  /** Reads to the end of a failed list item (see failAt), or null. */
  private skipper: ItemSkipper | null = null;
  /** List items that failed on their own (each reported already). */
  private failedItems = 0;
  /** The current call was written without the name prefix (a `missing-name-prefix` repair). */
  private prefixMissing = false;
  private readonly dialect: LiteralDialect;
  private readonly toolSchema: DecoderContext["toolSchema"];
  private readonly argList: ArgumentList;
  private readonly selfClosing: boolean;

  constructor(
    private readonly syntax: CallListSyntax,
    private readonly ctx: DecoderContext,
  ) {
    super(ctx.regionText, "start");
    this.selfClosing = ctx.selfClosing === true;
    this.dialect = literalDialect(syntax.dialect);
    this.toolSchema = (name) => ctx.toolSchema(name);
    if (this.dialect.args === undefined) throw new Error(`dialect ${this.dialect.name} has no call argument lists`);
    this.argList = this.dialect.args;
  }

  protected finish(s: string, closed: boolean): void {
    // Text kept after complete calls when the output ends (a cut-off end tag) is read too, so that it
    // fails and is kept instead of vanishing with the region.
    const between = this.state === "after" || this.state === "item" || this.state === "end";
    const i = closed || (between && /\S/.test(s)) ? this.run(s, true) : 0;
    if (this.isClosed()) return;
    if (this.state === "failed" || this.reader !== null || this.state === "name" || this.state === "prefix") {
      this.raw.append(s.slice(i));
      if (this.state === "failed") this.emitFailure("malformed", this.failure);
      else this.emitFailure(closed ? "malformed" : "truncated", closed ? "the call is not complete" : "the output ended inside a tool call");
    } else if (this.calls === 0 && this.failedLines === 0 && this.failedItems === 0) {
      this.emitFailure(closed ? "malformed" : "truncated", "no tool call in the region");
    }
    // Otherwise every call is complete; a missing `]` before the end is no loss.
  }

  /**
   * See PayloadDecoder.mayBeCall: the name read so far must begin an accepted tool's name, and once its
   * argument list opened it must be one (so prose that starts with a word is let go at the first
   * character no accepted name has there).
   */
  mayBeCall(): boolean {
    switch (this.state) {
      case "failed":
      case "closed":
        return false;
      case "name":
        return this.ctx.mayNameDeclared?.(this.name) ?? true;
      case "args":
        return this.ctx.acceptsDeclared?.(this.name) ?? true;
      default:
        return true;
    }
  }

  /**
   * The common push of a long string argument: what push would do with it (see
   * LiteralValueReader.pushPlainString), without the step machine.
   */
  pushPlain(text: string): string | undefined {
    const reader = this.reader;
    if (this.state !== "args" || reader === null || !this.announced || this.kept() !== "") return undefined;
    const json = reader.pushPlainString(text);
    if (json === undefined) return undefined;
    this.seen.begin(text);
    this.raw.append(text);
    this.argParts.append(json);
    return json;
  }

  protected run(s: string, final: boolean): number {
    let i = 0;
    while (i < s.length && !this.isClosed()) {
      const wasFailed = this.state === "failed";
      const j = this.step(s, i, final);
      if (j < 0) break;
      // (A failed line of a sequence that ended in this step already took its text: see skipLine.)
      if (wasFailed && this.state === "failed") this.raw.append(s.slice(i, j));
      else if (this.state === "failed" && this.selfClosing) {
        // No end marker to wait for: report now and hand the rest back to the engine. The failure's
        // text ends where the error is, also when that is in text of an earlier push (a backslash the
        // last push ended with), so that it is the same for every split of the stream.
        const back = this.reader?.error !== undefined ? Math.min(this.reader.errorBack, this.raw.length) : 0;
        const taken = back > 0 ? this.raw.slice(this.raw.length - back, this.raw.length) : "";
        if (back > 0) this.raw.truncate(this.raw.length - back);
        this.emitFailure("malformed", this.failure);
        return this.closeRegion(s, j, taken);
      }
      i = j;
    }
    return i;
  }

  private step(s: string, i: number, final: boolean): number {
    switch (this.state) {
      case "start": {
        const j = skipSpace(s, i);
        if (j > i) return j;
        this.state = "item";
        if (this.syntax.list && s[i] === "[") {
          this.bracketed = true;
          return i + 1;
        }
        return i;
      }
      case "item":
        return this.item(s, i);
      case "prefix":
        return this.prefix(s, i, final);
      case "name":
        return this.nameChars(s, i, final);
      case "args":
        return this.args(s, i);
      case "after":
        return this.after(s, i, final);
      case "end": {
        const j = skipSpace(s, i);
        return j > i ? j : this.failAt(i, "unexpected text after the calls:", true);
      }
      default:
        // failed: the rest of the region is the failure's text, or in a sequence the rest of its line.
        if (this.lineFailure) return this.skipLine(s, i);
        return this.skipper !== null ? this.skipElement(s, i) : s.length;
    }
  }

  /** Fails at `s[i]`; `quote`: the message ends with a quote of the text from there (see DecoderEvent). */
  private failAt(i: number, message: string, quote = false): number {
    const inItem = this.state === "name" || this.state === "args" || this.state === "prefix" || this.state === "after";
    this.failure = message;
    this.failureAt = quote ? this.origin + i : -1;
    this.state = "failed";
    // One call per line (Olmo 3) between end markers: a line that is no call fails alone, and the calls
    // on the lines after it are still read (a bad sibling does not take the good ones with it).
    this.lineFailure = this.syntax.sequence === true && !this.bracketed && !this.selfClosing;
    // A list item that is no call, between end markers (`[bad(x=b'z'), f()]`): the item fails alone,
    // its text read to where it ends (its brackets closed, or the next `,`/`]` outside any), and the
    // calls after it are still read. A bare list (no end marker) may be prose: it fails whole, as before.
    this.skipper = null;
    if (inItem && this.bracketed && !this.selfClosing && this.failedItems < MAX_FAILED_ITEMS) {
      const skipper = new ItemSkipper();
      if (skipper.feed(this.raw.toString(), 0) < 0) this.skipper = skipper;
    }
    return i;
  }

  /** The rest of a failed list item (see failAt): its text is the failure's, then the list goes on. */
  private skipElement(s: string, i: number): number {
    const end = this.skipper!.feed(s, i);
    if (end < 0) return s.length;
    this.raw.append(s.slice(i, end));
    this.skipper = null;
    this.failedItems++;
    return this.endFailedPart(end);
  }

  /** A failed line of a sequence: its text up to its newline is the failure's, then calls may follow. */
  private skipLine(s: string, i: number): number {
    const nl = s.indexOf("\n", i);
    if (nl < 0) return s.length;
    this.raw.append(s.slice(i, nl + 1));
    this.lineFailure = false;
    this.failedLines++;
    return this.endFailedPart(nl + 1);
  }

  /** A failed item or line has all its text: it is reported, and the calls after it are read from `j`. */
  private endFailedPart(j: number): number {
    this.emitFailure("malformed", this.failure);
    this.failureAt = -1;
    this.state = "after";
    return j;
  }

  private emitFailure(type: "malformed" | "truncated", message: string): void {
    const ev: DecoderEvent = { kind: "fail", type, message };
    if (this.failureAt >= 0 && message === this.failure) ev.at = this.failureAt;
    if (this.reader !== null && this.announced) ev.name = this.name;
    const raw = this.raw.toString();
    if (raw !== "") ev.raw = raw;
    this.emit(ev);
    this.reader = null;
    this.raw = new TextRope();
  }

  private item(s: string, i: number): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    if (this.bracketed && s[i] === "]") {
      // `[]` is no call; `[f(), ]` is a trailing comma.
      if (this.calls === 0) return this.failAt(i, "an empty list is not a call");
      this.state = "end";
      return i + 1;
    }
    this.raw = new TextRope();
    this.name = "";
    this.prefixMissing = false;
    this.state = this.syntax.namePrefix === "" ? "name" : "prefix";
    return i;
  }

  private prefix(s: string, i: number, final: boolean): number {
    const p = this.syntax.namePrefix;
    const have = s.slice(i, i + p.length);
    if (have === p) {
      this.raw.append(p);
      this.state = "name";
      return i + p.length;
    }
    if (!final && p.startsWith(have)) return -1;
    const instead = this.calls === 0 ? (this.ctx.tolerances?.missingNamePrefix(p) ?? []) : [];
    for (const short of instead) {
      // `<start_function_call>f{}`, `<|tool_call>:f{}`: the prefix left out or shortened before the
      // first call's name (a `missing-name-prefix` tolerance), reported with the call once its
      // argument list opens.
      if (short === "" ? !NAME_START.test(s[i]!) : !s.startsWith(short, i)) {
        if (short !== "" && !final && s.length - i < short.length && short.startsWith(s.slice(i))) return -1;
        continue;
      }
      this.prefixMissing = true;
      this.raw.append(short);
      this.state = "name";
      return i + short.length;
    }
    return this.failAt(i, `expected ${JSON.stringify(p)}`);
  }

  private nameChars(s: string, i: number, final: boolean): number {
    let j = i;
    while (j < s.length && NAME_CHAR.test(s[j]!)) j++;
    this.name += s.slice(i, j);
    this.raw.append(s.slice(i, j));
    if (this.name.length > MAX_NAME) return this.failAt(j, "tool name too long");
    if (j === s.length) return final ? this.failAt(j, "the call is not complete") : j > i ? j : -1;
    const other = s[j] === this.argList.open ? undefined : this.otherArgumentList(s[j]!);
    if ((s[j] !== this.argList.open && other === undefined) || this.name === "" || !NAME_START.test(this.name[0]!)) {
      return this.failAt(j, `not a call: ${JSON.stringify(this.name + s[j])}`);
    }
    this.raw.append(s[j]!);
    if (this.prefixMissing) {
      this.prefixMissing = false;
      const p = this.syntax.namePrefix;
      const written = this.raw.slice(0, this.raw.length - this.name.length - 1);
      const how = written === "" ? "without" : `with ${JSON.stringify(written)} for`;
      this.emit({ kind: "repaired", repair: "missing-name-prefix", message: `a call written ${how} ${JSON.stringify(p)} before its name read as ${JSON.stringify(p + this.name)}`, text: written + this.name });
    }
    if (other !== undefined) this.emit({ kind: "repaired", repair: "argument-list", message: other.message, text: s[j]! });
    this.reader = new LiteralValueReader(other?.dialect ?? this.dialect, "args", this.argumentTyping(this.name));
    this.argParts = new TextRope();
    this.announced = false;
    this.announce(this.reader);
    this.state = "args";
    return j + 1;
  }

  /** The family's other argument list opened by `c` (an `argument-list` tolerance), if any. */
  private otherArgumentList(c: string): OtherArgumentList | undefined {
    const lists = this.ctx.tolerances?.argumentLists(this.dialect.name);
    return lists === undefined || lists.length === 0 ? undefined : lists.find((l) => l.dialect.args!.open === c);
  }

  /**
   * For a dialect whose templates quote every value (FunctionGemma): a quoted argument whose schema
   * allows no string is read as the schema's type (`n:<escape>3<escape>` for an integer `n` is 3).
   */
  private argumentTyping(name: string): LiteralValueReaderOptions {
    if (this.dialect.quotedValuesTyped !== true) return {};
    const parameters = this.toolSchema(name);
    return {
      retypeArgument: (key) => {
        // A key no schema declares is read as JSON when its text is JSON (`count:<escape>42<escape>` is
        // 42), as vLLM's FunctionGemma parser reads every value; anything else stays the model's string.
        const property = parameters === undefined ? undefined : propertySchema(parameters, key);
        if (property === undefined) return (text) => {
          const lit = readLiteral(text.trim(), ["json"]);
          return lit === undefined || typeof lit.value === "string" ? undefined : lit;
        };
        const types = schemaTypes(property, parameters);
        if (types.includes("string")) return undefined;
        return (text) => {
          const typed = typeRawValue(text, types);
          return typeof typed.value === "string" ? undefined : typed;
        };
      },
    };
  }

  /**
   * The call event. In a region with end markers it goes out as soon as the name is read; a bare
   * `[...]` may be prose (`[note(s)]`), so there the call is named only once its arguments look real:
   * a first `name=`, or an empty `()`. Before that, a failure is the region's, and prose stays text.
   */
  private announce(reader: LiteralValueReader): void {
    if (this.announced || (this.selfClosing && !reader.named && !reader.done)) return;
    this.announced = true;
    this.emit({ kind: "call", name: this.name });
    const text = this.argParts.toString();
    if (text !== "") this.emit({ kind: "args", text });
  }

  private args(s: string, i: number): number {
    const reader = this.reader!;
    const rest = reader.push(s.slice(i));
    const j = s.length - rest.length;
    this.raw.append(s.slice(i, j));
    const text = reader.take();
    if (this.announced) {
      if (text !== "") this.emit({ kind: "args", text });
      this.argParts.append(text);
    } else {
      this.argParts.append(text);
      this.announce(reader);
    }
    if (reader.error !== undefined) return this.failAt(j, reader.error);
    if (!reader.done) return j;
    this.emit({ kind: "done", arguments: this.argParts.toString(), value: reader.value, raw: this.raw.toString() });
    this.calls++;
    this.reader = null;
    this.raw = new TextRope();
    this.state = "after";
    return !this.syntax.list && this.selfClosing ? this.closeRegion(s, j) : j;
  }

  private after(s: string, i: number, final: boolean): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    const c = s[i]!;
    if (c === "," && this.syntax.list) {
      this.state = "item";
      return i + 1;
    }
    if (this.bracketed && c === "]") {
      if (this.selfClosing) return this.closeRegion(s, i + 1);
      this.state = "end";
      return i + 1;
    }
    if (this.syntax.sequence && !this.bracketed && NAME_START.test(c)) {
      this.state = "item";
      return i;
    }
    if (this.syntax.namePrefix !== "") {
      const at = s.slice(i, i + this.syntax.namePrefix.length);
      if (at === this.syntax.namePrefix) {
        this.state = "item";
        return i;
      }
      if (!final && this.syntax.namePrefix.startsWith(at)) return -1;
    }
    if (this.selfClosing && !this.bracketed) return this.closeRegion(s, i);
    return this.failAt(i, "unexpected text after a call:", true);
  }

  /** Ends a region without end marker: `taken` (text of earlier pushes) and `s` from `j` go back. */
  private closeRegion(s: string, j: number, taken = ""): number {
    this.emit({ kind: "close", rest: taken + s.slice(j) });
    this.close();
    return s.length;
  }
}
