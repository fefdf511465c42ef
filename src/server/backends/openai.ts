/**
 * An OpenAI-compatible legacy completions endpoint, `POST /v1/completions` (vLLM, SGLang, llama.cpp,
 * LM Studio, ...): `{model, prompt, stream, ...}`; text in `choices[0].text`, `finish_reason` `stop` or
 * `length`, `usage` on the answer (and, with `stream_options.include_usage`, on a last chunk with no
 * choices).
 */
import { isObject } from "../../request/is-object.js";
import { objectOf, putSampling, stringField, usageOf } from "./read-fields.js";
import type { BackendPiece, BackendProtocol } from "./types.js";

export const openai: BackendProtocol = {
  kind: "openai",
  needsModel: true,
  framing: "sse",
  request(call) {
    const body: Record<string, unknown> = { model: call.model, prompt: call.prompt, stream: call.stream };
    putSampling(body, call.sampling, "max_tokens");
    if (call.stream) body.stream_options = { include_usage: true };
    // vLLM and SGLang drop special tokens from the text by default, and with them markers such as
    // Mistral's `[TOOL_CALLS]`; servers without the option ignore it.
    body.skip_special_tokens = false;
    return { path: "/v1/completions", body };
  },
  read(json) {
    const obj = objectOf(json, "a completion");
    const choice = Array.isArray(obj.choices) && isObject(obj.choices[0]) ? obj.choices[0] : undefined;
    const piece: BackendPiece = { text: choice === undefined ? "" : stringField(choice, "text") };
    const finish = choice?.finish_reason;
    if (typeof finish === "string") piece.stop = finish === "length" ? "length" : "stop";
    if (isObject(obj.usage)) {
      const usage = usageOf(obj.usage.prompt_tokens, obj.usage.completion_tokens);
      if (usage !== undefined) piece.usage = usage;
    }
    return piece;
  },
};
