/**
 * A cache of computed values with a size bound: when full, the oldest entry goes. Compiled templates,
 * probe answers, source caps, parsed arguments and shared request subtrees are all kept this way, so a
 * process that sees endless distinct inputs (a server) keeps bounded memory.
 *
 * The bound is a count of entries and, when a `weigh` function is given, also a total weight (for
 * text-keyed caches: the characters of the keys, which is what grows with hostile input).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;
  constructor(
    private readonly limit: number,
    private readonly maxWeight = Infinity,
    private readonly weigh?: (key: K) => number,
  ) {}

  /** The value for `key`, computing and keeping it on a miss (a `compute` that throws keeps nothing). */
  get(key: K, compute: (key: K) => V): V {
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = compute(key);
    const w = this.weigh === undefined ? 0 : this.weigh(key);
    if (w > this.maxWeight) return value; // too big to keep at all
    while (this.entries.size > 0 && (this.entries.size >= this.limit || this.weight + w > this.maxWeight)) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
      if (this.weigh !== undefined) this.weight -= this.weigh(oldest);
    }
    this.entries.set(key, value);
    this.weight += w;
    return value;
  }
}
