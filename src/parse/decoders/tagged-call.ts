/**
 * What the tagged decoder (tagged.ts) keeps of the call it is reading, and the call's `done` event made
 * from it once the call closes.
 */
import type { JsonSchema } from "../../types.js";
import type { DecoderEvent } from "../decoder.js";
import { jsonStringBody } from "../literal/json-text.js";
import type { TextRope } from "../rope.js";

/** The model's text so far, by offset (the decoder's SeenText). */
interface Seen {
  slice(from: number, to: number): string;
}

export interface OpenCall {
  name: string;
  parameters: JsonSchema | undefined;
  /**
   * The arguments JSON written so far, except the bodies of streamed string values: those are the
   * model's text itself, sliced from the region once the call ends (`streamed`), so a long value is
   * not copied a second time per push nor decoded again.
   */
  args: TextRope;
  streamed: StreamedValue[];
  /** Keys read so far: a repeated key (the last one wins in JSON) makes the value be parsed whole. */
  keys: Set<string>;
  repeated: boolean;
  /** Parameters read so far. */
  n: number;
  /** The arguments came as one JSON object (`jsonBody`), already written whole. */
  body: boolean;
  /** The `call` event was sent. */
  announced: boolean;
  /** The name's separator tag (`nameSep`) was read. */
  sepSeen?: boolean;
  /** A `tag-alias` repair was reported for this call. */
  aliased?: boolean;
}

/** A streamed string value: its body goes at `at` in the call's `args`; its text is `seen` from `from` to `to`. */
export interface StreamedValue {
  key: string;
  at: number;
  from: number;
  to: number;
}


/**
 * The `done` event of a call whose arguments JSON is complete in `call.args`. The value is that text
 * parsed: one source of truth. A long streamed string is decoded from its pieces, and the whole text is
 * joined only if someone reads `arguments` (the engine does not: its client got the text as
 * fragments), so no large copy is made per call.
 */
export function doneEvent(call: OpenCall, seen: Seen): Extract<DecoderEvent, { kind: "done" }> {
  const args = call.args;
  const streamed = call.streamed;
  let whole: string | undefined;
  const text = (): string => (whole ??= withBodies(args.toString(), streamed, seen));
  let value: unknown;
  if (streamed.length === 0) value = JSON.parse(args.toString());
  else if (call.repeated || call.keys.has("__proto__")) value = JSON.parse(text());
  else {
    // The JSON without the streamed bodies parses to `""` for each of them; their text is the model's.
    const obj = JSON.parse(args.toString()) as Record<string, unknown>;
    for (const m of streamed) obj[m.key] = m.from < 0 ? "" : seen.slice(m.from, m.to);
    value = obj;
  }
  return {
    kind: "done",
    get arguments(): string {
      return text();
    },
    value,
  };
}

/** The arguments JSON with the bodies of the streamed values put in (what the client got as fragments). */
function withBodies(skeleton: string, streamed: readonly StreamedValue[], seen: Seen): string {
  let out = "";
  let prev = 0;
  for (const m of streamed) {
    out += skeleton.slice(prev, m.at) + (m.from < 0 ? "" : jsonStringBody(seen.slice(m.from, m.to)));
    prev = m.at;
  }
  return out + skeleton.slice(prev);
}
