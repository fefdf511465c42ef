/**
 * The contract between the parse engine (src/parse/engine.ts) and the payload decoders
 * (src/parse/decoders/*). The engine finds call regions by their markers (with hold-back, in linear time)
 * and feeds the text *inside* a region to a decoder, chunk by chunk. The decoder turns it into calls:
 * the name as soon as it is known, argument JSON text as it can be emitted, and a final value.
 * One region may hold several calls (pythonic `[f(), g()]`, JSON arrays); each is opened by a `call`
 * event and closed by `done` or `fail` before the next `call`.
 *
 * Invariants a decoder keeps (the streaming property tests check them through the engine):
 * - work per push is proportional to the pushed text (amortised): no re-scan of what it has seen;
 * - the concatenation of a call's `args` fragments equals the `arguments` string of its `done` event;
 * - the events do not depend on how the region text was split into pushes.
 */
import type { JsonSchema, RepairKind } from "../types.js";
import type { CompiledTolerances } from "./compile-tolerances.js";

export type DecoderEvent =
  /** A call begins; `id` when the format carries its own (Kimi `functions.f:0`, Mistral `[CALL_ID]`). */
  | { kind: "call"; name: string; id?: string }
  /** The next fragment of the current call's arguments, as JSON text. */
  | { kind: "args"; text: string }
  /**
   * The current call is complete. `arguments` is the whole JSON text (JSON formats: the model's own
   * bytes for the arguments value; typed formats: JSON built from the typed values); `value` is it parsed.
   * `raw` is the model's text for this call, when the decoder can delimit it inside a multi-call region.
   */
  | { kind: "done"; arguments: string; value: unknown; raw?: string }
  /**
   * The current call (or the region, if no call is open) cannot be a call. `at`: where the offending
   * text starts, as an offset into the payload pushed so far; the engine then ends `message` with a
   * quote of the region's text from there (up to QUOTE_LENGTH characters, known once the region is
   * over), so the message is the same however the text was split into pushes. A decoder never quotes
   * the text of a push itself.
   */
  | { kind: "fail"; type: "malformed" | "truncated"; message: string; name?: string; raw?: string; at?: number }
  /**
   * The region is over before its end marker: the payload ended by itself (regions without end
   * markers, e.g. a JSON array after `functools`), or the text turned out not to be a call at all
   * (`<tool_call> tags` in prose; then no `call`/`fail` precedes it and the region's text is plain
   * content, without an error). `rest` is a suffix of the text pushed so far that lies after the
   * payload; the engine reads it again outside the region. After `close` the decoder gets no more calls.
   */
  | { kind: "close"; rest: string }
  /**
   * The decoder read a deviation from the syntax as what the model meant (a tolerance of the format,
   * compile-tolerances.ts). It belongs to the current call, or to the next one to open: the engine
   * reports it (`repaired` in `errors`) only if that call validates, and forgets it if the call fails.
   * `text` is the model's text the repair consumed or reinterpreted (never empty).
   */
  | { kind: "repaired"; repair: RepairKind; message: string; text: string };

export interface PayloadDecoder {
  push(text: string): DecoderEvent[];
  /**
   * Optional fast path for the most common push while streaming: text in the middle of a long value
   * of the current call's arguments. When all of `text` is such text (nothing in it can end the value
   * or has to be held back), the decoder takes it and returns the arguments fragment it makes ("" when
   * it writes none yet); otherwise it takes nothing and returns undefined, and the engine calls `push`.
   * Taking the text here must have exactly the effect `push` would have had: one args event, or none.
   */
  pushPlain?(text: string): string | undefined;
  /**
   * Optional, like pushPlain, but offered before the engine has looked for the region's markers
   * (`ends`) in `text` (the text is opaque to the engine): the decoder takes it only when it knows that
   * none of them can act in it, so the engine's own scan would have found nothing to act on. Either the
   * text stays inside a literal of the payload in which markers do not count (an open JSON string: see
   * `opaque`), or the decoder's own search rules them out (a tagged value, searched for `<` anyway,
   * checks each `<` against `ends` when they all start with `<`): one pass over a push then does both
   * searches. Otherwise the decoder returns undefined, having done nothing; for a text whose tail may
   * still grow into a marker (`</` at the end of a push), the engine then holds that tail back, as its
   * scan would, and offers the text before it again.
   */
  pushOpaque?(text: string, ends: readonly string[]): string | undefined;
  /**
   * Optional: the text pushed so far ends inside a literal of the payload (an open JSON string), so a
   * region end marker found now is part of that literal (`"a": "</tool_call>"`), not the region's end.
   * The engine asks when it finds an end marker and then pushes the marker as region text.
   */
  opaque?(): boolean;
  /**
   * Optional: false once the text read so far can no longer be a call to a tool the request accepts
   * (a key no call object has, a name no accepted tool's name starts with). A reader that holds text
   * while it may be a call (bare-call) lets it go then; a decoder without it is asked only by its events.
   */
  mayBeCall?(): boolean;
  /** `closed`: the region's end marker was seen (false: the stream ended inside the region). */
  end(closed: boolean): DecoderEvent[];
  /**
   * Optional: this decoder has handed the region to another one and from now on only forwards every
   * call to it unchanged (a choice on the payload's first character, once made). The engine then calls
   * that one directly, so a streaming push does not pay the extra call on each of its few characters.
   */
  forwardsTo?(): PayloadDecoder | undefined;
}

/** What a decoder may know about the request: the declared tools' schemas, for typing raw values. */
export interface DecoderContext {
  toolSchema(name: string): JsonSchema | undefined;
  /**
   * The region has no end marker: the decoder must end it with a `close` event once its payload is
   * complete (a JSON value that closed its last bracket), handing back the text after it.
   */
  selfClosing?: boolean;
  /**
   * The payload text pushed to this decoder so far, between two offsets (0 = the first character
   * pushed). The engine keeps the region's text anyway, so decoders can slice it instead of keeping
   * their own copy.
   */
  regionText?(from: number, to: number): string;
  /** The same text as `regionText`, as the pieces the engine stores it in (not joined). */
  regionPieces?(from: number, to: number): string[];
  /** The deviations the family tolerates (absent: none). */
  tolerances?: CompiledTolerances;
  /**
   * The request declares this tool and would accept a call to it now (tool_choice, parallel calls):
   * a repair that reads markup-less text as a call (`bare-call`) applies only then.
   */
  acceptsDeclared?(name: string): boolean;
  /** Some declared tool may be called at all (tools declared, tool_choice not "none"). */
  declaredCallsPossible?: boolean;
  /** Some declared tool whose name starts with `prefix` would be accepted now (see acceptsDeclared). */
  mayNameDeclared?(prefix: string): boolean;
}

/** The shared, frozen answer of a push that produced no events (callers never modify event arrays). */
export const NO_EVENTS: DecoderEvent[] = Object.freeze([]) as unknown as DecoderEvent[];

/** How many characters of region text a failure message quotes (see the `fail` event's `at`). */
export const QUOTE_LENGTH = 40;

/** How a message quotes `text`: its first QUOTE_LENGTH characters as a JSON string, "..." if there is more. */
export function quoteStart(text: string): string {
  return JSON.stringify(text.slice(0, QUOTE_LENGTH)) + (text.length > QUOTE_LENGTH ? "..." : "");
}

export type DecoderFactory = (ctx: DecoderContext) => PayloadDecoder;
