/**
 * Full garbage collections for tests that check what a cache lets go of. V8's `gc` is reached by
 * turning on --expose-gc at run time, which affects only contexts made after it: so a new context.
 */
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";

/** V8's full collection, callable from this worker. */
export function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * Whether the target of `ref` is gone after a full collection. The collection waits for the current
 * job to end first: a WeakRef holds its target until then.
 */
export async function collected(ref: WeakRef<object>): Promise<boolean> {
  const gc = exposedGc();
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return ref.deref() === undefined;
}
