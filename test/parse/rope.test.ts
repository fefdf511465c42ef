/**
 * TextRope (src/parse/rope.ts) against a plain string built the same way: every read must be the same
 * text, whatever the pieces' sizes (small pieces joined into chunks, large ones kept whole) and after
 * cuts from the end.
 */
import { describe, expect, it } from "vitest";
import { TextRope } from "../../src/parse/rope.js";
import { seededRandom } from "../helpers/rng.js";

function piece(random: () => number, big: boolean): string {
  const n = big ? 2000 + Math.floor(random() * 6000) : Math.floor(random() * 9);
  let s = "";
  for (let i = 0; i < n; i++) s += "ab<\n深é😀"[Math.floor(random() * 7)];
  return s;
}

describe("TextRope", () => {
  it("reads back exactly what was appended, in any slice, after any cut", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed);
      const rope = new TextRope(seed % 2 === 0 ? "<tool_call>" : "");
      let plain = seed % 2 === 0 ? "<tool_call>" : "";
      for (let step = 0; step < 400; step++) {
        const r = random();
        if (r < 0.9) {
          const s = piece(random, r < 0.03);
          rope.append(s);
          plain += s;
        } else if (r < 0.95) {
          const n = Math.max(0, plain.length - Math.floor(random() * 3000));
          rope.truncate(n);
          plain = plain.slice(0, n);
        } else {
          const a = Math.floor(random() * (plain.length + 10));
          const b = Math.floor(random() * (plain.length + 10));
          expect(rope.slice(a, b), `seed ${seed} step ${step} slice ${a}..${b}`).toBe(plain.slice(a, b));
        }
        expect(rope.length).toBe(plain.length);
      }
      expect(rope.toString(), `seed ${seed}`).toBe(plain);
      // Reading the whole text keeps it as one chunk; later appends and slices still agree.
      rope.append("tail");
      plain += "tail";
      expect(rope.slice(plain.length - 10, plain.length)).toBe(plain.slice(-10));
      expect(rope.toString()).toBe(plain);
    }
  });

  it("clamps out-of-range slices like String.prototype.slice does for ordered bounds", () => {
    const rope = new TextRope("hello");
    expect(rope.slice(-3, 2)).toBe("he");
    expect(rope.slice(3, 99)).toBe("lo");
    expect(rope.slice(4, 2)).toBe("");
    expect(new TextRope().toString()).toBe("");
  });
});
