/**
 * Checks on what the template prints: every battery conversation renders (or what it raised), renders
 * are deterministic, the clock is reported, the prefix property, and nothing is printed as None/null.
 */
import { battery, type BatteryCase } from "./battery.js";
import { around, firstDifference, type CheckContext } from "./context.js";
import type { ConversationResult } from "./types.js";

export function checkRenders(ctx: CheckContext): ConversationResult[] {
  const results: ConversationResult[] = [];
  for (const c of battery(ctx.template.caps.variables)) {
    const first = ctx.renderCase(c);
    if ("error" in first) {
      results.push({ name: c.name, error: first.error });
      ctx.add({ check: "renders", severity: "info", conversation: c.name, message: `the template raises: ${first.error}` });
      continue;
    }
    results.push({ name: c.name, chars: first.prompt.length });
    const second = ctx.renderCase(c);
    if ("prompt" in second && second.prompt !== first.prompt) {
      const at = firstDifference(first.prompt, second.prompt);
      ctx.add({ check: "determinism", severity: "error", conversation: c.name, message: "two renders of the same request differ", bytes: { offset: at, context: around(first.prompt, at), expected: around(second.prompt, at) } });
    }
    checkNonePrinted(ctx, c, first.prompt);
  }
  // Raising on some conversations is often by design (strict role order, a tool_use variant that needs
  // tools); raising on both basic ones means nobody can use the template.
  const basic = results.filter((r) => r.name === "user-only" || r.name === "tools-declared");
  if (basic.every((r) => r.error !== undefined)) {
    ctx.add({ check: "renders", severity: "error", message: `the template renders neither a one-message conversation nor one with tools declared (${basic[0]?.error ?? ""})` });
  }
  if (/strftime_now|now\(\)/.test(ctx.template.source)) {
    ctx.add({ check: "clock", severity: "info", message: "the template reads the clock (strftime_now): the prompt changes with the date, which defeats prompt caches across days" });
  }
  return results;
}

/**
 * `None` / `null` in the prompt where the request has no such text: the template printed a missing value
 * (an assistant turn with `content: null`, an absent field).
 */
function checkNonePrinted(ctx: CheckContext, c: BatteryCase, prompt: string): void {
  const data = JSON.stringify(c.request);
  // A JSON `null` inside printed JSON (`"responses": null` in a tool list) is a value, not a missing one.
  for (const [word, pattern] of [["None", /(?<![A-Za-z_])None(?![A-Za-z_])/], ["null", /(?<![:,[]\s?)(?<![A-Za-z_])null(?![A-Za-z_])/]] as const) {
    if (data.includes(word)) continue;
    const at = prompt.search(pattern);
    if (at < 0) continue;
    ctx.add({ check: "none-printed", severity: "warning", conversation: c.name, message: `the prompt contains ${word} where the request has none: a missing value was printed`, bytes: { offset: at, context: around(prompt, at) } });
  }
}

/**
 * The prefix property serving with a prompt cache relies on: the next turn's prompt starts with this
 * turn's prompt, so the model's answer continues it. Templates whose generation prompt opens something
 * the history does not print (`<think>\n`, an empty thought channel) break it on every turn.
 */
export function checkPrefix(ctx: CheckContext): void {
  const messages = [{ role: "user", content: "What is 2+2?" }];
  const prompt = ctx.render({ messages });
  const history = ctx.render({ messages: [...messages, { role: "assistant", content: "It is 4." }, { role: "user", content: "Thanks!" }] });
  if ("error" in prompt || "error" in history) return; // reported by the renders check
  if (history.prompt.startsWith(prompt.prompt)) return;
  const at = firstDifference(prompt.prompt, history.prompt);
  ctx.add({
    check: "prefix",
    severity: "warning",
    conversation: "user-only + answer",
    message: `the next turn's prompt does not start with this turn's prompt (first difference at character ${at}): a prompt cache is invalidated every turn`,
    bytes: { offset: at, context: around(history.prompt, at), expected: around(prompt.prompt, at) },
  });
}
