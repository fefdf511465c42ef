/**
 * The render benchmark's requests (issue 5): the real-looking agent request in agent-request.json (21
 * MCP-style tools, 8 messages, about 17 KB of Qwen3 prompt) and a conversation of any length built from
 * the same kind of turns, for the 400-message run and the linearity check. Deterministic.
 */
import { readFileSync } from "node:fs";

export const AGENT_REQUEST_TEXT = readFileSync(new URL("./agent-request.json", import.meta.url), "utf8");

const QUESTIONS = [
  "Which endpoints still use the v1 auth middleware?",
  "Summarise what changed in src/orders since the last release.",
  "Is the retry budget in payments configurable per merchant?",
  "Why does the nightly export job take 40 minutes now?",
  "Can you check whether the 東京 warehouse timezone is handled correctly? 🕐",
];

/** Alphanumeric 9-character ids, valid for every template in the corpus (Mistral's rule is the strictest). */
const callId = (k) => `c${String(k).padStart(8, "0")}`;

/** One agent turn: question, a single tool call, its result, an answer (4 messages). */
function turn(k) {
  const path = `src/module_${k % 17}/index.ts`;
  return [
    { role: "user", content: `${QUESTIONS[k % QUESTIONS.length]} (step ${k})` },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: callId(k), type: "function", function: { name: "filesystem__read_text_file", arguments: JSON.stringify({ path, head: 40 }) } }],
    },
    { role: "tool", tool_call_id: callId(k), content: `export function handler${k}(req: Request) {\n  return authorize(req, { scope: "orders:read" });\n}\n` },
    { role: "assistant", content: `In ${path}, handler${k} goes through \`authorize\` with the orders:read scope, so it already uses the v2 middleware.` },
  ];
}

/** A Chat Completions body with `messages` messages (system first, ending on a user message) and the agent tools. */
export function longConversation(messages, tools) {
  const out = [{ role: "system", content: "You are a careful engineering assistant working in the shop-api repository." }];
  for (let k = 0; out.length < messages; k++) out.push(...turn(k));
  out.length = messages;
  if (out.at(-1).role !== "user") out[out.length - 1] = { role: "user", content: "Thanks, please continue." };
  return { model: "bench", messages: out, tools };
}

/**
 * JSON text for a value read with chatwire's readJson: PyFloat (an integral float such as a schema's
 * `default: 1.0`) is written back as `1.0`, so Python reads the same floats chatwire does. `indent` as
 * JSON.stringify's.
 */
export function toJsonText(value, PyFloat, indent = 0) {
  const text = JSON.stringify(value, (_key, v) => (v instanceof PyFloat ? `\u0000pyfloat:${v.value}` : v), indent);
  return text.replace(/"\\u0000pyfloat:(-?\d+)"/g, "$1.0");
}
