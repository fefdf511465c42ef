/**
 * Render -> token ids end to end: chatwire renders the protected request (renderTokens) and must give the
 * ids Python computed by rendering with transformers and tokenising with the Rust library.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadTemplate, readJson } from "../src/index.js";
import { loadTokenizer, renderTokens, type ChatTokenizer, type TokenizerJson } from "../src/tokens/index.js";
import { loadConversations, loadTemplates, renderOptions } from "../scripts/render-fixtures.mjs";

process.env.TZ = "UTC";

const read = (p: string) => readFileSync(new URL(`../fixtures/tokenizer/${p}`, import.meta.url), "utf8");
const tokenizers = new Map<string, ChatTokenizer>();
for (const f of ["tokenizer.json", "tokenizer-metaspace.json"]) tokenizers.set(f, await loadTokenizer(JSON.parse(read(f)) as TokenizerJson));
const cases = JSON.parse(read("expected.json")) as { tokenizer: string; template: string; conversation: string; ids: number[]; idsAdded: number[]; idsAll: number[] }[];
const templates = new Map(loadTemplates().map((t) => [t.name, t]));
const conversations = new Map(loadConversations(readJson).map((c) => [c.name, c]));

describe("renderTokens", () => {
  for (const c of cases) {
    it(`${c.tokenizer}: ${c.template} x ${c.conversation}`, async () => {
      const tokenizer = tokenizers.get(c.tokenizer)!;
      const tpl = templates.get(c.template)!;
      const conv = conversations.get(c.conversation)!;
      const t = await loadTemplate({ chat_template: tpl.chat_template, bos_token: tpl.bos_token, eos_token: tpl.eos_token });
      const options = renderOptions(conv.options);
      const result = renderTokens(t, conv.request, tokenizer, options);
      expect(result.ids).toEqual(c.ids);
      expect(result.prompt).toBe(t.render(conv.request, options));
      expect(t.renderTokens(conv.request, tokenizer, { ...options, protect: "added" }).ids).toEqual(c.idsAdded);
      expect(renderTokens(t, conv.request, tokenizer, { ...options, protect: "none" }).ids).toEqual(c.idsAll);
    });
  }
});
