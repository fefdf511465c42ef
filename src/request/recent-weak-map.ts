/**
 * A WeakMap for results kept by a new object's identity that most objects never meet again (issue 19:
 * a request that shares nothing brings a new tool list every time). Inserting a new key into one
 * long-lived WeakMap cost about 1 us in such a render (its table lives in the old generation, so each
 * young key is one more ephemeron the GC must track), as much as all the rest of checking the list but
 * its schemas. Here the entries go into a table that is itself new, replaced by a fresh one every
 * GENERATION insertions; the table before it is still asked, and an entry found there moves on to the
 * current one. So what is met again within about GENERATION new keys stays, and the rest go with
 * their generation (a key met again after that costs the work it keeps once more).
 */
export const GENERATION = 64;

export class RecentWeakMap<K extends object, V> {
  private current = new WeakMap<K, V>();
  private previous = new WeakMap<K, V>();
  private added = 0;

  get(key: K): V | undefined {
    const hit = this.current.get(key);
    if (hit !== undefined) return hit;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.current.has(key)) {
      this.current.set(key, value);
      return;
    }
    if (++this.added > GENERATION) {
      this.previous = this.current;
      this.current = new WeakMap<K, V>();
      this.added = 1;
    }
    this.current.set(key, value);
  }
}
