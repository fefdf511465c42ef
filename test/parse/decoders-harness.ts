/**
 * Runs a payload decoder directly over a region's inner text, whole and split at every position, and
 * folds its events into calls. The decoder contract (src/parse/decoder.ts) requires the folded result
 * to be the same for every split and each call's `args` fragments to concatenate to its `arguments`;
 * `decodeEverySplit` checks both, so each decoder test also checks streaming.
 */
import { expect } from "vitest";
import type { DecoderContext, DecoderEvent, DecoderFactory } from "../../src/parse/decoder.js";
import type { JsonSchema } from "../../src/types.js";
import { cutAt, cutPositions } from "../helpers/rng.js";

export interface FoldedCall {
  name: string;
  id?: string;
  arguments?: string;
  value?: unknown;
  raw?: string;
  fail?: { type: string; raw?: string };
}

export interface Folded {
  calls: FoldedCall[];
  /** A failure with no call open (the region as a whole). */
  regionFail?: { type: string; raw?: string };
  /** Text after the payload, for regions without end markers. */
  rest?: string;
}

/** A context whose tools are `{name: parameters}`. */
export function contextOf(tools: Record<string, JsonSchema> = {}): DecoderContext {
  return { toolSchema: (name) => tools[name] };
}

export function fold(events: readonly DecoderEvent[]): Folded {
  const out: Folded = { calls: [] };
  let current: FoldedCall | null = null;
  let args = "";
  for (const e of events) {
    switch (e.kind) {
      case "call":
        expect(current, "a call opened before the previous one closed").toBeNull();
        current = { name: e.name };
        if (e.id !== undefined) current.id = e.id;
        args = "";
        break;
      case "args":
        expect(current, "args outside a call").not.toBeNull();
        args += e.text;
        break;
      case "done":
        expect(current, "done outside a call").not.toBeNull();
        expect(args, "args fragments concatenate to arguments").toBe(e.arguments);
        expect(JSON.parse(e.arguments), "arguments parse to value").toEqual(e.value);
        current!.arguments = e.arguments;
        current!.value = e.value;
        if (e.raw !== undefined) current!.raw = e.raw;
        out.calls.push(current!);
        current = null;
        break;
      case "fail": {
        const f: { type: string; raw?: string } = { type: e.type };
        if (e.raw !== undefined) f.raw = e.raw;
        if (current !== null) {
          current.fail = f;
          out.calls.push(current);
          current = null;
        } else {
          out.regionFail = f;
        }
        break;
      }
      case "close":
        out.rest = (out.rest ?? "") + e.rest;
        break;
    }
  }
  if (current !== null) out.calls.push({ ...current, fail: { type: "unclosed-by-decoder" } });
  return out;
}

export function decode(factory: DecoderFactory, ctx: DecoderContext, pieces: readonly string[], closed = true): Folded {
  const d = factory(ctx);
  const events: DecoderEvent[] = [];
  let closedEarly = false;
  for (const p of pieces) {
    if (closedEarly) {
      // After `close` the engine lexes the rest itself; the decoder must not be fed more.
      events.push({ kind: "close", rest: p });
      continue;
    }
    const evs = d.push(p);
    events.push(...evs);
    if (evs.some((e) => e.kind === "close")) closedEarly = true;
  }
  if (!closedEarly) events.push(...d.end(closed));
  return fold(events);
}

/** Decodes whole, then split at every position (one cut) and one code point at a time; all must agree. */
export function decodeEverySplit(factory: DecoderFactory, ctx: DecoderContext, text: string, closed = true): Folded {
  const whole = decode(factory, ctx, [text], closed);
  for (const p of cutPositions(text)) {
    expect(decode(factory, ctx, cutAt(text, [p]), closed), `cut at ${p}`).toEqual(whole);
  }
  expect(decode(factory, ctx, Array.from(text), closed), "code point by code point").toEqual(whole);
  return whole;
}

/** Just the calls as `{name, arguments: parsed}` (failed calls as `{name, fail}`). */
export function callsOf(f: Folded): Array<{ name: string; arguments?: unknown; fail?: string }> {
  return f.calls.map((c) => (c.fail ? { name: c.name, fail: c.fail.type } : { name: c.name, arguments: c.value }));
}
