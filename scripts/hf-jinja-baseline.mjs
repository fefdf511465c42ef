#!/usr/bin/env node
/**
 * The comparison point for the conformance suite: render every fixture pair with plain
 * @huggingface/jinja (no chatwire), given exactly the canonical conversation transformers was given
 * (fixtures/render/_normalized.json, read with JSON.parse as a plain client would), and count how many
 * prompts are byte-identical to the reference. The clock is pinned like the reference's, and
 * continue_final_message uses transformers' own trick (tag the last message, cut the prompt at the tag),
 * so what is measured is the template engine, not missing plumbing. Usage: node scripts/hf-jinja-baseline.mjs [--verbose]
 */
import { Template } from "@huggingface/jinja";
import { FIXED_NOW, loadConversations, loadExpected, loadNormalized, loadTemplates } from "./render-fixtures.mjs";

// @huggingface/jinja's strftime_now reads `new Date()` with local getters and cannot be overridden from
// the render context, so this comparison script pins the process clock instead.
process.env.TZ = "UTC";
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...args) {
    super(...(args.length === 0 ? [FIXED_NOW.getTime()] : args));
  }
};

const TAG = "CONTINUE_FINAL_MESSAGE_TAG ";
const tagFinalMessage = (messages) => [...messages.slice(0, -1), { ...messages.at(-1), content: messages.at(-1).content + TAG }];
function cutAtTag(prompt) {
  const at = prompt.lastIndexOf(TAG.trim());
  if (at < 0) throw new Error("continue_final_message: the final message does not appear in the prompt");
  return prompt.startsWith(TAG, at) ? prompt.slice(0, at) : prompt.slice(0, at).trimEnd();
}

const verbose = process.argv.includes("--verbose");
const conversations = loadConversations();
const normalized = loadNormalized();
const tally = { pairs: 0, referenceRendered: 0, identical: 0, differs: 0, threw: 0, referenceRaised: 0, raisedToo: 0 };

for (const tpl of loadTemplates()) {
  const { pairs } = loadExpected(tpl.name);
  let compiled;
  try {
    compiled = new Template(tpl.chat_template);
  } catch (e) {
    compiled = e;
  }
  for (const conv of conversations) {
    tally.pairs++;
    const expected = pairs[conv.name];
    const input = expected.input === undefined ? undefined : normalized[conv.name][expected.input];
    let prompt;
    let error;
    try {
      if (compiled instanceof Error) throw compiled;
      if (input === undefined) throw new Error("request rejected by normalisation");
      const messages = conv.options.continueFinalMessage ? tagFinalMessage(input.messages) : input.messages;
      prompt = compiled.render({
        messages,
        tools: input.tools ?? undefined,
        documents: null,
        add_generation_prompt: conv.options.addGenerationPrompt ?? true,
        bos_token: tpl.bos_token,
        eos_token: tpl.eos_token,
        ...conv.options.variables,
      });
      if (conv.options.continueFinalMessage) prompt = cutAtTag(prompt);
    } catch (e) {
      error = e;
    }
    if ("prompt" in expected) {
      tally.referenceRendered++;
      if (error !== undefined) tally.threw++;
      else if (prompt === expected.prompt) tally.identical++;
      else tally.differs++;
      if (verbose && prompt !== expected.prompt) console.log(`${tpl.name} x ${conv.name}: ${error ? `threw ${error.message}` : "differs"}`);
    } else {
      tally.referenceRaised++;
      if (error !== undefined) tally.raisedToo++;
    }
  }
}

const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`;
console.log(
  `@huggingface/jinja baseline over ${tally.pairs} pairs: ${tally.identical}/${tally.referenceRendered} reference prompts ` +
    `byte-identical (${pct(tally.identical, tally.referenceRendered)}), ${tally.differs} differ, ` +
    `${tally.threw} threw (${pct(tally.threw, tally.referenceRendered)}); ` +
    `${tally.raisedToo}/${tally.referenceRaised} reference errors also raised`,
);
