/**
 * Loading chat templates from wherever models keep them, and the ChatTemplate that renders and parses.
 */
import { ChatwireError } from "../errors.js";
import { ChatTemplate } from "./chat-template.js";
import { fromConfig, type TemplateConfig } from "./config.js";

/**
 * A path (`.jinja` file, any `.json` file with a `chat_template` field such as tokenizer_config.json,
 * a model folder, a `.gguf` file), a built-in template name (see templates/README.md), or an in-memory
 * `{ chat_template, bos_token?, eos_token? }` (chat_template may be the `[{name, template}]` list form).
 * A bare string is never taken as Jinja text: use the object form for that.
 */
export type TemplateSource = string | TemplateConfig;

export interface LoadOptions {
  /** Use this named variant (`tool_use`, `rag`, ...) for every request instead of transformers' choice. */
  templateName?: string;
  /**
   * Follow symbolic links in a model folder that lead out of it. Default false: such a link is an
   * `io_error` (links inside the folder, and a Hugging Face cache snapshot's links to its blobs, are fine).
   */
  allowExternalSymlinks?: boolean;
}

export async function loadTemplate(source: TemplateSource, options: LoadOptions = {}): Promise<ChatTemplate> {
  if (typeof source === "string") {
    const { loadFromString } = await import("./load-path.js");
    const pathOptions = options.allowExternalSymlinks === undefined ? {} : { allowExternalSymlinks: options.allowExternalSymlinks };
    return new ChatTemplate(await loadFromString(source, pathOptions), options);
  }
  if (typeof source !== "object" || source === null) {
    throw new ChatwireError("invalid_template", "a template source must be a path, a built-in name or { chat_template }");
  }
  return new ChatTemplate(fromConfig(source, "object"), options);
}

/** Synchronous form for in-memory templates (no file access). */
export function templateFromConfig(config: TemplateConfig, options: LoadOptions = {}): ChatTemplate {
  return new ChatTemplate(fromConfig(config, "object"), options);
}

export { ChatTemplate } from "./chat-template.js";
export type { RenderOptions, TemplateParseOptions } from "./chat-template.js";
export type { TemplateCaps } from "./caps.js";
export type { PolyfillMode } from "./polyfill.js";
export type { TemplateConfig, NamedTemplate, SpecialTokenValue } from "./config.js";
export { listBuiltins } from "./builtins.js";
export type { BuiltinInfo } from "./builtins.js";
