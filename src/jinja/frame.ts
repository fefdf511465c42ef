/**
 * Runtime state of one render: the output pieces, the budget, the JSON cache, and the variable frames.
 * A Frame is one Jinja2 scope: the template root, one for-loop iteration, one macro call. `{% set %}`
 * writes the innermost frame, so a set inside a loop body neither leaks out nor survives to the next
 * iteration (Jinja2 renders `{% set x = 1 %}{% for i in [1,2] %}{{ x }}{% set x = 2 %}{% endfor %}` as `11`).
 */
import type { FilterEnv } from "./filters.js";
import type { GenerationTracker } from "./generation.js";
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
  /** Set when the caller asked for `{% generation %}` spans. */
  readonly generation?: GenerationTracker;
}

export class Frame {
  // Frames hold a handful of names (a loop variable and `loop`, a few sets), so two parallel arrays
  // searched linearly beat a Map and cost less to create per loop iteration.
  private names: string[] | null;
  private values: unknown[] | null;
  /**
   * `names` is the compiler's array, shared by every frame of one for loop (its target names and
   * `loop`, all distinct): copied before the first new name is added, so an iteration allocates only
   * its values.
   */
  private sharedNames: boolean;
  /** Past a few dozen names (a template defining thousands of macros) a Map keeps set/lookup O(1). */
  private map: Map<string, unknown> | null = null;
  constructor(
    readonly rt: Runtime,
    readonly parent: Frame | null,
    names: readonly string[] | null = null,
    values: unknown[] | null = null,
  ) {
    this.names = names as string[] | null;
    this.values = values;
    this.sharedNames = names !== null;
  }

  set(name: string, value: unknown): void {
    if (this.map !== null) {
      this.map.set(name, value);
      return;
    }
    if (this.names === null) {
      this.names = [name];
      this.values = [value];
      return;
    }
    const i = this.names.indexOf(name);
    if (i >= 0) this.values![i] = value;
    else if (this.names.length < 32) {
      if (this.sharedNames) {
        this.names = this.names.slice();
        this.sharedNames = false;
      }
      this.names.push(name);
      this.values!.push(value);
    } else {
      this.map = new Map(this.names.map((n, k) => [n, this.values![k]]));
      this.map.set(name, value);
      this.names = null;
      this.values = null;
    }
  }

  lookup(name: string): unknown {
    let root: Frame = this;
    for (let f: Frame | null = this; f !== null; f = f.parent) {
      if (f.names !== null) {
        const i = f.names.indexOf(name);
        if (i >= 0) return f.values![i];
      } else if (f.map !== null && f.map.has(name)) return f.map.get(name);
      root = f;
    }
    const ctx = ownValue(this.rt.context, name);
    if (ctx !== undefined) {
      // Remember it in the root frame: the same binding a top-level lookup would find, without
      // re-reading the context's property descriptor on every use.
      root.set(name, ctx);
      return ctx;
    }
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
