/** Tool declarations shared by the per-format suites. */
export const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
      required: ["city"],
      additionalProperties: false,
    },
  },
};

export const SEARCH = {
  type: "function",
  function: {
    name: "search",
    parameters: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer" } },
      required: ["query"],
    },
  },
};

export const WRITE = {
  type: "function",
  function: {
    name: "write_file",
    parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  },
};

export const TOOLS = [WEATHER, SEARCH, WRITE];
