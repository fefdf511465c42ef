/**
 * Values readSharedJson made from JSON text (and keeps), recorded by identity: every object in one is
 * a plain object, an array or a PyFloat, by construction. A tool schema survey of such a list need not
 * ask each object for its prototype (a builtin call per object that V8 does not inline where objects
 * of many shapes pass: 0.7 us of surveying the bench's 21 new schemas, issue 19); it tells PyFloat
 * apart with `instanceof`, which V8 inlines.
 *
 * Recorded in a RecentWeakMap: a list is asked about right after it is read, and a key added to one
 * long-lived WeakSet is one more ephemeron for the GC to track (every new history of an agent loop).
 * A list met again much later is asked for its prototypes as any other (and its normalised tools are
 * most often kept by then, normalizeTools).
 */
import { RecentWeakMap } from "./recent-weak-map.js";

const MADE = new RecentWeakMap<object, true>();

export function noteJsonMade(value: object): void {
  MADE.set(value, true);
}

export function isJsonMade(value: object): boolean {
  return MADE.get(value) === true;
}
