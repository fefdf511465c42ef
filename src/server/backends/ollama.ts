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
  // /api/generate takes text only; `format` (a JSON Schema or "json") constrains the output, no grammar.
  acceptsIds: false,
  constraints: ["json_schema", "json_object"],
  framing: "ndjson",
  request(call) {
    const options: Record<string, unknown> = {};
    putSampling(options, call.sampling, "num_predict");
    const body: Record<string, unknown> = { model: call.model, prompt: call.prompt, raw: true, stream: call.stream };
    if (Object.keys(options).length > 0) body.options = options;
    if (call.constraint?.kind === "json_schema") body.format = call.constraint.schema;
    else if (call.constraint?.kind === "json_object") body.format = "json";
    return { path: "/api/generate", body };
  },
  read(json) {
    const obj = objectOf(json, "a generation");
    const text = stringField(obj, "response", "a generation");
    if (obj.done !== true) return { text };
    return lastPiece(text, obj.done_reason === "length", obj.prompt_eval_count, obj.eval_count);
  },
};
