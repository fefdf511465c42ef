/**
 * Python's list.sort, comparison for comparison where it matters: which pair of items is compared
 * first decides which TypeError a mixed list raises (`[none, 1]|sort` names 'int' and 'NoneType', in that
 * order). CPython sorts a short list (under 64 items, all that templates sort) by one natural run plus
 * binary insertion; this does the same. Longer lists are cut into runs the same way and merged stably,
 * so their results are Python's too (only which pair a mixed long list fails on may differ).
 */
import { budget } from "./limits.js";

export type Less<T> = (a: T, b: T) => boolean;

/** CPython's merge_compute_minrun. */
function minRun(n: number): number {
  let r = 0;
  while (n >= 64) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

/** count_run: the length of the run starting at lo; a strictly descending run is reversed in place. */
function countRun<T>(a: T[], lo: number, hi: number, lt: Less<T>): number {
  if (lo + 1 === hi) return 1;
  let i = lo + 2;
  if (lt(a[lo + 1]!, a[lo]!)) {
    while (i < hi && lt(a[i]!, a[i - 1]!)) i++;
    reverse(a, lo, i);
  } else {
    while (i < hi && !lt(a[i]!, a[i - 1]!)) i++;
  }
  return i - lo;
}

function reverse<T>(a: T[], lo: number, hi: number): void {
  for (let i = lo, j = hi - 1; i < j; i++, j--) {
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
}

/** binarysort: a[lo, start) is sorted; insert a[start, hi) one by one, after any equal item. */
function binarySort<T>(a: T[], lo: number, start: number, hi: number, lt: Less<T>): void {
  for (; start < hi; start++) {
    const pivot = a[start]!;
    let l = lo;
    let r = start;
    while (l < r) {
      const p = l + ((r - l) >> 1);
      if (lt(pivot, a[p]!)) r = p;
      else l = p + 1;
    }
    for (let k = start; k > l; k--) a[k] = a[k - 1]!;
    a[l] = pivot;
  }
}

/** Stable merge of a[lo, mid) and a[mid, hi): the right item goes first only when strictly less. */
function merge<T>(a: T[], lo: number, mid: number, hi: number, lt: Less<T>): void {
  const left = a.slice(lo, mid);
  let i = 0;
  let j = mid;
  let k = lo;
  while (i < left.length && j < hi) a[k++] = lt(a[j]!, left[i]!) ? a[j++]! : left[i++]!;
  while (i < left.length) a[k++] = left[i++]!;
}

/** sorted(items, reverse=reverse) with `lt` as the `<` of the keys; sorts `items` in place and returns it. */
export function pySort<T>(items: T[], lt: Less<T>, reverseOrder = false): T[] {
  const n = items.length;
  if (n < 2) return items;
  // n log n comparisons, charged up front.
  budget().steps_(Math.ceil(n * Math.log2(n)));
  // Python sorts a reversed list and reverses the result, which keeps equal items in their order.
  if (reverseOrder) reverse(items, 0, n);
  const min = minRun(n);
  const runs: number[] = [];
  for (let lo = 0; lo < n; ) {
    let len = countRun(items, lo, n, lt);
    if (len < min) {
      const force = Math.min(min, n - lo);
      binarySort(items, lo, lo + len, lo + force, lt);
      len = force;
    }
    runs.push(lo);
    lo += len;
  }
  runs.push(n);
  while (runs.length > 2) {
    const next: number[] = [];
    for (let r = 0; r + 2 < runs.length; r += 2) {
      merge(items, runs[r]!, runs[r + 1]!, runs[r + 2]!, lt);
      next.push(runs[r]!);
    }
    if ((runs.length - 1) % 2 === 1) next.push(runs[runs.length - 2]!);
    next.push(n);
    runs.splice(0, runs.length, ...next);
  }
  if (reverseOrder) reverse(items, 0, n);
  return items;
}
