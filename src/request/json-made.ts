/**
 * Values readSharedJson made from JSON text (and keeps), recorded by identity: every object in one is
 * a plain object, an array or a PyFloat, by construction. A tool schema survey of such a list need not
 * ask each object for its prototype (a builtin call per object that V8 does not inline where objects
 * of many shapes pass: 0.7 us of surveying the bench's 21 new schemas, issue 19); it tells PyFloat
 * apart with `instanceof`, which V8 inlines.
 */
const MADE = new WeakSet<object>();

export function noteJsonMade(value: object): void {
  MADE.add(value);
}

export function isJsonMade(value: object): boolean {
  return MADE.has(value);
}
