/**
 * Call ids for calls whose model wrote none. OpenAI style is `call_` + 24 alphanumerics; Mistral
 * templates raise unless an id is exactly 9 alphanumerics. Randomness comes from crypto (available in
 * Node >= 20 and browsers); tests inject a deterministic generator instead.
 */
import type { IdStyle } from "./language.js";

/** Mistral's call ids: exactly this many alphanumerics (its templates raise on anything else). */
export const MISTRAL_ID_LENGTH = 9;
const MISTRAL_ID = new RegExp(`^[A-Za-z0-9]{${MISTRAL_ID_LENGTH}}$`);

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Random bytes drawn from crypto 4 KB at a time: a getRandomValues call per id cost more than the rest
 * of the id (a served request makes two or more), and the bytes are as random either way.
 */
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;

export function randomAlphanumeric(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    if (poolAt === POOL.length) {
      globalThis.crypto.getRandomValues(POOL);
      poolAt = 0;
    }
    // 62 does not divide 256; the bias (<1%) does not matter for ids.
    out += ALPHANUMERIC[(POOL[poolAt++] as number) % ALPHANUMERIC.length];
  }
  return out;
}

/**
 * Whether a call id the model wrote can be used as it is: Mistral's next-turn template raises on
 * anything but 9 alphanumerics (then the engine makes one); other formats take any non-blank id
 * without control characters.
 */
export function validId(style: IdStyle = "openai", id: string): boolean {
  if (style === "mistral") return MISTRAL_ID.test(id);
  return /\S/.test(id) && !/[\u0000-\u001f]/.test(id);
}

function openaiId(): string {
  return `call_${randomAlphanumeric(24)}`;
}

/**
 * The id maker for a format. An injected generator gives OpenAI-style ids; for Mistral its output is
 * cut to its last 9 alphanumerics, so tests stay deterministic and ids stay valid for the template.
 */
export function idsFor(style: IdStyle = "openai", generator: () => string = openaiId): () => string {
  if (style !== "mistral") return generator;
  return () => {
    const alnum = generator().replace(/[^A-Za-z0-9]/g, "");
    return alnum.length >= MISTRAL_ID_LENGTH ? alnum.slice(-MISTRAL_ID_LENGTH) : alnum.padStart(MISTRAL_ID_LENGTH, "0");
  };
}
