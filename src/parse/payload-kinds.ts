/**
 * Tables over the payload kinds. Every layer that handles payloads (the decoder compiler, the syntax
 * texts, the GBNF writers, the structural tag, the description validator) keeps its per-kind code in a
 * `PayloadTable`, an object with one entry per member of `Payload["kind"]`. A kind added to the
 * language and missing from any layer is then a compile error in that layer (test/payload-kinds.test.ts
 * shows it), where a `switch` with a `default`, or one returning nothing, would let it pass.
 */
import type { Payload } from "./language.js";

export type PayloadKind = Payload["kind"];

/** The payload of one kind. */
export type PayloadOf<K extends PayloadKind> = Extract<Payload, { kind: K }>;

/** One handler per payload kind, each given its own kind's payload. */
export type PayloadTable<R, A extends readonly unknown[] = []> = { readonly [K in PayloadKind]: (p: PayloadOf<K>, ...args: A) => R };

/** Runs the table's entry for the payload's kind. */
export function onPayload<R, A extends readonly unknown[]>(table: PayloadTable<R, A>, p: Payload, ...args: A): R {
  // The compiler does not relate `table[p.kind]` to `p` (no correlated unions); the table's type does.
  const handler = table[p.kind] as (p: Payload, ...args: A) => R;
  return handler(p, ...args);
}
