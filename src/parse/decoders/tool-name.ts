/** What the tagged and XML decoders accept as a tool name from a tag or the region's leading text. */

/** A tool name has no spaces, quotes or brackets (prose after `<tool_call>` is not a name). */
export function isToolName(name: string): boolean {
  return name !== "" && !/[\s"'`<>(){}[\],;]/.test(name);
}
