/**
 * llama.cpp's native `POST /completion` (llama-server): `{prompt, n_predict, stream, ...}`; the answer,
 * and each SSE event when streaming, is `{content, stop, ...}`, the last one with `stop: true`,
 * `stop_type` (`eos` | `word` | `limit`; older servers set `stopped_limit`) and token counts.
 * `prompt` may be an array of token ids, used as given (no BOS added, no special-token parsing).
 * A lazy grammar is `grammar` with `grammar_lazy: true` and `grammar_triggers`.
 */
import { lastPiece, objectOf, putSampling, setDefined, stringField } from "./read-fields.js";
import type { BackendProtocol, GrammarTrigger } from "./types.js";

/**
 * llama-server's trigger objects (`server_grammar_trigger`): `type` is common_grammar_trigger_type,
 * 0 token (with its id), 1 word, 3 pattern_full. The server turns a word that is one token into a
 * token trigger itself, and then requires it among `preserved_tokens` (which carries every marker).
 */
function llamaTrigger(t: GrammarTrigger): Record<string, unknown> {
  if (t.kind === "pattern-full") return { type: 3, value: t.pattern };
  return t.token === undefined ? { type: 1, value: t.text } : { type: 0, value: t.text, token: t.token };
}

export const llamacpp: BackendProtocol = {
  kind: "llamacpp",
  needsModel: false,
  acceptsIds: true,
  constraints: ["gbnf", "lazy_gbnf", "json_schema", "json_object"],
  framing: "sse",
  request(call) {
    const body: Record<string, unknown> = { prompt: call.prompt, stream: call.stream, cache_prompt: true };
    putSampling(body, call.sampling, "n_predict");
    const c = call.constraint;
    if (c?.kind === "gbnf") body.grammar = c.grammar;
    else if (c?.kind === "lazy_gbnf") {
      body.grammar = c.grammar;
      body.grammar_lazy = true;
      body.grammar_triggers = c.triggers.map(llamaTrigger);
    }
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
