/**
 * The request and model output `chatwire example` runs through the built-in `qwen3` template; the
 * inspector (src/inspect) opens on them too, so they sit below both.
 */
export const EXAMPLE_TEMPLATE = "qwen3";

export const EXAMPLE_REQUEST = {
  model: "qwen3",
  messages: [
    { role: "system", content: "You are a helpful assistant. Use the tools when they help." },
    { role: "user", content: "What's the weather like in Paris right now?" },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "Get the current weather for a city.",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name, e.g. Paris" },
            unit: { type: "string", enum: ["celsius", "fahrenheit"] },
          },
          required: ["city"],
          additionalProperties: false,
        },
      },
    },
  ],
};

/** What Qwen3 writes for this prompt: reasoning, then a Hermes-style tool call. */
export const EXAMPLE_COMPLETION =
  "<think>\nThe user wants the current weather in Paris. I should call get_weather with city Paris.\n</think>\n\n" +
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>';
