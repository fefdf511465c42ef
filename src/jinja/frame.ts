/**
 * Runtime state of one render: the output pieces, the budget, the JSON cache, and the variable frames.
 * A Frame is one Jinja2 scope: the template root, one for-loop iteration, one macro call. `{% set %}`
 * writes the innermost frame, so a set inside a loop body neither leaks out nor survives to the next
 * iteration (Jinja2 renders `{% set x = 1 %}{% for i in [1,2] %}{{ x }}{% set x = 2 %}{% endfor %}` as `11`).
 */
import type { FilterEnv } from "./filters.js";
import type { RenderBudget } from "./limits.js";
import type { JsonCache } from "./tojson.js";
import { Undefined, ownValue } from "./values.js";

export interface Runtime {
  out: string[];
  readonly budget: RenderBudget;
  readonly context: Record<string, unknown>;
  readonly globals: Record<string, unknown>;
  readonly env: FilterEnv;
  readonly json: JsonCache;
}

export class Frame {
  private vars: Map<string, unknown> | null = null;
  constructor(
    readonly rt: Runtime,
    readonly parent: Frame | null,
  ) {}

  set(name: string, value: unknown): void {
    (this.vars ??= new Map()).set(name, value);
  }

  lookup(name: string): unknown {
    for (let f: Frame | null = this; f !== null; f = f.parent) {
      if (f.vars !== null) {
        const v = f.vars.get(name);
        if (v !== undefined || f.vars.has(name)) return v;
      }
    }
    const ctx = ownValue(this.rt.context, name);
    if (ctx !== undefined) return ctx;
    const g = this.rt.globals[name];
    if (g !== undefined) return g;
    return new Undefined(name);
  }

  /** Append rendered text, counting it against the output limit. */
  emit(text: string): void {
    if (text.length === 0) return;
    this.rt.budget.emit(text.length);
    this.rt.out.push(text);
  }

  /** Run `body` with output redirected, and return what it printed (macros, set blocks, filter blocks). */
  capture(body: () => void): string {
    const saved = this.rt.out;
    const pieces: string[] = [];
    this.rt.out = pieces;
    try {
      body();
    } finally {
      this.rt.out = saved;
    }
    return pieces.length === 1 ? pieces[0]! : pieces.join("");
  }
}
