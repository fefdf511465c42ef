/**
 * The grammars follow a declared response template when it is what parses (docs/response-templates.md,
 * "Parse"): `chatwire grammar` (gbnfForTemplate) and the server's request grammar are built from the
 * compiled declaration when the detected family does not speak it, and from the family when it does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gbnfForTemplate } from "../../src/grammar/index.js";
import { requestGrammars } from "../../src/server/request-grammar.js";
import { templateFromConfig } from "../../src/template/core.js";
import { REPO_ROOT } from "../helpers/fixtures.js";

const read = (...path: string[]) => readFileSync(join(REPO_ROOT, "fixtures", ...path), "utf8");
const QWEN = read("templates", "Qwen-Qwen2.5-7B-Instruct.jinja");
const fallback = (id: string) => JSON.parse(read("response-templates", "fallbacks.json")).templates.find((t: { id: string }) => t.id === id).response_template;
const body = { messages: [{ role: "user", content: "Time?" }], tools: [{ type: "function", function: { name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } } } } }] };

describe("grammars for a declared response template", () => {
  it("are the compiled declaration's when the family does not speak it", () => {
    // Qwen2.5's template is hermes (JSON in <tool_call>); the Qwen3.5 declaration writes XML-style calls.
    const t = templateFromConfig({ chat_template: QWEN, response_template: fallback("qwen3_5") });
    expect(t.format).toBe("hermes");
    expect(t.responseFormat?.source).toBe("declared");
    const grammar = gbnfForTemplate(t, body);
    expect(grammar.split("\n")[0]).toBe("# chatwire grammar for format response-template, tool_choice auto");
    expect(grammar).toMatch(/"<function=" *"get_time"|"<function=get_time>"/);
    const server = requestGrammars(t, undefined).full({ body, format: "hermes", output: t.outputFormat(body), promptSuffix: "<|im_start|>assistant\n" });
    expect(server?.split("\n")[0]).toBe("# chatwire grammar for format response-template, tool_choice auto");
  });

  it("are the family's when it speaks the declaration", () => {
    const t = templateFromConfig({ chat_template: QWEN, response_template: fallback("qwen2") });
    expect(t.responseFormat?.source).toBe("family");
    // The family's grammar, with the declaration's end-of-turn markers kept out of text like its own.
    expect(gbnfForTemplate(t, body).split("\n")[0]).toBe("# chatwire grammar for format hermes, tool_choice auto");
    expect(requestGrammars(t, undefined).full({ body, format: "hermes", output: t.outputFormat(body), promptSuffix: "" })?.split("\n")[0]).toBe("# chatwire grammar for format hermes, tool_choice auto");
  });
});
