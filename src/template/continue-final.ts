/**
 * `continue_final_message`, done exactly as transformers does it: a tag is appended to the final
 * message's text before rendering, and the prompt is cut where the tag lands, so that the model continues
 * the message instead of starting a new turn. Error messages are transformers' own.
 */
import { withFields } from "../jinja/key-order.js";
import { ChatwireError } from "../errors.js";

const TAG = "CONTINUE_FINAL_MESSAGE_TAG ";
const TAG_STRIPPED = TAG.trim();

/** Python's str.isspace set, for strip()/rstrip() (JS trim() differs on a few control characters). */
const PY_SPACE = "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");
const PY_RSTRIP = new RegExp(`[${PY_SPACE}]+$`, "u");
const pyStrip = (s: string): string => s.replace(PY_STRIP, "");
const pyRstrip = (s: string): string => s.replace(PY_RSTRIP, "");

function valueError(message: string): ChatwireError {
  return new ChatwireError("template_error", message);
}

/**
 * Appends the tag to the final message's `field` (in place: `messages` is already chatwire's copy) and
 * returns the final message text as it was, for the check after rendering.
 */
export function markFinalMessage(messages: Record<string, unknown>[], field: string, templateSource: string): string {
  const last = messages[messages.length - 1];
  const final = last?.[field];
  if (last === undefined || final === undefined || final === null) {
    throw valueError(`continue_final_message is set but the final message has no "${field}" to continue!`);
  }
  if (!templateSource.includes(field)) {
    throw valueError(`continue_final_message is set to "${field}" but this is not an accepted field in the chat_template`);
  }
  if (Array.isArray(final)) {
    // The last part that has a "text" key, as Python's `"text" in content_block` finds it.
    for (let i = final.length - 1; i >= 0; i--) {
      const part = final[i] as Record<string, unknown>;
      if (typeof part === "object" && part !== null && "text" in part) {
        const text = String(part.text);
        // Into a copy of the parts: a field other than content is the caller's own array (or a frozen
        // one readSharedJson shares), which only the message holding it is chatwire's copy of.
        const parts = final.slice();
        parts[i] = withFields(part, { text: text + TAG });
        last[field] = parts;
        return text;
      }
    }
    throw valueError("continue_final_message is set but we could not find any text to continue in the final message!");
  }
  last[field] = String(final) + TAG;
  return String(final);
}

/** Cuts the rendered prompt at the tag. */
export function cutAtTag(rendered: string, finalText: string): string {
  const stripped = pyStrip(finalText);
  if (!rendered.includes(stripped) || !rendered.includes(TAG_STRIPPED)) {
    throw valueError(
      "continue_final_message is set but the final message does not appear in the chat after applying the chat " +
        "template! This can happen if the chat template deletes portions of the final message. Please verify the " +
        "chat template and final message in your chat to ensure they are compatible." +
        `Final message to continue: ${stripped}\nRendered chat:\n${rendered}`,
    );
  }
  const at = rendered.lastIndexOf(TAG_STRIPPED);
  // When the template kept the tag's trailing space, spacing was preserved; otherwise it trimmed the end.
  if (rendered.slice(at, at + TAG.length) === TAG) return rendered.slice(0, at);
  return pyRstrip(rendered.slice(0, at));
}
