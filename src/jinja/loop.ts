/**
 * Jinja2's LoopContext: the `loop` variable inside a for loop (index, first, cycle(), changed()...).
 */
import { Callable, JinjaError, PyObject, Undefined, pyEq, tuple } from "./values.js";

/** The `loop` variable of a for loop. Fields are computed on access. */
export class LoopInfo extends PyObject {
  readonly pyType = "LoopContext";
  index0 = 0;
  constructor(
    readonly items: readonly unknown[],
    readonly depth0: number,
  ) {
    super();
  }
  repr(): string {
    return `<LoopContext ${this.index0 + 1}/${this.length}>`;
  }
  get length(): number {
    return this.items.length;
  }
  /** Attribute lookup for `loop.<name>`; undefined when the name is not a loop attribute. */
  attr(name: string): unknown {
    const i = this.index0;
    const n = this.items.length;
    switch (name) {
      case "index":
        return i + 1;
      case "index0":
        return i;
      case "revindex":
        return n - i;
      case "revindex0":
        return n - i - 1;
      case "first":
        return i === 0;
      case "last":
        return i === n - 1;
      case "length":
        return n;
      case "depth":
        return this.depth0 + 1;
      case "depth0":
        return this.depth0;
      case "previtem":
        return i > 0 ? this.items[i - 1] : new Undefined(undefined, undefined, "there is no previous item");
      case "nextitem":
        return i < n - 1 ? this.items[i + 1] : new Undefined(undefined, undefined, "there is no next item");
      case "cycle":
        return new Callable("cycle", (args) => {
          if (args.length === 0) throw new JinjaError("TypeError", "no items for cycling given");
          return args[i % args.length];
        });
      case "changed": {
        return new Callable("changed", (args) => {
          const key = tuple([...args]);
          const changed = this.lastChanged === undefined || !pyEq(this.lastChanged, key);
          this.lastChanged = key;
          return changed;
        });
      }
    }
    return undefined;
  }
  private lastChanged: unknown[] | undefined;
}
