/**
 * transformers' `tojson` filter: `json.dumps(x, ensure_ascii=False, indent=, separators=, sort_keys=)`.
 * Python-exact: `1.0` stays `1.0`, `1e-05`, separators `, ` and `: ` by default (`,` with an indent),
 * tuples are arrays, non-ASCII is kept. Results for the same object and options are reused (JsonCache):
 * within a render freely, across renders only when the object cannot have changed.
 */
import { ChatwireError } from "../errors.js";
import { flatCopy } from "../flat-copy.js";
import { PyFloat } from "./py-float.js";
import { JinjaError, Markup, PyDict, Undefined, arrayKind, dictItems, floatRepr, isPlainDict, iteratorKind, numberStr, pyCompare, typeName } from "./values.js";
import { compareStrings } from "./code-points.js";
import { pySort } from "./pysort.js";
import { replaceEach } from "./text-scan.js";
import { budget } from "./limits.js";
import { matchesRecord, recordValue } from "./json-snapshot.js";
import { type FrozenTexts, KnownEscapes, freezeMarked, isMarked, markOf, setMark } from "./deep-frozen-marks.js";

export interface JsonOptions {
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
  ensureAscii: boolean;
}

const ESCAPES = /["\\\x00-\x1f]/g;
const SHORT: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/**
 * json.encoder with ensure_ascii=False escapes only `"`, `\\` and control characters (short forms where
 * JSON has them). Everything else, lone surrogates included, is copied as is. With ensure_ascii=True
 * every code unit outside `\x20-\x7e` is escaped too, U+007F (DEL) included.
 */
const NEEDS_ESCAPE = /["\\\x00-\x1f]/;

/**
 * True when json.dumps copies `s` as it is between its quotes (ensure_ascii=False): no `"`, `\\` or
 * control character. A plain loop beats a regex test on the short strings schemas are made of (names,
 * types); from about 24 characters (descriptions) the native test wins (measured 375 vs 494 ns at 128).
 */
function needsNoEscape(s: string): boolean {
  if (onlyEscaped !== null) return ((escapedLengths >>> (s.length & 31)) & 1) === 0 || !listed(onlyEscaped, s);
  if (s.length > 24) return !NEEDS_ESCAPE.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/**
 * While a value marked KnownEscapes is encoded, the only strings in it that need an escape: those
 * listed (null otherwise). Set and reset around that one dumpJson call (frozenText), which encodes
 * nothing but the value's own strings and keys.
 */
let onlyEscaped: readonly string[] | null = null;
/** Their lengths (KnownEscapes.lengths), set with onlyEscaped. */
let escapedLengths = 0;

function listed(escaped: readonly string[], s: string): boolean {
  for (let i = 0; i < escaped.length; i++) if (escaped[i]!.length === s.length && escaped[i] === s) return true;
  return false;
}

function encodeString(s: string, ascii: boolean): string {
  const clean = needsNoEscape(s);
  if (clean && !ascii) return '"' + s + '"';
  if (s.length < 1024) {
    // Well-formed text: JSON.stringify escapes exactly as json.dumps(ensure_ascii=False) does (see
    // escapeString), natively, where a replace with a callback cost 0.13 us more a string (a new
    // dict of 10 escaped strings: 3.0 against 1.7 us; descriptions with newlines, `\d` patterns).
    if (!ascii && isWellFormed(s)) return JSON.stringify(s);
    let body = !clean ? s.replace(ESCAPES, (c) => SHORT[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : s;
    if (ascii) body = body.replace(/[^\x00-\x7e]/g, (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0"));
    return '"' + body + '"';
  }
  return escapeString(s, clean, ascii);
}

/**
 * The slow path: the escaped size is counted first (and refused or charged before anything is built),
 * then the text is built with native replaceAll passes, a callback only for rare control characters.
 */
function escapeString(s: string, clean: boolean, ascii: boolean): string {
  const b = budget();
  b.scan(s.length);
  // Where the escaped text could pass the limit, its size is counted first and a result over the limit
  // is refused before it is built. For a long string the size also tells how long the one native
  // JSON.stringify will take (up to 9 ns per character it writes, control characters), which is
  // looked at against the clock before it runs.
  const long = s.length >= 1 << 20;
  if (long || s.length * 2 + 2 > b.limits.maxStringLength) {
    const size = escapedSize(s, ascii);
    b.length(size);
    if (long) b.native(size, NS_PER_JSON_UNIT);
  }
  if (!ascii && isWellFormed(s)) {
    // For well-formed text JSON.stringify escapes exactly as json.dumps(ensure_ascii=False) does
    // (short forms, lowercase \u00XX), natively; only lone surrogates differ (Python keeps them).
    const out = JSON.stringify(s);
    b.stringLength(out.length);
    return out;
  }
  b.stringLength(escapedSize(s, ascii));
  let body = s;
  if (!clean) body = replaceEach(body, ESCAPES, (m) => SHORT[m[0]] ?? "\\u" + m[0].charCodeAt(0).toString(16).padStart(4, "0"));
  if (ascii) body = replaceEach(body, /[^\x00-\x7e]/g, (m) => "\\u" + m[0].charCodeAt(0).toString(16).padStart(4, "0"));
  return '"' + body + '"';
}

/** Nanoseconds per character JSON.stringify writes, at worst (measured 5-9 on a busy machine). */
const NS_PER_JSON_UNIT = 12;

function escapedSize(s: string, ascii: boolean): number {
  const b = budget();
  let size = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    if ((i & 0xfffff) === 0) b.scan(Math.min(0x100000, s.length - i));
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08 || c === 0x0c) size += 1;
    else if (c < 0x20 || (ascii && c > 0x7e)) size += 5;
  }
  return size;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" ? native.call(s) : !LONE_SURROGATE.test(s);
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}

/** json.dumps turns int/float/bool/None keys into strings the way it prints them. */
function keyString(k: unknown, ascii: boolean): string {
  if (typeof k === "string") return encodeString(k, ascii);
  if (k === null) return '"null"';
  if (typeof k === "boolean") return k ? '"true"' : '"false"';
  if (typeof k === "number" || typeof k === "bigint" || k instanceof PyFloat) return `"${dumpScalarNumber(k)}"`;
  throw new JinjaError("TypeError", `keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

function dumpScalarNumber(k: number | bigint | PyFloat): string {
  if (typeof k === "bigint") return k.toString();
  if (k instanceof PyFloat) return floatJson(k.value);
  return Number.isInteger(k) ? numberStr(k) : floatJson(k);
}

/** json.dumps's defaults: what a plain `|tojson` asks for. */
export const DEFAULT_OPTIONS: JsonOptions = Object.freeze({ indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false, ensureAscii: false });

/** json.dumps of one value. Built by string concatenation: V8's ropes beat collecting and joining pieces. */
export function dumpJson(value: unknown, options: JsonOptions, depth = 0): string {
  switch (typeof value) {
    case "string":
      return encodeString(value, options.ensureAscii);
    case "number":
      return Number.isInteger(value) ? numberStr(value) : floatJson(value);
    case "bigint":
      return numberStr(value);
    case "boolean":
      return value ? "true" : "false";
  }
  if (value === null) return "null";
  if (value instanceof Markup) return encodeString(value.text, options.ensureAscii);
  if (value instanceof PyFloat) return floatJson(value.value);
  if (depth > budget().limits.maxDepth) {
    throw new ChatwireError("limit_exceeded", "maximum recursion depth exceeded while encoding a JSON object");
  }
  const { indent, itemSeparator } = options;
  const inner = indent === null ? "" : "\n" + indent.repeat(depth + 1);
  const between = itemSeparator + inner;
  if (Array.isArray(value) && iteratorKind(value) === undefined) {
    if (value.length === 0) return "[]";
    if (value.length > MANY) return joinMany(value.length, (i) => dumpJson(value[i], options, depth + 1), "[" + inner, between, closing(indent, depth, "]"));
    if (isCompact(options)) return compactList(value, options, depth);
    let out = "[" + inner;
    const b = budget();
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += between;
      out += dumpJson(value[i], options, depth + 1);
      b.length(out.length);
    }
    return out + (indent === null ? "]" : "\n" + indent.repeat(depth) + "]");
  }
  if (isPlainDict(value)) {
    if (!options.sortKeys && isCompact(options) && inheritsNothing()) {
      const text = compactMembers(value, options, depth);
      if (text !== undefined) return text;
    }
    let names = Object.keys(value);
    if (names.length === 0) return "{}";
    if (options.sortKeys) names = pySort(names, (a, b) => compareStrings(a, b) < 0);
    if (names.length > MANY) {
      const item = (i: number) => encodeString(names[i]!, options.ensureAscii) + options.keySeparator + dumpJson(value[names[i]!], options, depth + 1);
      return joinMany(names.length, item, "{" + inner, between, closing(indent, depth, "}"));
    }
    if (isCompact(options)) return compactDict(value, names, options, depth);
    let out = "{" + inner;
    const b = budget();
    for (let i = 0; i < names.length; i++) {
      if (i > 0) out += between;
      out += options.ensureAscii || options.keySeparator !== ": " ? encodeString(names[i]!, options.ensureAscii) + options.keySeparator : keyPiece(names[i]!, 6);
      out += dumpJson(value[names[i]!], options, depth + 1);
      b.length(out.length);
    }
    return out + (indent === null ? "}" : "\n" + indent.repeat(depth) + "}");
  }
  if (value instanceof PyDict) {
    // A template-made dict: keys of any type, printed the way json.dumps converts them.
    let items = dictItems(value);
    if (items.length === 0) return "{}";
    if (options.sortKeys) items = pySort(items, (a, b) => pyCompare(a[0], b[0], "<") < 0);
    if (items.length > MANY) {
      const item = (i: number) => {
        const k = items[i]![0];
        return (typeof k === "string" ? encodeString(k, options.ensureAscii) : keyString(k, options.ensureAscii)) + options.keySeparator + dumpJson(items[i]![1], options, depth + 1);
      };
      return joinMany(items.length, item, "{" + inner, between, closing(indent, depth, "}"));
    }
    let out = "{" + inner;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += between;
      const k = items[i]![0];
      out += (typeof k === "string" ? encodeString(k, options.ensureAscii) : keyString(k, options.ensureAscii)) + options.keySeparator;
      out += dumpJson(items[i]![1], options, depth + 1);
      budget().length(out.length);
    }
    return out + (indent === null ? "}" : "\n" + indent.repeat(depth) + "}");
  }
  const name = value instanceof Undefined ? "Undefined" : typeName(value);
  throw new JinjaError("TypeError", `Object of type ${name} is not JSON serializable`);
}

/**
 * The options of a plain `|tojson` (json.dumps's defaults, which Qwen3-style templates print every tool
 * with): built by compactList / compactDict, with fewer pieces.
 */
function isCompact(o: JsonOptions): boolean {
  return o === DEFAULT_OPTIONS || (o.indent === null && !o.ensureAscii && o.itemSeparator === ", " && o.keySeparator === ": ");
}

/**
 * A list in json.dumps's default layout. A string item that needs no escape is written as its own text
 * between separators that carry its quotes (`", "`): one piece a string instead of four (two quotes, the
 * quoted string, the separator), each a new string for V8 to make and later copy.
 */
function compactList(value: unknown[], options: JsonOptions, depth: number): string {
  const b = budget();
  let out = "";
  let quoted = false; // the last item was a bare string: its closing quote is still to write
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    const bare = typeof v === "string" && needsNoEscape(v);
    const lead = i === 0 ? (bare ? '["' : "[") : quoted ? (bare ? '", "' : '", ') : bare ? ', "' : ", ";
    out = i === 0 ? lead : out + lead;
    out += bare ? (v as string) : compactValue(v, options, depth + 1);
    quoted = bare;
    b.length(out.length);
  }
  return out + (quoted ? '"]' : "]");
}

/**
 * A plain dict in json.dumps's default layout. Each key is one kept piece holding what goes before it
 * (`{`, `, ` or a string value's closing quote and `, `), the key, `: ` and, before a string value that
 * needs no escape, its opening quote; the value follows as its own text. A member is two pieces, not
 * six: schemas repeat a few dozen keys, and the pieces were most of a new tool's encoding (issue 19).
 */
function compactDict(value: Record<string, unknown>, names: string[], options: JsonOptions, depth: number): string {
  const b = budget();
  let out = "";
  let quoted = false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const v = value[name];
    const bare = typeof v === "string" && needsNoEscape(v);
    out = withMember(out, name, v, i === 0 ? 0 : quoted ? 4 : 2, bare, options, depth, b);
    quoted = bare;
  }
  return out + (quoted ? '"}' : "}");
}

/**
 * compactDict in the object's own order, read with for-in: V8 reads `value[name]` in a for-in from the
 * object's enum cache, where Object.keys makes an array and each `value[name]` is a generic keyed load
 * (a walk of 21 tools: 8.4 against 14.3 us). For-in also lists inherited keys: the caller makes sure
 * there are none (a plain dict's prototype is Object.prototype or null). Undefined past MANY members
 * (the caller builds those with joinMany).
 */
function compactMembers(value: Record<string, unknown>, options: JsonOptions, depth: number): string | undefined {
  const b = budget();
  let out = "";
  let count = 0;
  let quoted = false;
  // A type member (typeIndex) waits, as its TYPE_MEMBERS index, for what follows it: it is written with
  // the next key's piece or the dict's closing, one kept string for both (typedKeyPiece, typedClosing).
  let typed = -1;
  for (const name in value) {
    if (++count > MANY) return undefined;
    const v = value[name];
    const bare = typeof v === "string" && needsNoEscape(v);
    // The member written here, not by withMember (whose type member test this loop has made already),
    // with the kept key piece looked up inline and keyPiece called only to make one: the 21 tools'
    // tojson 0.91x in a micro (keyPiece itself, with its store's upkeep, is too big to inline here).
    if (typed >= 0) {
      const piece = typedKeyPiece(typed, name, bare);
      typed = -1;
      out = out === "" ? piece : out + piece;
    } else {
      const lead = count === 1 ? 0 : quoted ? 4 : 2;
      if (bare && name === "type" && (typed = typeIndex(v as string, lead)) >= 0) continue;
      const variant = lead | (bare ? 1 : 0);
      const kept = KEY_PIECES.get(name);
      const piece = (kept === undefined ? undefined : kept[variant]) ?? keyPiece(name, variant);
      out = lead === 0 ? piece : out + piece;
    }
    out += bare ? (v as string) : compactValue(v, options, depth + 1);
    b.length(out.length);
    quoted = bare;
  }
  if (typed >= 0) return out === "" ? typedClosing(typed) : out + typedClosing(typed);
  return count === 0 ? "{}" : out + (quoted ? '"}' : "}");
}

/**
 * `out` with one more member of a compact dict: the key's piece (`lead`: 0 the dict's first member,
 * 2 after a value, 4 after a bare string, whose closing quote the piece carries), then the value, a
 * `bare` string (no escape needed) as its own text. compactDict's; compactMembers writes the same
 * member in its own loop.
 */
function withMember(out: string, name: string, v: unknown, lead: number, bare: boolean, options: JsonOptions, depth: number, b: ReturnType<typeof budget>): string {
  const typed = bare && name === "type" ? typeIndex(v as string, lead) : -1;
  if (typed >= 0) {
    const whole = typeMember(typed);
    out = lead === 0 ? whole : out + whole;
    b.length(out.length);
    return out;
  }
  const piece = keyPiece(name, lead | (bare ? 1 : 0));
  out = lead === 0 ? piece : out + piece;
  out += bare ? (v as string) : compactValue(v, options, depth + 1);
  b.length(out.length);
  return out;
}

/** The TYPE_MEMBERS index of a type member after `lead` (withMember's), -1 when `v` names no JSON type. */
function typeIndex(v: string, lead: number): number {
  const i = typeValueIndex(v);
  return i < 0 ? -1 : (lead >> 1) * TYPE_VALUES.length + i;
}

/** TYPE_VALUES.indexOf(v), compared inline (no builtin call for each type member). */
function typeValueIndex(v: string): number {
  switch (v) {
    case "string": return 0;
    case "object": return 1;
    case "function": return 2;
    case "integer": return 3;
    case "array": return 4;
    case "boolean": return 5;
    case "number": return 6;
    case "null": return 7;
  }
  return -1;
}

/**
 * The `"type"` member at TYPE_MEMBERS index `typed` (one naming a JSON type, or a tool's `"function"`)
 * as one kept string, what goes before it and its value's opening quote included (the closing one is
 * left to what follows, as for any bare string): a quarter of a schema's members are these, and one
 * piece instead of two is one concatenation fewer and one rope node fewer for the prompt's join to
 * flatten (issue 19).
 */
function typeMember(typed: number): string {
  const n = TYPE_VALUES.length;
  return (TYPE_MEMBERS[typed] ??= sequential(LEADS[Math.floor(typed / n)]!, '"type": "', TYPE_VALUES[typed % n]!));
}

/**
 * The type member `typed` and the piece of the key after it (a string's closing quote, `, `, the key,
 * `: ` and a bare value's opening quote) as one kept string: the commonest pair in a schema
 * (`"type": "string", "description": "`), one rope node and one concatenation fewer for each, where a
 * schema's ropes make most of the nodes the prompt's join flattens (issue 19). Kept by key like the
 * key pieces (and cleared with them); a key too long to keep gets a new string each time.
 */
function typedKeyPiece(typed: number, name: string, bare: boolean): string {
  const slot = typed * 2 + (bare ? 1 : 0);
  if (LAST_TYPED_NAMES[slot] === name) return LAST_TYPED[slot]!;
  const pieces = TYPED_PIECES.get(name);
  const kept = pieces === undefined ? undefined : pieces[slot];
  if (kept === undefined) return newTypedKeyPiece(typed, name, bare, slot);
  LAST_TYPED_NAMES[slot] = name;
  LAST_TYPED[slot] = kept;
  return kept;
}

/** typedKeyPiece's piece the first time (kept unless the key is too long): apart, so the lookup is small enough to inline. */
function newTypedKeyPiece(typed: number, name: string, bare: boolean, slot: number): string {
  const piece = sequential(typeMember(typed), keyPiece(name, 4 | (bare ? 1 : 0)), "");
  if (name.length <= MAX_KEPT_KEY) {
    let entry = TYPED_PIECES.get(name);
    if (entry === undefined) TYPED_PIECES.set(name, (entry = new Array<string | undefined>(2 * TYPE_MEMBERS.length)));
    entry[slot] = piece;
    keptChars += piece.length + 16;
  }
  return piece;
}

/** The type member `typed` and the closing of the dict it ends (a whole `{"type": "string"}` when it is the only member), kept. */
function typedClosing(typed: number): string {
  return (TYPED_CLOSINGS[typed] ??= sequential(typeMember(typed), '"}', ""));
}

const TYPE_VALUES: readonly string[] = ["string", "object", "function", "integer", "array", "boolean", "number", "null"];
const TYPE_MEMBERS: (string | undefined)[] = new Array<string | undefined>(3 * TYPE_VALUES.length);
const TYPED_CLOSINGS: (string | undefined)[] = new Array<string | undefined>(TYPE_MEMBERS.length);
/**
 * By typedKeyPiece's slot, the key last met after that type member and its kept piece (cleared with
 * TYPED_PIECES): mostly the same key (`"type": "string", "description": "`), found by one comparison
 * of the same string instead of a Map lookup.
 */
const LAST_TYPED_NAMES = new Array<string | undefined>(2 * TYPE_MEMBERS.length).fill(undefined);
const LAST_TYPED = new Array<string | undefined>(2 * TYPE_MEMBERS.length).fill(undefined);

/**
 * The three strings as one new flat string of its own (a join makes one; flatCopy's slice is a view
 * into a longer one from 13 characters on): V8 copies such a piece inline while flattening a rope,
 * where a view takes a call of its own.
 */
function sequential(a: string, b: string, c: string): string {
  return [a, b, c].join("");
}

/** True while no one has added an enumerable property to Object.prototype (for-in would list it). */
function inheritsNothing(): boolean {
  for (const key in Object.prototype) if (key !== undefined) return false;
  return true;
}

/**
 * dumpJson of an item in the compact layout: the common scalars of a schema (ints, booleans, null)
 * without the call, and a list or plain dict straight to compactList / compactMembers, past dumpJson's
 * checks for every other kind of value (a new tool's encoding is mostly small nested containers).
 * Anything else, and a container past the depth limit or of more than MANY items, goes to dumpJson.
 */
function compactValue(v: unknown, options: JsonOptions, depth: number): string {
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v === null) return "null";
  if (typeof v === "object" && depth <= budget().limits.maxDepth) {
    if (Array.isArray(v)) {
      const kind = arrayKind(v);
      if (v.length > 0 && v.length <= MANY && (kind === undefined || kind === "tuple")) return compactList(v, options, depth);
    } else if (!options.sortKeys) {
      // Not a class instance (PyDict, Markup, PyFloat), which has its own prototype. Inside a value read
      // from JSON text (onlyEscaped set: frozenText) the only objects are plain dicts, lists and PyFloats.
      if ((onlyEscaped !== null ? !(v instanceof PyFloat) : isPlainDict(v)) && inheritsNothing()) {
        const text = compactMembers(v as Record<string, unknown>, options, depth);
        if (text !== undefined) return text;
      }
    }
  }
  return dumpJson(v, options, depth);
}

/**
 * What goes before a key, by `variant >> 1`: the dict's opening, a separator, a string's closing quote
 * and a separator, nothing (the key and `: ` alone, for dicts in other layouts).
 */
const LEADS = ["{", ", ", '", ', ""] as const;

/**
 * The piece for `name` in `variant` (LEADS index times two, plus one when a bare string value follows).
 * Kept for short keys, up to MAX_KEPT_CHARS characters in all (then the store starts again).
 */
function keyPiece(name: string, variant: number): string {
  if (name.length > MAX_KEPT_KEY) return LEADS[variant >> 1] + encodeString(name, false) + ((variant & 1) === 1 ? ': "' : ": ");
  let pieces = KEY_PIECES.get(name);
  if (pieces === undefined) {
    if (keptChars > MAX_KEPT_CHARS) {
      KEY_PIECES.clear();
      TYPED_PIECES.clear();
      LAST_TYPED_NAMES.fill(undefined);
      LAST_TYPED.fill(undefined);
      keptChars = 0;
    }
    KEY_PIECES.set(name, (pieces = new Array<string | undefined>(8)));
  }
  let piece = pieces[variant];
  if (piece === undefined) {
    piece = pieces[variant] = sequential(LEADS[variant >> 1]!, encodeString(name, false), (variant & 1) === 1 ? ': "' : ": ");
    keptChars += piece.length + 16; // with a share of the entry's own size
  }
  return piece;
}
const KEY_PIECES = new Map<string, (string | undefined)[]>();
/** typedKeyPiece's pieces by key, then by TYPE_MEMBERS index and whether a bare string follows (counted in keptChars). */
const TYPED_PIECES = new Map<string, (string | undefined)[]>();
let keptChars = 0;
const MAX_KEPT_KEY = 64;
const MAX_KEPT_CHARS = 1 << 16;

/** The closing bracket of a container at `depth`, on its own line when indenting. */
function closing(indent: string | null, depth: number, bracket: string): string {
  return indent === null ? bracket : "\n" + indent.repeat(depth) + bracket;
}

/** Containers with more items than this are built by joinMany. */
const MANY = 4096;

/**
 * A list or dict of many items: pieces joined a few thousand at a time, a step per item. Concatenating
 * them one by one would make a rope of millions of nodes (gigabytes of heap before any size limit is
 * reached) and run without a look at the clock.
 */
function joinMany(count: number, item: (i: number) => string, open: string, between: string, close: string): string {
  const b = budget();
  const chunks: string[] = [];
  let pieces: string[] = [];
  let size = open.length + close.length;
  for (let i = 0; i < count; i++) {
    b.step();
    const piece = item(i);
    b.length((size += piece.length + (i > 0 ? between.length : 0)));
    pieces.push(piece);
    if (pieces.length >= MANY) {
      chunks.push(pieces.join(between));
      pieces = [];
    }
  }
  if (pieces.length > 0) chunks.push(pieces.join(between));
  b.stringLength(size);
  return open + chunks.join(between) + close;
}

// Every object known to be deeply frozen has a mark (deep-frozen-marks.ts) holding what tojson keeps for
// it: `true` until its first tojson, `false` once one was made (and not kept), then the text for
// DEFAULT_OPTIONS (a string) or the texts by options key (a Map). One mark for both, so a frozen object
// read once and printed once costs one mark (readSharedJson marks every value it reads; most of a
// request that shares nothing is printed).

/**
 * True when the value and everything inside it is frozen, so it can never change again. Memoised for
 * the value asked about, not for each container inside it: those are asked about rarely, and adding
 * each to the set cost more than the walk.
 */
export function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (isMarked(value)) return true;
  if (!frozenBelow(value)) return false;
  setMark(value, true);
  return true;
}

function frozenBelow(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  for (const child of children) {
    if (child !== null && typeof child === "object" && !isMarked(child) && !frozenBelow(child)) return false;
  }
  return true;
}

/** Freeze a context value in place, deeply, so renders can share work on it (see JsonCache). */
export function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === "object" && !isMarked(value)) {
    for (const child of Array.isArray(value) ? value : Object.values(value)) freezeDeep(child);
    freezeMarked(value);
  }
  return value;
}

/** Records `value` as deeply frozen: its caller froze every container in it (a value no one else has seen yet). */
export function markedDeepFrozen<T extends object>(value: T, mark: true | KnownEscapes = true): T {
  const known = markOf(value);
  // A mark not yet printed (`true`) may become the KnownEscapes of the text it was read from.
  if (known === undefined || (known === true && mark !== true)) setMark(value, mark);
  return value;
}

/** freezeDeep for an array whose first `frozen` items are deeply frozen already (readSharedJson's reused ones). */
export function freezeDeepFrom<T>(array: T[], frozen: number): T[] {
  if (isMarked(array)) return array;
  for (let i = frozen; i < array.length; i++) freezeDeep(array[i]);
  freezeMarked(array);
  return array;
}

const KEYS = new WeakMap<JsonOptions, string>();
function keyOf(o: JsonOptions): string {
  return `${o.indent ?? "-"}\u0000${o.itemSeparator}\u0000${o.keySeparator}\u0000${o.sortKeys}\u0000${o.ensureAscii}`;
}
const DEFAULT_KEY = keyOf(DEFAULT_OPTIONS);
/** A string naming the options, cached per options object (the default one is shared by every call). */
function optionsKey(options: JsonOptions): string {
  if (options === DEFAULT_OPTIONS) return DEFAULT_KEY;
  let key = KEYS.get(options);
  if (key === undefined) KEYS.set(options, (key = keyOf(options)));
  return key;
}

/**
 * Results for any other plain-data object, shared by all renders but trusted only after checking the
 * object against the record taken when it was encoded (json-snapshot.ts). `checkedBy` is the render
 * that last checked it: within one render the immutable sandbox keeps it unchanged, so once is enough.
 * It is that render's number, not its JsonCache: V8's young-generation GC keeps a WeakMap's values
 * until a full GC even when their keys die young, so an entry for a caller's new object held the
 * whole cache of its render alive (every text made in it) and moved it to the old generation.
 * The record is taken the second time an object is met (`record` undefined until then): a caller who
 * builds new objects for every request pays no walk for a reuse that cannot come.
 */
interface CheckedEntry {
  readonly record: readonly unknown[];
  readonly texts: Map<string, string>;
  checkedBy: number;
}
const ACROSS = new WeakMap<object, CheckedEntry>();
/** JsonCaches made so far (their ids; 2^53 renders before one repeats). */
let renders = 0;
/** The record of an object met once: recorded if it is met again (its texts stay empty). */
const SEEN_ONCE: readonly unknown[] = [];
const NO_TEXTS = new Map<string, string>();

/**
 * tojson of a deeply frozen object, shared by all renders: such an object can never change. The text is
 * kept from its second use on, flattened: most such objects (readSharedJson's reads of a request that
 * shares nothing) are printed once, and keeping their text, or flattening it only to be copied into
 * the output once more, cost about a third of encoding them (issue 19).
 */
function frozenText(value: object, known: FrozenTexts, options: JsonOptions): string {
  if (known === true) {
    setMark(value, false);
    return dumpJson(value, options);
  }
  if (known instanceof KnownEscapes) {
    setMark(value, false);
    const outer = onlyEscaped;
    const outerLengths = escapedLengths;
    onlyEscaped = known.escaped;
    escapedLengths = known.lengths;
    try {
      return dumpJson(value, options);
    } finally {
      onlyEscaped = outer;
      escapedLengths = outerLengths;
    }
  }
  const key = optionsKey(options);
  if (typeof known === "string" && key === DEFAULT_KEY) return known;
  let text = known instanceof Map ? known.get(key) : undefined;
  if (text !== undefined) return text;
  text = flatCopy(dumpJson(value, options));
  if (known === false && key === DEFAULT_KEY) setMark(value, text);
  else if (known instanceof Map) known.set(key, text);
  else setMark(value, new Map(typeof known === "string" ? [[DEFAULT_KEY, known], [key, text]] : [[key, text]]));
  return text;
}


/**
 * tojson results by object identity and options. Within one render any object qualifies (the immutable
 * sandbox means a template cannot change it between two calls). Across renders, deeply frozen objects
 * are reused as they are and other plain data after a check that it is unchanged: a server or an
 * inspector renders the same tool list again and again, and encoding it is most of a render's work.
 */
export class JsonCache {
  /**
   * This render's texts by object: the text for DEFAULT_OPTIONS (a string), or the texts by options
   * key. Made at the first object that needs it: most renders of a server's or a kept tool list print
   * only frozen values (kept by their marks), and a WeakMap is a table the GC must visit.
   */
  private byObject: WeakMap<object, string | Map<string, string>> | undefined;
  /** Which render this is, for ACROSS's entries: a number, not the cache itself, which an entry would keep alive (see CheckedEntry). */
  private readonly id = ++renders;
  dump(value: unknown, options: JsonOptions): string {
    if (value === null || typeof value !== "object" || value instanceof PyFloat || value instanceof Markup) {
      return dumpJson(value, options);
    }
    const known = markOf(value);
    const text = known !== undefined || (Object.isFrozen(value) && isDeepFrozen(value)) ? frozenText(value, known ?? true, options) : this.unfrozen(value, options);
    // Only the length limit: the text is shared or a rope of parts already charged where they were built.
    budget().length(text.length);
    return text;
  }

  private unfrozen(value: object, options: JsonOptions): string {
    const key = optionsKey(options);
    // Values that cannot be shared (template-made, not plain data) are kept for this render only; looking
    // here first spares them the walk that finds them unshareable on every call.
    const byObject = (this.byObject ??= new WeakMap());
    const kept = byObject.get(value);
    let text = kept === undefined ? undefined : typeof kept === "string" ? (key === DEFAULT_KEY ? kept : undefined) : kept.get(key);
    text ??= this.shared(value, key, options);
    if (text === undefined) {
      text = dumpJson(value, options);
      // The text alone for the default options (what templates print with): no Map for each object.
      if (kept === undefined) byObject.set(value, key === DEFAULT_KEY ? text : new Map([[key, text]]));
      else if (typeof kept === "string") byObject.set(value, new Map([[DEFAULT_KEY, kept], [key, text]]));
      else kept.set(key, text);
    }
    return text;
  }

  /** The result shared across renders for an object that is not deeply frozen, or undefined when it cannot be shared. */
  private shared(value: object, key: string, options: JsonOptions): string | undefined {
    let entry = ACROSS.get(value);
    if (entry !== undefined && entry.checkedBy !== this.id) {
      if (entry.record !== SEEN_ONCE && matchesRecord(value, entry.record)) entry.checkedBy = this.id;
      else entry = entry.record === SEEN_ONCE ? entry : undefined;
    }
    if (entry === undefined) {
      // The first time: only noted (this render keeps its text in byObject).
      ACROSS.set(value, { record: SEEN_ONCE, texts: NO_TEXTS, checkedBy: this.id });
      return undefined;
    }
    if (entry.record === SEEN_ONCE) {
      if (entry.checkedBy === this.id) return undefined; // met again in the same render: byObject has it
      const record = recordValue(value);
      if (record === undefined) return undefined;
      ACROSS.set(value, (entry = { record, texts: new Map(), checkedBy: this.id }));
    }
    let text = entry.texts.get(key);
    if (text === undefined) entry.texts.set(key, (text = flatCopy(dumpJson(value, options))));
    return text;
  }
}
