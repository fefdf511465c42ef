/**
 * Where a field of a JSON text is: the offset of the value at a path such as
 * `tools[0].function.parameters` (the `field` a ChatwireError names), optionally followed by a JSON
 * pointer into it (`/properties/a/type`, as schema errors give). The CLI turns it into line:column,
 * so an error about a request field points into the file the user wrote. Undefined when the text
 * does not have that path (or is not JSON). A plain scan: strings, numbers and literals are skipped,
 * only the containers on the path are entered.
 */
export type JsonPath = readonly (string | number)[];

/** `tools[0].function.parameters` and `/properties/a~1b/type` as one path. */
export function pathOf(field: string, pointer = ""): JsonPath {
  const path: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) path.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    path.push(/^\d+$/.test(key) ? Number(key) : key);
  }
  return path;
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
