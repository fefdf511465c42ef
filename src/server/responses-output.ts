/**
 * Builds a Responses API `output` array from parser Deltas, emitting the Responses streaming events
 * as items open, grow and close. The non-streaming endpoint runs the same builder with no listener,
 * so a streamed response and a whole one have the same items by construction.
 *
 * Items follow the model's order: reasoning, message text and function calls each become an item when
 * they start, and the open item closes when output of another kind begins. With calls held (see
 * held-calls.ts), function calls become items only at the end, after the text, and only those that
 * validated.
 *
 * Event sequence per item, as OpenAI sends it and the openai SDK's `responses.stream()` accumulator
 * requires (it throws "missing content at index 0" on a text delta whose content part was not added):
 * - reasoning: output_item.added (content: []), content_part.added (part `reasoning_text`),
 *   reasoning_text.delta..., reasoning_text.done, content_part.done, output_item.done;
 * - message: output_item.added, content_part.added (part `output_text`), output_text.delta...,
 *   output_text.done, content_part.done, output_item.done;
 * - function_call: output_item.added, function_call_arguments.delta..., function_call_arguments.done,
 *   output_item.done.
 */
import { randomAlphanumeric } from "../parse/ids.js";
import type { Delta, ParseIssue } from "../types.js";
import { CallHolder } from "./held-calls.js";

export type OutputItem = Record<string, unknown> & { id: string; type: "reasoning" | "message" | "function_call" };

/** A streaming event: its `type` and its fields (the caller adds `sequence_number`). */
export type EmitEvent = (type: string, fields: Record<string, unknown>) => void;

interface TextItem {
  kind: "reasoning" | "message";
  item: OutputItem;
  outputIndex: number;
  parts: string[];
}

interface CallItem {
  kind: "call";
  item: OutputItem;
  outputIndex: number;
  parts: string[];
  /** The parser's `tool_calls[].index`, which errors name when a streamed call is dropped. */
  callIndex: number;
}

type OpenItem = TextItem | CallItem;

function itemId(prefix: string): string {
  return `${prefix}_${randomAlphanumeric(24)}`;
}

export class ResponseOutput {
  private readonly items: OpenItem[] = [];
  private readonly calls = new Map<number, CallItem>();
  private current: OpenItem | undefined;

  private readonly holder: CallHolder | undefined;

  constructor(
    private readonly emit: EmitEvent = () => {},
    holdCalls = false,
  ) {
    this.holder = holdCalls ? new CallHolder() : undefined;
  }

  push(whole: Delta): void {
    const delta = this.holder === undefined ? whole : this.holder.take(whole);
    if (delta === undefined) return;
    if (delta.reasoning_content !== undefined && delta.reasoning_content !== "") this.text("reasoning", delta.reasoning_content);
    if (delta.content !== undefined && delta.content !== "") this.text("message", delta.content);
    for (const tc of delta.tool_calls ?? []) this.call(tc.index, tc.id, tc.function.name, tc.function.arguments);
  }

  /** Closes the open item and returns the output, without calls that `errors` says were dropped. */
  finish(errors: readonly ParseIssue[]): OutputItem[] {
    this.close();
    if (this.holder !== undefined) {
      // Held calls that validated, each streamed whole now; none was dropped after being shown.
      this.holder.kept(errors).forEach((c, index) => {
        this.call(index, c.id, c.name, c.arguments);
        this.close();
      });
      return this.items.map((it) => it.item);
    }
    // Arguments are re-joined here too: a fragment may arrive after its call's item was closed.
    for (const it of this.items) if (it.kind === "call") it.item.arguments = it.parts.join("");
    const dropped = new Set(errors.flatMap((e) => (e.index === undefined ? [] : [e.index])));
    return this.items.filter((it) => !(it.kind === "call" && dropped.has(it.callIndex))).map((it) => it.item);
  }

  private text(kind: "reasoning" | "message", text: string): void {
    let open = this.current;
    if (open === undefined || open.kind !== kind) {
      this.close();
      const item: OutputItem =
        kind === "reasoning"
          ? { id: itemId("rs"), type: "reasoning", summary: [], content: [] }
          : { id: itemId("msg"), type: "message", status: "in_progress", role: "assistant", content: [] };
      open = { kind, item, outputIndex: this.items.length, parts: [] };
      this.items.push(open);
      this.current = open;
      this.emit("response.output_item.added", { output_index: open.outputIndex, item: { ...item, content: [] } });
      const part = kind === "message" ? outputText("") : reasoningText("");
      this.emit("response.content_part.added", { item_id: item.id, output_index: open.outputIndex, content_index: 0, part });
    }
    open.parts.push(text);
    const where = { item_id: open.item.id, output_index: open.outputIndex, content_index: 0 };
    if (kind === "reasoning") this.emit("response.reasoning_text.delta", { ...where, delta: text });
    else this.emit("response.output_text.delta", { ...where, delta: text, logprobs: [] });
  }

  private call(index: number, id: string | undefined, name: string | undefined, args: string | undefined): void {
    let open = this.calls.get(index);
    if (open === undefined) {
      this.close();
      const item: OutputItem = { id: itemId("fc"), type: "function_call", status: "in_progress", call_id: id ?? "", name: name ?? "", arguments: "" };
      open = { kind: "call", item, outputIndex: this.items.length, parts: [], callIndex: index };
      this.items.push(open);
      this.calls.set(index, open);
      this.current = open;
      this.emit("response.output_item.added", { output_index: open.outputIndex, item: { ...item } });
    }
    // The parser may give the id or name after the first fragment; the first value given is kept.
    if (id !== undefined && open.item.call_id === "") open.item.call_id = id;
    if (name !== undefined && open.item.name === "") open.item.name = name;
    if (args !== undefined && args !== "") {
      open.parts.push(args);
      this.emit("response.function_call_arguments.delta", { item_id: open.item.id, output_index: open.outputIndex, delta: args });
    }
  }

  private close(): void {
    const open = this.current;
    if (open === undefined) return;
    this.current = undefined;
    const text = open.parts.join("");
    const where = { item_id: open.item.id, output_index: open.outputIndex };
    if (open.kind === "reasoning") {
      const part = reasoningText(text);
      open.item.content = [part];
      this.emit("response.reasoning_text.done", { ...where, content_index: 0, text });
      this.emit("response.content_part.done", { ...where, content_index: 0, part });
    } else if (open.kind === "message") {
      const part = outputText(text);
      open.item.content = [part];
      open.item.status = "completed";
      this.emit("response.output_text.done", { ...where, content_index: 0, text, logprobs: [] });
      this.emit("response.content_part.done", { ...where, content_index: 0, part });
    } else {
      open.item.arguments = text;
      open.item.status = "completed";
      this.emit("response.function_call_arguments.done", { ...where, arguments: text });
    }
    this.emit("response.output_item.done", { output_index: open.outputIndex, item: open.item });
  }
}

function reasoningText(text: string): Record<string, unknown> {
  return { type: "reasoning_text", text };
}

function outputText(text: string): Record<string, unknown> {
  return { type: "output_text", text, annotations: [] };
}
