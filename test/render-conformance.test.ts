/**
 * Render conformance: every (fixture template, fixture conversation) pair goes through chatwire's public
 * API (src/index.ts), loadTemplate({chat_template, bos_token, eos_token}) then t.render(request, options), and must give
 * the bytes transformers gave (fixtures/render, made by scripts/gen-render-fixtures.py), or raise where
 * transformers raised, with the template's own message. The templates are the corpus (fixtures/templates)
 * and four published tokenizer_config.json files (fixtures/real-configs, `real-<name>`).
 *
 * Probe answers are checked both ways: our probes (run on our engine) must give the caps the Python
 * oracle found by rendering with transformers, and our normaliser, given the oracle's caps, must produce
 * the oracle's canonical conversation. A few conversations are also rendered with `polyfill: "auto"`.
 *
 * Each pair is also checked one step earlier: normalizeRequest must produce the canonical conversation
 * the Python oracle produced. A pair that fails only the render check is a renderer (jinja/template)
 * problem; one that fails both starts in request normalisation. The summary at the end counts each kind.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ChatwireError, loadTemplate, normalizeRequest, readJson } from "../src/index.js";
import { partRole } from "../src/template/caps.js";
import {
  loadConversations,
  loadExpected,
  loadNormalized,
  loadRealConfigs,
  loadTemplates,
  renderOptions,
  type ExpectedResult,
} from "../scripts/render-fixtures.mjs";

// strftime_now in the reference ran on a naive clock; read the pinned Date in UTC on every machine.
process.env.TZ = "UTC";

type Outcome = "identical" | "same_error" | "prompt_differs" | "error_differs" | "threw" | "did_not_throw";

const templates = [
  ...loadTemplates().map((t) => ({ name: t.name, chat_template: t.chat_template, config: { chat_template: t.chat_template, bos_token: t.bos_token, eos_token: t.eos_token } })),
  ...loadRealConfigs().map((r) => ({ name: r.name, chat_template: r.config.chat_template, config: r.config })),
];
const conversations = loadConversations(readJson);
const normalized = loadNormalized(readJson);
const outcomes: { template: string; conversation: string; outcome: Outcome; normalization: boolean; detail?: string }[] = [];

function describeError(e: unknown): string {
  if (e instanceof ChatwireError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Python raised; does our error say the same thing? (RecursionError is our recursion limit.) */
function sameError(expected: Extract<ExpectedResult, { error: string }>, actual: unknown): boolean {
  if (!(actual instanceof ChatwireError)) return false;
  if (expected.kind === "invalid_request") return actual.code === "invalid_request" && actual.field === expected.error;
  if (expected.kind === "RecursionError") return actual.code === "limit_exceeded";
  return actual.message.includes(expected.error);
}

for (const tpl of templates) {
  const expectedTemplate = loadExpected(tpl.name);
  const source = tpl.chat_template;
  const info = {
    readsContentParts: expectedTemplate.caps.readsContentParts,
    readsContentPartsIn: (role: string) => expectedTemplate.caps.contentPartsByRole[partRole(role)],
    readsArgumentsAsString: expectedTemplate.caps.readsArgumentsAsString === true,
    callContentAsNone: expectedTemplate.caps.callContentAsNone === true,
    callsOnePerMessage: expectedTemplate.caps.callsOnePerMessage === true,
    knowsDeveloperRole: source.includes("developer"),
    namesRole: (role: string) => source.includes(`'${role}'`) || source.includes(`"${role}"`),
  };
  describe(tpl.name, () => {
    let loaded: ReturnType<typeof loadTemplate> | undefined;
    const template = () => (loaded ??= loadTemplate(tpl.config as Parameters<typeof loadTemplate>[0]));

    it("probes its caps like the reference", async () => {
      const caps = (await template()).caps;
      const probed = {
        readsContentParts: caps.readsContentParts,
        contentPartsByRole: caps.contentPartsByRole,
        readsArgumentsAsString: caps.readsArgumentsAsString,
        callContentAsNone: caps.callContentAsNone,
        callsOnePerMessage: caps.callsOnePerMessage,
        supportsSystem: caps.supportsSystem,
        rendersToolDefinitions: caps.rendersToolDefinitions,
        rendersToolDefinitionsAfterSystem: caps.rendersToolDefinitionsAfterSystem,
        rendersToolCalls: caps.rendersToolCalls,
        rendersToolResults: caps.rendersToolResults,
      };
      expect(probed).toEqual(expectedTemplate.caps);
    });

    for (const [convName, expected] of Object.entries(expectedTemplate.auto ?? {})) {
      const conv = conversations.find((c) => c.name === convName);
      it(`${convName}: with polyfill "auto", renders like transformers on the oracle's rewrite`, async () => {
        if (conv === undefined) throw new Error(`no conversation ${convName}`);
        const render = async () => (await template()).render(conv.request, { ...renderOptions(conv.options), polyfill: "auto" });
        if ("prompt" in expected) expect(await render()).toBe(expected.prompt);
        else {
          const thrown = await render().then(() => undefined, (e: unknown) => e);
          expect(thrown, `expected ${expected.kind}: ${expected.error}`).toBeInstanceOf(ChatwireError);
          expect(sameError(expected, thrown)).toBe(true);
        }
      });
    }

    for (const conv of conversations) {
      const expected = expectedTemplate.pairs[conv.name];
      if (expected === undefined) throw new Error(`no reference for ${tpl.name} x ${conv.name}: rerun scripts/gen-render-fixtures.py`);
      const record = { template: tpl.name, conversation: conv.name, normalization: true };

      it(`${conv.name}: normalises like the reference`, () => {
        if (!("error" in expected && expected.kind === "invalid_request")) {
          const reference = normalized[conv.name]![expected.input ?? -1];
          if (reference === undefined) throw new Error(`fixture ${tpl.name} x ${conv.name} has no normalised input`);
          let ours: ReturnType<typeof normalizeRequest> | undefined;
          // A pair the reference rendered in another tool-call shape than the probed one (the fallback) was
          // normalised in that shape.
          const shaped = "shape" in expected && expected.shape !== undefined ? { ...info, callContentAsNone: expected.shape.contentNone, readsArgumentsAsString: expected.shape.argumentsAsString } : info;
          try {
            ours = normalizeRequest(conv.request, shaped);
            expect({ messages: ours.messages, tools: ours.tools ?? null }).toEqual(reference);
          } catch (e) {
            record.normalization = false;
            throw e;
          }
        } else {
          // The reference rejected the request itself: we must reject it naming the same field.
          let thrown: unknown;
          try {
            normalizeRequest(conv.request, info);
          } catch (e) {
            thrown = e;
          }
          record.normalization = thrown instanceof ChatwireError && thrown.field === expected.error;
          expect(thrown).toBeInstanceOf(ChatwireError);
          expect((thrown as ChatwireError).field).toBe(expected.error);
        }
      });

      it(`${conv.name}: renders like the reference`, async () => {
        let prompt: string | undefined;
        let thrown: unknown;
        try {
          prompt = (await template()).render(conv.request, renderOptions(conv.options));
        } catch (e) {
          thrown = e;
        }
        let outcome: Outcome;
        let detail: string | undefined;
        if ("prompt" in expected) {
          outcome = thrown !== undefined ? "threw" : prompt === expected.prompt ? "identical" : "prompt_differs";
          if (thrown !== undefined) detail = describeError(thrown);
        } else {
          outcome = thrown === undefined ? "did_not_throw" : sameError(expected, thrown) ? "same_error" : "error_differs";
          detail = thrown === undefined ? `expected ${expected.kind}: ${expected.error}` : `expected "${expected.error}", got ${describeError(thrown)}`;
        }
        outcomes.push({ ...record, outcome, ...(detail === undefined ? {} : { detail }) });

        if ("prompt" in expected) {
          if (thrown !== undefined) throw thrown;
          expect(prompt).toBe(expected.prompt);
        } else {
          expect(thrown, `expected ${expected.kind}: ${expected.error}`).toBeInstanceOf(ChatwireError);
          expect(sameError(expected, thrown), detail).toBe(true);
        }
      });
    }
  });
}

afterAll(() => {
  const count = (o: Outcome) => outcomes.filter((r) => r.outcome === o).length;
  const total = templates.length * conversations.length;
  const rendered = outcomes.filter((r) => r.outcome === "identical" || r.outcome === "prompt_differs" || r.outcome === "threw").length;
  const summary = {
    pairs: total,
    checked: outcomes.length,
    referenceRendered: rendered,
    identical: count("identical"),
    sameError: count("same_error"),
    promptDiffers: count("prompt_differs"),
    threw: count("threw"),
    errorDiffers: count("error_differs"),
    didNotThrow: count("did_not_throw"),
    normalizationDiffers: outcomes.filter((r) => !r.normalization).length,
  };
  console.log(
    `render conformance: ${summary.identical}/${rendered} rendered pairs byte-identical, ` +
      `${summary.sameError}/${outcomes.length - rendered} reference errors matched ` +
      `(${summary.promptDiffers} differ, ${summary.threw} threw, ${summary.errorDiffers} other error, ` +
      `${summary.didNotThrow} did not throw; ${summary.normalizationDiffers} normalisation differs)`,
  );
  // Recorded for the README and the lead: which pairs fail and how (not committed; .tmp is ignored).
  mkdirSync(".tmp", { recursive: true });
  const failures = outcomes.filter((r) => r.outcome !== "identical" && r.outcome !== "same_error");
  writeFileSync(".tmp/render-conformance.json", JSON.stringify({ summary, failures }, null, 1) + "\n");
});
