/** Why a tool schema cannot be used, before it is tied to the request field that holds it. */
export class SchemaProblem extends Error {
  constructor(
    message: string,
    readonly kind: "invalid" | "limit" = "invalid",
    /** The JSON pointer of the (first) wrong place in the schema, when the problem is at one (`/properties/x/type`). */
    readonly pointer?: string,
  ) {
    super(message);
    this.name = "SchemaProblem";
  }
}
