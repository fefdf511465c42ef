export const ROOT: string;
export const TARGET: string;
export function embeddedSource(root?: string): string;
