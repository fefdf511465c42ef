/**
 * llama.cpp's native `POST /completion` (llama-server): `{prompt, n_predict, stream, ...}`; the answer,
 * and each SSE event when streaming, is `{content, stop, ...}`, the last one with `stop: true`,
 * `stop_type` (`eos` | `word` | `limit`; older servers set `stopped_limit`) and token counts.
 */
import { objectOf, setDefined, stringField, usageOf } from "./read-fields.js";
import type { BackendPiece, BackendProtocol } from "./types.js";

export const llamacpp: BackendProtocol = {
  kind: "llamacpp",
  needsModel: false,
  framing: "sse",
  request(call) {
    const body: Record<string, unknown> = { prompt: call.prompt, stream: call.stream, cache_prompt: true };
    setDefined(body, "n_predict", call.sampling.maxTokens);
    setDefined(body, "temperature", call.sampling.temperature);
    setDefined(body, "top_p", call.sampling.topP);
    setDefined(body, "stop", call.sampling.stop);
    setDefined(body, "seed", call.sampling.seed);
    setDefined(body, "grammar", call.grammar);
    // Without this llama-server prints special tokens (`<tool_call>` in some vocabularies, Mistral's
    // `[TOOL_CALLS]`) as nothing, and the parser would never see the call. Markers that are not one
    // token in the model's vocabulary are ignored by the server.
    if (call.preservedTokens.length > 0) body.preserved_tokens = call.preservedTokens;
    return { path: "/completion", body };
  },
  read(json) {
    const obj = objectOf(json, "a completion");
    const piece: BackendPiece = { text: stringField(obj, "content") };
    if (obj.stop === true) {
      piece.stop = obj.stop_type === "limit" || obj.stopped_limit === true ? "length" : "stop";
      const usage = usageOf(obj.tokens_evaluated, obj.tokens_predicted);
      if (usage !== undefined) piece.usage = usage;
    }
    return piece;
  },
};
