/**
 * Scanning helpers of the decoders that read tag markup (tagged.ts, its value scan, xml-calls.ts): what
 * a tag, a token, a newline or a tool name is at a place of a text that may still be growing. Each is
 * pure, and none reads further than MAX_TAG characters past a tag's start, so a push costs its length.
 */

/** Longest tag, key or call name read before the text is judged not to be one. */
export const MAX_TAG = 1024;

const LT = 0x3c;
const GT = 0x3e;

/** A tool name has no spaces, quotes or brackets (prose after `<tool_call>` is not a name). */
export function isToolName(name: string): boolean {
  return name !== "" && !/[\s"'`<>(){}[\],;]/.test(name);
}

/**
 * The tag starting at `s[i]` (through its `>`); null when `s[i]` does not start a tag (or it is too long
 * to be one), undefined when more text is needed.
 */
export function readTag(s: string, i: number, final: boolean): string | null | undefined {
  if (s[i] !== "<") return null;
  // A tag holds no other `<`, and only MAX_TAG characters are looked at: a search to the end of a long
  // text per tag would be quadratic (`<function=` repeated).
  const end = Math.min(s.length, i + MAX_TAG);
  for (let k = i + 1; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c === GT) return s.slice(i, k + 1);
    if (c === LT) return null;
  }
  return !final && s.length - i < MAX_TAG ? undefined : null;
}

/** Whether `token` is at `s[p]`: in full, cut off by the end of `s` (unless final), or not. */
export function tokenAt(s: string, p: number, token: string, final: boolean): "full" | "partial" | "no" {
  // Compared in place, character by character: a `<` of a push of code differs from a token in its
  // second or third character, and a native call (startsWith, a slice) costs more than those compares.
  const m = token.length;
  const end = Math.min(s.length - p, m);
  for (let k = 0; k < end; k++) if (s.charCodeAt(p + k) !== token.charCodeAt(k)) return "no";
  if (end === m) return "full";
  return final ? "no" : "partial";
}

/** The length of a newline (`\n`, `\r\n`, or when `partial` a `\r` that may precede `\n`) ending at `s[p]`. */
export function newlineBefore(s: string, p: number, floor: number, partial: boolean): number {
  if (p - 1 < floor) return 0;
  if (s[p - 1] === "\n") return p - 2 >= floor && s[p - 2] === "\r" ? 2 : 1;
  return partial && s[p - 1] === "\r" ? 1 : 0;
}

/** The length of the longest tail of `s[from..]` that is a proper prefix of one of `tokens`. */
export function partialSuffix(s: string, from: number, tokens: readonly string[]): number {
  let best = 0;
  for (const t of tokens) {
    for (let k = Math.min(t.length - 1, s.length - from); k > best; k--) {
      if (s.endsWith(t.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}
