/** The cut the reconstruction suites make, shared with `chatwire check` (src/check/assistant-turn.ts). */
export { assistantTurnText, type AssistantTurn } from "../../src/check/assistant-turn.js";
