/**
 * Where a field of a JSON text is: the offset of the value at a path such as
 * `tools[0].function.parameters.properties.a.type` (the `field` a ChatwireError names; a schema
 * error's field goes on into the schema, fieldOfPointer). The CLI and the server turn it into
 * line:column, so an error about a request field points into the file or body the user wrote. Undefined when the text
 * does not have that path (or is not JSON). A plain scan: strings, numbers and literals are skipped,
 * only the containers on the path are entered.
 */
import { lineColumn, type LineColumn } from "../text-position.js";

export type JsonPath = readonly (string | number)[];

/** `tools[0].function.parameters.properties.x.type` as a path (a key that is not a plain name is written `["a.b"]`, as fieldOfPointer writes it). */
export function pathOf(field: string): JsonPath {
  const path: (string | number)[] = [];
  for (const m of field.matchAll(/\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]|([^.[\]]+)/g)) {
    if (m[1] !== undefined) path.push(JSON.parse(m[1]) as string);
    else path.push(m[2] !== undefined ? Number(m[2]) : (m[3] as string));
  }
  return path;
}

/**
 * A JSON pointer into `value` (`/properties/x/type`, as schema validators report places) as the rest
 * of a field path (`.properties.x.type`): an array member is `[n]`, a key `.key`, or `["key"]` when it
 * is not a plain name (so `pathOf` reads it back as a key, never as an index).
 */
export function fieldOfPointer(value: unknown, pointer: string): string {
  let out = "";
  let node = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node) && /^\d+$/.test(key)) out += `[${key}]`;
    else out += /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return out;
}

/**
 * Where the value a field path names (`messages[1].role`) is in the JSON text it was read from, as
 * line:column; the nearest enclosing value that is there when the field itself is not (a missing
 * key points at its object). Undefined when not even the first step is in the text. Called only to
 * build an error: it scans the text again, so reading a valid request costs nothing more.
 */
export function placeOfField(text: string, field: string): LineColumn | undefined {
  const path = pathOf(field);
  for (let n = path.length; n > 0; n--) {
    const offset = locatePath(text, path.slice(0, n));
    if (offset !== undefined) return lineColumn(text, offset);
  }
  return undefined;
}

export function locatePath(text: string, path: JsonPath): number | undefined {
  let pos = 0;
  const space = (): void => {
    while (pos < text.length && " \t\r\n".includes(text[pos] as string)) pos++;
  };
  const skipString = (): string => {
    const start = pos++;
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === "\\" ? 2 : 1;
    pos++;
    try {
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      return "";
    }
  };
  const skipValue = (): void => {
    space();
    const c = text[pos];
    if (c === '"') return void skipString();
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      pos++;
      for (space(); pos < text.length && text[pos] !== close; space()) {
        if (c === "{") {
          skipString();
          space();
          pos++; // ':'
        }
        skipValue();
        space();
        if (text[pos] === ",") pos++;
      }
      pos++;
      return;
    }
    while (pos < text.length && !",]} \t\r\n".includes(text[pos] as string)) pos++;
  };
  for (const step of path) {
    space();
    const c = text[pos];
    if (typeof step === "number" ? c !== "[" : c !== "{") return undefined;
    pos++;
    let found = false;
    for (let index = 0; !found; index++) {
      space();
      if (pos >= text.length || text[pos] === "]" || text[pos] === "}") return undefined;
      let match = index === step;
      if (c === "{") {
        match = skipString() === step;
        space();
        pos++; // ':'
      }
      if (match) found = true;
      else {
        skipValue();
        space();
        if (text[pos] === ",") pos++;
      }
    }
  }
  space();
  return pos < text.length ? pos : undefined;
}
