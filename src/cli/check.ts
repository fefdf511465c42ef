/**
 * `chatwire check --template SRC [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]`: the
 * conformance report of src/check (docs/check.md). Exit code 1 when a check fails, 0 with warnings
 * only, 2 for bad usage.
 */
import { checkTemplate, formatReport, type CheckOptions, type CheckTokenizer } from "../check/index.js";
import { getFormat } from "../formats/index.js";
import { isObject } from "../request/is-object.js";
import { readText } from "../template/node-fs.js";
import { loadTokenizer, parseTokenizerJson } from "../tokens/index.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS, type Options } from "./args.js";
import { pythonReference } from "./check-reference.js";
import type { CliIO } from "./io.js";

export const CHECK_USAGE = "chatwire check --template SRC [--template-name NAME] [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]";

export const CHECK_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  tokenizer: { type: "string" },
  format: { type: "string" },
  json: { type: "boolean" },
  reference: { type: "string" },
} as const satisfies Options;

export async function checkCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, CHECK_OPTIONS);
  const template = await templateFrom(values);
  const options: CheckOptions = {};
  if (values.format !== undefined) options.format = getFormat(values.format).id;
  if (values.tokenizer !== undefined) options.tokenizer = await checkTokenizer(values.tokenizer);
  if (values.reference !== undefined) options.reference = pythonReference(values.reference);
  const report = await checkTemplate(template, options);
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.summary.errors > 0 ? 1 : 0;
}

/**
 * The check's view of the model's tokenizer: encode as a backend does for template text (special-token
 * text parsed), its added tokens, and the BOS its post-processor adds by itself (tokenizer.json files).
 */
async function checkTokenizer(path: string): Promise<CheckTokenizer> {
  // A tokenizer.json is read and parsed once, for the encoder and for its post-processor.
  const json = path.endsWith(".json") ? parseTokenizerJson(await readText(path), path) : undefined;
  const tok = await loadTokenizer(json ?? path);
  const addedTokens = new Map(tok.addedTokens.map((t) => [t.content, { id: t.id, special: t.special === true }] as const));
  const bos = json === undefined ? undefined : addedBos(json);
  return { encode: (text) => tok.tokenize(text, true), addedTokens, ...(bos === undefined ? {} : { addedBosId: bos }) };
}

/** The id a tokenizer.json's post-processor puts first (TemplateProcessing `single` starting with a special token). */
function addedBos(json: unknown): number | undefined {
  const pp = isObject(json) ? json.post_processor : undefined;
  const processors = isObject(pp) && pp.type === "Sequence" && Array.isArray(pp.processors) ? pp.processors : [pp];
  for (const p of processors) {
    if (!isObject(p) || p.type !== "TemplateProcessing" || !Array.isArray(p.single)) continue;
    const first: unknown = p.single[0];
    const name = isObject(first) && isObject(first.SpecialToken) ? first.SpecialToken.id : undefined;
    const entry = typeof name === "string" && isObject(p.special_tokens) ? p.special_tokens[name] : undefined;
    const ids = isObject(entry) && Array.isArray(entry.ids) ? entry.ids : undefined;
    if (typeof ids?.[0] === "number") return ids[0];
  }
  return undefined;
}
