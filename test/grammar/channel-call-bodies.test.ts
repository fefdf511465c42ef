/**
 * Channel messages whose bodies hold call regions (Muse Glimmer's `to=f<|message|><atem:function_calls>...`):
 * the grammar accepts the completions the template itself renders (fixtures/completions, after the
 * generation prompt `<|start|>assistant`), and refuses what the parser would not read back as the
 * calls it derived: a header naming another tool than its region calls, a call that tool_choice
 * forbids, two messages without the body end between them, call markup in a content message.
 * Membership is decided by the independent Earley recogniser over the printed grammar text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildGbnf } from "../../src/grammar/index.js";
import { signalSource } from "../../src/server/backends/watchdog.js";
import { chooseConstraint } from "../../src/server/request-constraint.js";
import { requestGrammars } from "../../src/server/request-grammar.js";
import { loadTemplate } from "../../src/template/index.js";
import { getFormat } from "../../src/formats/index.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import { caseTools, completionFiles, FIXTURES } from "../helpers/fixtures.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";

const FILE = completionFiles().find((f) => f.format === "muse-glimmer")!;
const TOOLS = FILE.tools;
const SUFFIX = "<|start|>assistant";

/** `promptSuffix` null: no suffix (the output is assumed to start inside a header, `startsInHeader`). */
function accepts(request: Record<string, unknown>, text: string, promptSuffix: string | null = SUFFIX): boolean {
  return new GbnfRecognizer(buildGbnf("muse-glimmer", request, promptSuffix === null ? {} : { promptSuffix })).accepts(text);
}

const call = (to: string, name: string, params: string): string =>
  `<|start|>assistant to=${to}<|message|><atem:function_calls>\n<atem:invoke name="${name}">\n${params}</atem:invoke>\n</atem:function_calls>`;
const CITY = '<atem:parameter name="city">Paris</atem:parameter>\n';

describe("Muse Glimmer: the grammar writes what its template renders", () => {
  const rendered = FILE.cases.filter((c) => c.name.includes("rendered by muse-glimmer.jinja"));
  it("has rendered cases (calls and a plain answer)", () => expect(rendered.length).toBeGreaterThanOrEqual(3));
  for (const c of rendered) {
    it(c.name, () => {
      expect(c.promptSuffix).toBe(SUFFIX);
      expect(accepts({ tools: caseTools(FILE, c) }, c.completion)).toBe(true);
    });
  }

  it("without a prompt suffix the output writes the whole first header", () => {
    const text = call("get_weather", "get_weather", CITY).slice("<|start|>".length);
    expect(accepts({ tools: TOOLS }, text, null)).toBe(true);
    expect(accepts({ tools: TOOLS }, text.slice("assistant".length), null)).toBe(false);
  });

  it("refuses what the parser would not read back as the derived calls", () => {
    const weather = call("get_weather", "get_weather", CITY).slice(SUFFIX.length);
    expect(accepts({ tools: TOOLS }, weather)).toBe(true);
    // A header naming another tool than the call in its region.
    expect(accepts({ tools: TOOLS }, call("search", "get_weather", CITY).slice(SUFFIX.length))).toBe(false);
    // Two messages need the body end between them; `<|eom|>` cannot end the turn.
    expect(accepts({ tools: TOOLS }, weather + call("get_weather", "get_weather", CITY))).toBe(false);
    expect(accepts({ tools: TOOLS }, `${weather}<|eom|>${call("get_weather", "get_weather", CITY)}<|eot|>`)).toBe(true);
    expect(accepts({ tools: TOOLS }, `${weather}<|eom|>`)).toBe(false);
    // Call markup in a message to the user would be read as a call: content holds none.
    expect(accepts({ tools: TOOLS }, ` to=user<|message|><atem:function_calls>\n<atem:invoke name="get_weather">\n${CITY}</atem:invoke>\n</atem:function_calls>`)).toBe(false);
    // tool_choice: none allows no call, a named tool only its own, required no answer without one.
    expect(accepts({ tools: TOOLS, tool_choice: "none" }, weather)).toBe(false);
    expect(accepts({ tools: TOOLS, tool_choice: { type: "function", function: { name: "search" } } }, weather)).toBe(false);
    expect(accepts({ tools: TOOLS, tool_choice: "required" }, " to=user<|message|>It is sunny.<|eot|>")).toBe(false);
    expect(accepts({ tools: TOOLS, tool_choice: "required" }, ` to=self<|message|>Weather first.<|eom|>${call("get_weather", "get_weather", CITY)}`)).toBe(true);
    // One call at most when parallel calls are off.
    expect(accepts({ tools: TOOLS, parallel_tool_calls: false }, `${weather}<|eom|>${call("get_weather", "get_weather", CITY)}`)).toBe(false);
  });

  it("a tool whose header the router reads as reasoning or content is left out", () => {
    const tool = (name: string) => ({ type: "function", function: { name, parameters: { type: "object", properties: { city: { type: "string" } } } } });
    // `to=self` is the reasoning channel and `to=user` the answer: no header names such a tool.
    for (const name of ["self", "user"]) {
      expect(accepts({ tools: [...TOOLS, tool(name)] }, call(name, name, CITY).slice(SUFFIX.length)), name).toBe(false);
      expect(compileFormat(getFormat("muse-glimmer")).channels!.route(`assistant to=${name}`).to, name).not.toMatch(/^call/);
    }
  });

  it("serve sends the grammar of the whole output, also under auto (no lazy form, no structural tag)", async () => {
    const template = await loadTemplate({ chat_template: readFileSync(join(FIXTURES, "templates", "muse-glimmer.jinja"), "utf8"), bos_token: "" });
    const body = { messages: [{ role: "user", content: "Weather in Paris?" }], tools: TOOLS };
    const promptSuffix = template.promptSuffix(body)!;
    expect(promptSuffix.endsWith(SUFFIX)).toBe(true);
    const request = { body, format: "muse-glimmer" as const, output: getFormat("muse-glimmer"), promptSuffix };
    const sources = { accepts: ["structural_tag", "lazy_gbnf", "gbnf"] as const, grammars: requestGrammars(template, undefined), tokenizer: undefined };
    const constraint = await chooseConstraint(sources, request, undefined, signalSource(new AbortController().signal));
    expect(constraint).toEqual({ kind: "gbnf", grammar: buildGbnf("muse-glimmer", body, { promptSuffix, templateSource: template.source }) });
  });
});
