/**
 * Cohere Command R / R+ (CohereForAI-c4ai-command-r-plus-tool_use.jinja): text, then
 * `Action:\n```json\n[\n    {\n        "tool_name": "f",\n        "parameters": {...}\n    }\n]```` (a JSON list of
 * actions in a fence); a turn ends with `<|END_OF_TURN_TOKEN|>`. To answer without tools the model calls
 * `directly-answer`, which the template names as its own pseudo-tool: a call to it with empty arguments
 * is no call (Ollama's commandr parser filters it out too), unless the request declares such a tool.
 */
import { defineFormat } from "../parse/language.js";

export const commandRPlus = defineFormat({
  id: "command-r-plus",
  description: "Command R / R+: Action: ```json [{tool_name, parameters}]```",
  detect: { anyOf: [["<|CHATBOT_TOKEN|>", "Action:\\n```json"]], before: ["command-r7b"] },
  regions: [
    {
      start: ["Action:\n```json", "Action: ```json", "Action:```json"],
      end: ["```"],
      payload: { kind: "json-calls", nameKeys: ["tool_name", "name"], argsKeys: ["parameters", "arguments"], array: true },
    },
  ],
  // The template: "You should use the `directly-answer` tool if calling the other tools is unnecessary".
  pseudoTools: ["directly-answer"],
  ignore: ["<|END_OF_TURN_TOKEN|>"],
});
