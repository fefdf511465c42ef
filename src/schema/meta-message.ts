/**
 * The message for a schema the draft-07 meta-schema refuses, as a person reads it: per wrong place,
 * its JSON pointer, the value found there, and what is allowed. Both validators report a wrong `type`
 * three times (not one of the type names, not an array of them, "must match a schema in anyOf"); the
 * anyOf summary and its alternatives are noise next to the one fact, `"strng"` is not a type.
 */
export interface MetaError {
  instancePath: string;
  message: string;
}

import { SchemaProblem } from "./problem.js";

const TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

const SUMMARY = /must match (?:a schema in anyOf|exactly one schema in oneOf)|must be array|did not match|anyOf|oneOf/i;

function at(schema: unknown, pointer: string): unknown {
  let node = schema;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const ARTICLE: Record<string, string> = { array: "an array", boolean: "a boolean", integer: "an integer", null: "null", number: "a number", object: "an object", string: "a string" };

/**
 * One wording whichever validator checked the schema (ajv: `must be object,boolean`; cfworker:
 * `Instance type "string" is invalid. Expected "object", "boolean".`): `must be an object or a
 * boolean`. Where a schema was expected and the value is a type name (`"x": "string"` among
 * `properties`), it says what was meant.
 */
function sameWords(message: string, value: unknown): string {
  const ajvTypes = /^must be ([a-z]+(?:,[a-z]+)*)$/.exec(message)?.[1]?.split(",");
  const cfTypes = /^Instance type "\w+" is invalid\. Expected ((?:"\w+"(?:, )?)+)\.$/.exec(message)?.[1]?.match(/\w+/g) ?? undefined;
  const types = ajvTypes ?? cfTypes;
  if (types !== undefined && types.every((t) => ARTICLE[t] !== undefined)) {
    const words = `must be ${types.map((t) => ARTICLE[t]).join(" or ")}`;
    const schemaMeant = types.includes("object") && types.includes("boolean") && typeof value === "string" && TYPES.includes(value);
    return schemaMeant ? `${words} (a schema: write {"type": ${JSON.stringify(value)}})` : words;
  }
  // cfworker says `-1 is less than 0.` where ajv says `must be >= 0`.
  const less = /^\S+ is less than (\S+)\.$/.exec(message)?.[1];
  if (less !== undefined) return `must be >= ${less}`;
  return message;
}

/** The problem with a schema the meta-schema refuses: the message, and the pointer of its first wrong place. */
export function metaSchemaProblem(schema: unknown, errors: readonly MetaError[]): SchemaProblem {
  const { message, pointer } = metaSchemaMessage(schema, errors);
  return new SchemaProblem(message, "invalid", pointer);
}

function metaSchemaMessage(schema: unknown, errors: readonly MetaError[]): { message: string; pointer: string | undefined } {
  const byPath = new Map<string, string[]>();
  for (const e of errors) {
    const path = e.instancePath || "";
    byPath.set(path, [...(byPath.get(path) ?? []), e.message]);
  }
  const paths = [...byPath.keys()];
  const parts: string[] = [];
  let first: string | undefined;
  for (const [path, messages] of byPath) {
    // A deeper error explains this one (an array `type` with one bad member, an anyOf above it).
    if (paths.some((p) => p !== path && p.startsWith(`${path}/`))) continue;
    first ??= path;
    const value = at(schema, path);
    const shown = value === undefined ? "" : ` ${JSON.stringify(value)}`;
    const where = path || "/";
    if (/(^|\/)type(\/\d+)?$/.test(path) && (typeof value === "string" || Array.isArray(value))) {
      parts.push(`${where}:${shown} is not a JSON Schema type (allowed: ${TYPES.map((t) => `"${t}"`).join(", ")}, or an array of them)`);
      continue;
    }
    const plain = messages.filter((m) => !SUMMARY.test(m));
    parts.push(`${where}:${shown} ${[...new Set((plain.length > 0 ? plain : messages).map((m) => sameWords(m, value)))].join(", ")}`);
  }
  return { message: `not a valid JSON Schema: ${parts.join("; ")}`, pointer: first };
}
