/**
 * The runtime alone against the render conformance fixtures: each fixture template rendered with the
 * conversation chatwire's request normaliser produces, bypassing the template layer (caps, polyfills,
 * loaders), so a mismatch here is most likely a Jinja runtime problem. Pairs that need the template layer
 * (continue_final_message, rejected requests) are left to test/render-conformance.test.ts.
 */
import { describe, expect, it } from "vitest";
import { compileTemplate } from "../../src/jinja/index.js";
import { readJson } from "../../src/request/read-json.js";
import { normalizeRequest } from "../../src/request/index.js";
import { requestVariables } from "../../src/request/variables.js";
import { partRole } from "../../src/template/caps.js";
import { FIXED_NOW, loadConversations, loadExpected, loadTemplates } from "../../scripts/render-fixtures.mjs";

process.env.TZ = "UTC";

/** The first differing stretch of two prompts, short enough to read in a failure message. */
function firstDifference(ours: string, reference: string): string {
  let i = 0;
  while (i < ours.length && ours[i] === reference[i]) i++;
  const from = Math.max(0, i - 60);
  return `at ${i}: ours ${JSON.stringify(ours.slice(from, i + 60))} vs reference ${JSON.stringify(reference.slice(from, i + 60))}`;
}

const templates = loadTemplates();
const conversations = loadConversations(readJson);

for (const tpl of templates) {
  const expected = loadExpected(tpl.name);
  describe(tpl.name, () => {
    for (const conv of conversations) {
      const result = expected.pairs[conv.name];
      if (result === undefined || result.input === undefined || conv.options.continueFinalMessage) continue;
      it(conv.name, () => {
        // Normalised by chatwire (the fixture's own copy has sorted keys, and key order shows in prompts).
        const n = normalizeRequest(conv.request, {
          readsContentParts: expected.caps.readsContentParts,
          readsContentPartsIn: (role) => expected.caps.contentPartsByRole[partRole(role)],
          // A pair the reference rendered in another tool-call shape (the render's fallback) says which.
          readsArgumentsAsString: "shape" in result && result.shape !== undefined ? result.shape.argumentsAsString : expected.caps.readsArgumentsAsString === true,
          callContentAsNone: "shape" in result && result.shape !== undefined ? result.shape.contentNone : expected.caps.callContentAsNone === true,
          callsOnePerMessage: expected.caps.callsOnePerMessage === true,
          knowsDeveloperRole: tpl.chat_template.includes("developer"),
          namesRole: (role) => tpl.chat_template.includes(`'${role}'`) || tpl.chat_template.includes(`"${role}"`),
        });
        const input = { messages: n.messages, tools: n.tools ?? null };
        // Request fields that are variables (documents, reasoning_effort), then the options' own.
        const all = { ...requestVariables(conv.request), ...conv.options.variables } as Record<string, unknown>;
        const { documents = null, ...variables } = all;
        const context = {
          messages: input.messages,
          tools: input.tools,
          documents,
          add_generation_prompt: conv.options.addGenerationPrompt ?? true,
          bos_token: tpl.bos_token,
          eos_token: tpl.eos_token,
          ...variables,
        };
        const render = () => compileTemplate(tpl.chat_template).render(context, { now: () => FIXED_NOW });
        if ("prompt" in result) {
          const ours = render();
          if (ours !== result.prompt) expect(firstDifference(ours, result.prompt)).toBe("");
        }
        else if (result.kind !== "RecursionError") expect(render).toThrow(result.error);
        else expect(render).toThrow();
      });
    }
  });
}
