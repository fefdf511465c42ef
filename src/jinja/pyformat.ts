/**
 * Python string formatting: `'%s' % x` (printf-style) and `str.format` / the `format` filter.
 * https://docs.python.org/3/library/stdtypes.html#printf-style-string-formatting
 */
import { PyFloat } from "./py-float.js";
import {
  JinjaError,
  Undefined,
  dictGet,
  isDict,
  isFloat,
  isInt,
  isNumeric,
  isTuple,
  numberStr,
  ownValue,
  pyRepr,
  pyStr,
  toNumber,
  typeName,
  type Kwargs,
} from "./values.js";
import { strLength } from "./code-points.js";
import { budget } from "./limits.js";
import { replaceEach } from "./text-scan.js";

function pad(body: string, width: number, left: boolean, fill = " "): string {
  const len = strLength(body);
  if (len >= width) return body;
  budget().stringLength(width);
  return left ? body + fill.repeat(width - len) : fill.repeat(width - len) + body;
}

/** C-style `%e`: Python always prints at least two exponent digits. */
function expFormat(x: number, precision: number, upper: boolean): string {
  const s = x.toExponential(precision).replace(/e([+-])(\d)$/, "e$10$2");
  return upper ? s.toUpperCase() : s;
}

/** `%g` / `{:g}`: precision significant digits, exponent form outside [1e-4, 10**precision). */
function generalFormat(x: number, precision: number, alternate: boolean, upper: boolean): string {
  const p = precision === 0 ? 1 : precision;
  if (x === 0) return alternate ? (0).toFixed(p - 1) : "0";
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toExponential(p - 1)))));
  let s: string;
  if (exp < -4 || exp >= p) {
    s = expFormat(x, p - 1, upper);
    if (!alternate) s = s.replace(/\.?0+(e)/i, "$1");
  } else {
    s = x.toFixed(Math.max(0, p - 1 - exp));
    if (!alternate && s.includes(".")) s = s.replace(/\.?0+$/, "");
  }
  return s;
}

function toIntForFormat(v: unknown, spec: string): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (isNumeric(v)) return BigInt(Math.trunc(toNumber(v)));
  throw new JinjaError("TypeError", `%${spec} format: a real number is required, not ${typeName(v)}`);
}

interface NumberSpec {
  sign: string; // "", "+", " "
  alternate: boolean;
  precision: number | null;
  type: string;
}

/** The digits (without sign) and whether the value is negative, for numeric conversions. */
function numberBody(v: unknown, spec: NumberSpec): { neg: boolean; body: string } {
  const t = spec.type;
  if (t === "d" || t === "i" || t === "u" || t === "x" || t === "X" || t === "o") {
    const n = toIntForFormat(v, t);
    const neg = n < 0n;
    const abs = neg ? -n : n;
    let body = t === "x" || t === "X" ? abs.toString(16) : t === "o" ? abs.toString(8) : abs.toString();
    if (t === "X") body = body.toUpperCase();
    if (spec.alternate && (t === "x" || t === "X" || t === "o")) body = "0" + (t === "o" ? "o" : t) + body;
    return { neg, body };
  }
  if (!isNumeric(v)) throw new JinjaError("TypeError", `must be real number, not ${typeName(v)}`);
  const x = toNumber(v);
  const neg = x < 0 || Object.is(x, -0);
  const ax = Math.abs(x);
  const precision = spec.precision ?? 6;
  if (!Number.isFinite(ax)) return { neg, body: Number.isNaN(ax) ? "nan" : "inf" };
  switch (t) {
    case "f":
    case "F":
      return { neg, body: ax.toFixed(precision) };
    case "e":
    case "E":
      return { neg, body: expFormat(ax, precision, t === "E") };
    case "g":
    case "G":
      return { neg, body: generalFormat(ax, precision, spec.alternate, t === "G") };
    case "%":
      return { neg, body: (ax * 100).toFixed(precision) + "%" };
  }
  throw new JinjaError("ValueError", `unsupported format character '${t}'`);
}

const PRINTF_RE = /%(?:\(([^)]*)\))?([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])?/g;

/** `fmt % args` with Python's rules for tuples, mappings and single values. */
export function percentFormat(fmt: string, args: unknown): string {
  const positional = isTuple(args) ? args : null;
  const mapping = isDict(args) ? args : null;
  let next = 0;
  let usedMapping = false;
  const take = (): unknown => {
    if (positional === null) {
      if (next++ > 0) throw new JinjaError("TypeError", "not enough arguments for format string");
      return args;
    }
    if (next >= positional.length) throw new JinjaError("TypeError", "not enough arguments for format string");
    return positional[next++];
  };
  const out = replaceEach(fmt, PRINTF_RE, (m) => {
    const [whole, key, flags = "", width, prec, type] = m;
    if (type === undefined) throw new JinjaError("ValueError", `incomplete format`);
    if (type === "%" && whole === "%%") return "%";
    const w = width === "*" ? Number(toIntForFormat(take(), "*")) : width ? Number(width) : 0;
    const p = prec === "*" ? Number(toIntForFormat(take(), "*")) : prec !== undefined ? Number(prec) : null;
    let value: unknown;
    if (key !== undefined) {
      if (mapping === null) throw new JinjaError("TypeError", "format requires a mapping");
      usedMapping = true;
      value = dictGet(mapping, key);
      if (value === undefined) throw new JinjaError("KeyError", pyRepr(key));
    } else value = take();
    const left = flags.includes("-");
    let body: string;
    if (type === "s" || type === "r" || type === "a") {
      body = type === "s" ? pyStr(value) : pyRepr(value);
      if (p !== null) body = Array.from(body).slice(0, p).join("");
      return pad(body, w, left);
    }
    if (type === "c") {
      body = typeof value === "string" ? value : String.fromCodePoint(Number(toIntForFormat(value, "c")));
      return pad(body, w, left);
    }
    const sign = flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
    const num = numberBody(value, { sign, alternate: flags.includes("#"), precision: p, type });
    const signText = num.neg ? "-" : sign;
    if (flags.includes("0") && !left) return signText + num.body.padStart(w - signText.length, "0");
    return pad(signText + num.body, w, left);
  });
  if (positional !== null && next < positional.length) {
    throw new JinjaError("TypeError", "not all arguments converted during string formatting");
  }
  if (positional === null && mapping === null && next === 0 && !usedMapping && !Array.isArray(args)) {
    // Python only forgives unused arguments when they are a sequence or mapping.
    throw new JinjaError("TypeError", "not all arguments converted during string formatting");
  }
  budget().stringLength(out.length);
  return out;
}

const SPEC_RE = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su;

/** Python's format(value, spec) for the common spec mini-language. */
export function formatValue(value: unknown, spec: string): string {
  if (spec === "") return pyStr(value);
  const m = SPEC_RE.exec(spec);
  if (!m) throw new JinjaError("ValueError", `Invalid format specifier '${spec}' for object of type '${typeName(value)}'`);
  const [, fillChar, align, sign = "", alt, zero, widthText, grouping, precText, typeChar] = m;
  const width = widthText ? Number(widthText) : 0;
  const precision = precText !== undefined ? Number(precText) : null;
  let body: string;
  const numeric = isNumeric(value) && typeof value !== "string";
  let type = typeChar ?? "";
  if (!numeric) {
    if (type !== "" && type !== "s") {
      throw new JinjaError("ValueError", `Unknown format code '${type}' for object of type '${typeName(value)}'`);
    }
    body = pyStr(value);
    if (precision !== null) body = Array.from(body).slice(0, precision).join("");
    return alignText(body, width, align ?? "<", fillChar ?? " ");
  }
  if (type === "") {
    if (isInt(value) || typeof value === "boolean") type = "d";
    else if (precision === null) {
      const raw = numberStr(value as number | PyFloat);
      return alignSigned(raw.startsWith("-") ? "-" : sign === "-" ? "" : sign, raw.replace(/^-/, ""), width, align, fillChar, zero);
    } else type = "g";
  }
  if (isFloat(value) && (type === "d" || type === "x" || type === "o" || type === "b")) {
    throw new JinjaError("ValueError", `Unknown format code '${type}' for object of type 'float'`);
  }
  if (type === "b") {
    const n = toIntForFormat(value, "b");
    body = (n < 0n ? -n : n).toString(2);
    return alignSigned(n < 0n ? "-" : sign === "-" ? "" : sign, body, width, align, fillChar, zero);
  }
  const num = numberBody(value, { sign, alternate: alt !== undefined, precision, type: type === "n" ? "g" : type });
  body = num.body;
  if (grouping) {
    const [intPart, frac] = body.split(".") as [string, string | undefined];
    body = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, grouping) + (frac !== undefined ? "." + frac : "");
  }
  return alignSigned(num.neg ? "-" : sign === "-" ? "" : sign, body, width, align, fillChar, zero);
}

function alignText(body: string, width: number, align: string, fill: string): string {
  const len = strLength(body);
  if (len >= width) return body;
  budget().stringLength(width);
  const gap = width - len;
  if (align === "<") return body + fill.repeat(gap);
  if (align === ">") return fill.repeat(gap) + body;
  const leftGap = Math.floor(gap / 2);
  return fill.repeat(leftGap) + body + fill.repeat(gap - leftGap);
}

function alignSigned(
  signText: string,
  body: string,
  width: number,
  align: string | undefined,
  fill: string | undefined,
  zero: string | undefined,
): string {
  if (width > body.length) budget().stringLength(width);
  if (align === undefined && zero !== undefined) return signText + body.padStart(width - signText.length, "0");
  if (align === "=") return signText + body.padStart(width - signText.length, fill ?? " ");
  return alignText(signText + body, width, align ?? ">", fill ?? " ");
}

/** `str.format(*args, **kwargs)`: `{}`, `{0}`, `{name}`, `{0[key]}`, `{0.attr}`, `!r`/`!s`, specs. */
export function strFormat(
  fmt: string,
  args: readonly unknown[],
  kwargs: Kwargs,
  getField: (obj: unknown, key: string | number, isAttr: boolean) => unknown,
): string {
  let auto = 0;
  let mode: "auto" | "manual" | null = null;
  const numbering = (m: "auto" | "manual"): void => {
    if (mode !== null && mode !== m) {
      // string.Formatter (which the sandbox uses) says this in both directions.
      throw new JinjaError("ValueError", "cannot switch from manual field specification to automatic field numbering");
    }
    mode = m;
  };
  const out = replaceEach(fmt, /\{\{|\}\}|\{([^{}]*)\}/g, (found) => {
    const [whole, field] = found;
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const text = field ?? "";
    const m = /^([^.[!:]*)((?:\.[^.[!:]+|\[[^\]]*\])*)(?:!([rsa]))?(?::(.*))?$/s.exec(text);
    if (!m) throw new JinjaError("ValueError", "Invalid format string");
    const [, name = "", chain = "", conversion, spec = ""] = m;
    let value: unknown;
    if (name === "") {
      numbering("auto");
      if (auto >= args.length) throw new JinjaError("IndexError", `Replacement index ${auto} out of range for positional args tuple`);
      value = args[auto++];
    } else if (/^\d+$/.test(name)) {
      numbering("manual");
      const i = Number(name);
      if (i >= args.length) throw new JinjaError("IndexError", `Replacement index ${i} out of range for positional args tuple`);
      value = args[i];
    } else {
      value = kwargs === null ? undefined : ownValue(kwargs, name);
      if (value === undefined) throw new JinjaError("KeyError", pyRepr(name));
    }
    for (const part of chain.match(/\.[^.[]+|\[[^\]]*\]/g) ?? []) {
      if (part.startsWith(".")) value = getField(value, part.slice(1), true);
      else {
        const key = part.slice(1, -1);
        value = getField(value, /^\d+$/.test(key) ? Number(key) : key, false);
      }
    }
    if (conversion === "r" || conversion === "a") value = pyRepr(value);
    else if (conversion === "s") value = pyStr(value);
    return formatValue(value, spec);
  });
  budget().stringLength(out.length);
  return out;
}
