/**
 * The per-message rules shared by Chat Completions and Responses input (spec rules 2-7). One instance
 * walks one conversation in order, because rule 5 (a tool result names its call) needs the calls seen
 * so far. Every error names the request field it is about, in the caller's own terms (`messages[2]...`
 * for Chat, `input[4]...` for Responses).
 */
import { invalidRequest } from "../errors.js";
import { normalizeContent } from "./content.js";
import { isObject } from "./is-object.js";
import { copyObject, withFields } from "../jinja/key-order.js";
import { readJson } from "./read-json.js";
import { freezeDeep } from "../jinja/index.js";
import { dumpJson, type JsonOptions } from "../jinja/tojson.js";
import { BoundedCache } from "../bounded-cache.js";

/** What normalisation needs to know about the template that will render the conversation. */
export interface TemplateInfo {
  /** The template reads content-part arrays in user messages (decided by a probe render; see TemplateCaps). */
  readsContentParts: boolean;
  /**
   * The same, for the messages of one role (`system`, `assistant`, `tool`...): templates that print the
   * parts of user turns may concatenate the content of tool results. Optional: absent means the user
   * answer holds for every role.
   */
  readsContentPartsIn?: (role: string) => boolean;
  /** The template source mentions `developer`, so that role is passed through instead of becoming `system`. */
  knowsDeveloperRole: boolean;
  /**
   * The template needs tool-call `arguments` as the JSON string (functionary v3.2 concatenates them):
   * it raises on an object but not on the string (a probe render; see TemplateCaps). Optional: absent
   * means objects.
   */
  readsArgumentsAsString?: boolean;
  /**
   * An assistant message with tool calls and no text gets `content: None` instead of `""`: the template
   * prints calls only when `content is none` (DeepSeek V3, R1 distills; the tool-call probe). Optional:
   * absent means `""`.
   */
  callContentAsNone?: boolean;
  /**
   * The template prints only one call per assistant message: a message with several is split into
   * consecutive assistant messages, one call each (Llama 3.x, gpt-oss; the tool-call probe). Optional.
   */
  callsOnePerMessage?: boolean;
  /** The template source names this role itself (`ipython`, `observation`, ...), so it is passed through. */
  namesRole?: (role: string) => boolean;
}

export type Message = Record<string, unknown>;

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

/** Arguments given as an object, as JSON text for templates that concatenate them: Python's json.dumps (non-ASCII kept). */
const ARGUMENTS_JSON: JsonOptions = { indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false, ensureAscii: false };

export class MessageRules {
  /** Tool-call id -> function name, for every call seen so far in the conversation. */
  private readonly callNames = new Map<string, string | undefined>();
  /**
   * The item being read (`messages[2]`: list and index), which every field in an error or warning
   * starts with. Kept as state, and the names made only for an error: a request's 8 messages made
   * about 50 field strings for nothing, 15% of normalising them (issue 19).
   */
  private list = "messages";
  private index = 0;

  constructor(
    private readonly info: TemplateInfo,
    readonly warnings: string[],
  ) {}

  /** The item the next calls are about: `list[index]`. */
  at(list: string, index: number): void {
    this.list = list;
    this.index = index;
  }

  /** The field `rest` of the current item: `messages[2]` + `.role`. */
  field(rest = ""): string {
    return `${this.list}[${this.index}]${rest}`;
  }

  /** Validates the current item's role and maps `developer` to `system` for templates that do not know it. */
  role(role: unknown): string {
    if (typeof role !== "string" || !(ROLES.has(role) || (role !== "" && this.info.namesRole?.(role) === true))) {
      throw invalidRequest(
        this.field(".role"),
        `unsupported role ${JSON.stringify(role)} (expected one of ${[...ROLES].join(", ")}, or a role the template names)`,
      );
    }
    return role === "developer" && !this.info.knowsDeveloperRole ? "system" : role;
  }

  /** Rule 7 for the content of a message in `role` (content-part arrays are kept or joined per role); `key` names it in the item. */
  content(content: unknown, role: string, key = "content"): unknown {
    // Only arrays need the (probed, possibly lazy) readsContentParts answer.
    if (!Array.isArray(content)) {
      if (content !== undefined && content !== null && typeof content !== "string") {
        throw invalidRequest(this.field(`.${key}`), "must be a string, null or an array of content parts");
      }
      return content;
    }
    const reads = role !== "user" && this.info.readsContentPartsIn !== undefined ? this.info.readsContentPartsIn(role) : this.info.readsContentParts;
    return normalizeContent(content, this.field(`.${key}`), reads);
  }

  /**
   * Copies the current message's tool calls, turning JSON-string `arguments` into values (templates
   * iterate them with `|items` or print them with `tojson`) and remembering each call's name for later
   * tool results.
   */
  toolCalls(calls: unknown): Message[] {
    if (!Array.isArray(calls)) throw invalidRequest(this.field(".tool_calls"), "must be an array of tool calls");
    const out: Message[] = [];
    for (let j = 0; j < calls.length; j++) {
      const call: unknown = calls[j];
      if (!isObject(call)) throw invalidRequest(this.field(`.tool_calls[${j}]`), "a tool call must be an object");
      const copy: Message = copyObject(call);
      if (!isObject(call.function)) throw invalidRequest(this.field(`.tool_calls[${j}].function`), "must be an object with name and arguments");
      const fn: Message = copyObject(call.function);
      if (typeof fn.name !== "string" || fn.name === "") throw invalidRequest(this.field(`.tool_calls[${j}].function.name`), "must be a non-empty string");
      if (typeof fn.arguments !== "string" && !isObject(fn.arguments)) {
        throw invalidRequest(this.field(`.tool_calls[${j}].function.arguments`), "must be a JSON string (or an object)");
      }
      fn.arguments = this.arguments(fn.arguments, j);
      copy.function = fn;
      if (typeof call.id === "string") this.callNames.set(call.id, fn.name);
      out.push(copy);
    }
    return out;
  }

  /**
   * Rule 4: a JSON string becomes its value (floats kept); a string that is not JSON is left alone, with
   * a warning. Templates that concatenate arguments as text keep the string, and get objects as JSON text.
   * `call`: the index of the call in the current message's `tool_calls`, or undefined when the current
   * item is the call itself (a Responses `function_call`).
   */
  arguments(args: unknown, call?: number): unknown {
    if (this.info.readsArgumentsAsString === true) return isObject(args) ? dumpJson(args, ARGUMENTS_JSON) : args;
    if (typeof args !== "string") return args;
    try {
      return parsedArguments(args);
    } catch {
      this.warnings.push(`${this.field(call === undefined ? ".arguments" : `.tool_calls[${call}].function.arguments`)}: not valid JSON, passed to the template as a string`);
      return args;
    }
  }

  /**
   * Rule 3: an assistant's missing or null content is `""` (templates concatenate it), except that a
   * message with tool calls and no text gets None where the template prints calls only then (probe).
   * Changes `message` in place (it is already our copy).
   */
  assistantContent(message: Message): void {
    const empty = message.content === null || message.content === undefined || message.content === "";
    if (!empty) return;
    const hasCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    message.content = hasCalls && this.info.callContentAsNone === true ? null : "";
  }

  /**
   * Splits assistant messages with several calls into one message per call, for templates that print
   * one call per message: the first keeps every other field, the rest are `{role, content, tool_calls}`
   * with rule 3's empty content. Returns `messages` itself when nothing needs splitting.
   */
  oneCallPerMessage(messages: Message[]): Message[] {
    const several = (m: Message) => m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 1;
    if (!messages.some(several) || this.info.callsOnePerMessage !== true) return messages;
    return messages.flatMap((m) => {
      if (!several(m)) return [m];
      const [first, ...rest] = m.tool_calls as unknown[];
      return [
        withFields(m, { tool_calls: [first] }),
        ...rest.map((call) => {
          const next: Message = { role: "assistant", content: null, tool_calls: [call] };
          this.assistantContent(next);
          return next;
        }),
      ];
    });
  }

  /** Remembers a call made outside `tool_calls` (a Responses `function_call` item). */
  rememberCall(id: string, name: string): void {
    this.callNames.set(id, name);
  }

  /** Rule 5: the name of the earlier call a tool result answers; an unknown id is an error naming the current item's `key`. */
  callName(id: unknown, key = "tool_call_id"): string | undefined {
    if (typeof id !== "string" || !this.callNames.has(id)) {
      throw invalidRequest(this.field(`.${key}`), `${JSON.stringify(id)} matches no earlier tool call`);
    }
    return this.callNames.get(id);
  }
}

/**
 * The bytes an entry holds, measured (heap after GC, 20,000 distinct entries): about 150 a value and
 * 1.8 a character of one-byte text (key and value); counted as 4 for two-byte text, and 2 more for the
 * tojson text the render keeps on the frozen value by identity. 16 MB in all.
 */
const ARGUMENT_ENTRY_BYTES = 160;
const ARGUMENT_BYTES_PER_CHAR = 6;

/**
 * Parsed `arguments` strings, shared across requests: an agent loop sends the same history on every
 * turn, and re-reading it (then re-encoding it with `tojson`) was a large part of a render. Values are
 * deeply frozen, so sharing them is safe and `tojson` can reuse their text without checking them.
 */
const ARGUMENTS = new BoundedCache<string, unknown>(4096, 16 << 20, (text) => ARGUMENT_ENTRY_BYTES + ARGUMENT_BYTES_PER_CHAR * text.length);

function parsedArguments(text: string): unknown {
  return ARGUMENTS.get(text, (t) => freezeDeep(readJson(t)));
}
