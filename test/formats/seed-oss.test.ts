/**
 * seed-oss: ByteDance Seed-OSS. Each case runs one-shot, code point by code point and at random cuts;
 * the reconstruction renders calls through the real template and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { location: { type: "string" }, unit: { type: "string" }, days: { type: "integer" } }, required: ["location"], additionalProperties: false },
    },
  },
  { type: "function", function: { name: "run_sql", parameters: { type: "object", properties: { query: { type: "string" }, dry_run: { type: "boolean" } }, required: ["query"] } } },
];

const t = tester("seed-oss").tools(TOOLS);

describe("seed-oss completions", () => {
  it("reasoning with budget notes, then a call", () => {
    t.test(
      "<seed:think>Need the weather.<seed:cot_budget_reflect>Used 20 tokens.</seed:cot_budget_reflect> Call it.</seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n<parameter=days>2</parameter>\n</function>\n</seed:tool_call>",
    ).expect({
      content: null,
      reasoning_content: "Need the weather.<seed:cot_budget_reflect>Used 20 tokens.</seed:cot_budget_reflect> Call it.",
      tool_calls: [{ name: "get_weather", arguments: { location: "Barcelona, Spain", days: 2 } }],
    });
  });

  it("text before, parallel calls, unicode", () => {
    t.test(
      "Checking both.\n<seed:tool_call>\n<function=get_weather>\n<parameter=location>北京</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=get_weather>\n<parameter=location>Kraków</parameter>\n<parameter=unit>°C</parameter>\n</function>\n</seed:tool_call>",
    ).expect({
      content: "Checking both.\n",
      tool_calls: [
        { name: "get_weather", arguments: { location: "北京" } },
        { name: "get_weather", arguments: { location: "Kraków", unit: "°C" } },
      ],
    });
  });

  it("a multi-line SQL value with quotes and a closing-tag look-alike, typed boolean", () => {
    const q = "SELECT '</parameter>' AS tag,\n  name FROM users WHERE name = 'John \"Doe\"'";
    t.test(`<seed:tool_call>\n<function=run_sql>\n<parameter=query>${q}</parameter>\n<parameter=dry_run>True</parameter>\n</function>\n</seed:tool_call>`).expect({
      content: null,
      tool_calls: [{ name: "run_sql", arguments: { query: q, dry_run: true } }],
    });
  });

  it("a call then an answer after it", () => {
    t.test("<seed:tool_call>\n<function=run_sql>\n<parameter=query>SELECT 1</parameter>\n</function>\n</seed:tool_call>\nRunning the query now.").expect({
      content: "\nRunning the query now.",
      tool_calls: [{ name: "run_sql", arguments: { query: "SELECT 1" } }],
    });
  });

  it("no tools declared: undeclared values that are JSON are decoded", () => {
    t.tools(null)
      .test("<seed:tool_call>\n<function=calculate_sum>\n<parameter=numbers>[1, 2, 3]</parameter>\n<parameter=label>total</parameter>\n</function>\n</seed:tool_call>")
      .expect({ content: null, tool_calls: [{ name: "calculate_sum", arguments: { numbers: [1, 2, 3], label: "total" } }] });
  });

  it("additionalProperties false: an extra key fails validation, text kept", () => {
    const raw = "<seed:tool_call>\n<function=get_weather>\n<parameter=location>Paris</parameter>\n<parameter=colour>blue</parameter>\n</function>\n</seed:tool_call>";
    t.test(raw).errors([{ type: "invalid_arguments", name: "get_weather" }]).expect({ content: raw });
  });
});

describe("seed-oss reconstruction through the real template", () => {
  it("ByteDance-Seed-OSS.jinja", async () => {
    const r = await reconstruct("ByteDance-Seed-OSS.jinja");
    expect(r.format).toBe("seed-oss");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.message.reasoning_content).toBe("The user wants two things.");
    expect(r.result.errors).toEqual([]);
  });
});
