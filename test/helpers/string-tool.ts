/** A tool declaration whose parameters are all required, typed as given (the tolerance tests' tools). */
export function toolWith(name: string, props: Record<string, unknown>): { type: "function"; function: { name: string; parameters: Record<string, unknown> } } {
  return { type: "function", function: { name, parameters: { type: "object", properties: props, required: Object.keys(props) } } };
}

/** `toolWith` for string parameters only. */
export function stringTool(name: string, ...keys: string[]): ReturnType<typeof toolWith> {
  return toolWith(name, Object.fromEntries(keys.map((k) => [k, { type: "string" }])));
}
