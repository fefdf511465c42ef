/**
 * The description a grammar is emitted from: a registered family by id, or a caller's own description,
 * checked against the format language first (validate-format.ts), as the parser checks it.
 */
import { getFormat } from "../formats/index.js";
import type { FormatDescription, FormatId } from "../formats/types.js";
import { validateFormat } from "../parse/validate-format.js";

export function formatOf(format: FormatId | FormatDescription): FormatDescription {
  if (typeof format === "string") return getFormat(format);
  validateFormat(format);
  return format;
}
