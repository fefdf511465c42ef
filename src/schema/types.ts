/** The result of checking one value against a compiled tool schema. */
export interface SchemaErrorDetail {
  /** JSON pointer into the value (`/city`), "" for the value itself. */
  instancePath: string;
  /** JSON pointer into the schema (`#/properties/city/type`). */
  schemaPath: string;
  keyword: string;
  message: string;
}

export type Validation = { ok: true } | { ok: false; message: string; details: SchemaErrorDetail[] };

export type ValueValidator = (value: unknown) => Validation;

/** One line for all errors, ajv-style: `arguments/city must be string, arguments must have required property 'unit'`. */
export function describeErrors(details: SchemaErrorDetail[]): string {
  return details.map((d) => `arguments${d.instancePath} ${d.message}`).join(", ");
}
