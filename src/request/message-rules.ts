/**
 * The per-message rules shared by Chat Completions and Responses input (spec rules 2-7). One instance
 * walks one conversation in order, because rule 5 (a tool result names its call) needs the calls seen
 * so far. Every error names the request field it is about, in the caller's own terms (`messages[2]...`
 * for Chat, `input[4]...` for Responses).
 */
import { invalidRequest } from "../errors.js";
import { normalizeContent } from "./content.js";
import { isObject } from "./is-object.js";
import { readJson } from "./read-json.js";
import { freezeDeep } from "../jinja/index.js";
import { BoundedCache } from "../bounded-cache.js";

/** What normalisation needs to know about the template that will render the conversation. */
export interface TemplateInfo {
  /** The template reads content-part arrays (decided by a probe render; see TemplateCaps). */
  readsContentParts: boolean;
  /** The template source mentions `developer`, so that role is passed through instead of becoming `system`. */
  knowsDeveloperRole: boolean;
  /**
   * The template needs tool-call `arguments` as the JSON string (functionary v3.2 concatenates them):
   * it raises on an object but not on the string (a probe render; see TemplateCaps). Optional: absent
   * means objects.
   */
  readsArgumentsAsString?: boolean;
}

export type Message = Record<string, unknown>;

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

export class MessageRules {
  /** Tool-call id -> function name, for every call seen so far in the conversation. */
  private readonly callNames = new Map<string, string | undefined>();

  constructor(
    private readonly info: TemplateInfo,
    readonly warnings: string[],
  ) {}

  /** Validates a role and maps `developer` to `system` for templates that do not know it. */
  role(role: unknown, field: string): string {
    if (typeof role !== "string" || !ROLES.has(role)) {
      throw invalidRequest(field, `unsupported role ${JSON.stringify(role)} (expected one of ${[...ROLES].join(", ")})`);
    }
    return role === "developer" && !this.info.knowsDeveloperRole ? "system" : role;
  }

  content(content: unknown, field: string): unknown {
    // Only arrays need the (probed, possibly lazy) readsContentParts answer.
    if (!Array.isArray(content)) return content;
    return normalizeContent(content, field, this.info.readsContentParts);
  }

  /**
   * Copies tool calls, turning JSON-string `arguments` into values (templates iterate them with
   * `|items` or print them with `tojson`) and remembering each call's name for later tool results.
   */
  toolCalls(calls: unknown, field: string): Message[] {
    if (!Array.isArray(calls)) throw invalidRequest(field, "must be an array of tool calls");
    return calls.map((call, j) => {
      if (!isObject(call)) throw invalidRequest(`${field}[${j}]`, "a tool call must be an object");
      const copy: Message = { ...call };
      if (isObject(call.function)) {
        const fn: Message = { ...call.function };
        fn.arguments = this.arguments(fn.arguments, `${field}[${j}].function.arguments`);
        copy.function = fn;
        if (typeof call.id === "string") this.callNames.set(call.id, typeof fn.name === "string" ? fn.name : undefined);
      }
      return copy;
    });
  }

  /**
   * Rule 4: a JSON string becomes its value (floats kept); anything else is left alone, with a warning.
   * Templates that concatenate arguments as text keep the string.
   */
  arguments(args: unknown, field: string): unknown {
    if (typeof args !== "string" || this.info.readsArgumentsAsString === true) return args;
    try {
      return parsedArguments(args);
    } catch {
      this.warnings.push(`${field}: not valid JSON, passed to the template as a string`);
      return args;
    }
  }

  /** Remembers a call made outside `tool_calls` (a Responses `function_call` item). */
  rememberCall(id: string, name: string): void {
    this.callNames.set(id, name);
  }

  /** Rule 5: the name of the earlier call a tool result answers; an unknown id is an error. */
  callName(id: unknown, field: string): string | undefined {
    if (typeof id !== "string" || !this.callNames.has(id)) {
      throw invalidRequest(field, `${JSON.stringify(id)} matches no earlier tool call`);
    }
    return this.callNames.get(id);
  }
}

/**
 * Parsed `arguments` strings, shared across requests: an agent loop sends the same history on every
 * turn, and re-reading it (then re-encoding it with `tojson`) was a large part of a render. Values are
 * deeply frozen, so sharing them is safe and `tojson` can reuse their text without checking them.
 */
const ARGUMENTS = new BoundedCache<string, unknown>(4096, 8 << 20, (text) => text.length);

function parsedArguments(text: string): unknown {
  return ARGUMENTS.get(text, (t) => freezeDeep(readJson(t)));
}
