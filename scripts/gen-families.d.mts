export const ROOT: string;
export const GENERATED: string;
export function familyExports(root?: string): { file: string; name: string }[];
export function familiesSource(root?: string): string;
export function writeFamilies(root?: string): boolean;
