/**
 * The engine's text outside calls: the content and reasoning channels (each with the whitespace rule,
 * text-channel.ts) and whether the output is still at its start (nothing but whitespace in content).
 */
import type { DeltaSink } from "./deltas.js";
import type { Channel } from "./region.js";
import { TextChannel } from "./text-channel.js";

export class TextOutput {
  readonly content: TextChannel;
  readonly reasoning: TextChannel;
  /** Nothing but whitespace has been seen (for regions allowed only at the start). */
  atStart = true;

  constructor(sink: DeltaSink) {
    this.content = new TextChannel((t) => sink.content(t));
    this.reasoning = new TextChannel((t) => sink.reasoning(t));
  }

  /** Text in a channel, under the whitespace rule. */
  text(channel: Channel, s: string): void {
    if (channel === "reasoning") this.reasoning.text(s);
    else {
      if (this.atStart && /\S/.test(s)) this.atStart = false;
      this.content.text(s);
    }
  }

  /** Text of what did not become a call: kept exactly, whitespace included. */
  keep(channel: Channel, s: string): void {
    if (s === "") return;
    this.atStart = false;
    if (channel === "reasoning") this.reasoning.verbatim(s);
    else this.content.verbatim(s);
  }

  /**
   * A valid call is a boundary for content only: reasoning keeps its text verbatim around calls
   * written inside it (the whitespace rule speaks of calls, output start and end).
   */
  boundary(channel: Channel): void {
    if (channel === "content") this.content.boundary();
  }
}
