/** `chatwire response-template`: the exported template on stdout, what it omits on stderr, refusals as errors. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import { exportResponseTemplate } from "../../src/response-template/export.js";
import { validateResponseTemplate } from "../../src/response-template/validate.js";
import { REPO_ROOT } from "../helpers/fixtures.js";
import { runCli } from "../helpers/run-cli.js";

describe("chatwire response-template", () => {
  it("prints the family's template as a tokenizer_config.json key, which chatwire's own loader accepts", async () => {
    const r = await runCli(["response-template", "--format", "hermes"]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout).response_template;
    const exported = exportResponseTemplate(getFormat("hermes"));
    expect(exported.ok && printed).toEqual(exported.ok && exported.template);
    expect(() => validateResponseTemplate(printed, "test")).not.toThrow();
    // Without a chat template the anchor is the prompt's end, keeping an opened <think>.
    expect(printed.start_anchor_pattern).toBe("\\A.*?(?=(?:<think>)?\\s*\\Z)");
  });

  it("takes the family and the assistant header from a chat template", async () => {
    const r = await runCli(["response-template", "--template", "qwen3"]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout).response_template;
    expect(printed.start_anchor).toBe("<|im_start|>assistant\n");
    expect(printed.fields.tool_calls.open).toBe("<tool_call>");
  });

  it("writes the spelling of a two-spelling region that the chat template writes", async () => {
    // LongCat's region holds JSON or GLM-style tags; LongCat-Flash-Chat's template writes JSON.
    const template = join(REPO_ROOT, "fixtures", "templates", "meituan-longcat-LongCat-Flash-Chat.jinja");
    const withTemplate = await runCli(["response-template", "--template", template]);
    expect(JSON.parse(withTemplate.stdout).response_template.fields.tool_calls.content).toBe("json");
    expect(withTemplate.stderr).toMatch(/tagged otherwise not read/);
    // Without one, the region's main spelling (the one the grammar writes).
    expect(JSON.parse((await runCli(["response-template", "--format", "longcat"])).stdout).response_template.fields.tool_calls.content).toBe("xml-inline");
  });

  it("says on stderr what the template cannot say", async () => {
    const r = await runCli(["response-template", "--format", "mistral", "--start-anchor", "[/INST]"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).response_template.start_anchor).toBe("[/INST]");
    expect(r.stderr).toMatch(/^chatwire: note: the other spellings of "\[TOOL_CALLS\]": json-calls after "\["/m);
  });

  it("refuses a family the form cannot express, with the reason", async () => {
    const r = await runCli(["response-template", "--format", "harmony"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/harmony cannot be written as a response template: channels: /);
    expect((await runCli(["response-template", "--format", "pythonic"])).stderr).toMatch(/Python call literals/);
  });

  it("needs exactly one of --format and --template", async () => {
    expect((await runCli(["response-template"])).code).toBe(2);
    expect((await runCli(["response-template", "--format", "hermes", "--template", "qwen3"])).code).toBe(2);
  });
});
