export const ROOT: string;
export const BLOCK: RegExp;
export function wildEntryFacts(root?: string): { key: string; format: string; deviation: string; source: string }[];
export function wildCountsBlock(root?: string): string;
export function writeWildCounts(root?: string): boolean;
