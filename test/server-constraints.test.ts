/**
 * The exact constraint field each backend kind gets for a request with tools (docs/server.md,
 * "Constraints"), through the server against stand-in backends: under `tool_choice: "auto"`
 * llama-server gets a lazy grammar (`grammar` + `grammar_lazy` + `grammar_triggers`, a one-token
 * marker as a token trigger with its id), vLLM `structured_outputs.structural_tag` (a JSON string) and
 * SGLang `response_format` of type structural_tag; under `required` or a named tool each gets the
 * grammar of the whole output in its grammar field.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildGbnf, buildLazyGbnf, buildStructuralTag } from "../src/grammar/index.js";
import { startServer, vocabPrompts, type PromptTokenizer, type RunningServer } from "../src/server/index.js";
import { loadTemplate, type ChatTemplate } from "../src/template/index.js";
import type { TokenizerJson } from "../src/tokens/index.js";
import { fakeBackend, type FakeBackend, type Kind } from "./server-fakes.js";

const tokenizerJson = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/tokenizer.json", import.meta.url), "utf8")) as TokenizerJson;
const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const ASK = { messages: [{ role: "user", content: "weather in Paris?" }], tools: TOOLS };

let qwen3: ChatTemplate;
let tokenizer: PromptTokenizer;
beforeAll(async () => {
  qwen3 = await loadTemplate("qwen3");
  tokenizer = await vocabPrompts(tokenizerJson, "tokenizer.json fixture");
});

async function sent(kind: Kind, body: Record<string, unknown>, template = qwen3, vocab = tokenizer): Promise<{ body: Record<string, unknown>; prompt: string }> {
  const backend: FakeBackend = await fakeBackend(kind, { completion: "It is sunny." });
  const server: RunningServer = await startServer({ template, backend: backend.url, backendKind: kind, port: 0, model: "m", tokenizer: vocab, backendTimeoutMs: 3000 });
  try {
    const r = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
    expect(r.status).toBe(200);
    const got = backend.received.find((x) => x.path !== "/tokenize");
    return { body: got!.body, prompt: template.render(body) };
  } finally {
    await server.close();
    await backend.close();
  }
}

const suffix = (prompt: string): string => prompt.slice(-64);
const CONSTRAINT_FIELDS = ["grammar", "grammar_lazy", "grammar_triggers", "json_schema", "structured_outputs", "ebnf", "response_format"];
const constraintFields = (b: Record<string, unknown>): string[] => Object.keys(b).filter((k) => CONSTRAINT_FIELDS.includes(k)).sort();

describe("tool_choice auto: what each engine does best", () => {
  it("llamacpp: a lazy grammar whose trigger waits for the reasoning to close (hermes has <think>)", async () => {
    const { body, prompt } = await sent("llamacpp", ASK);
    const lazy = buildLazyGbnf("hermes", ASK, { promptSuffix: suffix(prompt), templateSource: qwen3.source })!;
    expect(constraintFields(body)).toEqual(["grammar", "grammar_lazy", "grammar_triggers"]);
    expect(body.grammar).toBe(lazy.grammar);
    expect(body.grammar_lazy).toBe(true);
    // llama.cpp's common_grammar_trigger_type 3, pattern_full; the grammar starts at the call marker.
    expect(body.grammar_triggers).toEqual([{ type: 3, value: "^(?:\\s*(?:<think>)[\\s\\S]*?(?:</think>))?(?:(?!(?:<think>))[\\s\\S])*?(<tool_call>)[\\s\\S]*$" }]);
    expect(body.grammar).toMatch(/^root ::= answer$/m);
    expect(body.preserved_tokens).toEqual(expect.arrayContaining(["<tool_call>", "</tool_call>"]));
  });

  it("llamacpp: a one-token marker is a token trigger with its id, other markers words", async () => {
    const jamba = await loadTemplate(fileURLToPath(new URL("../fixtures/templates/ai21labs-AI21-Jamba-Mini-1.7.jinja", import.meta.url)));
    // The fixture vocabulary with `<tool_calls>` as one added token (Jamba's is special).
    const withMarker = structuredClone(tokenizerJson) as TokenizerJson & { added_tokens: Record<string, unknown>[] };
    withMarker.added_tokens.push({ id: 3100, content: "<tool_calls>", single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
    const one = await sent("llamacpp", ASK, jamba, await vocabPrompts(withMarker, "fixture + <tool_calls>"));
    expect(one.body.grammar_lazy).toBe(true);
    expect(one.body.grammar_triggers).toEqual([{ type: 0, value: "<tool_calls>", token: 3100 }]);
    expect(String(one.body.grammar)).toMatch(/^call-region ::= "<tool_calls>" /m);
    // Without that token the marker is several tokens: a word (type 1), which the server matches in text.
    const many = await sent("llamacpp", ASK, jamba);
    expect(many.body.grammar_triggers).toEqual([{ type: 1, value: "<tool_calls>" }]);
  });

  it("vllm: structured_outputs.structural_tag, the structural tag as a JSON string", async () => {
    const { body } = await sent("vllm", ASK);
    expect(constraintFields(body)).toEqual(["structured_outputs"]);
    const field = (body.structured_outputs as { structural_tag: unknown }).structural_tag;
    expect(typeof field).toBe("string");
    expect(JSON.parse(field as string)).toEqual(buildStructuralTag("hermes", ASK));
    expect(JSON.parse(field as string)).toMatchObject({ type: "structural_tag", triggers: ["<tool_call>"], structures: [{ begin: '<tool_call>\n{"name": "get_weather", "arguments": ' }] });
  });

  it("sglang: response_format of type structural_tag", async () => {
    const { body } = await sent("sglang", ASK);
    expect(constraintFields(body)).toEqual(["response_format"]);
    expect(body.response_format).toEqual(buildStructuralTag("hermes", ASK));
  });

  it("vllm and sglang: a format with no structural tag gets the GBNF grammar instead", async () => {
    const coder = await loadTemplate(fileURLToPath(new URL("../fixtures/templates/Qwen3-Coder.jinja", import.meta.url)));
    const v = await sent("vllm", ASK, coder);
    expect((v.body.structured_outputs as { grammar: string }).grammar).toBe(buildGbnf("qwen3-coder", ASK, { promptSuffix: suffix(v.prompt), templateSource: coder.source }));
    const s = await sent("sglang", ASK, coder);
    expect(s.body.ebnf).toBe(buildGbnf("qwen3-coder", ASK, { promptSuffix: suffix(s.prompt), templateSource: coder.source }));
  });
});

describe("gpt-oss (harmony, a channel format)", () => {
  // gpt-oss's template reads each tool's description.
  const ask = { ...ASK, tools: [{ type: "function", function: { ...TOOLS[0]!.function, description: "The weather in a city." } }] };
  it("llamacpp under auto: a lazy grammar triggered at the call header; vllm: the whole output's grammar (no structural tag)", async () => {
    const oss = await loadTemplate(fileURLToPath(new URL("../fixtures/templates/openai-gpt-oss-120b.jinja", import.meta.url)));
    const l = await sent("llamacpp", ask, oss);
    expect(suffix(l.prompt).endsWith("<|start|>assistant")).toBe(true);
    const lazy = buildLazyGbnf("harmony", ask, { promptSuffix: suffix(l.prompt), templateSource: oss.source })!;
    expect(constraintFields(l.body)).toEqual(["grammar", "grammar_lazy", "grammar_triggers"]);
    expect(l.body.grammar).toBe(lazy.grammar);
    expect(l.body.grammar_triggers).toEqual([{ type: 1, value: "<|channel|>commentary to=functions." }]);
    const v = await sent("vllm", ask, oss);
    const full = buildGbnf("harmony", ask, { promptSuffix: suffix(v.prompt), templateSource: oss.source });
    expect(v.body.structured_outputs).toEqual({ grammar: full });
    // The first message continues the prompt's `<|start|>assistant`.
    expect(full).toMatch(/^call-message-first ::= "<\|channel\|>commentary to=functions.get_weather <\|constrain\|>json" "<\|message\|>" /m);
  });
});

describe("tool_choice required or a named tool: the grammar of the whole output", () => {
  const named = { ...ASK, tool_choice: { type: "function", function: { name: "get_weather" } } };
  for (const body of [{ ...ASK, tool_choice: "required" }, named]) {
    const label = typeof body.tool_choice === "string" ? body.tool_choice : "named";
    it(`${label}: llamacpp grammar (not lazy), vllm structured_outputs.grammar, sglang ebnf`, async () => {
      const l = await sent("llamacpp", body);
      const full = buildGbnf("hermes", body, { promptSuffix: suffix(l.prompt), templateSource: qwen3.source });
      expect(constraintFields(l.body)).toEqual(["grammar"]);
      expect(l.body.grammar).toBe(full);
      const v = await sent("vllm", body);
      expect(v.body.structured_outputs).toEqual({ grammar: full });
      const s = await sent("sglang", body);
      expect(constraintFields(s.body)).toEqual(["ebnf"]);
      expect(s.body.ebnf).toBe(full);
    });
  }
});
