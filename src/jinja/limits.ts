/**
 * Render limits and the per-render counters that enforce them. Templates come from untrusted files, so
 * every loop iteration, statement and macro call is counted, every operation that scans or builds a
 * long string or list is charged for that work before (or as) it does it, the bytes a render builds
 * are summed, and the render has a wall-clock budget. All of it ends in a ChatwireError
 * `limit_exceeded`, never in a hang or in V8 running out of memory.
 */
import { ChatwireError } from "../errors.js";

export interface RenderLimits {
  /** Statements executed plus loop iterations plus calls, plus one per 64 code units scanned or built. */
  maxSteps: number;
  /** Size of the rendered prompt, counted in UTF-16 code units. */
  maxOutputBytes: number;
  /** Nesting of macro calls (recursion). */
  maxDepth: number;
  /** Longest string (or list) a template expression may build, in code units (items). */
  maxStringLength: number;
  /**
   * Everything a render builds, summed: code units of the strings it makes plus 16 per list item. A
   * bound on the memory a render can hold (garbage included), so many big strings cannot exhaust the heap.
   */
  maxTotalBytes: number;
  /** Wall-clock budget of one render in milliseconds (checked every few thousand steps). */
  timeMs: number;
}

export const DEFAULT_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxSteps: 50_000_000,
  maxOutputBytes: 64 * 1024 * 1024,
  maxDepth: 200,
  maxStringLength: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  timeMs: 1000,
});

/** One step per this many code units scanned or built (native string work runs ~100x faster than a step). */
const UNITS_PER_STEP = 64;
/** Bytes charged per list item built (a pointer, the slack of a growing array, a small string's share). */
const ITEM_BYTES = 16;
/** Steps between two looks at the clock. */
const CLOCK_EVERY = 2048;
/**
 * A native operation over at least this many code units (or matches) is looked at against the clock
 * before it runs: it cannot be interrupted, and at 60 M units some take seconds.
 */
const NATIVE_CHECK = 1 << 20;
/**
 * Nanoseconds per code unit assumed for a native copy, case change or search (measured 1.7-5 ns on a
 * busy 2-core machine: flattening, toUpperCase of ASCII, JSON.stringify of plain text). Slower
 * operations pass their own rate to native().
 */
export const NS_PER_UNIT = 5;

function exceeded(message: string): ChatwireError {
  return new ChatwireError("limit_exceeded", message);
}

export class RenderBudget {
  steps = 0;
  output = 0;
  depth = 0;
  /** Code units (and list items x 8) built so far. */
  built = 0;
  /** The step count at which to look at the limit and the clock next. */
  private nextClock: number;
  private readonly deadline: number;
  constructor(
    readonly limits: RenderLimits,
    /** The clock strftime_now reads. */
    readonly now: () => Date = () => new Date(),
  ) {
    this.deadline = Number.isFinite(limits.timeMs) ? Date.now() + limits.timeMs : Infinity;
    this.nextClock = Math.min(CLOCK_EVERY, limits.maxSteps + 1);
  }

  step(): void {
    if (++this.steps >= this.nextClock) this.checkpoint();
  }
  /** Count n steps at once (a loop that is about to run n iterations, a sort of n items...). */
  steps_(n: number): void {
    this.steps += n;
    if (this.steps >= this.nextClock) this.checkpoint();
  }
  /** Charge scanning `units` code units (a search, a case change, a split...), before the work. */
  scan(units: number): void {
    this.steps += units / UNITS_PER_STEP;
    if (this.steps >= this.nextClock) this.checkpoint();
    if (units >= NATIVE_CHECK) this.native(units, NS_PER_UNIT);
  }
  /**
   * An uninterruptible native operation over `units` code units (or matches) at about `nsPerUnit` each
   * is about to run: refused now when it would end past the deadline, instead of overrunning the
   * budget by its whole length. Small operations are not looked at (the step count's clock covers them).
   */
  native(units: number, nsPerUnit: number): void {
    if (units < NATIVE_CHECK || this.deadline === Infinity) return;
    if (Date.now() + (units * nsPerUnit) / 1e6 > this.deadline) {
      throw exceeded(`template would exceed the render time limit (${this.limits.timeMs} ms)`);
    }
  }
  /** The step limit and the clock, looked at every CLOCK_EVERY steps (and after any bulk charge). */
  private checkpoint(): void {
    if (this.steps > this.limits.maxSteps) {
      throw exceeded(`template exceeded the step limit (${this.limits.maxSteps} steps)`);
    }
    this.nextClock = Math.min(this.steps + CLOCK_EVERY, this.limits.maxSteps + 1);
    if (Date.now() > this.deadline) {
      throw exceeded(`template exceeded the render time limit (${this.limits.timeMs} ms)`);
    }
  }
  emit(length: number): void {
    this.output += length;
    if (this.output > this.limits.maxOutputBytes) {
      throw exceeded(`rendered output exceeded the size limit (${this.limits.maxOutputBytes} bytes)`);
    }
  }
  /**
   * A string of `length` code units is being built (call it before building when the size is known):
   * checked against the per-string limit, added to the render's total and charged as work.
   */
  stringLength(length: number): void {
    if (length > this.limits.maxStringLength) {
      throw exceeded(`template built a string or list longer than the limit (${length} > ${this.limits.maxStringLength})`);
    }
    this.total(length);
    this.scan(length);
  }
  /** A list of `count` items is being built: the per-list limit, the total, and the work. */
  items(count: number): void {
    if (count > this.limits.maxStringLength) {
      throw exceeded(`template built a string or list longer than the limit (${count} > ${this.limits.maxStringLength})`);
    }
    this.total(count * ITEM_BYTES);
    this.steps_(count / 16);
  }
  /** How many more list items this render may build (to cap native splits before they allocate). */
  itemRoom(): number {
    return Math.max(0, Math.floor(Math.min(this.limits.maxStringLength, (this.limits.maxTotalBytes - this.built) / ITEM_BYTES)));
  }
  /** Only the per-string limit: a concatenation, which V8 makes without copying (a rope). */
  length(length: number): void {
    if (length > this.limits.maxStringLength) {
      throw exceeded(`template built a string or list longer than the limit (${length} > ${this.limits.maxStringLength})`);
    }
  }
  private total(bytes: number): void {
    this.built += bytes;
    if (this.built > this.limits.maxTotalBytes) {
      throw exceeded(`template built more than the total size limit (${this.limits.maxTotalBytes} bytes) in one render`);
    }
  }
  enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      throw exceeded(`maximum recursion depth exceeded (template nesting passed the limit of ${this.limits.maxDepth})`);
    }
  }
  leave(): void {
    this.depth--;
  }
}

/**
 * Outside a render (dumpJson for grammars and polyfill prompts, methods called directly) nothing is
 * counted against anything: this budget has no limits, so calls made over a process's life never add up.
 */
const UNLIMITED: RenderLimits = Object.freeze({
  maxSteps: Infinity,
  maxOutputBytes: Infinity,
  maxDepth: DEFAULT_LIMITS.maxDepth,
  maxStringLength: Infinity,
  maxTotalBytes: Infinity,
  timeMs: Infinity,
});
let active: RenderBudget = new RenderBudget(UNLIMITED);

/**
 * The budget of the render in progress. Rendering is synchronous and never re-entrant across templates,
 * so a module-level pointer saves threading it through every filter and method.
 */
export function budget(): RenderBudget {
  return active;
}

export function withBudget<T>(b: RenderBudget, fn: () => T): T {
  const previous = active;
  active = b;
  try {
    return fn();
  } finally {
    active = previous;
  }
}
