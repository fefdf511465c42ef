/**
 * The core of template loading (no file access, so it bundles for browsers) and the ChatTemplate
 * that renders and parses. template/index.ts adds loading from paths for Node.
 */
import { ChatwireError } from "../errors.js";
import { builtinNames, builtinTemplate } from "./builtins.js";
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
}

/**
 * The core loader: a built-in template name or an in-memory config. In Node, the package's root
 * export is the Node entry (src/node.ts), whose loadTemplate also takes paths; this one says so when
 * given something that is not a built-in name.
 */
export async function loadTemplate(source: TemplateSource, options: LoadOptions = {}): Promise<ChatTemplate> {
  if (typeof source === "string") {
    const builtin = builtinTemplate(source);
    if (builtin !== undefined) return new ChatTemplate(builtin, options);
    throw new ChatwireError(
      "io_error",
      `${source}: not a built-in template (${builtinNames().join(", ")}); files, model folders and .gguf files load only in Node ` +
        "(the \"node\" export of chatwire), elsewhere pass { chat_template, bos_token?, eos_token? }",
    );
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
