/**
 * The tag syntaxes of the tagged families, read by the one tagged decoder (tagged.ts). Each is what the
 * family's own chat template writes for an assistant tool call (see the corpus templates named below).
 */
import { UNTYPED_JSON, UNTYPED_STRING } from "../coerce.js";
import type { ParamOpen, TaggedSyntax } from "./tagged.js";

/** `name="v"` (or `name='v'`) in an open tag. */
function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** `<prefix...>` with the text between read as a name: `<function=get_weather>`. */
function afterPrefix(tag: string, prefix: string): string | undefined {
  if (!tag.startsWith(prefix) || !tag.endsWith(">")) return undefined;
  const name = tag.slice(prefix.length, -1).trim();
  return name === "" ? undefined : name;
}

/**
 * Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step-3.5 (Qwen3-Coder.jinja, Qwen3.5-4B.jinja,
 * NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja, StepFun3.5-Flash.jinja) and Seed-OSS (ByteDance-Seed-OSS.jinja):
 * `<function=f>\n<parameter=k>\nv\n</parameter>\n</function>`. Keys the schema does not declare stay
 * strings, as in Qwen3-Coder's reference parser.
 */
export const QWEN3_CODER_SYNTAX: TaggedSyntax = {
  callOpen: (tag) => afterPrefix(tag, "<function="),
  callClose: "</function>",
  paramOpen: (tag): ParamOpen | undefined => {
    const key = afterPrefix(tag, "<parameter=");
    return key === undefined ? undefined : { key };
  },
  paramClose: "</parameter>",
  afterParam: ["<parameter=", "</function>", "<function="],
  afterParamNewline: true,
  implicitEnds: [{ tag: "<parameter=" }, { tag: "</function>", after: ["<function="] }],
  untyped: UNTYPED_STRING,
};

/**
 * Seed-OSS writes the Qwen3-Coder tags. Undeclared keys are decoded as JSON when they are JSON
 * (llama.cpp's reading of Seed-OSS: `[1, 2, 3]` with no tools is a list), else kept as text.
 */
export const SEED_OSS_SYNTAX: TaggedSyntax = { ...QWEN3_CODER_SYNTAX, untyped: UNTYPED_JSON };

/**
 * GLM-4.5/4.6/4.7, GLM-5 (GLM-4.6.jinja, GLM-4.7-Flash.jinja): `f\n<arg_key>k</arg_key>\n<arg_value>v
 * </arg_value>` inside `<tool_call>`, one call per region, newlines optional. Undeclared keys are decoded
 * as JSON when they are JSON, as GLM's reference parser does (json.loads, then the raw text).
 */
export const GLM_SYNTAX: TaggedSyntax = {
  paramOpen: (tag) => (tag === "<arg_key>" ? {} : undefined),
  keyClose: "</arg_key>",
  valueOpen: "<arg_value>",
  paramClose: "</arg_value>",
  afterParam: ["<arg_key>"],
  untyped: UNTYPED_JSON,
};

/**
 * MiniMax-M2 (MiniMax-M2.jinja): `<invoke name="f">\n<parameter name="k">v</parameter>\n</invoke>`,
 * several invokes per `<minimax:tool_call>` region. Undeclared keys stay strings.
 */
export const MINIMAX_SYNTAX: TaggedSyntax = {
  callOpen: (tag) => (/^<invoke[\s>]/.test(tag) ? attr(tag, "name") : undefined),
  callClose: "</invoke>",
  paramOpen: (tag) => {
    if (!/^<parameter[\s>]/.test(tag)) return undefined;
    const key = attr(tag, "name");
    return key === undefined ? undefined : { key };
  },
  paramClose: "</parameter>",
  afterParam: ["<parameter", "</invoke>"],
  untyped: UNTYPED_STRING,
};

const DSML = "｜DSML｜";

/**
 * DeepSeek V3.2 / V4 DSML (deepseek-ai-DeepSeek-V3.2.jinja): `<｜DSML｜invoke name="f">` and
 * `<｜DSML｜parameter name="k" string="true|false">v</｜DSML｜parameter>`. The template writes strings as
 * they are (`string="true"`) and everything else as JSON (`string="false"`), so an undeclared key is typed
 * by that attribute; a declared key is typed by its schema either way. SGLang's tests also show the
 * arguments as one JSON object inside `<｜DSML｜invoke>`, which is read too.
 */
export const DSML_SYNTAX: TaggedSyntax = {
  callOpen: (tag) => (tag.startsWith(`<${DSML}invoke`) ? attr(tag, "name") : undefined),
  callClose: `</${DSML}invoke>`,
  paramOpen: (tag) => {
    if (!tag.startsWith(`<${DSML}parameter`)) return undefined;
    const key = attr(tag, "name");
    if (key === undefined) return undefined;
    return { key, untyped: attr(tag, "string") === "false" ? UNTYPED_JSON : UNTYPED_STRING };
  },
  paramClose: `</${DSML}parameter>`,
  afterParam: [`<${DSML}parameter`, `</${DSML}invoke>`],
  untyped: UNTYPED_STRING,
  jsonBody: true,
};
