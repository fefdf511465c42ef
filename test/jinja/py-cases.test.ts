/**
 * Small templates rendered by real Jinja2 (test/jinja/py-cases.ts, generated from test/jinja/cases/ by
 * gen-py-cases.py): our output must be byte-identical, and where Python raised, we raise a ChatwireError
 * with the same message.
 *
 * Known gap, so not among the cases: dicts whose int-like keys are out of ascending order (JS objects
 * order such keys numerically; Python keeps insertion order).
 */
import { describe, expect, it } from "vitest";
import { compileTemplate } from "../../src/jinja/index.js";
import { ChatwireError } from "../../src/errors.js";
import { PY_CASES } from "./py-cases.js";

describe("templates rendered by Jinja2", () => {
  for (const c of PY_CASES) {
    it(JSON.stringify(c.t).slice(0, 120), () => {
      const run = (): string => compileTemplate(c.t).render(c.ctx);
      if (c.ok !== undefined) {
        expect(run()).toBe(c.ok);
      } else {
        let error: unknown;
        try {
          run();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ChatwireError);
        expect((error as Error).message).toBe(c.err);
      }
    });
  }
});
