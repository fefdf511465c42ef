/**
 * Parsing a streamed arguments object without joining its text. After many small pushes the text of a
 * long string argument (a file's content) is stored in many pieces; `JSON.parse` needs one flat string,
 * and making one of a few hundred KB is the most expensive step of a streamed call (a large-object
 * allocation and copy that the one-shot parse of the same text does not pay, since its text is one
 * string already).
 *
 * So for an object whose longest direct string member is long and stored in several pieces, that
 * string's body is decoded piece by piece (each piece through JSON.parse, cut so that no escape is split),
 * the rest of the object is parsed with `""` in its place, and the decoded string is put back. The
 * result is what JSON.parse gives for the whole text. Whenever that is not certain (the key repeats, is
 * `__proto__`, a piece is not valid JSON string text, the rest does not parse), the answer is undefined
 * and the caller parses the whole text as usual, so errors read the same too.
 */
/** Text that can be read in stored pieces: a decoder's SeenText, or a TextRope. */
export interface PiecedText {
  slice(from: number, to: number): string;
  pieces(from: number, to: number): string[];
}

/** Strings shorter than this are parsed with the rest: joining them costs little. */
export const LONG_MEMBER = 32 * 1024;

/**
 * The object value from `start` to `end` in `seen`, or undefined when it should be parsed whole.
 * `members` are the offsets (from `start`) of the strings directly inside the object, in pairs.
 */
export function parseWithLongMember(seen: PiecedText, start: number, end: number, members: readonly number[]): { value: unknown } | undefined {
  if (members.length % 2 !== 0) return undefined;
  let longest = -1;
  for (let k = 0; k < members.length; k += 2) {
    if (members[k + 1]! - members[k]! >= LONG_MEMBER && (longest < 0 || members[k + 1]! - members[k]! > members[longest + 1]! - members[longest]!)) longest = k;
  }
  if (longest < 0) return undefined;
  const vs = start + members[longest]!;
  const ve = start + members[longest + 1]!;
  const body = seen.pieces(vs + 1, ve - 1);
  if (body.length < 2) return undefined;
  // It must be a value: the string before it is its key, with only `:` and whitespace between.
  if (longest < 2) return undefined;
  const ks = start + members[longest - 2]!;
  const ke = start + members[longest - 1]!;
  if (!/^\s*:\s*$/.test(seen.slice(ke, vs))) return undefined;
  const key = parseStringLiteral(seen.slice(ks, ke));
  if (key === undefined || key === "__proto__" || !keyOnce(seen, start, end, members, key)) return undefined;
  const text = decodePieces(body);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(seen.slice(start, vs) + '""' + seen.slice(ve, end));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  if (obj[key] !== "") return undefined;
  obj[key] = text;
  return { value: obj };
}

/** The string a JSON string literal stands for, or undefined if it is not one. */
export function parseStringLiteral(literal: string): string | undefined {
  try {
    const k: unknown = JSON.parse(literal);
    return typeof k === "string" ? k : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `key` names exactly one member (a repeated key's last value wins in JSON.parse). */
function keyOnce(seen: PiecedText, start: number, end: number, members: readonly number[], key: string): boolean {
  let count = 0;
  for (let k = 0; k < members.length; k += 2) {
    const s = start + members[k]!;
    const e = start + members[k + 1]!;
    if (e - s >= LONG_MEMBER) continue; // a long string here is a value: keys are short
    if (!/^\s*:/.test(seen.slice(e, Math.min(end, e + 64)))) continue;
    if (parseStringLiteral(seen.slice(s, e)) === key) count++;
  }
  return count === 1;
}

/** The decoded text of a JSON string body given in pieces, or undefined if it is not valid. */
function decodePieces(pieces: readonly string[]): string | undefined {
  const out: string[] = [];
  let carry = "";
  for (let n = 0; n < pieces.length; n++) {
    let p = carry === "" ? pieces[n]! : carry + pieces[n]!;
    carry = "";
    if (n < pieces.length - 1) {
      const cut = openEscapeAt(p);
      if (cut >= 0) {
        carry = p.slice(cut);
        p = p.slice(0, cut);
      }
    }
    try {
      out.push(JSON.parse(`"${p}"`) as string);
    } catch {
      return undefined;
    }
  }
  return out.join("");
}

/** Where an escape that `p` cuts off starts (`\`, `\u00`), or -1 when every escape in `p` is whole. */
function openEscapeAt(p: string): number {
  const b = p.lastIndexOf("\\");
  if (b < 0) return -1;
  let run = 1;
  while (b - run >= 0 && p.charCodeAt(b - run) === 0x5c) run++;
  // An even run is escaped backslashes, all whole.
  if (run % 2 === 0) return -1;
  const need = p.charCodeAt(b + 1) === 0x75 ? 6 : 2;
  return p.length - b < need ? b : -1;
}
