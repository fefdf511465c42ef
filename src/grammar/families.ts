/**
 * How each supported family writes its calls, as GBNF. A family gives the markers that free text must
 * not contain (so a call can only be written the grammar's way) and the rule for one group of calls
 * at one place in the output. Argument values come from SchemaRules in the family's value syntax.
 */
import type { FormatId } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import { alt, lit, type GbnfBuilder } from "./gbnf.js";
import { primitive } from "./primitives.js";
import { seq, type ObjectSyntax, type SchemaRules } from "./schema-rules.js";
import { textWithout, type TextGuard } from "./text-rules.js";

export interface FamilyContext {
  builder: GbnfBuilder;
  schemas: SchemaRules;
  /** The chat template's source, when known (mistral: which of its two call forms the model writes). */
  templateSource?: string;
}

export interface Family {
  /** Free text never contains these. */
  markers: readonly string[];
  /** Several groups may follow one another (hermes: one tag pair per call). */
  repeatable: boolean;
  /** Calls only at the very start of the output, and nothing but calls then (llama3's bare JSON). */
  atStartOnly?: boolean;
  /** The rule for one group of calls to `tools`; `single`: exactly one call in it. */
  block(ctx: FamilyContext, tools: readonly FunctionTool[], single: boolean): string;
}

/** The JSON object syntax of arguments (`{"k": v, ...}`). */
function jsonObject(builder: GbnfBuilder): ObjectSyntax {
  const space = primitive(builder, "space");
  return {
    open: `"{" ${space}`,
    close: `"}" ${space}`,
    key: (name) => `${lit(JSON.stringify(name))} ${space} ":" ${space}`,
    after: "",
    sep: `"," ${space}`,
    anyKey: `${primitive(builder, "json-string")} ":" ${space}`,
    values: "json",
  };
}

function toolHint(tool: FunctionTool): string {
  return tool.function.name;
}

/** `{"name": "f", "<argsKey>": {...}}`, optionally followed by an `"id"` member (old Mistral). */
function jsonCall(ctx: FamilyContext, tool: FunctionTool, argsKey: string, idValue?: string): string {
  const { builder, schemas } = ctx;
  const space = primitive(builder, "space");
  const name = tool.function.name;
  const args = schemas.objectRule(tool.function.parameters, `${toolHint(tool)}-args`, jsonObject(builder));
  const member = (key: string) => `${lit(JSON.stringify(key))} ${space} ":" ${space}`;
  const id = idValue === undefined ? "" : `("," ${space} ${member("id")} ${idValue} ${space})?`;
  return callRule(
    builder,
    tool,
    seq(`"{" ${space}`, member("name"), lit(JSON.stringify(name)), space, `"," ${space}`, member(argsKey), args, id, `"}" ${space}`),
  );
}

/** The rule of one call to `tool`, marked as such. */
function callRule(builder: GbnfBuilder, tool: FunctionTool, body: string): string {
  return builder.capture(builder.add(`${toolHint(tool)}-call`, body), { kind: "call", name: tool.function.name });
}

/** One rule that is any of the tools' calls. */
function anyCall(ctx: FamilyContext, tools: readonly FunctionTool[], hint: string, one: (tool: FunctionTool) => string): string {
  return ctx.builder.add(hint, tools.map(one).join(" | "));
}

/** `first (sep first)*`, or just `first` for a single call. */
function list(item: string, sep: string, single: boolean): string {
  return single ? item : `${item} (${sep} ${item})*`;
}

const hermes: Family = {
  markers: ["<tool_call>"],
  repeatable: true,
  block(ctx, tools) {
    const call = anyCall(ctx, tools, "call", (t) => jsonCall(ctx, t, "arguments"));
    return `"<tool_call>\\n" ${call} "</tool_call>"`;
  },
};

const jsonBlock: Family = {
  markers: ["```json"],
  repeatable: true,
  block(ctx, tools, single) {
    const space = primitive(ctx.builder, "space");
    const call = anyCall(ctx, tools, "call", (t) => jsonCall(ctx, t, "arguments"));
    const payload = single ? call : alt([call, `"[" ${space} ${list(call, `"," ${space}`, false)} "]" ${space}`]);
    return `"\`\`\`json\\n" ${payload} "\`\`\`"`;
  },
};

const llama3Json: Family = {
  markers: [],
  repeatable: false,
  atStartOnly: true,
  block(ctx, tools, single) {
    const space = primitive(ctx.builder, "space");
    const call = anyCall(ctx, tools, "call", (t) => jsonCall(ctx, t, "parameters"));
    return list(call, `";" ${space}`, single);
  },
};

const mistral: Family = {
  markers: ["[TOOL_CALLS]"],
  repeatable: true,
  block(ctx, tools, single) {
    const { builder } = ctx;
    const space = primitive(builder, "space");
    // Newer templates (v11+, Small 3.2, Devstral, Ministral 3) render `[TOOL_CALLS]f[ARGS]{...}`, older
    // ones (v3 tekken, Nemo) a JSON array with 9-character ids. Unknown template: either.
    const source = ctx.templateSource;
    const named = source === undefined || source.includes("[ARGS]");
    const array = source === undefined || !source.includes("[ARGS]");
    const forms: string[] = [];
    if (named) {
      const call = anyCall(ctx, tools, "call", (t) => {
        const args = ctx.schemas.objectRule(t.function.parameters, `${toolHint(t)}-args`, jsonObject(builder));
        return callRule(builder, t, `${lit(t.function.name)} ("[CALL_ID]" [a-zA-Z0-9]{9})? "[ARGS]" ${args}`);
      });
      forms.push(`"[TOOL_CALLS]" ${call}`);
    }
    if (array) {
      const call = anyCall(ctx, tools, "array-call", (t) => jsonCall(ctx, t, "arguments", '"\\"" [a-zA-Z0-9]{9} "\\""'));
      forms.push(`"[TOOL_CALLS]" "[" ${space} ${list(call, `"," ${space}`, single)} "]" ${space}`);
    }
    return alt(forms);
  },
};

const pythonic: Family = {
  markers: ["[", "<|python_start|>"],
  repeatable: false,
  block(ctx, tools, single) {
    const { builder, schemas } = ctx;
    const space = primitive(builder, "space");
    const kwargs: ObjectSyntax = {
      open: "",
      close: "",
      key: (name) => lit(`${name}=`),
      after: "",
      sep: `"," ${space}`,
      anyKey: '[a-zA-Z_] [a-zA-Z0-9_]* "="',
      values: "python",
      captureMembers: true,
    };
    const call = anyCall(ctx, tools, "call", (t) => {
      const args = schemas.objectRule(t.function.parameters, `${toolHint(t)}-args`, kwargs);
      return callRule(builder, t, `${lit(`${t.function.name}(`)} ${args} ")"`);
    });
    const calls = builder.add("call-list", `"[" ${list(call, `"," ${space}`, single)} "]"`);
    return `(${calls} | "<|python_start|>" ${calls} "<|python_end|>")`;
  },
};

const qwen3Coder: Family = {
  markers: ["<tool_call>", "<function="],
  repeatable: true,
  block(ctx, tools) {
    const { builder, schemas } = ctx;
    const params: ObjectSyntax = {
      open: "",
      close: "",
      key: (name) => lit(`<parameter=${name}>\n`),
      after: lit("\n</parameter>\n"),
      sep: "",
      anyKey: '"<parameter=" [^>\\n]+ ">\\n"',
      values: "raw",
      captureMembers: true,
    };
    const call = anyCall(ctx, tools, "call", (t) => {
      const args = schemas.objectRule(t.function.parameters, `${toolHint(t)}-args`, params);
      return callRule(builder, t, `${lit(`<function=${t.function.name}>\n`)} ${args} "</function>\\n"`);
    });
    return `"<tool_call>\\n" ${call} "</tool_call>"`;
  },
};

/**
 * The raw text of a qwen3-coder parameter value. It holds none of the tags (the parser would end the
 * value, the call or the region there, or read a different call) nor any other marker of the format,
 * and no carriage return (the parser strips a `\r\n` before `</parameter>`, so a final `\r` would be lost).
 */
export function rawParameterText(builder: GbnfBuilder, formatMarkers: readonly string[], guard: TextGuard | undefined, hint: string): string {
  const tags = ["</parameter>", "<parameter=", "</function>", "<function=", ...formatMarkers];
  return textWithout(builder, hint, [...new Set(tags)], { exclude: "\\r", excluded: (ch) => ch === "\r", ...(guard !== undefined ? { guard } : {}) });
}

const FAMILIES: Partial<Record<FormatId, Family>> = {
  hermes,
  "qwen3-coder": qwen3Coder,
  "llama3-json": llama3Json,
  mistral,
  "json-block": jsonBlock,
  pythonic,
};

export function familyFor(id: FormatId): Family | undefined {
  return FAMILIES[id];
}

export function grammarFormats(): FormatId[] {
  return Object.keys(FAMILIES) as FormatId[];
}
