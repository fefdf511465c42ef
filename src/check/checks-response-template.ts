/**
 * The response-template check (issue 20): a config that ships a `response_template` declares how the
 * model's output is read. The chat template renders a call (and a plain answer) into an assistant turn,
 * the turn is parsed back with the compiled declaration and with the detected family, and the finding
 * says whether the declaration reads the calls the chat template writes, and where it and the family
 * disagree (calls, content, reasoning). A declaration chatwire cannot compile is reported with its
 * refusals: the family then parses alone.
 */
import { parseCompletion } from "../parse/index.js";
import { compileResponseTemplate } from "../response-template/compile.js";
import type { ParseResult } from "../types.js";
import { MARK, SEARCH_CALL, TOOLS, WEATHER_CALL } from "./battery.js";
import { assistantTurnText, type AssistantTurn } from "./assistant-turn.js";
import { canonical } from "./checks-tools.js";
import type { CheckContext } from "./context.js";

const user = { role: "user", content: "Weather in São Paulo?" };
const request = { messages: [user], tools: TOOLS };

interface Read {
  calls: { name: string; arguments: unknown }[];
  content: string | null;
  reasoning: string | null;
}

const text = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === "" ? null : s.trim());

function read(result: ParseResult): Read {
  return {
    calls: (result.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown })),
    content: text(result.message.content),
    reasoning: text(result.message.reasoning_content),
  };
}

/** The assistant turn the template prints for `assistant`, as the model would write it after the prompt. */
function turnFor(ctx: CheckContext, assistant: Record<string, unknown>): AssistantTurn | undefined {
  const prompt = ctx.render(request);
  const full = ctx.render({ messages: [user, assistant], tools: TOOLS }, { addGenerationPrompt: false });
  return "error" in prompt || "error" in full ? undefined : assistantTurnText(prompt.prompt, full.prompt);
}

export function checkResponseTemplate(ctx: CheckContext): void {
  const declared = ctx.template.responseTemplate;
  if (declared === undefined) return;
  const compiled = compileResponseTemplate(declared);
  if (!compiled.ok) {
    const refusals = compiled.refusals.map((r) => `${r.field}: ${r.construct}`).join("; ");
    ctx.add({
      check: "response-template",
      severity: "warning",
      message: `the config's response_template does not compile (${refusals})${ctx.format === undefined ? "" : `: completions are parsed with the detected family ${ctx.format}`}`,
    });
    return;
  }
  const cases = [
    { name: "one call", assistant: { role: "assistant", content: null, tool_calls: [WEATHER_CALL] }, want: [WEATHER_CALL] },
    { name: "parallel calls", assistant: { role: "assistant", content: null, tool_calls: [WEATHER_CALL, SEARCH_CALL] }, want: [WEATHER_CALL, SEARCH_CALL] },
    { name: "answer", assistant: { role: "assistant", content: MARK.answer }, want: [] },
  ];
  const problems: string[] = [];
  let misread = false;
  for (const c of cases) {
    if (c.want.length > 1 && ctx.template.caps.callsOnePerMessage) continue;
    const turn = turnFor(ctx, c.assistant);
    if (turn === undefined) continue;
    const options = turn.promptSuffix === undefined ? {} : { promptSuffix: turn.promptSuffix };
    const byDeclaration = read(parseCompletion(compiled.format, turn.text, request, options));
    const want = c.want.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }));
    if (canonical(byDeclaration.calls) !== canonical(want)) misread = true;
    if (canonical(byDeclaration.calls) !== canonical(want)) problems.push(`${c.name}: the declaration reads ${JSON.stringify(byDeclaration.calls)} from the turn the chat template prints (${JSON.stringify(turn.text.slice(0, 200))})`);
    if (c.want.length === 0 && byDeclaration.content !== MARK.answer) problems.push(`${c.name}: the declaration reads the content ${JSON.stringify(byDeclaration.content)}, not the answer`);
    if (ctx.format === undefined) continue;
    const byFamily = read(ctx.parse(turn.text, request, turn.promptSuffix));
    for (const part of ["calls", "content", "reasoning"] as const) {
      if (canonical(byFamily[part]) !== canonical(byDeclaration[part])) {
        problems.push(`${c.name}: ${part} by the declaration ${JSON.stringify(byDeclaration[part])}, by the family ${ctx.format} ${JSON.stringify(byFamily[part])}`);
      }
    }
  }
  const chosen = ctx.template.responseFormat;
  const parsing = chosen === undefined ? "" : ` (chatwire parses with ${chosen.source === "family" ? `the family ${ctx.template.format}` : "the compiled declaration"}: ${chosen.reason})`;
  if (problems.length === 0) {
    ctx.add({ check: "response-template", severity: "info", message: `the config's response_template reads back the calls and the answer the chat template prints${ctx.format === undefined ? "" : `, as the family ${ctx.format} does`}${parsing}` });
    return;
  }
  // Misread calls break parsing only when chatwire parses with the declaration; else the family reads them.
  const severity = misread && chosen?.source === "declared" ? "error" : "warning";
  ctx.add({ check: "response-template", severity, message: `the config's response_template disagrees with what the chat template prints${ctx.format === undefined ? "" : ` or with the family ${ctx.format}`}${parsing}: ${problems.join("; ")}` });
}
