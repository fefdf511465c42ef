/**
 * What a template needs from a model's configuration: the chat template text (one, or several named
 * variants) and the special-token strings templates print (`bos_token`, `eos_token`, ...). The shapes
 * are those of `tokenizer_config.json`, which is also what `loadTemplate({ chat_template, ... })` takes.
 */
import { ChatwireError } from "../errors.js";
import type { ResponseSchema, ResponseTemplate } from "../response-template/types.js";
import { validateResponseTemplate } from "../response-template/validate.js";

/** The list form of `chat_template` in tokenizer_config.json: named variants. */
export interface NamedTemplate {
  name: string;
  template: string;
}

/** A special token, as a string or as a serialized AddedToken (`{"content": "<s>", ...}`). */
export type SpecialTokenValue = string | { content: string; [key: string]: unknown } | null;

/** The in-memory source form: a tokenizer_config.json-like object. */
export interface TemplateConfig {
  chat_template: string | NamedTemplate[] | Record<string, string>;
  bos_token?: SpecialTokenValue;
  eos_token?: SpecialTokenValue;
  [key: string]: unknown;
}

/** A template ready to compile: its variants by name, the special tokens, and where it came from. */
export interface LoadedTemplate {
  variants: Record<string, string>;
  specialTokens: Record<string, string>;
  /** A path, `builtin:<name>`, or `object`, for messages. */
  origin: string;
  /** Per variant read whole from a file of its own (a .jinja, or any file not JSON/GGUF): that file, so a syntax error says `file:line:column`. */
  files?: Record<string, string>;
  /** The config's `response_template` (transformers 5.x), validated; docs/response-templates.md. */
  responseTemplate?: ResponseTemplate;
  /** The config's older `response_schema` (x-regex JSON Schema), kept as data. */
  responseSchema?: ResponseSchema;
}

/**
 * The named special tokens transformers passes to every template render (its `special_tokens_map`,
 * `SPECIAL_TOKENS_ATTRIBUTES`); only the ones the config sets.
 */
const SPECIAL_TOKEN_NAMES = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"];

export function readSpecialTokens(config: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SPECIAL_TOKEN_NAMES) {
    const value = config[name];
    if (typeof value === "string") out[name] = value;
    else if (typeof value === "object" && value !== null && typeof (value as { content?: unknown }).content === "string") {
      out[name] = (value as { content: string }).content;
    }
  }
  return out;
}

/**
 * `chat_template` as a map of variants: a string is the `default` variant; the list form
 * `[{name, template}]` and the dict form transformers keeps in memory are taken by name.
 */
export function readVariants(value: unknown, origin: string): Record<string, string> {
  if (typeof value === "string") return { default: value };
  const out: Record<string, string> = {};
  // Defined, not assigned: a variant named `__proto__` must stay an own key, not replace the prototype.
  const set = (name: string, template: string) => Object.defineProperty(out, name, { value: template, enumerable: true, writable: true, configurable: true });
  if (Array.isArray(value)) {
    for (const entry of value) {
      const { name, template } = (entry ?? {}) as { name?: unknown; template?: unknown };
      if (typeof name !== "string" || typeof template !== "string") {
        throw new ChatwireError("invalid_template", `${origin}: chat_template list entries must be {name, template} strings`);
      }
      set(name, template);
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [name, template] of Object.entries(value)) {
      if (typeof template !== "string") throw new ChatwireError("invalid_template", `${origin}: chat_template.${name} must be a string`);
      set(name, template);
    }
  } else {
    throw new ChatwireError("invalid_template", `${origin}: no chat_template (expected a string or a list of {name, template})`);
  }
  if (Object.keys(out).length === 0) throw new ChatwireError("invalid_template", `${origin}: chat_template is empty`);
  return out;
}

/**
 * The response declarations a config carries: `response_template` validated as transformers' loader
 * does (an invalid one is an `invalid_template` error naming its path), `response_schema` kept as an
 * object (transformers 5.x drops it; an entry that is not an object is refused).
 */
export function readResponseSpecs(config: Record<string, unknown>, origin: string): Pick<LoadedTemplate, "responseTemplate" | "responseSchema"> {
  const out: Pick<LoadedTemplate, "responseTemplate" | "responseSchema"> = {};
  if (config.response_template !== undefined && config.response_template !== null) {
    out.responseTemplate = validateResponseTemplate(config.response_template, origin);
  }
  const schema = config.response_schema;
  if (schema !== undefined && schema !== null) {
    if (typeof schema !== "object" || Array.isArray(schema)) {
      throw new ChatwireError("invalid_template", `${origin}: response_schema: must be an object (a JSON Schema)`, { field: "response_schema" });
    }
    out.responseSchema = schema as ResponseSchema;
  }
  return out;
}

/** A loaded template from a tokenizer_config.json-like object. */
export function fromConfig(config: unknown, origin: string): LoadedTemplate {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new ChatwireError("invalid_template", `${origin}: expected an object with a chat_template field`);
  }
  const record = config as Record<string, unknown>;
  return { variants: readVariants(record.chat_template, origin), specialTokens: readSpecialTokens(record), origin, ...readResponseSpecs(record, origin) };
}
