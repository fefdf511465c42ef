/**
 * Loading chat templates from wherever models keep them (Node): the core (core.ts: built-in names,
 * in-memory configs, ChatTemplate) plus paths — a `.jinja` file, a `.json` with `chat_template`, a
 * model folder, a `.gguf` file — read from disk. The package's core entry (src/index.ts) uses core.ts
 * only, so it never references node:fs and bundles for browsers without stubs.
 */
import { ChatTemplate } from "./chat-template.js";
import { loadTemplate as loadCore, type LoadOptions, type TemplateSource } from "./core.js";
import { loadFromString } from "./load-path.js";

export * from "./core.js";

/**
 * A path (`.jinja` file, any `.json` file with a `chat_template` field such as tokenizer_config.json,
 * a model folder, a `.gguf` file), a built-in template name (see templates/README.md; a name is only
 * looked up when nothing exists at that path), or an in-memory `{ chat_template, bos_token?, eos_token? }`.
 */
export async function loadTemplate(source: TemplateSource, options: LoadOptions = {}): Promise<ChatTemplate> {
  if (typeof source === "string") {
    const pathOptions = options.allowExternalSymlinks === undefined ? {} : { allowExternalSymlinks: options.allowExternalSymlinks };
    return new ChatTemplate(await loadFromString(source, pathOptions), options);
  }
  return loadCore(source, options);
}
