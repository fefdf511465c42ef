/**
 * A macro (or a call block's `caller`) at render time: the Callable that binds its arguments to its
 * parameters the way Jinja2's Macro does, and runs its compiled body in a frame of its own.
 */
import type { Expr, Stmt } from "./closures.js";
import { Frame } from "./frame.js";
import { Callable, JinjaError, Undefined, newKwargs, tuple, type Kwargs } from "./values.js";

export interface Param {
  name: string;
  fallback: Expr | null;
}

/** What compile.ts knows of a macro once per template; the flags say whether the body names them. */
export interface MacroShape {
  readonly params: Param[];
  readonly body: Stmt;
  readonly usesVarargs: boolean;
  readonly usesKwargs: boolean;
  readonly usesCaller: boolean;
}

/** A macro (or a call block's `caller`) as a Callable closing over its defining frame. */
export function makeMacro(name: string, shape: MacroShape, defining: Frame): Callable {
  const { params, body, usesVarargs, usesKwargs, usesCaller } = shape;
  return new Callable(
    name,
    (args, kwargs) => {
      const rt = defining.rt;
      rt.budget.enter();
      rt.budget.step();
      try {
        const f = new Frame(rt, defining);
        const rest: Kwargs = kwargs === null ? null : Object.assign(newKwargs(), kwargs);
        for (let i = 0; i < params.length; i++) {
          const p = params[i]!;
          if (i < args.length) {
            if (rest !== null && p.name in rest) {
              throw new JinjaError("TypeError", `macro '${name}' got multiple values for argument '${p.name}'`);
            }
            f.set(p.name, args[i]);
          } else if (rest !== null && p.name in rest) {
            f.set(p.name, rest[p.name]);
            delete rest[p.name];
          } else if (p.fallback !== null) {
            f.set(p.name, p.fallback(f));
          } else {
            f.set(p.name, new Undefined(p.name, undefined, `parameter ${JSON.stringify(p.name).replace(/"/g, "'")} was not provided`));
          }
        }
        if (rest !== null && "caller" in rest) {
          if (!usesCaller) throw new JinjaError("TypeError", `macro '${name}' takes no keyword argument 'caller'`);
          f.set("caller", rest["caller"]);
          delete rest["caller"];
        }
        const extra = args.length > params.length ? args.slice(params.length) : [];
        if (usesVarargs) f.set("varargs", tuple(extra));
        else if (extra.length > 0) {
          throw new JinjaError("TypeError", `macro '${name}' takes not more than ${params.length} argument(s)`);
        }
        const restKeys = rest === null ? [] : Object.keys(rest);
        if (usesKwargs) f.set("kwargs", rest ?? newKwargs());
        else if (restKeys.length > 0) throw new JinjaError("TypeError", `macro '${name}' takes no keyword argument '${restKeys[0]}'`);
        return f.capture(() => void body(f));
      } finally {
        rt.budget.leave();
      }
    },
    "macro",
  );
}
