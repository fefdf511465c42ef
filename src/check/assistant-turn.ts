/**
 * What the model would have written for an assistant turn: the rendered conversation that ends with that
 * turn, after the generation prompt. Some templates open a reasoning block in the generation prompt
 * (`<think>\n`) but render a past assistant turn without it (`</think>` or nothing); the prompt is then not
 * a prefix of the conversation, and the turn is what follows the part they share, cut back to just after
 * the last `>`, `]` or newline so the cut never falls inside a marker (`<think>` vs `</think>`,
 * `<|START_THINKING|>` vs `<|START_ACTION|>`). The parser is then told that shared part as the prompt's end.
 */
export interface AssistantTurn {
  text: string;
  /** Set when the prompt is not a prefix of the conversation: the end of the shared part. */
  promptSuffix?: string;
}

export function assistantTurnText(prompt: string, conversation: string): AssistantTurn {
  if (conversation.startsWith(prompt)) return { text: conversation.slice(prompt.length) };
  let i = 0;
  while (i < prompt.length && i < conversation.length && prompt.charCodeAt(i) === conversation.charCodeAt(i)) i++;
  while (i > 0 && !">]\n".includes(prompt[i - 1]!)) i--;
  return { text: conversation.slice(i), promptSuffix: conversation.slice(Math.max(0, i - 200), i) };
}
