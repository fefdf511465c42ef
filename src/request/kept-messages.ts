/**
 * A conversation's normalised messages, made once per messages array that cannot change (issue 19).
 * Rendering the same messages again (readSharedJson's frozen array of a repeated body) copied every
 * message and re-applied rules 2-7 on every render, about a tenth of such a render. The result depends
 * only on the messages and the template's answers (TemplateInfo, one object per template text), so it
 * is kept by the frozen array's identity with the info it was made for, and with the warnings it gave,
 * which a reuse reports again. It is made the second time an array is met (the first only notes it): an
 * agent loop's history is a new array on every turn. What is returned is deeply frozen: renders share
 * it, and nothing on the render path writes to its messages (the one writer, continue_final_message's
 * mark, is given fresh ones).
 *
 * A caller's plain messages are not recognised by content as its tools are (kept-tools.ts): comparing
 * the bench's 8 messages with a kept copy cost half of normalising them (1.1 of 2.3 us), and noting
 * each new history's digest made an agent loop of plain objects 5% slower, 10% at 400 messages.
 */
import { freezeDeep, isDeepFrozen } from "../jinja/index.js";
import type { Message, TemplateInfo } from "./message-rules.js";
import { RecentWeakMap } from "./recent-weak-map.js";

/**
 * Normalised messages by frozen messages array: `true` once noted, then what was made for it. Bounded
 * by what keeps those arrays (readSharedJson's cache): an entry dies with its array, and its messages
 * are shallow copies of the array's (what they hold is the array's own frozen values). Noted in a
 * RecentWeakMap: most arrays are never met again (an agent loop's history is new every turn), and
 * noting each in one long-lived WeakMap cost about 1 us a render.
 */
const NORMALISED = new RecentWeakMap<readonly unknown[], true | { info: TemplateInfo; messages: Message[]; warnings: readonly string[] }>();

/**
 * `normalise(messages)`, or what it gave for these very messages before, with its warnings added to
 * `warnings` again. `normalise` is told whether the messages are deeply frozen (it may then return
 * those it leaves unchanged as they are).
 */
export function keptMessages(messages: readonly unknown[], info: TemplateInfo, warnings: string[], normalise: (messages: readonly unknown[], deepFrozen: boolean) => Message[]): Message[] {
  if (!isDeepFrozen(messages)) return normalise(messages, false);
  const done = NORMALISED.get(messages);
  if (done !== undefined && done !== true && done.info === info) {
    if (done.warnings.length > 0) warnings.push(...done.warnings);
    return done.messages;
  }
  const before = warnings.length;
  const out = normalise(messages, true);
  // Made for another info (a render retried in another tool-call shape): the first one stays.
  if (done === undefined) NORMALISED.set(messages, true);
  else if (done === true) NORMALISED.set(messages, { info, messages: freezeDeep(out), warnings: warnings.slice(before) });
  return out;
}
