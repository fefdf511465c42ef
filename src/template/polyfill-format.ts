/**
 * The format a polyfilled completion is written in: json-block (the calling instruction the polyfill
 * gives, docs/polyfills.md), with the reasoning markers of the template's own format. The template
 * still renders its generation prompt, and a reasoning template opens its block there (llama.cpp's
 * DeepSeek-R1 template ends `<｜Assistant｜><think>\n`): without the markers the grammar would force
 * the JSON block inside the open reasoning, and the parse would give the reasoning as content.
 */
import { getFormat } from "../formats/index.js";
import type { FormatDescription, FormatId } from "../formats/types.js";

/** One description per native format: the parser and the server keep compiled formats by identity. */
const made = new Map<FormatId, FormatDescription>();

export function polyfillFormat(native: FormatId): FormatDescription {
  const jsonBlock = getFormat("json-block");
  const reasoning = getFormat(native).reasoning;
  if (reasoning === undefined || reasoning.length === 0) return jsonBlock;
  let format = made.get(native);
  if (format === undefined) made.set(native, (format = { ...jsonBlock, reasoning }));
  return format;
}
