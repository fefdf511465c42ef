/**
 * Cohere Command R / R+ (CohereForAI-c4ai-command-r-plus-tool_use.jinja): text, then
 * `Action:\n```json\n[\n    {\n        "tool_name": "f",\n        "parameters": {...}\n    }\n]```` (a JSON list of
 * actions in a fence); a turn ends with `<|END_OF_TURN_TOKEN|>`. To answer without tools the model calls
 * `directly-answer`, which is an ordinary (usually undeclared) tool name here.
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
      payload: { kind: "json-calls", nameKeys: ["tool_name", "name"], argsKeys: ["parameters", "arguments"] },
    },
  ],
  ignore: ["<|END_OF_TURN_TOKEN|>"],
});
