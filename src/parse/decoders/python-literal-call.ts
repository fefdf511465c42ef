/**
 * The `python-literal` repair (wild-fix3): a JSON call region whose call object is written as a Python
 * literal (`{"arguments": {'k': 1}, "name": 'f'}`, strings in '...'). It is no JSON, but it has one
 * reading, Python's. The region's own JSON decoder reads it first; only when that decoder fails the
 * whole region without having named a call is the payload read as one Python literal: an object with a
 * string name key and an object arguments key (the payload's own key names), nothing else. The decision
 * is made when the region ends, where the failure was decided anyway, so every split reads the same.
 * Once the JSON decoder names a call, the region is handed to it (its fast paths come back).
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { readLiteral } from "../literal/value-reader.js";

class PythonLiteralCall implements PayloadDecoder {
  /** The payload so far, while no call has been named (then the literal reading may still be needed). */
  private text: string[] = [];
  private named = false;

  constructor(
    private readonly inner: PayloadDecoder,
    private readonly argsKeys: readonly string[],
    private readonly message: string,
  ) {}

  push(text: string): DecoderEvent[] {
    const events = this.inner.push(text);
    if (!this.named) {
      this.text.push(text);
      this.watch(events);
    }
    return events;
  }

  // The JSON decoder's fast paths, with the text they take kept while no call is named.
  pushPlain(text: string): string | undefined {
    return this.kept(text, this.inner.pushPlain?.(text));
  }

  pushOpaque(text: string, ends: readonly string[]): string | undefined {
    return this.kept(text, this.inner.pushOpaque?.(text, ends));
  }

  private kept(text: string, took: string | undefined): string | undefined {
    if (took !== undefined && !this.named) this.text.push(text);
    return took;
  }

  opaque(): boolean {
    return this.inner.opaque?.() ?? false;
  }

  forwardsTo(): PayloadDecoder | undefined {
    return this.named ? this.inner : undefined;
  }

  end(closed: boolean): DecoderEvent[] {
    const events = this.inner.end(closed);
    if (this.named || !closed) return events;
    const fail = events.findIndex((e) => e.kind === "fail");
    if (fail < 0 || events.some((e) => e.kind === "call")) return events;
    const call = this.literalCall(this.text.join(""));
    if (call === undefined) return events;
    return [...events.slice(0, fail), ...call, ...events.slice(fail + 1)];
  }

  private watch(events: DecoderEvent[]): void {
    if (events.some((e) => e.kind === "call")) {
      this.named = true;
      this.text = [];
    }
  }

  /** The events of the call the payload is as a Python literal, or undefined when it is none. */
  private literalCall(payload: string): DecoderEvent[] | undefined {
    const body = payload.trim();
    if (!body.startsWith("{") || !body.includes("'")) return undefined;
    const read = readLiteral(body, ["python"]);
    const obj = read?.value;
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return undefined;
    const keys = Object.keys(obj);
    const argsKey = keys.find((k) => this.argsKeys.includes(k));
    const name = (obj as Record<string, unknown>)["name"];
    const args = argsKey === undefined ? undefined : (obj as Record<string, unknown>)[argsKey];
    if (keys.length !== 2 || typeof name !== "string" || name === "" || typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
    const json = JSON.stringify(args);
    return [
      { kind: "repaired", repair: "python-literal", message: this.message, text: body },
      { kind: "call", name },
      { kind: "args", text: json },
      { kind: "done", arguments: json, value: args },
    ];
  }
}

/** `own` (a JSON call region's decoder) with the Python literal reading of a call object it fails. */
export function pythonLiteralCall(own: DecoderFactory, argsKeys: readonly string[], message: string): DecoderFactory {
  return (ctx: DecoderContext) => new PythonLiteralCall(own(ctx), argsKeys, message);
}
