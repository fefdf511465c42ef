/**
 * Ollama's `POST /api/generate` with `raw: true` (the prompt is used as given, no template of
 * Ollama's own): `{model, prompt, raw, stream, options}`; the answer, and each NDJSON line when
 * streaming, is `{response, done}`, the last one with `done_reason` and token counts.
 */
import { objectOf, setDefined, stringField, usageOf } from "./read-fields.js";
import type { BackendPiece, BackendProtocol } from "./types.js";

export const ollama: BackendProtocol = {
  kind: "ollama",
  needsModel: true,
  framing: "ndjson",
  request(call) {
    const options: Record<string, unknown> = {};
    setDefined(options, "num_predict", call.sampling.maxTokens);
    setDefined(options, "temperature", call.sampling.temperature);
    setDefined(options, "top_p", call.sampling.topP);
    setDefined(options, "stop", call.sampling.stop);
    setDefined(options, "seed", call.sampling.seed);
    const body: Record<string, unknown> = { model: call.model, prompt: call.prompt, raw: true, stream: call.stream };
    if (Object.keys(options).length > 0) body.options = options;
    return { path: "/api/generate", body };
  },
  read(json) {
    const obj = objectOf(json, "a generation");
    const piece: BackendPiece = { text: stringField(obj, "response") };
    if (obj.done === true) {
      piece.stop = obj.done_reason === "length" ? "length" : "stop";
      const usage = usageOf(obj.prompt_eval_count, obj.eval_count);
      if (usage !== undefined) piece.usage = usage;
    }
    return piece;
  },
};
