/** What the served inspector tells the page (GET api/session) and how it tokenizes (POST api/tokens). */
import type { TemplateConfig } from "../template/core.js";

export interface InspectSession {
  /** The `--template SRC` template, as an in-memory config, and where it came from. */
  template?: { config: TemplateConfig; origin: string; templateName?: string };
  /** True when `--tokenizer FILE` (or the model folder's tokenizer.json) was given. */
  tokenizer: boolean;
  /** The tokenizer's added tokens (special-token texts), for highlighting. */
  specialTexts: string[];
}

export interface TokensRequest {
  template: TemplateConfig;
  templateName?: string;
  request: unknown;
  addGenerationPrompt: boolean;
  polyfill: "auto" | "always" | "never";
}

export interface TokensResponse {
  ids: number[];
  /** Each id's text (special tokens as written). */
  pieces: string[];
  /** Which ids are special (added) tokens. */
  special: boolean[];
}
