/**
 * The decoder for calls written as a header then the arguments: `f<｜tool▁sep｜>{...}` (DeepSeek
 * V3.1), `function<｜tool▁sep｜>f\n```json ...` (R1), `functions.f:0<|tool_call_argument_begin|>{...}`
 * (Kimi), `f[CALL_ID]id[ARGS]{...}` (Mistral), `f>{...}` (functionary `<function=f>`). The header is
 * buffered until one of its end strings (or a `{`, when allowed), parsed by the format's function
 * into a name and maybe an id, and the rest goes to a `jsonArgs` decoder.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { JsonArgsDecoder } from "./json-args.js";
import type { JsonArgsOptions } from "./json-args.js";
import { clip } from "./json-value.js";
import { shifted } from "./seen-text.js";

export interface HeaderArgsOptions extends JsonArgsOptions {
  /** Strings that end the header (consumed). */
  headerEnd: readonly string[];
  /** A `{` also ends the header and starts the arguments (Mistral `[TOOL_CALLS]f{...}`). */
  braceEndsHeader?: boolean;
  /** Name (and id) from the header text; undefined when the header is not a call header. */
  parseHeader(header: string): { name: string; id?: string } | undefined;
}

/** A header longer than this without its end is not a call header. */
const MAX_HEADER = 512;

class HeaderArgsDecoder implements PayloadDecoder {
  private header = "";
  private searchedTo = 0;
  private inner: JsonArgsDecoder | undefined;
  private failed = false;
  private readonly maxEnd: number;

  constructor(
    private readonly opts: HeaderArgsOptions,
    private readonly selfClosing: boolean,
    private readonly ctx: DecoderContext,
  ) {
    this.maxEnd = Math.max(1, ...opts.headerEnd.map((e) => e.length));
  }

  /** Where the arguments start in the payload: the inner decoder's offsets are relative to it. */
  private innerAt = 0;

  push(text: string): DecoderEvent[] {
    if (this.inner) return this.shift(this.inner.push(text));
    if (this.failed) return [];
    this.header += text;
    const found = this.findEnd();
    if (found === undefined) {
      if (this.header.length > MAX_HEADER) return this.fail(`no call header end in ${clip(this.header)}`);
      return [];
    }
    const parsed = this.opts.parseHeader(this.header.slice(0, found.index));
    if (parsed === undefined) return this.fail(`not a call header: ${clip(this.header.slice(0, found.index))}`);
    const restAt = found.index + found.length;
    const rest = this.header.slice(restAt);
    this.header = "";
    // `header` holds everything pushed so far, so `restAt` is an offset into the payload.
    this.innerAt = restAt;
    this.inner = new JsonArgsDecoder(this.opts, this.selfClosing, shifted(this.ctx, this.innerAt));
    const call: DecoderEvent = parsed.id !== undefined ? { kind: "call", name: parsed.name, id: parsed.id } : { kind: "call", name: parsed.name };
    return [call, ...this.shift(this.inner.push(rest))];
  }

  /** Failure offsets of the inner decoder, as offsets into this decoder's payload. */
  private shift(events: DecoderEvent[]): DecoderEvent[] {
    for (const ev of events) if (ev.kind === "fail" && ev.at !== undefined) ev.at += this.innerAt;
    return events;
  }

  opaque(): boolean {
    return this.inner?.opaque() ?? false;
  }

  // The fast paths make no events, so there are no offsets to shift.
  pushPlain(text: string): string | undefined {
    return this.inner?.pushPlain(text);
  }

  pushOpaque(text: string): string | undefined {
    return this.inner?.pushOpaque(text);
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.inner) return this.shift(this.inner.end(closed));
    if (this.failed) return [];
    return [{ kind: "fail", type: closed ? "malformed" : "truncated", message: "the call ended inside its header", raw: "" }];
  }

  private findEnd(): { index: number; length: number } | undefined {
    const from = Math.max(0, this.searchedTo - this.maxEnd);
    this.searchedTo = this.header.length;
    let best: { index: number; length: number } | undefined;
    for (const end of this.opts.headerEnd) {
      const at = this.header.indexOf(end, from);
      if (at >= 0 && (best === undefined || at < best.index)) best = { index: at, length: end.length };
    }
    if (this.opts.braceEndsHeader) {
      const at = this.header.indexOf("{", from);
      if (at >= 0 && (best === undefined || at < best.index)) best = { index: at, length: 0 };
    }
    return best;
  }

  private fail(message: string): DecoderEvent[] {
    this.failed = true;
    const out: DecoderEvent[] = [{ kind: "fail", type: "malformed", message, raw: "" }];
    // In a region that ends with its payload, the text is handed back to be read as plain text.
    if (this.selfClosing) out.push({ kind: "close", rest: this.header });
    return out;
  }
}

export function headerArgs(opts: HeaderArgsOptions): DecoderFactory {
  return (ctx: DecoderContext) => new HeaderArgsDecoder(opts, ctx.selfClosing ?? false, ctx);
}
