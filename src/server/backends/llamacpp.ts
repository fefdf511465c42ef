/**
 * llama.cpp's native `POST /completion` (llama-server): `{prompt, n_predict, stream, ...}`; the answer,
 * and each SSE event when streaming, is `{content, stop, ...}`, the last one with `stop: true`,
 * `stop_type` (`eos` | `word` | `limit`; older servers set `stopped_limit`) and token counts.
 * `prompt` may be an array of token ids, used as given (no BOS added, no special-token parsing).
 */
import { lastPiece, objectOf, putSampling, setDefined, stringField } from "./read-fields.js";
import type { BackendProtocol } from "./types.js";

export const llamacpp: BackendProtocol = {
  kind: "llamacpp",
  needsModel: false,
  acceptsIds: true,
  constraints: ["gbnf", "json_schema", "json_object"],
  framing: "sse",
  request(call) {
    const body: Record<string, unknown> = { prompt: call.prompt, stream: call.stream, cache_prompt: true };
    putSampling(body, call.sampling, "n_predict");
    const c = call.constraint;
    if (c?.kind === "gbnf") body.grammar = c.grammar;
    // llama-server turns `json_schema` into its own grammar; `{}` means any JSON value.
    else if (c?.kind === "json_schema") body.json_schema = c.schema;
    else if (c?.kind === "json_object") body.json_schema = { type: "object" };
    // Without this llama-server prints special tokens (`<tool_call>` in some vocabularies, Mistral's
    // `[TOOL_CALLS]`) as nothing, and the parser would never see the call. Markers that are not one
    // token in the model's vocabulary are ignored by the server.
    if (call.preservedTokens.length > 0) body.preserved_tokens = call.preservedTokens;
    return { path: "/completion", body };
  },
  read(json) {
    const obj = objectOf(json, "a completion");
    const text = stringField(obj, "content", "a completion");
    if (obj.stop !== true) return { text };
    return lastPiece(text, obj.stop_type === "limit" || obj.stopped_limit === true, obj.tokens_evaluated, obj.tokens_predicted);
  },
};
