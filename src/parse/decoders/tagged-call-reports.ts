/**
 * What the tagged decoder (tagged.ts) reports of the calls it reads: the call opened and announced, its
 * arguments written, its `done` event, or the failure of the rest of the region; each with the model's
 * text of it, kept by offset and sliced once when it ends. The decoder's step machine is in tagged.ts;
 * this is the bookkeeping its steps share.
 */
import type { DecoderContext, DecoderEvent } from "../decoder.js";
import { TextRope } from "../rope.js";
import { StepDecoder } from "./step-decoder.js";
import { doneEvent } from "./tagged-call.js";
import type { OpenCall } from "./tagged-call.js";
import type { TaggedSyntax } from "./tagged-syntax.js";
import type { OpenValue } from "./tagged-value.js";

export type TaggedState = "between" | "name" | "call" | "key" | "valueOpen" | "value" | "body" | "failed" | "closed";

export abstract class TaggedCallReports extends StepDecoder<TaggedState> {
  protected call: OpenCall | null = null;
  protected value: OpenValue | null = null;
  protected calls = 0;
  /**
   * The model's text of the call being read (from its first character), or of the failed rest: where it
   * starts and (so far) ends, as offsets into `seen`; rawFrom < 0 when none is being kept. It is sliced
   * once, when the call ends.
   */
  protected rawFrom = -1;
  protected rawTo = 0;
  /** Where the step in progress started, in `seen` (a text kept from a step on starts there). */
  protected stepStart = 0;
  private closing: Extract<DecoderEvent, { kind: "done" }> | null = null;
  protected failure = "";
  /** Where the text the failure message quotes starts (an offset in `seen`), or -1. */
  private failureAt = -1;
  private failedName: string | undefined;

  constructor(
    protected readonly syntax: TaggedSyntax,
    protected readonly ctx: DecoderContext,
  ) {
    super(ctx.regionText, "between");
  }

  protected closeCallNow(): void {
    this.closeCall();
    this.finishClosing();
  }

  protected emitFailure(type: "malformed" | "truncated", message: string): void {
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

  protected fail(message: string, at = -1): void {
    this.state = "failed";
    this.failure = message;
    this.failureAt = at;
    this.failedName = this.call?.announced ? this.call.name : undefined;
    this.keepRaw();
  }

  /** Keeps the model's text from the start of the step in progress (`restart`: even if some is kept). */
  protected keepRaw(restart = false): void {
    if (this.rawFrom >= 0 && !restart) return;
    this.rawFrom = this.stepStart;
    this.rawTo = this.stepStart;
  }

  /** Fails at `s[i]`; `quote`: the message ends with a quote of the text from there (see DecoderEvent). */
  protected failAt(i: number, message: string, quote = false): number {
    this.fail(message, quote ? this.origin + i : -1);
    return i;
  }

  /**
   * A call opens. It is announced (the `call` event) at once, except in a region without end marker
   * (a bare `<function=`, which prose may mention): there only once a parameter or the call's close
   * tag confirms it, so that prose fails the region before any call is named and stays plain text.
   */
  protected openCall(name: string): void {
    this.call = { name, parameters: this.ctx.toolSchema(name), args: new TextRope(), streamed: [], keys: new Set(), repeated: false, n: 0, body: false, announced: false };
    this.state = "call";
    if (!this.ctx.selfClosing) this.announce(this.call);
  }

  protected announce(call: OpenCall): void {
    if (call.announced) return;
    call.announced = true;
    this.emit({ kind: "call", name: call.name });
  }

  protected closeCall(): void {
    const call = this.call!;
    this.announce(call);
    if (!call.body) this.emitArgs(call.n === 0 ? "{}" : "}");
    this.closing = doneEvent(call, this.seen);
    this.emit(this.closing);
    this.calls++;
    this.call = null;
    this.state = "between";
  }

  /** After the step that closed a call has added its text to `raw`: the call's raw text is complete. */
  protected finishClosing(): void {
    if (this.closing === null) return;
    if (this.rawFrom >= 0) this.closing.raw = this.seen.slice(this.rawFrom, this.rawTo);
    this.closing = null;
    this.rawFrom = -1;
  }

  protected emitArgs(text: string): void {
    if (text === "") return;
    this.call!.args.append(text);
    this.emitFragment(text);
  }

  /** An arguments fragment for the client only: the body of a streamed value (see OpenCall.args). */
  protected emitFragment(text: string): void {
    if (text === "") return;
    const last = this.events[this.events.length - 1];
    if (last?.kind === "args") last.text += text;
    else this.emit({ kind: "args", text });
  }
}
