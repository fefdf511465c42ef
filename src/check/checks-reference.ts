/**
 * Byte comparison with Python transformers, through a caller-supplied renderer (the CLI spawns the
 * Python named by --reference). Each job is the conversation as chatwire normalised it for this
 * template, so what is compared is the template engine, byte for byte.
 */
import { PyFloat } from "../jinja/py-float.js";
import { battery } from "./battery.js";
import { CHECK_NOW, around, firstDifference, type CheckContext } from "./context.js";

export interface ReferenceJob {
  chat_template: string;
  messages: unknown[];
  tools?: unknown[];
  add_generation_prompt: boolean;
  continue_final_message: boolean;
  special_tokens: Record<string, string>;
  variables: Record<string, unknown>;
  /** ISO time the reference must pin `strftime_now` to (the check's own clock). */
  now: string;
}

/** The reference's answer for one job: its prompt, or the message it raised. */
export type ReferenceResult = { prompt: string } | { error: string };

export type ReferenceRenderer = (jobs: ReferenceJob[]) => Promise<ReferenceResult[]>;

/** JSON text for a job: PyFloat goes as `1.0`, so Python reads the float chatwire rendered. */
export function jobsToJson(jobs: ReferenceJob[]): string {
  const marked = JSON.stringify(jobs, (_k, v: unknown) => (v instanceof PyFloat ? `\u0000pyfloat:${v.value}` : v));
  return marked.replace(/"\\u0000pyfloat:(-?[0-9.e+-]+)"/g, (_m, n: string) => (n.includes(".") || n.includes("e") ? n : `${n}.0`));
}

export async function checkReference(ctx: CheckContext, reference: ReferenceRenderer): Promise<void> {
  const cases = battery(ctx.template.caps.variables);
  const jobs: ReferenceJob[] = [];
  const ours: ({ prompt: string } | { error: string })[] = [];
  const names: string[] = [];
  for (const c of cases) {
    let conversation;
    try {
      conversation = ctx.template.normalize(c.request);
    } catch {
      continue; // chatwire refuses the request itself: nothing to compare
    }
    names.push(c.name);
    ours.push(ctx.renderCase(c));
    jobs.push({
      chat_template: ctx.template.source,
      messages: conversation.messages,
      ...(conversation.tools === undefined ? {} : { tools: conversation.tools }),
      add_generation_prompt: c.continueFinalMessage ? false : (c.addGenerationPrompt ?? true),
      continue_final_message: c.continueFinalMessage ?? false,
      special_tokens: { ...ctx.template.specialTokens },
      variables: c.variables ?? {},
      now: CHECK_NOW.toISOString(),
    });
  }
  const theirs = await reference(jobs);
  theirs.forEach((ref, i) => {
    const mine = ours[i]!;
    const conversation = names[i]!;
    if ("error" in ref && "error" in mine) return;
    if ("error" in ref) {
      ctx.add({ check: "reference", severity: "error", conversation, message: `transformers raises (${ref.error}) where chatwire renders` });
    } else if ("error" in mine) {
      ctx.add({ check: "reference", severity: "error", conversation, message: `chatwire raises (${mine.error}) where transformers renders` });
    } else if (ref.prompt !== mine.prompt) {
      const at = firstDifference(ref.prompt, mine.prompt);
      ctx.add({ check: "reference", severity: "error", conversation, message: `differs from transformers at character ${at}`, bytes: { offset: at, context: around(mine.prompt, at), expected: around(ref.prompt, at) } });
    }
  });
}
