/**
 * `chatwire check --template SRC [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]`: the
 * conformance report of src/check (docs/check.md). Exit code 1 when a check fails, 0 with warnings
 * only, 2 for bad usage.
 */
import { checkTemplate, formatReport, type CheckOptions, type CheckTokenizer } from "../check/index.js";
import { getFormat } from "../formats/index.js";
import { loadTokenizer } from "../tokens/tokenizer-json.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS, type Options } from "./args.js";
import { pythonReference } from "./check-reference.js";
import type { CliIO } from "./io.js";
import { tokenizerFor } from "./tokens.js";

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
  if (values.tokenizer !== undefined) options.tokenizer = checkTokenizer(await tokenizerFor(values.tokenizer, values.template ?? ""));
  if (values.reference !== undefined) options.reference = pythonReference(values.reference);
  const report = await checkTemplate(template, options);
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.summary.errors > 0 ? 1 : 0;
}

/** The check's view of a tokenizer.json: encode as a backend does for template text, its added tokens, BOS added by itself. */
function checkTokenizer(json: Parameters<typeof loadTokenizer>[0]): CheckTokenizer {
  const tok = loadTokenizer(json);
  const addedTokens = new Map((json.added_tokens ?? []).map((t) => [t.content, { id: t.id, special: t.special === true }]));
  const withSpecial = tok.full.encode("a", { add_special_tokens: true }).ids;
  const plain = tok.full.encode("a", { add_special_tokens: false }).ids;
  const first = withSpecial[0];
  const addsBos = withSpecial.length > plain.length && first !== undefined && first !== plain[0];
  return {
    encode: (text) => tok.full.encode(text, { add_special_tokens: false }).ids,
    addedTokens,
    ...(addsBos ? { addedBosId: first } : {}),
  };
}
