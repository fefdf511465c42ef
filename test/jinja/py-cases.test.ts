/**
 * Small templates rendered by real Jinja2 (test/jinja/py-cases.ts, generated from test/jinja/cases/ by
 * gen-py-cases.py): our output must be byte-identical, and where Python raised, we raise a ChatwireError
 * with the same message.
 *
 * Dicts a template makes keep Python's key semantics and insertion order (13-dict-keys.json). Known gap,
 * so not among the cases: a context *JS object* with integer-like keys ("2", "1") is enumerated in JS
 * order (those keys first, ascending), because the object had that order before the renderer saw it.
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
