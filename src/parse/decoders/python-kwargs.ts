/**
 * Reads Python keyword arguments with literal values (`query="x", n=3, exact=True`), as Llama writes
 * for its built-in tools. Only literals: strings (single or double quotes, with escapes), numbers,
 * True/False/None, and lists/dicts of those in JSON-compatible spelling. Anything else: undefined.
 */
const PY_CONST: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null };

export function parsePythonKwargs(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  skip();
  while (i < text.length) {
    const key = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!key) return undefined;
    i += key[0].length;
    skip();
    if (text[i] !== "=") return undefined;
    i++;
    skip();
    const value = readValue(text, i);
    if (value === undefined) return undefined;
    out[key[0]] = value.value;
    i = value.end;
    skip();
    if (i < text.length) {
      if (text[i] !== ",") return undefined;
      i++;
      skip();
    }
  }
  return out;
}

function readValue(text: string, i: number): { value: unknown; end: number } | undefined {
  const ch = text[i];
  if (ch === '"' || ch === "'") {
    let j = i + 1;
    let s = "";
    while (j < text.length && text[j] !== ch) {
      if (text[j] === "\\" && j + 1 < text.length) {
        const e = text[j + 1]!;
        s += e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e;
        j += 2;
      } else s += text[j++];
    }
    if (j >= text.length) return undefined;
    return { value: s, end: j + 1 };
  }
  const word = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|True|False|None|true|false|null)/.exec(text.slice(i));
  if (word) {
    const w = word[0];
    return { value: w in PY_CONST ? PY_CONST[w] : Number(w), end: i + w.length };
  }
  return undefined;
}
