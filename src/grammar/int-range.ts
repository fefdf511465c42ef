/**
 * An integer range (JSON Schema `minimum` / `maximum` / `exclusiveMinimum` / `exclusiveMaximum` on an
 * integer) as GBNF over decimal digits, the technique of llama.cpp's json-schema-to-grammar
 * (`_generate_min_max_int`), written anew: split by digit count, then per digit position the digits
 * below, at and above the bound. No leading zeros and no `-0` (as the plain integer rule), at most 16
 * digits (the plain rule's limit), so bounds further out are clamped to it.
 */
import { alt, lit } from "./gbnf.js";

const LIMIT = 10n ** 16n - 1n;

/** Same-length decimal strings a <= b: every number between them, as GBNF. */
function sameLength(a: string, b: string): string {
  if (a === b) return lit(a);
  if (a.length === 1) return `[${a}-${b}]`;
  if (a[0] === b[0]) return `${lit(a[0]!)} ${sameLength(a.slice(1), b.slice(1))}`;
  const rest = a.length - 1;
  const tailLow = a.slice(1);
  const tailHigh = b.slice(1);
  const options: string[] = [];
  let from = Number(a[0]);
  let to = Number(b[0]);
  if (tailLow !== "0".repeat(rest)) {
    options.push(`${lit(a[0]!)} ${sameLength(tailLow, "9".repeat(rest))}`);
    from++;
  }
  const high = tailHigh !== "9".repeat(rest) ? `${lit(b[0]!)} ${sameLength("0".repeat(rest), tailHigh)}` : undefined;
  if (high !== undefined) to--;
  if (from <= to) options.push(`${from === to ? lit(String(from)) : `[${from}-${to}]`} [0-9]{${rest}}`);
  if (high !== undefined) options.push(high);
  return alt(options);
}

/** Every non-negative integer in [lo, hi], written without leading zeros. */
function unsigned(lo: bigint, hi: bigint): string {
  const options: string[] = [];
  for (let d = String(lo).length; d <= String(hi).length; d++) {
    const floor = d === 1 ? 0n : 10n ** BigInt(d - 1);
    const a = lo > floor ? lo : floor;
    const ceil = 10n ** BigInt(d) - 1n;
    const b = hi < ceil ? hi : ceil;
    if (a <= b) options.push(sameLength(String(a), String(b)));
  }
  return alt(options);
}

/** Bounds as a closed integer interval (undefined: unbounded on that side), from a schema. */
export function integerBounds(schema: Readonly<Record<string, unknown>>): { min?: bigint; max?: bigint } | undefined {
  const num = (k: string): number | undefined => (typeof schema[k] === "number" && Number.isFinite(schema[k]) ? (schema[k] as number) : undefined);
  // Draft 4 spells exclusivity as a boolean next to minimum/maximum.
  const exMin = num("exclusiveMinimum") ?? (schema.exclusiveMinimum === true ? num("minimum") : undefined);
  const exMax = num("exclusiveMaximum") ?? (schema.exclusiveMaximum === true ? num("maximum") : undefined);
  const min = schema.exclusiveMinimum === true ? undefined : num("minimum");
  const max = schema.exclusiveMaximum === true ? undefined : num("maximum");
  const lows = [min !== undefined ? BigInt(Math.ceil(min)) : undefined, exMin !== undefined ? BigInt(Math.floor(exMin)) + 1n : undefined].filter((x) => x !== undefined);
  const highs = [max !== undefined ? BigInt(Math.floor(max)) : undefined, exMax !== undefined ? BigInt(Math.ceil(exMax)) - 1n : undefined].filter((x) => x !== undefined);
  if (lows.length === 0 && highs.length === 0) return undefined;
  const out: { min?: bigint; max?: bigint } = {};
  if (lows.length > 0) out.min = lows.reduce((a, b) => (a > b ? a : b));
  if (highs.length > 0) out.max = highs.reduce((a, b) => (a < b ? a : b));
  return out;
}

/** GBNF for the integers in [min, max] (either side open), or undefined when there are none. */
export function integerRange(min: bigint | undefined, max: bigint | undefined): string | undefined {
  const lo = min === undefined || min < -LIMIT ? -LIMIT : min;
  const hi = max === undefined || max > LIMIT ? LIMIT : max;
  if (lo > hi) return undefined;
  const options: string[] = [];
  if (lo < 0n) options.push(`"-" ${unsigned(hi < -1n ? -hi : 1n, -lo)}`);
  if (hi >= 0n) options.push(unsigned(lo > 0n ? lo : 0n, hi));
  return alt(options);
}
