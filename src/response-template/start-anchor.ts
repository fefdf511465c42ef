/**
 * The start anchor of an exported response template, read from the chat template: the generation
 * prompt (what `add_generation_prompt` appends after the last turn), which is the assistant header
 * transformers truncates the prompt after. A reasoning block the generation prompt opens is left out of
 * the anchor, so the parser reads it from the prompt and starts the output in reasoning.
 */
import type { FormatDescription } from "../parse/language.js";

interface Renders {
  render(request: { messages: { role: string; content: string }[] }, options: { addGenerationPrompt: boolean }): string;
}

export function assistantHeader(template: Renders, format: FormatDescription): string | undefined {
  const request = { messages: [{ role: "user", content: "Hi" }] };
  let header: string;
  try {
    const turns = template.render(request, { addGenerationPrompt: false });
    const prompt = template.render(request, { addGenerationPrompt: true });
    if (!prompt.startsWith(turns)) return undefined;
    header = prompt.slice(turns.length);
  } catch {
    return undefined;
  }
  const starts = (format.reasoning ?? []).flatMap((r) => r.start.map((s) => s.trimEnd())).sort((a, b) => b.length - a.length);
  const end = header.trimEnd();
  const opened = starts.find((s) => s !== "" && end.endsWith(s));
  if (opened !== undefined) header = end.slice(0, end.length - opened.length);
  return header.trim() === "" ? undefined : header;
}
