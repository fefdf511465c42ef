/**
 * Ollama's `POST /api/generate` with `raw: true` (the prompt is used as given, no template of
 * Ollama's own): `{model, prompt, raw, stream, options}`; the answer, and each NDJSON line when
 * streaming, is `{response, done}`, the last one with `done_reason` and token counts.
 */
import { lastPiece, objectOf, putSampling, stringField } from "./read-fields.js";
import type { BackendProtocol } from "./types.js";

export const ollama: BackendProtocol = {
  kind: "ollama",
  needsModel: true,
  framing: "ndjson",
  request(call) {
    const options: Record<string, unknown> = {};
    putSampling(options, call.sampling, "num_predict");
    const body: Record<string, unknown> = { model: call.model, prompt: call.prompt, raw: true, stream: call.stream };
    if (Object.keys(options).length > 0) body.options = options;
    return { path: "/api/generate", body };
  },
  read(json) {
    const obj = objectOf(json, "a generation");
    const text = stringField(obj, "response");
    if (obj.done !== true) return { text };
    return lastPiece(text, obj.done_reason === "length", obj.prompt_eval_count, obj.eval_count);
  },
};
