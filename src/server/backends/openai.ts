/**
 * An OpenAI-compatible legacy completions endpoint, `POST /v1/completions` (vLLM, SGLang, llama.cpp,
 * LM Studio, ...): `{model, prompt, stream, ...}`; text in `choices[0].text`, `finish_reason` `stop` or
 * `length`, `usage` on the answer (and, with `stream_options.include_usage`, on a last chunk with no
 * choices). `prompt` may be an array of token ids (vLLM and SGLang use them as given).
 *
 * The plain `openai` kind sends no constraint (there is no common field). `vllm` and `sglang` are the
 * same protocol plus their engines' structured-output fields:
 * - vLLM (>= 0.10.2; the `guided_*` fields were removed in 0.12): `structured_outputs: {grammar}`,
 *   `{structural_tag}` (a JSON string), `{json}` or `{json_object: true}`. The grammar is GBNF, which
 *   xgrammar (vLLM's default) reads.
 * - SGLang: `ebnf` (its xgrammar backend reads GBNF), `response_format: {type: "structural_tag", ...}`
 *   or `json_schema` (a JSON string); one per request.
 */
import { isObject } from "../../request/is-object.js";
import { toJson } from "../json-text.js";
import { BackendError, type BackendKind, type BackendPiece, type BackendProtocol, type Constraint } from "./types.js";
import { objectOf, putSampling, stringField, usageOf } from "./read-fields.js";

type ConstraintFields = (constraint: Constraint) => Record<string, unknown>;

function completions(kind: BackendKind, constraints: readonly Constraint["kind"][], fields: ConstraintFields): BackendProtocol {
  return {
    kind,
    needsModel: true,
    acceptsIds: true,
    constraints,
    framing: "sse",
    request(call) {
      const body: Record<string, unknown> = { model: call.model, prompt: call.prompt, stream: call.stream };
      putSampling(body, call.sampling, "max_tokens");
      if (call.stream) body.stream_options = { include_usage: true };
      // vLLM and SGLang drop special tokens from the text by default, and with them markers such as
      // Mistral's `[TOOL_CALLS]`; servers without the option ignore it.
      body.skip_special_tokens = false;
      if (call.constraint !== undefined && constraints.includes(call.constraint.kind)) Object.assign(body, fields(call.constraint));
      return { path: "/v1/completions", body };
    },
    read(json) {
      const obj = objectOf(json, "a completion");
      if (!Array.isArray(obj.choices)) throw new BackendError(`the backend sent a completion without \`choices\`: ${JSON.stringify(obj).slice(0, 200)}`);
      const choice = obj.choices[0];
      if (choice !== undefined && !isObject(choice)) throw new BackendError("the backend sent a completion whose choices[0] is not an object");
      const piece: BackendPiece = { text: choice === undefined ? "" : stringField(choice, "text", "a completion choice") };
      const finish = choice?.finish_reason;
      if (typeof finish === "string") piece.stop = finish === "length" ? "length" : "stop";
      if (isObject(obj.usage)) {
        const usage = usageOf(obj.usage.prompt_tokens, obj.usage.completion_tokens);
        if (usage !== undefined) piece.usage = usage;
      }
      return piece;
    },
  };
}

export const openai = completions("openai", [], () => ({}));

function vllmFields(c: Constraint): Record<string, unknown> {
  switch (c.kind) {
    case "gbnf":
    case "lazy_gbnf":
      return { structured_outputs: { grammar: c.grammar } };
    // A JSON string (vLLM json.loads it; `structures`/`triggers` is the form both its backends read).
    case "structural_tag":
      return { structured_outputs: { structural_tag: toJson(c.tag) } };
    case "json_schema":
      return { structured_outputs: { json: c.schema } };
    case "json_object":
      return { structured_outputs: { json_object: true } };
  }
}

function sglangFields(c: Constraint): Record<string, unknown> {
  switch (c.kind) {
    case "gbnf":
    case "lazy_gbnf":
      return { ebnf: c.grammar };
    // SGLang's completions read it from response_format and pass it on as sampling_params.structural_tag.
    case "structural_tag":
      return { response_format: c.tag };
    case "json_schema":
      return { json_schema: toJson(c.schema) };
    case "json_object":
      return { json_schema: toJson({ type: "object" }) };
  }
}

export const vllm = completions("vllm", ["structural_tag", "gbnf", "json_schema", "json_object"], vllmFields);

export const sglang = completions("sglang", ["structural_tag", "gbnf", "json_schema", "json_object"], sglangFields);
