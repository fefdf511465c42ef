/**
 * The standard conversations every template is put through. Each is an OpenAI-shaped request, as users
 * send them; values are chosen so that what reaches the prompt can be found in it (MARK_* strings).
 */
export const MARK = {
  reasoning: "MARK_REASONING_EARLIER",
  toolResult: "MARK_TOOL_RESULT_7f3",
  answer: "MARK_FINAL_ANSWER",
  /** Argument values that appear nowhere else in the requests, so a printed call can be told apart. */
  city: "Ouro Preto",
  query: "ramen 東京",
} as const;

export const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city.",
      parameters: { type: "object", properties: { city: { type: "string", description: "City name" }, days: { type: "integer" } }, required: ["city"] },
    },
  },
  {
    type: "function",
    function: {
      name: "search_web",
      description: "Search the web.",
      parameters: { type: "object", properties: { query: { type: "string" }, exact: { type: "boolean" } }, required: ["query"] },
    },
  },
];

export interface BatteryCase {
  name: string;
  request: Record<string, unknown>;
  /** Render options: generation prompt (default true), continue_final_message, variables. */
  addGenerationPrompt?: boolean;
  continueFinalMessage?: boolean;
  variables?: Record<string, unknown>;
}

const user = (content: string) => ({ role: "user", content });
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });

export const WEATHER_CALL = call("call_1", "get_weather", { city: MARK.city, days: 3 });
export const SEARCH_CALL = call("call_2", "search_web", { query: MARK.query, exact: false });

/** The call conversation: a call with `content: null`, its result, and a final answer. */
export function callHistory(parallel: boolean): Record<string, unknown>[] {
  const calls = parallel ? [WEATHER_CALL, SEARCH_CALL] : [WEATHER_CALL];
  return [
    user("What is the weather like there?"),
    { role: "assistant", content: null, tool_calls: calls },
    ...calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: `${MARK.toolResult} ${i + 1}` })),
    { role: "assistant", content: MARK.answer },
    user("Thanks. And tomorrow?"),
  ];
}

export function battery(variables: readonly string[]): BatteryCase[] {
  const cases: BatteryCase[] = [
    { name: "user-only", request: { messages: [user("Hello!")] } },
    {
      name: "system-multi-turn",
      request: { messages: [{ role: "system", content: "You are terse." }, user("Hi"), { role: "assistant", content: "Hello." }, user("What is 2+2?")] },
    },
    { name: "tools-declared", request: { messages: [user("Weather in São Paulo?")], tools: TOOLS } },
    { name: "call-and-result", request: { messages: callHistory(false), tools: TOOLS } },
    { name: "parallel-calls", request: { messages: callHistory(true), tools: TOOLS } },
    {
      name: "reasoning-history",
      request: {
        messages: [user("First?"), { role: "assistant", content: "One.", reasoning_content: MARK.reasoning }, user("Second?")],
      },
    },
    {
      name: "unicode-and-floats",
      request: {
        messages: [user("Ünïcödé ✓ 東京 🕐 and a float: 1.0")],
        tools: [{ type: "function", function: { name: "scale", parameters: { type: "object", properties: { factor: { type: "number", default: 1.5 } } } } }],
      },
    },
    {
      name: "responses-input",
      request: {
        instructions: "Be brief.",
        input: [
          { role: "user", content: "Weather?" },
          { type: "function_call", call_id: "call_9", name: "get_weather", arguments: JSON.stringify({ city: "Oslo" }) },
          { type: "function_call_output", call_id: "call_9", output: "cold" },
        ],
        tools: TOOLS.map((t) => ({ type: "function", ...t.function })),
      },
    },
    { name: "no-generation-prompt", request: { messages: [user("Hello!"), { role: "assistant", content: "Hi!" }] }, addGenerationPrompt: false },
    {
      name: "continue-final-message",
      request: { messages: [user("Write a haiku."), { role: "assistant", content: "Autumn moonlight" }] },
      addGenerationPrompt: false,
      continueFinalMessage: true,
    },
  ];
  for (const name of variables) {
    for (const value of variableValues(name)) {
      cases.push({ name: `variable-${name}=${value}`, request: { messages: [user("Hello!")] }, variables: { [name]: value } });
    }
  }
  return cases;
}

/** Two values of a template variable worth rendering with: both settings of a flag, or the kind of value it takes. */
function variableValues(name: string): unknown[] {
  if (name.includes("effort")) return ["low", "high"];
  if (name === "documents") return [[{ title: "Doc", text: "MARK_DOCUMENT" }], []];
  if (name.endsWith("_tools") || name === "date_string") return [];
  return [true, false];
}
