/**
 * `render --tokens`: the prompt's token ids, with provenance (src/tokens): control tokens come only
 * from template text; the same text inside request data is encoded as ordinary text unless the caller
 * opts in with --special-from-data. The tokenizer is `--tokenizer FILE`, or the model folder's
 * tokenizer.json when --template is a folder.
 */
import { ChatwireError } from "../errors.js";
import type { ChatTemplate, RenderOptions } from "../template/index.js";
import { protectRequest, restorePrompt, tokenize, type TokenizerJson } from "../tokens/index.js";
import { kindOf, nodeFs, readText } from "../template/node-fs.js";
import { UsageError } from "./io.js";

export interface TokenizedPrompt {
  prompt: string;
  ids: number[];
}

/** The tokenizer.json named by --tokenizer, else the one in the --template folder. */
export async function tokenizerFor(explicit: string | undefined, templateSource: string): Promise<TokenizerJson> {
  return readTokenizer(await tokenizerPath(explicit, templateSource));
}

export function renderTokenIds(
  template: ChatTemplate,
  request: unknown,
  options: RenderOptions,
  tokenizer: TokenizerJson,
  specialFromData: boolean,
): TokenizedPrompt {
  const escaped = template.render(protectRequest(request, tokenizer), options);
  const ids = tokenize(escaped, tokenizer, { specialTokens: specialFromData ? "all" : "template" });
  return { prompt: restorePrompt(escaped, tokenizer), ids };
}

async function tokenizerPath(explicit: string | undefined, templateSource: string): Promise<string> {
  if (explicit !== undefined) return explicit;
  const { path } = await nodeFs();
  const candidate = path.join(templateSource, "tokenizer.json");
  if ((await kindOf(candidate)) !== "file") throw new UsageError("--tokens needs --tokenizer FILE (a tokenizer.json), or a model folder with one as --template");
  return candidate;
}

async function readTokenizer(file: string): Promise<TokenizerJson> {
  const text = await readText(file);
  // Plain JSON.parse: the tokenizer library wants numbers, not the PyFloat values readJson makes for templates.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== "object" || json === null || !("model" in json)) {
    throw new ChatwireError("io_error", `${file}: not a tokenizer.json (no "model")`);
  }
  try {
    tokenize("", json as TokenizerJson); // builds (and caches) the tokenizer, so a bad file fails here
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: not a usable tokenizer.json (${(err as Error).message})`);
  }
  return json as TokenizerJson;
}
