/**
 * The string literals of a JSON text that hold an escape, decoded. A JSON string can hold `"`, `\` or a
 * control character only through an escape, so every other string read from the text is one tojson
 * prints as it is between its quotes (readSharedJson hands the list to tojson with the values it read).
 */
import { stringEnd } from "./read-json.js";

/**
 * Past this many backslashes (or literals holding them) no list is made: each literal costs a parse,
 * and each string tojson prints a look through the list. A tool list has a few (issue 19's has 4 in
 * one description); a conversation has hundreds, found out after this many native searches.
 */
const MAX_BACKSLASHES = 32;
const MAX_LITERALS = 8;
/**
 * Nor when one is longer than this: the list holds a copy of each (as long as the values are not
 * printed, or kept by readSharedJson), and a tool's strings are short; a long one is a message.
 */
const MAX_LITERAL_CHARS = 4096;

/**
 * The decoded values of the string literals of `text` (valid JSON) that hold a backslash, or undefined
 * when it has more than MAX_BACKSLASHES backslashes or MAX_LITERALS such literals, or one is longer
 * than MAX_LITERAL_CHARS.
 */
export function escapedLiterals(text: string): string[] | undefined {
  let count = 0;
  for (let at = text.indexOf("\\"); at >= 0; at = text.indexOf("\\", at + 2)) {
    if (++count > MAX_BACKSLASHES) return undefined;
  }
  const found: string[] = [];
  for (let at = text.indexOf("\\"); at >= 0; ) {
    if (found.length >= MAX_LITERALS) return undefined;
    // In valid JSON a backslash is inside a string. Its opening quote is the nearest quote before it
    // that no backslash escapes (quotes inside a string are escaped; an opening one follows `:`, `,`,
    // `[` or a space), its closing quote the next such one after it (stringEnd).
    let open = text.lastIndexOf('"', at);
    while (open > 0 && escapedAt(text, open)) open = text.lastIndexOf('"', open - 1);
    const close = stringEnd(text, at);
    if (open < 0 || close >= text.length || close - open > MAX_LITERAL_CHARS) return undefined;
    found.push(JSON.parse(text.slice(open, close + 1)) as string);
    at = text.indexOf("\\", close + 1);
  }
  return found;
}

/** Whether the character at `i` follows an odd run of backslashes (is escaped). */
function escapedAt(text: string, i: number): boolean {
  let n = 0;
  while (i - n - 1 >= 0 && text.charCodeAt(i - n - 1) === 0x5c) n++;
  return n % 2 === 1;
}
