/**
 * Calls, filters and tests once their operands are compiled: the compile-time lookup of a filter or test
 * by name (refused, or deferred in a soft frame) and the render-time argument evaluation and call. No
 * node is read here; compile-expr.ts hands over closures.
 */
import { stringItems } from "./dict.js";
import type { Expr } from "./closures.js";
import { CompileError } from "./closures.js";
import { FILTER_ALIASES, FILTERS } from "./filters.js";
import type { Frame } from "./frame.js";
import { TESTS } from "./tests.js";
import { NEGATED_TEST_PREFIX, TEST_PREFIX } from "./tests-syntax.js";
import { Callable, JinjaError, Markup, Undefined, escapeHtml, isDict, newKwargs, pyIter, typeName, unwrap, type Kwargs } from "./values.js";

/** A call's arguments as the source wrote them: positional, `*spread`, `name=value`, `**spread`. */
export interface CompiledArgs {
  positional: Expr[];
  spread: Expr | null;
  keywords: Array<readonly [string, Expr]>;
  kwSpread: Expr | null;
}

export function evalArgs(c: CompiledArgs, f: Frame): [unknown[], Kwargs] {
  const args = c.positional.map((e) => e(f));
  if (c.spread !== null) {
    const extra = pyIter(c.spread(f));
    f.rt.budget.items(extra.length);
    for (const x of extra) args.push(x);
  }
  let kwargs: Kwargs = null;
  if (c.keywords.length > 0 || c.kwSpread !== null) {
    kwargs = newKwargs();
    for (const [k, e] of c.keywords) kwargs[k] = e(f);
    if (c.kwSpread !== null) {
      const extra = c.kwSpread(f);
      if (isDict(extra)) for (const [k, v] of stringItems(extra, "argument after **")) kwargs[k] = v;
    }
  }
  return [args, kwargs];
}

export function callValue(callee: unknown, args: unknown[], kwargs: Kwargs): unknown {
  if (callee instanceof Callable) return callee.fn(args, kwargs);
  if (callee instanceof Undefined) callee.fail();
  throw new JinjaError("TypeError", `'${typeName(callee)}' object is not callable`);
}

function missing(kind: "filter" | "test", name: string): never {
  throw new JinjaError("TemplateRuntimeError", `No ${kind} named '${name}' found.`);
}

/** Filters that return Markup for Markup input in Jinja2 (soft_str keeps it, Markup's methods keep it). */
const MARKUP_FILTERS: ReadonlySet<string> = new Set(["lower", "upper", "capitalize", "trim", "string", "center", "indent", "truncate", "format", "reverse"]);

/**
 * The filter `name` applied with `args`; a reserved test name (tests-syntax.ts) is a test with
 * arguments. Unknown: a compile error, or in a soft frame a failure when it runs.
 */
export function bindFilter(name: string, args: CompiledArgs, soft: boolean): (f: Frame, value: unknown) => unknown {
  if (name.startsWith(TEST_PREFIX) || name.startsWith(NEGATED_TEST_PREFIX)) return bindTestCall(name, args, soft);
  const resolved = FILTER_ALIASES[name] ?? name;
  const known = Object.prototype.hasOwnProperty.call(FILTERS, resolved) ? FILTERS[resolved]! : null;
  if (known === null && !soft) throw new CompileError(`No filter named '${name}'.`);
  const filter = known ?? ((): never => missing("filter", name));
  const noArgs = args.positional.length === 0 && args.keywords.length === 0 && args.spread === null && args.kwSpread === null;
  // safe/escape/default look at Markup-ness; the others see the text, and those that Jinja2 runs
  // through Markup's own str methods give Markup back (`('x'|safe)|upper is escaped`).
  const seesMarkup = resolved === "safe" || resolved === "escape" || resolved === "default";
  const givesMarkup = MARKUP_FILTERS.has(resolved);
  return (f, input) => {
    if (input instanceof Markup && !seesMarkup) {
      let a: unknown[] = [];
      let k: Kwargs = null;
      if (!noArgs) [a, k] = evalArgs(args, f);
      // Markup.__mod__ escapes the arguments it formats in.
      if (resolved === "format") a = a.map((x) => escapeHtml(x));
      const out = filter(input.text, a, k, f.rt.env);
      return givesMarkup && typeof out === "string" ? new Markup(out) : out;
    }
    if (noArgs) return filter(input, [], null, f.rt.env);
    const [a, k] = evalArgs(args, f);
    return filter(input, a, k, f.rt.env);
  };
}

function lookupTest(name: string, soft: boolean): (value: unknown, args: unknown[]) => boolean {
  const known = Object.prototype.hasOwnProperty.call(TESTS, name) ? TESTS[name]! : null;
  if (known === null && !soft) throw new CompileError(`No test named '${name}'.`);
  return known ?? ((): never => missing("test", name));
}

/** A test with arguments, which the front end rewrote into a filter call (see tests-syntax.ts). */
function bindTestCall(filterName: string, args: CompiledArgs, soft: boolean): (f: Frame, value: unknown) => unknown {
  const negate = filterName.startsWith(NEGATED_TEST_PREFIX);
  const test = lookupTest(filterName.slice(negate ? NEGATED_TEST_PREFIX.length : TEST_PREFIX.length), soft);
  return (f, value) => {
    const [a] = evalArgs(args, f);
    return test(unwrap(value), a) !== negate;
  };
}

/** `operand is [not] name`, a test without arguments. */
export function bindTest(name: string, negate: boolean, operand: Expr, soft: boolean): Expr {
  const test = lookupTest(name, soft);
  // `escaped` is the one test that tells Markup from str; every other one sees the text.
  if (name === "escaped") return (f) => test(operand(f), []) !== negate;
  return (f) => test(unwrap(operand(f)), []) !== negate;
}
