/**
 * JSON text with object keys sorted, so two values compare equal exactly when they hold the same data:
 * argument key order is the model's (or template's) choice, not a difference.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A call's arguments text parsed, or the text itself when it is not JSON (it then equals no JSON value). */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
