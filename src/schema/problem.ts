/** Why a tool schema cannot be used, before it is tied to the request field that holds it. */
export class SchemaProblem extends Error {
  constructor(
    message: string,
    readonly kind: "invalid" | "limit" = "invalid",
  ) {
    super(message);
    this.name = "SchemaProblem";
  }
}
