/** Types for render-fixtures.mjs (the loader is plain JS so the benchmark and scripts can use it unbuilt). */
export declare const FIXTURES: string;
export declare const FIXED_NOW: Date;

export interface FixtureTemplate {
  name: string;
  chat_template: string;
  bos_token: string;
  eos_token: string;
}
export interface FixtureOptions {
  addGenerationPrompt?: boolean;
  continueFinalMessage?: boolean;
  variables?: Record<string, unknown>;
}
export interface FixtureConversation {
  name: string;
  request: Record<string, unknown>;
  options: FixtureOptions;
}
export type ExpectedResult =
  | { prompt: string; input: number; shape?: { contentNone: boolean; argumentsAsString: boolean } }
  | { error: string; kind: string; input?: number };
export interface ExpectedCaps {
  readsContentParts: boolean;
  contentPartsByRole: { user: boolean; system: boolean; assistant: boolean; tool: boolean };
  readsArgumentsAsString?: boolean;
  callContentAsNone?: boolean;
  callsOnePerMessage?: boolean;
  supportsSystem?: boolean;
  rendersToolDefinitions?: boolean;
  rendersToolDefinitionsAfterSystem?: boolean;
  rendersToolCalls?: boolean;
  rendersToolResults?: boolean;
}
export interface ExpectedTemplate {
  caps: ExpectedCaps;
  pairs: Record<string, ExpectedResult>;
  /** Renders with `polyfill: "auto"` for a few conversations. */
  auto?: Record<string, ExpectedResult>;
}
export interface RealConfig {
  name: string;
  config: { chat_template: string; [token: string]: unknown };
}
export interface NormalizedConversation {
  messages: Record<string, unknown>[];
  tools: Record<string, unknown>[] | null;
}

export declare function loadTemplates(): FixtureTemplate[];
export declare function loadRealConfigs(): RealConfig[];
export declare function loadConversations(parseJson?: (text: string) => unknown): FixtureConversation[];
export declare function loadExpected(templateName: string): ExpectedTemplate;
export declare function loadNormalized(parseJson?: (text: string) => unknown): Record<string, NormalizedConversation[]>;
export declare function renderOptions(options: FixtureOptions): FixtureOptions & { now: Date };
