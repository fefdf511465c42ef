/** What the served inspector tells the page (GET api/session) and how it tokenizes (POST api/tokens). */
import type { TemplateConfig } from "../template/core.js";
import type { AddedText } from "./provenance.js";

export interface InspectSession {
  /** The `--template SRC` template, as an in-memory config, and where it came from. */
  template?: { config: TemplateConfig; origin: string; templateName?: string };
  /** True when `--tokenizer FILE` (or the model folder's tokenizer.json) was given. */
  tokenizer: boolean;
  /** The tokenizer's added tokens with their class, for marking the prompt; none without a tokenizer. */
  addedTokens: AddedText[];
}

export interface TokensRequest {
  template: TemplateConfig;
  templateName?: string;
  request: unknown;
  addGenerationPrompt: boolean;
  polyfill: "auto" | "always" | "never";
}

export type TokenKind = "special" | "added" | "text";

export interface TokensResponse {
  ids: number[];
  /** Each id's text (special tokens as written). */
  pieces: string[];
  /** Each id's class, as the tokenizer has it: a special token, a (non-special) added token, or text. */
  kinds: TokenKind[];
}
