/**
 * Python operators: int/float arithmetic with Python's result types and sign rules, big ints, str and
 * list `+`/`*`, `%` string formatting, `in`. Undefined operands raise UndefinedError like Jinja2.
 */
import { ChatwireError } from "../errors.js";
import { flatCopy } from "../flat-copy.js";
import { budget } from "./limits.js";
import { percentFormat } from "./pyformat.js";
import {
  JinjaError,
  Markup,
  Undefined,
  escapeHtml,
  unwrap,
  dictHas,
  floatValue,
  intValue,
  isDict,
  isFloat,
  isInt,
  isNumeric,
  isTuple,
  pyEq,
  pyStr,
  toNumber,
  tuple,
  typeName,
} from "./values.js";

function unsupported(op: string, a: unknown, b: unknown): never {
  if (a instanceof Undefined) a.fail();
  if (b instanceof Undefined) b.fail();
  throw new JinjaError("TypeError", `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

const SAFE = 9007199254740991;

function big(v: unknown): bigint {
  return typeof v === "bigint" ? v : BigInt(typeof v === "boolean" ? (v ? 1 : 0) : (v as number));
}

/** Ints a template may build, in bits (about 315,000 digits): far past what str() prints, bounded in time. */
const MAX_INT_BITS = 1 << 20;
/** The bit length of an int, cheaply (linear in its size). */
function bitLength(x: bigint): number {
  return (x < 0n ? -x : x).toString(16).length * 4;
}
function checkBits(bits: number): void {
  if (bits > MAX_INT_BITS) throw new ChatwireError("limit_exceeded", `template built an integer of more than ${MAX_INT_BITS} bits`);
}

/** int (op) int, exact: doubles while safe, BigInt beyond. */
function intOp(op: string, a: unknown, b: unknown): number | bigint {
  if (typeof a === "number" && typeof b === "number") {
    const r = op === "+" ? a + b : op === "-" ? a - b : a * b;
    if (r >= -SAFE && r <= SAFE) return r;
  }
  const x = big(a);
  const y = big(b);
  if (op === "*") {
    const bits = bitLength(x) + bitLength(y);
    checkBits(bits);
    budget().scan(bits);
  }
  const r = op === "+" ? x + y : op === "-" ? x - y : x * y;
  return intValue(r);
}

function numeric(op: string, a: unknown, b: unknown): unknown {
  if (!isNumeric(a) || !isNumeric(b)) return unsupported(op, a, b);
  if (isFloat(a) || isFloat(b)) {
    const x = toNumber(a);
    const y = toNumber(b);
    return floatValue(op === "+" ? x + y : op === "-" ? x - y : x * y);
  }
  return intOp(op, a, b);
}

export function pyAdd(a: unknown, b: unknown): unknown {
  // The common case first (`'<|im_start|>' + message.role`), before the Markup tests. V8 concatenates
  // without copying (a rope): only the length limit applies here.
  if (typeof a === "string" && typeof b === "string") {
    budget().length(a.length + b.length);
    return a + b;
  }
  if (typeof a === "number" && typeof b === "number" && Number.isInteger(a) && Number.isInteger(b)) {
    const r = a + b; // intOp's first case, sooner
    if (r >= -SAFE && r <= SAFE) return r;
  }
  if (a instanceof Markup || b instanceof Markup) {
    // Markup.__add__ / __radd__: the other side is HTML-escaped first.
    if ((typeof a !== "string" && !(a instanceof Markup)) || (typeof b !== "string" && !(b instanceof Markup))) {
      return unsupported("+", a, b);
    }
    const text = escapeHtml(a).text + escapeHtml(b).text;
    budget().stringLength(text.length);
    return new Markup(text);
  }
  if (typeof a === "string") {
    // b is no str (str + str returned above) and no Markup.
    if (b instanceof Undefined) b.fail();
    throw new JinjaError("TypeError", `can only concatenate str (not "${typeName(b)}") to str`);
  }
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    budget().items(a.length + b.length);
    const out = a.concat(b);
    return isTuple(a) ? tuple(out) : out;
  }
  if (Array.isArray(a)) {
    if (b instanceof Undefined) b.fail();
    throw new JinjaError("TypeError", `can only concatenate ${typeName(a)} (not "${typeName(b)}") to ${typeName(a)}`);
  }
  return numeric("+", a, b);
}

export function pySub(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number" && Number.isInteger(a) && Number.isInteger(b)) {
    const r = a - b; // intOp's first case, sooner
    if (r >= -SAFE && r <= SAFE) return r;
  }
  return numeric("-", a, b);
}

function repeat(seq: string | unknown[], times: unknown): unknown {
  const n = Math.max(0, toNumber(times));
  if (typeof seq === "string") {
    budget().stringLength(seq.length * n);
    const out = seq.repeat(n);
    // repeat() makes a deep rope; one flat copy now keeps every later character access cheap.
    return out.length > 4096 ? flatCopy(out) : out;
  }
  const b = budget();
  const total = seq.length * n;
  b.items(total);
  // One uninterruptible loop, filling an array allocated once (pushing 10 M items took 1-2 s, this 0.3):
  // looked at against the clock first.
  b.native(total, 40);
  const out: unknown[] = new Array(total);
  for (let i = 0, k = 0; i < n; i++) for (let j = 0; j < seq.length; j++) out[k++] = seq[j];
  return isTuple(seq) ? tuple(out) : out;
}

export function pyMul(a: unknown, b: unknown): unknown {
  if ((typeof a === "string" || Array.isArray(a)) && (isInt(b) || typeof b === "boolean")) return repeat(a, b);
  if ((typeof b === "string" || Array.isArray(b)) && (isInt(a) || typeof a === "boolean")) return repeat(b, a);
  return numeric("*", a, b);
}

export function pyTrueDiv(a: unknown, b: unknown): unknown {
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("/", a, b);
  const y = toNumber(b);
  if (y === 0) throw new JinjaError("ZeroDivisionError", "division by zero");
  return floatValue(toNumber(a) / y);
}

export function pyFloorDiv(a: unknown, b: unknown): unknown {
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("//", a, b);
  if (isFloat(a) || isFloat(b)) {
    const y = toNumber(b);
    if (y === 0) throw new JinjaError("ZeroDivisionError", "float floor division by zero");
    return floatValue(Math.floor(toNumber(a) / y));
  }
  const y = big(b);
  if (y === 0n) throw new JinjaError("ZeroDivisionError", "integer division or modulo by zero");
  const x = big(a);
  let q = x / y;
  if ((x % y !== 0n) && ((x < 0n) !== (y < 0n))) q -= 1n;
  return intValue(q);
}

export function pyMod(a: unknown, b: unknown): unknown {
  if (typeof a === "string") return percentFormat(a, b);
  if (a instanceof Markup) {
    const escaped = isTuple(b) ? tuple(b.map((x) => escapeHtml(x))) : isDict(b) ? b : escapeHtml(b);
    return new Markup(percentFormat(a.text, escaped));
  }
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("%", a, b);
  if (isFloat(a) || isFloat(b)) {
    const x = toNumber(a);
    const y = toNumber(b);
    if (y === 0) throw new JinjaError("ZeroDivisionError", "float modulo");
    let r = x % y;
    if (r !== 0 && (r < 0) !== (y < 0)) r += y;
    return floatValue(r);
  }
  const y = big(b);
  if (y === 0n) throw new JinjaError("ZeroDivisionError", "integer modulo by zero");
  let r = big(a) % y;
  if (r !== 0n && (r < 0n) !== (y < 0n)) r += y;
  return intValue(r);
}

export function pyPow(a: unknown, b: unknown): unknown {
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("** or pow()", a, b);
  if (isFloat(a) || isFloat(b) || toNumber(b) < 0) {
    if (toNumber(a) === 0 && toNumber(b) < 0) {
      throw new JinjaError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    }
    return floatValue(toNumber(a) ** toNumber(b));
  }
  const base = big(a);
  const exp = big(b);
  // Bound the size of the result before computing it (`2 ** 10**9` must not hang).
  const bits = base >= -1n && base <= 1n ? 1 : Number(exp) * bitLength(base);
  checkBits(bits);
  budget().scan(bits * 4);
  return intValue(base ** exp);
}

/** `a ~ b`: both sides printed and joined. */
export function pyConcat(a: unknown, b: unknown): string {
  const x = pyStr(a);
  const y = pyStr(b);
  budget().length(x.length + y.length);
  return x + y;
}

export function pyNeg(a: unknown): unknown {
  if (typeof a === "bigint") return intValue(-a);
  if (!isNumeric(a)) {
    if (a instanceof Undefined) a.fail();
    throw new JinjaError("TypeError", `bad operand type for unary -: '${typeName(a)}'`);
  }
  return isFloat(a) ? floatValue(-toNumber(a)) : -toNumber(a) || 0;
}

export function pyPos(a: unknown): unknown {
  if (!isNumeric(a)) {
    if (a instanceof Undefined) a.fail();
    throw new JinjaError("TypeError", `bad operand type for unary +: '${typeName(a)}'`);
  }
  return typeof a === "boolean" ? (a ? 1 : 0) : a;
}

/** `needle in haystack`. */
export function pyIn(needle: unknown, haystack: unknown): boolean {
  needle = unwrap(needle);
  haystack = unwrap(haystack);
  if (typeof haystack === "string") {
    if (typeof needle !== "string") {
      if (needle instanceof Undefined) needle.fail();
      throw new JinjaError("TypeError", `'in <string>' requires string as left operand, not ${typeName(needle)}`);
    }
    return haystack.includes(needle);
  }
  if (Array.isArray(haystack)) return haystack.some((x) => pyEq(x, needle));
  if (isDict(haystack)) {
    return dictHas(haystack, needle);
  }
  if (haystack instanceof Undefined) return false;
  throw new JinjaError("TypeError", `argument of type '${typeName(haystack)}' is not iterable`);
}
