/**
 * A cache of computed values with a size bound: when full, the oldest entry goes. Compiled templates,
 * probe answers, source caps, parsed arguments, grammars and token ids are all kept this way, so a
 * process that sees endless distinct inputs (a server) keeps bounded memory.
 *
 * The bound is a count of entries and, when a `weigh` function is given, also a total weight: what an
 * entry holds, key and value (for text: its characters), so that the bound is one of memory.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  /**
   * The keys in the order they came, oldest at `oldest`: the oldest goes first. A queue, not the Map's
   * own first entry: finding that walks past every entry deleted before it, which made each eviction
   * of a full cache (a server fed endless new tool schemas) cost a walk of up to the cache's size.
   */
  private order: K[] = [];
  private oldest = 0;
  private weight = 0;
  constructor(
    private readonly limit: number,
    private readonly maxWeight = Infinity,
    private readonly weigh?: (key: K, value: V) => number,
  ) {}

  /** The value for `key`, computing and keeping it on a miss (a `compute` that throws keeps nothing). */
  get(key: K, compute: (key: K) => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit.value;
    const value = compute(key);
    const w = this.weigh === undefined ? 0 : this.weigh(key, value);
    if (w > this.maxWeight) return value; // too big to keep at all
    while (this.entries.size > 0 && (this.entries.size >= this.limit || this.weight + w > this.maxWeight)) {
      // Every key in the queue from `oldest` on is in the Map: entries leave only here, in this order.
      const oldest = this.order[this.oldest] as K;
      // Its slot let go of at once: until the queue is rebuilt it would hold up to 1,024 pushed-out
      // keys (template sources, schema texts, a backend body's long strings) past the bound on weight.
      this.order[this.oldest++] = undefined as K;
      this.weight -= this.entries.get(oldest)!.weight;
      this.entries.delete(oldest);
    }
    if (this.oldest > 1024 && this.oldest * 2 > this.order.length) {
      this.order = this.order.slice(this.oldest);
      this.oldest = 0;
    }
    // A compute that filled this very key itself (re-entrant) queued it already.
    const had = this.entries.get(key);
    if (had === undefined) this.order.push(key);
    else this.weight -= had.weight;
    this.entries.set(key, { value, weight: w });
    this.weight += w;
    return value;
  }

  /** Entries kept and their total weight (for tests and the memory bench). */
  get size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.weight };
  }
}
