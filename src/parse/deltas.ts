/**
 * Collects the deltas of one push. Adjacent text of the same kind, and adjacent argument fragments of
 * the same call, are merged into one delta, so a client sees few, larger chunks.
 *
 * Streaming cost: most pushes inside a call emit one argument fragment or nothing. Nothing returns a
 * shared frozen array; one delta is returned in an array made for exactly it.
 */
import type { Delta } from "../types.js";

/**
 * What a push that emits nothing returns: one shared frozen array, so that the common case of a push
 * that only extends held-back text allocates nothing. Callers must not modify returned arrays.
 */
export const NO_DELTAS: Delta[] = Object.freeze([]) as unknown as Delta[];

export class DeltaSink {
  private out: Delta[] = NO_DELTAS;

  content(text: string): void {
    if (text === "") return;
    const last = this.last();
    if (last !== undefined && last.content !== undefined) last.content += text;
    else this.push({ content: text });
  }

  reasoning(text: string): void {
    if (text === "") return;
    const last = this.last();
    if (last !== undefined && last.reasoning_content !== undefined) last.reasoning_content += text;
    else this.push({ reasoning_content: text });
  }

  callStart(index: number, id: string, name: string): void {
    this.push({ tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] });
  }

  args(index: number, text: string): void {
    if (text === "") return;
    if (this.out === NO_DELTAS) {
      // The common push inside a call: its one delta, built directly into the array returned.
      this.out = [{ tool_calls: [{ index, function: { arguments: text } }] }];
      return;
    }
    const call = this.last()?.tool_calls?.[0];
    if (call !== undefined && call.index === index && call.function.name === undefined && call.function.arguments !== undefined) {
      call.function.arguments += text;
    } else this.push({ tool_calls: [{ index, function: { arguments: text } }] });
  }

  push(delta: Delta): void {
    if (this.out === NO_DELTAS) this.out = [delta];
    else this.out.push(delta);
  }

  take(): Delta[] {
    const out = this.out;
    this.out = NO_DELTAS;
    return out;
  }

  private last(): Delta | undefined {
    const out = this.out;
    return out.length > 0 ? out[out.length - 1] : undefined;
  }
}
