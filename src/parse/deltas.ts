/**
 * Collects the deltas of one push. Adjacent text of the same kind, and adjacent argument fragments of
 * the same call, are merged into one delta, so a client sees few, larger chunks.
 */
import type { Delta } from "../types.js";

/**
 * What a push that emits nothing returns: one shared frozen array, so that the common case of a push
 * that only extends held-back text allocates nothing. Callers must not modify returned arrays.
 */
export const NO_DELTAS: Delta[] = Object.freeze([]) as unknown as Delta[];

export class DeltaSink {
  private out: Delta[] = [];

  content(text: string): void {
    if (text === "") return;
    const last = this.out[this.out.length - 1];
    if (last && last.content !== undefined) last.content += text;
    else this.out.push({ content: text });
  }

  reasoning(text: string): void {
    if (text === "") return;
    const last = this.out[this.out.length - 1];
    if (last && last.reasoning_content !== undefined) last.reasoning_content += text;
    else this.out.push({ reasoning_content: text });
  }

  callStart(index: number, id: string, name: string): void {
    this.out.push({ tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] });
  }

  args(index: number, text: string): void {
    if (text === "") return;
    const last = this.out[this.out.length - 1];
    const call = last?.tool_calls?.[0];
    if (call && call.index === index && call.function.name === undefined && call.function.arguments !== undefined) {
      call.function.arguments += text;
    } else this.out.push({ tool_calls: [{ index, function: { arguments: text } }] });
  }

  push(delta: Delta): void {
    this.out.push(delta);
  }

  take(): Delta[] {
    const out = this.out;
    if (out.length === 0) return NO_DELTAS;
    this.out = [];
    return out;
  }
}
