/**
 * The per-family suites that are data (fixtures/format-suites/<format>.json): for each case, the stated
 * message and issues one-shot, then the same result streamed code point by code point, at seeded random
 * cuts and at every two-push cut (the fluent tester, test/helpers/tester.ts). The families whose suites
 * also check something else keep a test file of their own here.
 */
import { describe, it } from "vitest";
import { formatSuites, suiteTools } from "../helpers/fixtures.js";
import { tester } from "../helpers/tester.js";

const shared = suiteTools();

for (const suite of formatSuites()) {
  describe(suite.format, () => {
    for (const c of suite.cases) {
      it(c.name, () => {
        let t = tester(suite.format)
          .tools(c.tools === undefined ? (suite.tools ?? shared) : c.tools)
          .seed(c.seed ?? 1);
        if (c.tool_choice !== undefined) t = t.toolChoice(c.tool_choice);
        if (c.promptSuffix !== undefined) t = t.promptSuffix(c.promptSuffix);
        t.test(c.completion).errors(c.errors ?? []).expect(c.expect);
      });
    }
  });
}
