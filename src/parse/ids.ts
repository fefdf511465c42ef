/**
 * Call ids for calls whose model wrote none. OpenAI style is `call_` + 24 alphanumerics; Mistral
 * templates raise unless an id is exactly 9 alphanumerics. Randomness comes from crypto (available in
 * Node >= 20 and browsers); tests inject a deterministic generator instead.
 */
import type { IdStyle } from "../formats/types.js";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomAlphanumeric(length: number): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  let out = "";
  // 62 does not divide 256; the bias (<1%) does not matter for ids.
  for (const b of bytes) out += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return out;
}

export function defaultIdGenerator(style: IdStyle = "openai"): () => string {
  return style === "mistral" ? () => randomAlphanumeric(9) : () => `call_${randomAlphanumeric(24)}`;
}
