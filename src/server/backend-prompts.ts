/**
 * A PromptTokenizer that asks llama-server itself, for a model served without a tokenizer.json or
 * .gguf at hand. At start-up the template's special-token candidates (`<|im_start|>`, `[INST]`, its
 * bos/eos...) are probed: a text is special when `/tokenize` with `parse_special` gives one id and
 * without it something else. Per request the prompt is cut into segments (src/tokens segments.ts): the
 * special tokens the template wrote are tokenized with `parse_special: true`, everything else (template
 * text and request data, where such text is ordinary) with `parse_special: false`. The requests go
 * through the server's backend transport: its timeout, abort on client disconnect, 502 on failure.
 */
import type { ChatTemplate } from "../template/index.js";
import { candidateSpecialTexts, probeSpecialTexts, renderSegments, tokenizeSegments, type SpecialTexts, type TextTokenizer } from "../tokens/index.js";
import { BackendError } from "./backends/types.js";
import { backendJson, type TransportOptions } from "./backends/transport.js";
import type { EncodedPrompt, PromptTokenizer } from "./prompt-tokens.js";

function idsOf(json: unknown, path: string): number[] {
  const tokens = (json as { tokens?: unknown } | null)?.tokens;
  if (!Array.isArray(tokens) || !tokens.every((t) => Number.isSafeInteger(t))) throw new BackendError(`the backend's ${path} answer has no "tokens" list of ids`);
  return tokens as number[];
}

function textTokenizer(transport: TransportOptions, signal: AbortSignal): TextTokenizer {
  return {
    tokenize: async (text, parseSpecial) => idsOf(await backendJson("/tokenize", { content: text, add_special: false, parse_special: parseSpecial }, transport, signal), "/tokenize"),
  };
}

/**
 * Probes the backend's special tokens for `template`; fails (502) when the backend has no /tokenize,
 * or cannot be reached (see waitingBackendPrompts for a server that starts before its backend).
 */
export async function backendPrompts(template: ChatTemplate, transport: TransportOptions, stop?: AbortSignal): Promise<PromptTokenizer> {
  const timeout = AbortSignal.timeout(Math.min(transport.timeoutMs, 30_000));
  const startup = stop === undefined ? timeout : AbortSignal.any([stop, timeout]);
  const specials: SpecialTexts = await probeSpecialTexts(candidateSpecialTexts(template.source, template.specialTokens), textTokenizer(transport, startup));
  const specialIds = new Set<number>();
  for (const text of specials.texts) for (const id of await textTokenizer(transport, startup).tokenize(text, true)) specialIds.add(id);
  return {
    source: `backend ${transport.baseUrl}/tokenize (special tokens: ${specials.texts.join(" ") || "none"})`,
    async encode(t: ChatTemplate, body: Record<string, unknown>, signal: AbortSignal): Promise<EncodedPrompt> {
      const segments = renderSegments(t, body, specials);
      const ids = await tokenizeSegments(segments, textTokenizer(transport, signal));
      return { text: segments.map((s) => s.text).join(""), ids };
    },
    tokenize: (text, special, signal) => Promise.resolve(textTokenizer(transport, signal).tokenize(text, special)),
    async detokenize(ids, signal) {
      const json = await backendJson("/detokenize", { tokens: ids }, transport, signal);
      const content = (json as { content?: unknown } | null)?.content;
      if (typeof content !== "string") throw new BackendError('the backend\'s /detokenize answer has no "content" text');
      return content;
    },
    isControl: (id) => specialIds.has(id),
  };
}
