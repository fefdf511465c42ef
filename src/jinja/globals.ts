/**
 * Template globals: Jinja2's defaults (range, dict, namespace, joiner, cycler) plus transformers'
 * raise_exception and strftime_now.
 */
import { ChatwireError } from "../errors.js";
import { budget } from "./limits.js";
import { replaceEach } from "./text-scan.js";
import { stringItems } from "./dict.js";
import { Callable, JinjaError, Namespace, PyDict, copyDict, isDict, isInt, newDict, newKwargs, pyIter, pyStr, toNumber, type Kwargs } from "./values.js";

function range(args: unknown[]): number[] {
  if (args.length === 0) throw new JinjaError("TypeError", "range expected at least 1 argument, got 0");
  for (const a of args) {
    if (!isInt(a) && typeof a !== "boolean") {
      throw new JinjaError("TypeError", `'${typeof a === "number" ? "float" : typeof a}' object cannot be interpreted as an integer`);
    }
  }
  const [start, stop, step] = args.length === 1 ? [0, toNumber(args[0]), 1] : [toNumber(args[0]), toNumber(args[1]), args.length > 2 ? toNumber(args[2]) : 1];
  if (step === 0) throw new JinjaError("ValueError", "range() arg 3 must not be zero");
  const length = Math.max(0, Math.ceil((stop - start) / step));
  // Jinja2's sandbox caps range() at 100000 items (MAX_RANGE); we keep that rule and the string/list limit.
  if (length > 100000) {
    throw new ChatwireError("limit_exceeded", `range() of ${length} items is too big (the sandbox allows at most 100000)`);
  }
  budget().items(length);
  budget().steps_(length);
  const out = new Array<number>(length);
  for (let i = 0; i < length; i++) out[i] = start + i * step;
  return out;
}

/** dict(mapping_or_pairs, **kwargs): a PyDict, in Python's order. */
function dictFrom(args: unknown[], kwargs: Kwargs): PyDict {
  if (args.length > 1) throw new JinjaError("TypeError", `dict expected at most 1 argument, got ${args.length}`);
  const d = args.length > 0 && isDict(args[0]) ? copyDict(args[0]) : newDict();
  if (args.length > 0 && !isDict(args[0])) {
    let i = 0;
    for (const pair of pyIter(args[0])) {
      const kv = Array.isArray(pair) || typeof pair === "string" ? pyIter(pair) : null;
      if (kv === null) throw new JinjaError("TypeError", `cannot convert dictionary update sequence element #${i} to a sequence`);
      if (kv.length !== 2) {
        throw new JinjaError("ValueError", `dictionary update sequence element #${i} has length ${kv.length}; 2 is required`);
      }
      d.set(kv[0], kv[1]);
      i++;
    }
  }
  if (kwargs !== null) for (const k of Object.keys(kwargs)) d.set(k, kwargs[k]);
  return d;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** Python's datetime.strftime for the C-locale directives templates use (local time, like datetime.now()). */
export function strftime(d: Date, format: string): string {
  // Each directive is worked out once per call, however often the format repeats it; a step per directive.
  const b = budget();
  b.stringLength(format.length);
  const done = new Map<string, string>();
  let size = format.length;
  const out = replaceEach(format, /%([-]?)([a-zA-Z%])/g, (m) => {
    const [whole, flag = "", c = ""] = m;
    let text = done.get(whole);
    if (text === undefined) done.set(whole, (text = directive(d, whole, flag, c)));
    b.length((size += text.length - whole.length));
    return text;
  });
  b.stringLength(out.length);
  return out;
}

function directive(d: Date, whole: string, flag: string, c: string): string {
  {
    const p = flag === "-" ? (n: number) => String(n) : pad2;
    const hour12 = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12;
    const start = new Date(d.getFullYear(), 0, 1);
    const dayOfYear = Math.floor((d.getTime() - start.getTime() - (d.getTimezoneOffset() - start.getTimezoneOffset()) * 60000) / 86400000) + 1;
    switch (c) {
      case "Y":
        return String(d.getFullYear());
      case "y":
        return pad2(d.getFullYear() % 100);
      case "m":
        return p(d.getMonth() + 1);
      case "d":
        return p(d.getDate());
      case "e":
        return String(d.getDate()).padStart(2, " ");
      case "H":
        return p(d.getHours());
      case "I":
        return p(hour12);
      case "M":
        return p(d.getMinutes());
      case "S":
        return p(d.getSeconds());
      case "f":
        return String(d.getMilliseconds() * 1000).padStart(6, "0");
      case "p":
        return d.getHours() < 12 ? "AM" : "PM";
      case "A":
        return DAYS[d.getDay()]!;
      case "a":
        return DAYS[d.getDay()]!.slice(0, 3);
      case "B":
        return MONTHS[d.getMonth()]!;
      case "b":
      case "h":
        return MONTHS[d.getMonth()]!.slice(0, 3);
      case "j":
        return flag === "-" ? String(dayOfYear) : String(dayOfYear).padStart(3, "0");
      case "w":
        return String(d.getDay());
      case "u":
        return String(d.getDay() === 0 ? 7 : d.getDay());
      case "Z":
        return "";
      case "z":
        return "";
      case "%":
        return "%";
    }
    return whole;
  }
}

class Cycler {
  pos = 0;
  constructor(readonly items: unknown[]) {}
}

/** The globals every render sees (stateless: strftime_now reads the render's clock from its budget). */
function makeGlobals(): Record<string, unknown> {
  const g = newKwargs();
  g["range"] = new Callable("range", (args) => range(args));
  g["dict"] = new Callable("dict", (args, kwargs) => dictFrom(args, kwargs));
  g["namespace"] = new Callable("namespace", (args, kwargs) => {
    const ns = new Namespace();
    // Keywords only (`namespace(a=1, b=2)`, the usual call): their keys are strings already, so
    // they go straight in, in dictFrom's order, without the PyDict a positional dict needs (issue 19:
    // 0.2 µs a render of Qwen3's template).
    if (args.length === 0) {
      if (kwargs !== null) for (const k of Object.keys(kwargs)) ns.attrs[k] = kwargs[k];
      return ns;
    }
    for (const [k, v] of stringItems(dictFrom(args, kwargs), "namespace")) ns.attrs[k] = v;
    return ns;
  });
  g["raise_exception"] = new Callable("raise_exception", (args) => {
    // transformers raises jinja2.TemplateError(message): the message is the template's own text.
    throw new ChatwireError("template_error", pyStr(args[0]));
  });
  g["strftime_now"] = new Callable("strftime_now", (args) => strftime(budget().now(), pyStr(args[0])));
  g["joiner"] = new Callable("joiner", (args) => {
    const sep = args.length > 0 ? pyStr(args[0]) : ", ";
    let used = false;
    return new Callable("joiner", () => {
      if (!used) {
        used = true;
        return "";
      }
      return sep;
    });
  });
  g["cycler"] = new Callable("cycler", (args) => {
    const c = new Cycler(args);
    const ns = new Namespace();
    ns.attrs["next"] = new Callable("next", () => {
      const v = c.items[c.pos];
      c.pos = (c.pos + 1) % c.items.length;
      return v;
    });
    ns.attrs["reset"] = new Callable("reset", () => {
      c.pos = 0;
      return null;
    });
    return ns;
  });
  return g;
}

export const GLOBALS: Readonly<Record<string, unknown>> = Object.freeze(makeGlobals());
