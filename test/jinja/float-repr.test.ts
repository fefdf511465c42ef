/**
 * Python's repr of a float (what `{{ x }}` and tojson print), around the edges of the positional range
 * where JS's own digits are taken as they are. Expected strings: Python 3's repr(x) (json.dumps gives
 * the same for finite x).
 */
import { describe, expect, it } from "vitest";
import { floatRepr } from "../../src/jinja/values.js";

const PYTHON: ReadonlyArray<readonly [number, string]> = [
  [1e-4, "0.0001"],
  [-1e-4, "-0.0001"],
  [9.999999999999999e-5, "9.999999999999999e-05"],
  [1.0000000000000002e-4, "0.00010000000000000002"],
  [0.00012, "0.00012"],
  [-0.00015, "-0.00015"],
  [0.1, "0.1"],
  [1, "1.0"],
  [-1, "-1.0"],
  [12.99, "12.99"],
  [123456789012345.6, "123456789012345.6"],
  [999999999999999.9, "999999999999999.9"],
  [9999999999999998, "9999999999999998.0"],
  [-9999999999999998, "-9999999999999998.0"],
  [1e16, "1e+16"],
  [1e15, "1000000000000000.0"],
  [1e15 + 0.5, "1000000000000000.5"],
  [0.1 + 0.2, "0.30000000000000004"],
  [5e-324, "5e-324"],
  [1.7976931348623157e308, "1.7976931348623157e+308"],
  [1e21, "1e+21"],
  [1e-7, "1e-07"],
  [2.5e16, "2.5e+16"],
  [0, "0.0"],
  [-0, "-0.0"],
  [NaN, "nan"],
  [-Infinity, "-inf"],
];

/** Python's rule spelt out from the shortest digits (toExponential): positional for exponents -4 to 15. */
function reference(x: number): string {
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const sign = x < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exp < -4 || exp >= 16) return `${sign}${digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

describe("floatRepr", () => {
  it("prints as Python's repr", () => {
    for (const [x, text] of PYTHON) expect(floatRepr(x), String(x)).toBe(text);
  });

  it("agrees with Python's rule over random magnitudes, integral values included", () => {
    let seed = 19;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20000; i++) {
      const x = (next() < 0.5 ? -1 : 1) * next() * 10 ** Math.floor(next() * 30 - 10);
      const y = i % 3 === 0 ? Math.round(x) || 1 : x;
      expect(floatRepr(y), String(y)).toBe(reference(y));
    }
  });
});
