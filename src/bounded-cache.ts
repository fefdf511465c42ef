/**
 * A cache of computed values with a size bound: when full, the oldest entry goes. Compiled templates,
 * probe answers, source caps and parsed arguments are all kept this way, so a process that sees endless
 * distinct inputs (a server) keeps bounded memory.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly limit: number) {}

  /** The value for `key`, computing and keeping it on a miss (a `compute` that throws keeps nothing). */
  get(key: K, compute: (key: K) => V): V {
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = compute(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }
}
