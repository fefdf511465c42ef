/**
 * llama.cpp's native `POST /completion` (llama-server): `{prompt, n_predict, stream, ...}`; the answer,
 * and each SSE event when streaming, is `{content, stop, ...}`, the last one with `stop: true`,
 * `stop_type` (`eos` | `word` | `limit`; older servers set `stopped_limit`) and token counts.
 */
import { lastPiece, objectOf, putSampling, setDefined, stringField } from "./read-fields.js";
import type { BackendProtocol } from "./types.js";

export const llamacpp: BackendProtocol = {
  kind: "llamacpp",
  needsModel: false,
  framing: "sse",
  request(call) {
    const body: Record<string, unknown> = { prompt: call.prompt, stream: call.stream, cache_prompt: true };
    putSampling(body, call.sampling, "n_predict");
    setDefined(body, "grammar", call.grammar);
    // Without this llama-server prints special tokens (`<tool_call>` in some vocabularies, Mistral's
    // `[TOOL_CALLS]`) as nothing, and the parser would never see the call. Markers that are not one
    // token in the model's vocabulary are ignored by the server.
    if (call.preservedTokens.length > 0) body.preserved_tokens = call.preservedTokens;
    return { path: "/completion", body };
  },
  read(json) {
    const obj = objectOf(json, "a completion");
    const text = stringField(obj, "content");
    if (obj.stop !== true) return { text };
    return lastPiece(text, obj.stop_type === "limit" || obj.stopped_limit === true, obj.tokens_evaluated, obj.tokens_predicted);
  },
};
