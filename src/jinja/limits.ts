/**
 * Render limits and the per-render counters that enforce them. Templates come from untrusted files, so
 * every loop iteration, statement, macro call and large string is accounted for here.
 */
import { ChatwireError } from "../errors.js";

export interface RenderLimits {
  /** Statements executed plus loop iterations plus calls. */
  maxSteps: number;
  /** Size of the rendered prompt, counted in UTF-16 code units. */
  maxOutputBytes: number;
  /** Nesting of macro calls (recursion). */
  maxDepth: number;
  /** Longest string (or list) a template expression may build, in code units (items). */
  maxStringLength: number;
}

export const DEFAULT_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxSteps: 50_000_000,
  maxOutputBytes: 64 * 1024 * 1024,
  maxDepth: 200,
  maxStringLength: 64 * 1024 * 1024,
});

export class RenderBudget {
  steps = 0;
  output = 0;
  depth = 0;
  constructor(
    readonly limits: RenderLimits,
    /** The clock strftime_now reads. */
    readonly now: () => Date = () => new Date(),
  ) {}

  step(): void {
    if (++this.steps > this.limits.maxSteps) {
      throw new ChatwireError("limit_exceeded", `template exceeded the step limit (${this.limits.maxSteps} steps)`);
    }
  }
  /** Count n steps at once (a loop that is about to run n iterations, a sort of n items...). */
  steps_(n: number): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      throw new ChatwireError("limit_exceeded", `template exceeded the step limit (${this.limits.maxSteps} steps)`);
    }
  }
  emit(length: number): void {
    this.output += length;
    if (this.output > this.limits.maxOutputBytes) {
      throw new ChatwireError(
        "limit_exceeded",
        `rendered output exceeded the size limit (${this.limits.maxOutputBytes} bytes)`,
      );
    }
  }
  stringLength(length: number): void {
    if (length > this.limits.maxStringLength) {
      throw new ChatwireError(
        "limit_exceeded",
        `template built a string or list longer than the limit (${length} > ${this.limits.maxStringLength})`,
      );
    }
  }
  enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      throw new ChatwireError("limit_exceeded", `maximum recursion depth exceeded (template nesting passed the limit of ${this.limits.maxDepth})`);
    }
  }
  leave(): void {
    this.depth--;
  }
}

let active: RenderBudget = new RenderBudget({ ...DEFAULT_LIMITS });

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
