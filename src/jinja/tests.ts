/**
 * Jinja2's built-in tests (jinja2/tests.py): `x is defined`, `x is mapping`, `x is divisibleby(3)`...
 * https://jinja.palletsprojects.com/en/3.1.x/templates/#list-of-builtin-tests
 */
import { FILTERS } from "./filters.js";
import { STR_METHODS } from "./str-methods.js";
import { pyIn } from "./ops.js";
import { Callable, JinjaError, Markup, Namespace, Undefined, pyStr, isDict, isFloat, isInt, isNumeric, pyCompare, pyEq, toNumber } from "./values.js";

export type Test = (value: unknown, args: unknown[]) => boolean;

/** Jinja2's test_upper / test_lower: str(value).isupper() / .islower(). */
function cased(s: unknown, upper: boolean): boolean {
  return STR_METHODS[upper ? "isupper" : "islower"]!(pyStr(s), [], null) as boolean;
}

function needArg(args: unknown[], test: string): unknown {
  if (args.length === 0) throw new JinjaError("TypeError", `test_${test}() missing 1 required positional argument`);
  return args[0];
}

const eq: Test = (v, a) => pyEq(v, needArg(a, "eq"));
const ne: Test = (v, a) => !pyEq(v, needArg(a, "ne"));
const lt: Test = (v, a) => pyCompare(v, needArg(a, "lt"), "<") < 0;
const le: Test = (v, a) => pyCompare(v, needArg(a, "le"), "<=") <= 0;
const gt: Test = (v, a) => pyCompare(v, needArg(a, "gt"), ">") > 0;
const ge: Test = (v, a) => pyCompare(v, needArg(a, "ge"), ">=") >= 0;

export const TESTS: Readonly<Record<string, Test>> = {
  boolean: (v) => typeof v === "boolean",
  callable: (v) => v instanceof Callable,
  defined: (v) => !(v instanceof Undefined),
  divisibleby: (v, a) => toNumber(v) % toNumber(needArg(a, "divisibleby")) === 0,
  eq,
  equalto: eq,
  "==": eq,
  escaped: (v) => v instanceof Markup,
  even: (v) => {
    if (!isNumeric(v)) throw new JinjaError("TypeError", "not all arguments converted during string formatting");
    return toNumber(v) % 2 === 0;
  },
  false: (v) => v === false,
  filter: (v) => typeof v === "string" && Object.prototype.hasOwnProperty.call(FILTERS, v),
  float: (v) => isFloat(v),
  ge,
  ">=": ge,
  gt,
  greaterthan: gt,
  ">": gt,
  in: (v, a) => pyIn(v, needArg(a, "in")),
  integer: (v) => isInt(v),
  iterable: (v) => typeof v === "string" || Array.isArray(v) || isDict(v) || v instanceof Undefined,
  le,
  "<=": le,
  lower: (v) => cased(v, false),
  lt,
  lessthan: lt,
  "<": lt,
  mapping: (v) => isDict(v),
  ne,
  "!=": ne,
  none: (v) => v === null,
  number: (v) => isNumeric(v),
  odd: (v) => {
    if (!isNumeric(v)) throw new JinjaError("TypeError", "not all arguments converted during string formatting");
    return Math.abs(toNumber(v) % 2) === 1;
  },
  // Python `is`: identity for objects; None/True/False and small values are singletons there too.
  sameas: (v, a) => v === needArg(a, "sameas"),
  sequence: (v) => typeof v === "string" || Array.isArray(v) || isDict(v) || v instanceof Undefined,
  string: (v) => typeof v === "string",
  test: (v) => typeof v === "string" && Object.prototype.hasOwnProperty.call(TESTS, v),
  true: (v) => v === true,
  undefined: (v) => v instanceof Undefined,
  upper: (v) => cased(v, true),
  namespace: (v) => v instanceof Namespace,
};
