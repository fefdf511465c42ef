/** The backend kinds `chatwire serve --backend-kind` accepts. */
import { llamacpp } from "./llamacpp.js";
import { ollama } from "./ollama.js";
import { openai, sglang, vllm } from "./openai.js";
import type { BackendKind, BackendProtocol } from "./types.js";

export const PROTOCOLS: Readonly<Record<BackendKind, BackendProtocol>> = { llamacpp, openai, vllm, sglang, ollama };

export { openBackend, type TransportOptions } from "./transport.js";
export * from "./types.js";
export type { CancelSource } from "./watchdog.js";
