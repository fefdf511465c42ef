/**
 * DeepSeek's special tokens, with the spellings distills and quantised variants also produce:
 * `<｜tool▁calls▁begin｜>` (U+FF5C, U+2581), `<｜tool_calls_begin｜>`, `<｜tool calls begin｜>`.
 * (A data helper for the DeepSeek family files: it only builds strings.)
 */
export function deepseekMarkers(words: string): string[] {
  const parts = words.split(" ");
  return [`<｜${parts.join("▁")}｜>`, `<｜${parts.join("_")}｜>`, `<｜${parts.join(" ")}｜>`].filter((v, i, a) => a.indexOf(v) === i);
}

/** A marker as a pattern literal: spaces, brackets, braces and quotes escaped. */
export function literal(marker: string): string {
  return marker.replace(/[\\ [\]{}"]/g, (c) => `\\${c}`);
}
