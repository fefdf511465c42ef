/**
 * The vocabulary that comes with a `--template` source, for the commands that need token ids (serve,
 * `render --tokens`, check): a model folder's tokenizer.json, the tokenizer.json beside a
 * tokenizer_config.json (or any .json config) named directly, or a .gguf's own vocabulary. A .jinja
 * file or a built-in name brings none.
 */
import { kindOf, nodeFs } from "./node-fs.js";

export async function tokenizerBeside(templateSource: string): Promise<string | undefined> {
  const { path } = await nodeFs();
  const kind = await kindOf(templateSource);
  if (kind === "dir") {
    const candidate = path.join(templateSource, "tokenizer.json");
    return (await kindOf(candidate)) === "file" ? candidate : undefined;
  }
  if (kind !== "file") return undefined;
  const lower = templateSource.toLowerCase();
  if (lower.endsWith(".gguf")) return templateSource;
  if (lower.endsWith(".json") && path.basename(lower) !== "tokenizer.json") {
    const candidate = path.join(path.dirname(templateSource), "tokenizer.json");
    return (await kindOf(candidate)) === "file" ? candidate : undefined;
  }
  return undefined;
}
