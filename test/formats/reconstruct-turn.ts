/**
 * Reconstruction through a family's real template: render a conversation whose last assistant message
 * has tool calls (and reasoning), cut out what the model would have written, parse it, and get the
 * calls back, one-shot and streamed code point by code point with the same result.
 *
 * What the model writes is the rendered conversation after the longest prefix it shares with the
 * generation prompt. Templates that render history differently from the generation prompt (thinking
 * disabled by default, reasoning dropped from history) diverge inside the prompt's tail, so the cut
 * backs off to a tag boundary, and the parser is told the shared prefix as the prompt's end (it may
 * have opened a reasoning block).
 */
import { join } from "node:path";
import { expect } from "vitest";
import { loadTemplate } from "../../src/template/index.js";
import { codePointPieces } from "../helpers/rng.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { assistantTurnText } from "../helpers/assistant-turn.js";
import { parseOneShot, parseStreamed } from "../helpers/run-parse.js";
import type { ParseResult } from "../../src/types.js";

export const RECON_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city.",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] },
    },
  },
  {
    type: "function",
    function: {
      name: "search",
      description: "Web search.",
      parameters: {
        type: "object",
        properties: { query: { type: "string" }, filters: { type: "object" }, exact: { type: "boolean" } },
        required: ["query"],
      },
    },
  },
];

/** Unicode, a closing-tag look-alike inside a value, typed values. */
export const RECON_CALLS = [
  { name: "get_weather", arguments: { city: "São Paulo", days: 3 } },
  { name: "search", arguments: { query: "東京 </parameter> ramen", filters: { open: true }, exact: false } },
];

export interface Reconstructed {
  format: string;
  text: string;
  promptSuffix: string;
  result: ParseResult;
}

export async function reconstruct(file: string, calls = RECON_CALLS): Promise<Reconstructed> {
  const t = await loadTemplate(join(FIXTURES, "templates", file));
  const user = { role: "user", content: "Weather in São Paulo, and ramen in Tokyo?" };
  const assistant = {
    role: "assistant",
    content: "",
    reasoning_content: "The user wants two things.",
    tool_calls: calls.map((c, i) => ({ id: `call${i}abcd`.slice(0, 9), type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
  };
  const prompt = t.render({ messages: [user], tools: RECON_TOOLS }, { addGenerationPrompt: true });
  const full = t.render({ messages: [user, assistant], tools: RECON_TOOLS }, { addGenerationPrompt: false });
  const turn = assistantTurnText(prompt, full);
  const text = turn.text;
  const promptSuffix = turn.promptSuffix ?? prompt;
  const spec = { format: t.format ?? "", request: { tools: RECON_TOOLS }, promptSuffix };
  const result = parseOneShot(spec, text);
  expect(parseStreamed(spec, codePointPieces(text)).result, `${file}: streamed equals one-shot`).toEqual(result);
  return { format: t.format ?? "", text, promptSuffix, result };
}

/** The calls of a parse as `{name, arguments}` with parsed arguments. */
export function parsedCalls(result: ParseResult): Array<{ name: string; arguments: unknown }> {
  return (result.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown }));
}
