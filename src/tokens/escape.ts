/**
 * Provenance without renderer support: before a request is rendered for token ids, every occurrence of
 * a control token's text (any added token: `<|im_start|>`, `<tool_call>`...) inside request data is
 * replaced by a placeholder made of private-use characters. Templates copy data through unchanged, so
 * after rendering, every control token text left in the prompt came from the template itself, and each
 * placeholder marks data text that must be tokenised as ordinary text. `restoreSpecialText` maps the
 * placeholders back.
 *
 * Placeholder for entry k of the table: ESC + two characters in U+E100..U+E4FF (k = 1024*hi + lo).
 * Entry 0 is ESC itself, so data that already contains ESC round-trips. The table is the tokenizer's
 * added tokens ordered by id, so the mapping is stateless: nothing but the tokenizer is needed to undo it.
 * Only string values are escaped (object keys, such as schema property names, are left alone).
 */
import { PyFloat } from "../jinja/py-float.js";

const ESC = "\uE000";
const BASE = 0xe100;
const SPAN = 1024;
const PLACEHOLDER = /\uE000([\uE100-\uE4FF])([\uE100-\uE4FF])/g;

export interface EscapeTable {
  /** Index -> text; index 0 is ESC. */
  texts: string[];
  /** Matches any entry, longest first, so `<|im_start|>` wins over a shorter token it starts with. */
  pattern: RegExp;
  index: Map<string, number>;
}

const tables = new WeakMap<string[], EscapeTable>();

export function escapeTable(controlTexts: string[]): EscapeTable {
  let table = tables.get(controlTexts);
  if (table === undefined) {
    const texts = [ESC, ...controlTexts];
    const alternatives = [...new Set(texts)]
      .filter((t) => t !== "")
      .sort((a, b) => b.length - a.length)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    table = { texts, pattern: new RegExp(alternatives.join("|"), "g"), index: new Map(texts.map((t, i) => [t, i])) };
    tables.set(controlTexts, table);
  }
  return table;
}

function placeholder(k: number): string {
  return ESC + String.fromCharCode(BASE + Math.floor(k / SPAN), BASE + (k % SPAN));
}

export function escapeText(text: string, table: EscapeTable): string {
  return text.replace(table.pattern, (match) => placeholder(table.index.get(match)!));
}

/** A deep copy of `value` with every string escaped. PyFloat and other class instances are kept as is. */
export function escapeSpecialText<T>(value: T, table: EscapeTable): T {
  return escapeValue(value, table) as T;
}

function escapeValue(value: unknown, table: EscapeTable): unknown {
  if (typeof value === "string") return escapeText(value, table);
  if (Array.isArray(value)) return value.map((v) => escapeValue(v, table));
  if (value !== null && typeof value === "object" && !(value instanceof PyFloat) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = escapeValue(v, table);
    return out;
  }
  return value;
}

/** Puts the original text back in place of every placeholder. */
export function restoreSpecialText(text: string, table: EscapeTable): string {
  return text.replace(PLACEHOLDER, (match, hi: string, lo: string) => {
    const k = (hi.charCodeAt(0) - BASE) * SPAN + (lo.charCodeAt(0) - BASE);
    return table.texts[k] ?? match;
  });
}
