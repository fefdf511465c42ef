/**
 * Checks on tool calling: the tool list is printed with every tool and parameter, tool results reach
 * the prompt, a call rendered into history parses back into the same call (reconstruction), no call of
 * the history is lost under `content: null`, no empty assistant turn is printed after a call, and what
 * becomes of earlier reasoning.
 */
import { escapeRegExp } from "../regexp-escape.js";
import { MARK, SEARCH_CALL, TOOLS, WEATHER_CALL, callHistory } from "./battery.js";
import { assistantTurnText } from "./assistant-turn.js";
import { getFormat } from "../formats/index.js";
import { around, type CheckContext } from "./context.js";

const user = { role: "user", content: "Weather in São Paulo?" };

/** Whether the template has any tool syntax at all: otherwise the tool checks have nothing to check. */
export function hasToolSyntax(ctx: CheckContext): boolean {
  return ctx.format !== undefined || /tool_calls/.test(ctx.template.source);
}

export function checkToolList(ctx: CheckContext): void {
  const r = ctx.render({ messages: [user], tools: TOOLS });
  if ("error" in r) return;
  const missing: string[] = [];
  for (const tool of TOOLS) {
    if (!r.prompt.includes(tool.function.name)) missing.push(`tool ${tool.function.name}`);
    for (const param of Object.keys(tool.function.parameters.properties)) {
      if (!r.prompt.includes(param)) missing.push(`${tool.function.name}.${param}`);
    }
  }
  if (missing.length > 0) {
    ctx.add({
      check: "tool-list",
      severity: "error",
      conversation: "tools-declared",
      message: `the tool list is not printed whole (missing: ${missing.join(", ")}): the model does not see the tools it may call`,
    });
  }
}

export function checkToolResults(ctx: CheckContext): void {
  const r = ctx.render({ messages: callHistory(false), tools: TOOLS });
  if ("error" in r) return;
  if (!r.prompt.includes(MARK.toolResult)) {
    ctx.add({ check: "tool-results", severity: "error", conversation: "call-and-result", message: "a tool result's content is not printed" });
  }
}

/** Every call of the history, `content: null` as clients send it, is printed (its name and an argument value). */
export function checkHistoryCalls(ctx: CheckContext): void {
  for (const [name, parallel] of [["call-and-result", false], ["parallel-calls", true]] as const) {
    const r = ctx.render({ messages: callHistory(parallel), tools: TOOLS });
    if ("error" in r) continue;
    // The argument values occur nowhere else in the request: printed, they come from the call.
    const calls = parallel ? [WEATHER_CALL, SEARCH_CALL] : [WEATHER_CALL];
    const lost = calls.filter((c) => {
      const args = JSON.parse(c.function.arguments) as Record<string, unknown>;
      return !r.prompt.includes(String(Object.values(args)[0]));
    });
    if (lost.length > 0) {
      const auto = ctx.render({ messages: callHistory(parallel), tools: TOOLS }, { polyfill: "auto" });
      const rescued = "prompt" in auto && lost.every((c) => auto.prompt.includes(String(Object.values(JSON.parse(c.function.arguments) as Record<string, unknown>)[0])));
      ctx.add({
        check: "history-tool-calls",
        // Some families never make parallel calls (gpt-oss): losing the second one is a limit, not a break.
        severity: parallel ? "warning" : "error",
        conversation: name,
        message: `assistant tool call${lost.length > 1 ? "s" : ""} ${lost.map((c) => c.function.name).join(", ")} from the history ${lost.length > 1 ? "are" : "is"} not printed: the model sees results of calls it never made` +
          (rescued ? " (chatwire's default polyfill prints them: render without `polyfill: \"never\"`)" : ""),
      });
    }
  }
}

/** Render a call into history, cut out what the model would have written, parse it back. */
export function checkReconstruction(ctx: CheckContext): void {
  if (ctx.format === undefined) return;
  for (const [name, calls] of [["one call", [WEATHER_CALL]], ["parallel calls", [WEATHER_CALL, SEARCH_CALL]]] as const) {
    if (calls.length > 1 && ctx.template.caps.callsOnePerMessage) {
      // The history gets one assistant message per call (chatwire splits them): no single turn holds both.
      ctx.add({ check: "reconstruction", severity: "info", conversation: name, message: "the template prints one call per assistant message: parallel calls of the history are rendered as consecutive turns" });
      continue;
    }
    const request = { messages: [user], tools: TOOLS };
    const prompt = ctx.render(request);
    const full = ctx.render({ messages: [user, { role: "assistant", content: null, tool_calls: calls }], tools: TOOLS }, { addGenerationPrompt: false });
    if ("error" in prompt || "error" in full) continue;
    const turn = assistantTurnText(prompt.prompt, full.prompt);
    const result = ctx.parse(turn.text, request, turn.promptSuffix);
    const got = (result.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown }));
    const want = calls.map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown }));
    checkMarkersClosed(ctx, name, turn.text);
    if (canonical(got) !== canonical(want)) {
      const errors = result.errors.map((e) => `${e.type}: ${e.message}`).join("; ");
      ctx.add({
        check: "reconstruction",
        severity: calls.length > 1 ? "warning" : "error",
        conversation: name,
        message:
          `the assistant turn the template prints for ${calls.length} call${calls.length > 1 ? "s" : ""} does not parse back (format ${ctx.format}) into the same calls: ` +
          `got ${JSON.stringify(got)}${errors ? ` (${errors})` : ""}`,
        bytes: { context: turn.text.slice(0, 400) },
      });
    }
  }
}

/**
 * An assistant turn with nothing in it (header straight followed by the end of turn) printed next to a
 * call: R1 distills print `<｜Assistant｜><｜end▁of▁sentence｜>` for the turn that carried the call.
 */
export function checkEmptyAssistantTurn(ctx: CheckContext): void {
  // How the template prints an assistant turn of history: what comes before and after its content.
  const messages = [{ role: "user", content: "Hi" }];
  const without = ctx.render({ messages }, { addGenerationPrompt: false });
  const answered = ctx.render({ messages: [...messages, { role: "assistant", content: MARK.answer }, { role: "user", content: "Ok" }] }, { addGenerationPrompt: false });
  if ("error" in without || "error" in answered || !answered.prompt.startsWith(without.prompt)) return;
  const at = answered.prompt.indexOf(MARK.answer, without.prompt.length);
  if (at < 0) return;
  const header = answered.prompt.slice(without.prompt.length, at).trim();
  // The end-of-turn marker that follows the content: from the first non-space character, one marker long.
  const tail = answered.prompt.slice(at + MARK.answer.length);
  const start = tail.search(/\S/);
  const end = start < 0 ? "" : tail.slice(start, start + tailMarkerLength(tail.slice(start))).trim();
  if (header === "" || end === "") return;
  const history = ctx.render({ messages: callHistory(false), tools: TOOLS });
  if ("error" in history) return;
  const empty = history.prompt.search(new RegExp(escapeRegExp(header) + "\\s*" + escapeRegExp(end)));
  if (empty >= 0) {
    ctx.add({
      check: "empty-assistant-turn",
      severity: "warning",
      conversation: "call-and-result",
      message: "an empty assistant turn is printed in a conversation with a tool call: the model learns to answer with nothing",
      bytes: { offset: empty, context: around(history.prompt, empty) },
    });
  }
}

/** The length of the end-of-turn marker at the start of `text`: up to the first `>` or `]`, or its first line. */
function tailMarkerLength(text: string): number {
  const close = text.search(/[>\]]/);
  const newline = text.indexOf("\n");
  if (close >= 0 && (newline < 0 || close < newline)) return close + 1;
  return newline < 0 ? text.length : newline;
}

export function checkHistoryReasoning(ctx: CheckContext): void {
  const r = ctx.render({ messages: [{ role: "user", content: "First?" }, { role: "assistant", content: "One.", reasoning_content: MARK.reasoning }, { role: "user", content: "Second?" }] });
  if ("error" in r) return;
  const kept = r.prompt.includes(MARK.reasoning);
  ctx.add({
    check: "history-reasoning",
    severity: "info",
    conversation: "reasoning-history",
    message: kept ? "reasoning of earlier assistant turns is kept in the prompt" : "reasoning of earlier assistant turns is dropped from the prompt",
  });
}

/**
 * Every call section and call region the turn opens is closed: DeepSeek V3's published template closes
 * `<｜tool▁calls▁begin｜>` only after a second call, so a single call is left open.
 */
function checkMarkersClosed(ctx: CheckContext, conversation: string, text: string): void {
  const format = getFormat(ctx.format!);
  const pairs = [...(format.sections ?? []), ...format.regions.filter((r) => r.end !== undefined && r.end.length > 0)];
  for (const pair of pairs) {
    const count = (markers: readonly string[]) => markers.reduce((n, m) => n + text.split(m).length - 1, 0);
    const opened = count(pair.start);
    const closed = count(pair.end ?? []);
    if (opened > closed) {
      ctx.add({
        check: "reconstruction",
        severity: "warning",
        conversation,
        message: `the assistant turn opens ${JSON.stringify(pair.start[0])} ${opened} time${opened > 1 ? "s" : ""} but closes it (${JSON.stringify(pair.end?.[0])}) ${closed} time${closed === 1 ? "" : "s"}`,
        bytes: { context: text.slice(0, 400) },
      });
    }
  }
}

/** JSON text with object keys sorted: two calls are the same whatever order the template printed keys in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

