/**
 * The last item a template read under one attribute name (`message.role`), kept for the rest of the
 * render: Qwen3's template reads `message.role` up to five times a message, at five places, and each
 * read of a request dict is a property descriptor lookup (issue 19: a tenth of a cached render's run).
 *
 * Sound because nothing changes a dict's items while a render runs: templates cannot (the sandbox
 * refuses dict mutation), filters copy, no caller code is called (getters are never run: only data
 * properties are read, and only those are kept). Only found items are kept: each miss makes its own
 * Undefined, as Jinja2 does. A memo counts only under the budget of the render that filled it, and the
 * template drops its memos when a render ends, so no request data outlives its render here.
 */
import { budget, type RenderBudget } from "./limits.js";

/** Read as `obj === memo.obj && memo.owner === budget()` by attrReader (access.ts). */
export class AttrMemo {
  obj: object | null = null;
  value: unknown = undefined;
  /** The budget of the render that filled it. */
  owner: RenderBudget | null = null;

  set(obj: object, value: unknown): void {
    this.obj = obj;
    this.value = value;
    this.owner = budget();
  }
}

/** One template's memos, one per attribute name its expressions read. */
export class AttrMemos {
  private readonly byName = new Map<string, AttrMemo>();
  /** The same memos in an array, cleared after every render without a Map iterator. */
  private readonly all: AttrMemo[] = [];
  for(name: string): AttrMemo {
    let m = this.byName.get(name);
    if (m === undefined) {
      this.byName.set(name, (m = new AttrMemo()));
      this.all.push(m);
    }
    return m;
  }
  /** After a render: let go of its objects. */
  clear(): void {
    for (const m of this.all) {
      m.obj = null;
      m.value = undefined;
      m.owner = null;
    }
  }
}

/** The memos of the template being compiled (compiling is synchronous and never nested). */
let compiling: AttrMemos | null = null;

export function withMemos<T>(memos: AttrMemos, fn: () => T): T {
  const previous = compiling;
  compiling = memos;
  try {
    return fn();
  } finally {
    compiling = previous;
  }
}

/** The memo for `name` in the template being compiled (a fresh one outside a compile). */
export function memoFor(name: string): AttrMemo {
  return compiling === null ? new AttrMemo() : compiling.for(name);
}
