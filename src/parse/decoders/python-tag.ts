/**
 * Llama 3.1's built-in tools after `<|python_tag|>`: either `brave_search.call(query="...")` (a call
 * to the named built-in with keyword arguments) or plain Python code, which is a call to `python`
 * with `{"code": "..."}`. Code streams as JSON-escaped fragments; trailing whitespace and a dangling
 * high surrogate are held back so the fragments never depend on where the text was cut.
 */
import type { DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { LiteralValueReader } from "../literal/value-reader.js";

const BUILTIN_HEAD = /^\s*([A-Za-z_][A-Za-z0-9_]*)\.call\(/;
/** Still possibly the start of `name.call(`. */
const BUILTIN_PREFIX = /^\s*[A-Za-z_][A-Za-z0-9_]*(\.(c(a(l(l)?)?)?)?)?$/;

class PythonTagDecoder implements PayloadDecoder {
  private mode: "undecided" | "builtin" | "code" = "undecided";
  private buf = "";
  private held = "";
  private codeStarted = false;

  push(text: string): DecoderEvent[] {
    if (this.mode === "builtin") {
      this.buf += text;
      return [];
    }
    if (this.mode === "code") return this.code(text);
    this.buf += text;
    if (BUILTIN_HEAD.test(this.buf)) {
      this.mode = "builtin";
      return [];
    }
    if (BUILTIN_PREFIX.test(this.buf) || this.buf.trim() === "") return [];
    this.mode = "code";
    const all = this.buf.replace(/^\s+/, "");
    this.buf = "";
    return this.code(all);
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.mode === "undecided") {
      if (this.buf.trim() === "") return [{ kind: "fail", type: closed ? "malformed" : "truncated", message: "empty code block", raw: "" }];
      this.mode = "code";
      const all = this.buf.replace(/^\s+/, "");
      this.buf = "";
      return [...this.code(all), ...this.endCode()];
    }
    if (this.mode === "code") return this.endCode();
    const m = BUILTIN_HEAD.exec(this.buf)!;
    const body = this.buf.slice(m[0].length).trimEnd();
    const args = body.endsWith(")") ? readKwargs(body) : undefined;
    if (args === undefined) {
      return [{ kind: "fail", type: body.endsWith(")") ? "malformed" : "truncated", message: "cannot read the built-in call's arguments", name: m[1]! }];
    }
    const text = JSON.stringify(args);
    return [{ kind: "call", name: m[1]! }, { kind: "args", text }, { kind: "done", arguments: text, value: args }];
  }

  private code(text: string): DecoderEvent[] {
    const out: DecoderEvent[] = [];
    if (!this.codeStarted) {
      this.codeStarted = true;
      out.push({ kind: "call", name: "python" }, { kind: "args", text: '{"code": "' });
    }
    // Hold trailing whitespace (trimmed at the end) and a lone high surrogate (its pair may follow).
    // Only the new text is scanned: what is held is whitespace already.
    let cut = text.length;
    while (cut > 0 && /\s/.test(text[cut - 1]!)) cut--;
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut--;
    if (cut === 0) {
      this.held += text;
      return out;
    }
    const ready = this.held + text.slice(0, cut);
    this.held = text.slice(cut);
    out.push({ kind: "args", text: escapeJson(ready) });
    this.buf += ready;
    return out;
  }

  private endCode(): DecoderEvent[] {
    const code = this.buf + this.held.trimEnd();
    const tail = escapeJson(this.held.trimEnd());
    const out: DecoderEvent[] = [];
    if (tail !== "") out.push({ kind: "args", text: tail });
    out.push({ kind: "args", text: '"}' });
    const value = { code };
    // The streamed text, not JSON.stringify(value): fragments must add up to `arguments`.
    out.push({ kind: "done", arguments: `{"code": "${escapeJson(code)}"}`, value });
    return out;
  }
}

/**
 * The keyword arguments of `body` (everything after `name.call(`, ending with its `)`), or undefined
 * when they are not Python literals or text follows the closing parenthesis.
 */
function readKwargs(body: string): Record<string, unknown> | undefined {
  const reader = new LiteralValueReader("python", "args");
  const rest = reader.push(body);
  return reader.done && reader.error === undefined && rest.trim() === "" ? (reader.value as Record<string, unknown>) : undefined;
}

/** JSON string escaping without the quotes; keeps non-ASCII characters as they are. */
function escapeJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export function pythonTag(): DecoderFactory {
  return () => new PythonTagDecoder();
}
