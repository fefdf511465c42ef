/**
 * `chatwire check`'s response-template finding (issue 20, step 5): the chat template renders calls and
 * an answer, the config's declared response template parses them back, and the finding says whether it
 * reads them and where it and the detected family disagree.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../src/check/index.js";
import { templateFromConfig } from "../../src/template/core.js";
import { REPO_ROOT } from "../helpers/fixtures.js";

const read = (...path: string[]) => readFileSync(join(REPO_ROOT, "fixtures", ...path), "utf8");
const QWEN = read("templates", "Qwen-Qwen2.5-7B-Instruct.jinja");
const fallback = (id: string) => JSON.parse(read("response-templates", "fallbacks.json")).templates.find((t: { id: string }) => t.id === id).response_template;
const tested = (id: string) => JSON.parse(read("response-templates", "transformers-tests.json")).templates.find((t: { id: string }) => t.id === id).response_template;

async function findings(config: Record<string, unknown>) {
  const report = await checkTemplate(templateFromConfig({ chat_template: QWEN, ...config }));
  return { report, found: report.findings.filter((f) => f.check === "response-template") };
}

describe("the response-template check", () => {
  it("is an info when the declaration reads back what the chat template prints, as the family does", async () => {
    const { report, found } = await findings({ response_template: fallback("qwen2") });
    expect(report.summary.checks).toContain("response-template");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: "info" });
    expect(found[0]!.message).toMatch(/reads back the calls and the answer .*, as the family hermes does \(chatwire parses with the family hermes: /);
  });

  it("says which calls a declaration misreads, and where it and the family disagree", async () => {
    // A declaration for another syntax: its calls open with <function_call>, which the template never prints.
    const wrong = {
      start_anchor: "<|im_start|>assistant\n",
      fields: {
        tool_calls: { open: "<function_call>", close: "</function_call>", content: "json", repeats: true, transform: { type: "function", function: "{content}" } },
        content: { close: "<|im_end|>" },
      },
    };
    const { found } = await findings({ response_template: wrong });
    expect(found).toHaveLength(1);
    // chatwire parses with that declaration (hermes does not speak it), so misread calls are an error.
    expect(found[0]!.severity).toBe("error");
    expect(found[0]!.message).toMatch(/one call: the declaration reads \[\] from the turn/);
    expect(found[0]!.message).toMatch(/one call: calls by the declaration \[\], by the family hermes \[\{"name":"get_weather"/);
    expect(found[0]!.message).toMatch(/chatwire parses with the compiled declaration/);
  });

  it("reports a declaration that does not compile, with its refusals", async () => {
    const { found } = await findings({ response_template: tested("ernie") });
    expect(found).toEqual([
      expect.objectContaining({ severity: "warning", message: expect.stringMatching(/^the config's response_template does not compile \(response_template\.fields\.thinking\.open_pattern: .*: completions are parsed with the detected family hermes$/) }),
    ]);
  });

  it("is not run for a config without one", async () => {
    const { report, found } = await findings({});
    expect(found).toEqual([]);
    expect(report.summary.checks).not.toContain("response-template");
  });
});
