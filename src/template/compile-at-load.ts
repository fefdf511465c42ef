/**
 * Every variant of a template is compiled when it is loaded, not at its first render: a file that is
 * not Jinja (or has a syntax error) fails `loadTemplate` with one `invalid_template` error saying
 * where, `file:line:column` for a template read whole from a file (a .jinja, a model folder's
 * chat_template.jinja, any file that is not JSON or GGUF), else the variant and its line and column, instead of
 * loading, being detected as some format, and raising the same error on every render. The compiled
 * program is cached by source text (src/jinja), so the first render pays nothing more.
 */
import { ChatwireError } from "../errors.js";
import { compileTemplate } from "../jinja/index.js";
import { lineColumn } from "../text-position.js";

export function compileAtLoad(origin: string, variant: string, source: string, file: string | undefined): void {
  try {
    compileTemplate(source);
  } catch (err) {
    if (!(err instanceof ChatwireError) || err.code !== "invalid_template") throw err;
    const message = err.message.replace(/ \(at offset \d+\)$/, "");
    if (err.position === undefined) throw new ChatwireError("invalid_template", `${origin}: ${message}`);
    const { line, column } = lineColumn(source, err.position);
    const where = file !== undefined ? `${file}:${line}:${column}` : `${origin}: chat template ${JSON.stringify(variant)}, line ${line}, column ${column}`;
    throw new ChatwireError("invalid_template", `${where}: ${message}`, { position: err.position });
  }
}
