/**
 * `--kind structural-tag`: the same call shapes as the GBNF emitter, for engines that constrain only
 * inside tagged spans (vLLM / SGLang / xgrammar `structural_tag` response format): per callable tool a
 * structure `{begin, schema, end}` whose begin and end are fixed text and whose middle is the tool's
 * arguments as JSON, and the triggers that start a structure. It fits the formats whose call is
 * exactly that: JSON call objects (`<tool_call>\n{"name": "f", "arguments": ` ... `}\n</tool_call>`) and a
 * header naming the tool before JSON arguments (`[TOOL_CALLS]f[ARGS]` ...). Tagged, Python and Gemma
 * formats have no JSON middle, channel calls no end text of their own (the next header, or a stop
 * token: harmony's `<|call|>`), and header patterns with a counter (Kimi's `functions.f:0`) no fixed
 * begin; those get a ChatwireError saying so.
 */
import { ChatwireError } from "../errors.js";
import type { FormatDescription, FormatId, Payload, RegionSpec } from "../formats/types.js";
import { formatOf } from "./format-of.js";
import { PyFloat } from "../jinja/py-float.js";
import { onPayload, type PayloadTable } from "../parse/payload-kinds.js";
import type { JsonSchema } from "../types.js";
import { choosePattern, fillPattern, requiredHoles } from "./pattern-gbnf.js";
import { callableTools, toolRequest } from "./tool-request.js";

export interface StructuralTag {
  type: "structural_tag";
  structures: { begin: string; schema: JsonSchema; end: string }[];
  triggers: string[];
}

/** Fixed text before and after a call's JSON arguments, from the region and its payload. */
interface CallFrame {
  begin(name: string): string;
  end: string;
  trigger: string;
}

/** The JSON call's text before and after its arguments, from the payload and its region. */
type PayloadFrame = { before(name: string): string; after: string } | undefined;

/** Each payload kind's frame; undefined where the arguments are not JSON between fixed text. */
const FRAMES: PayloadTable<PayloadFrame, [RegionSpec]> = {
  "json-calls": (payload, region) => {
    const lead = region.startInPayload === true ? "" : region.end !== undefined ? "\n" : "";
    const trail = region.end !== undefined && region.startInPayload !== true ? "\n" : "";
    const nameKey = payload.nameKeys?.[0] ?? "name";
    const argsKey = payload.argsKeys?.[0] ?? "arguments";
    // `functools[` opened the array already; a region that is the array itself (xLAM's `[`) opens it here.
    const opened = typeof region.startInPayload === "number";
    const array = region.startInPayload === true && region.start[0] === "[" ? "[" : "";
    const close = opened || array !== "" ? "}]" : "}";
    const open = `${opened ? "" : lead}${array}{`;
    if (payload.nameIsKey === true) return { before: (n) => `${open}${JSON.stringify(n)}: `, after: `${close}${trail}` };
    return { before: (n) => `${open}${JSON.stringify(nameKey)}: ${JSON.stringify(n)}, ${JSON.stringify(argsKey)}: `, after: `${close}${trail}` };
  },
  "header-args": (payload) => {
    const pattern = choosePattern(payload.header, ["name"]);
    const end = payload.headerEnd[0];
    if (pattern === undefined || end === undefined || requiredHoles(pattern).some((h) => h !== "name")) return undefined;
    return { before: (n) => `${fillPattern(pattern, { name: n })}${end}`, after: "" };
  },
  // The family's own spelling only: Qwen3-Coder and GLM also read JSON, but their templates write tags.
  "by-first-char": (payload, region) => payloadFrame(payload.otherwise, region),
  // Raw or typed values between tags, Python and Gemma literals, code: no JSON middle.
  tagged: () => undefined,
  "xml-calls": () => undefined,
  "literal-calls": () => undefined,
  "python-or-json": () => undefined,
  "python-tag": () => undefined,
  // A bare arguments body is a channel message's, and channel formats have no structural tag.
  "json-args": () => undefined,
};

function payloadFrame(payload: Payload, region: RegionSpec): PayloadFrame {
  return onPayload(FRAMES, payload, region);
}

function callFrame(format: FormatDescription): CallFrame | undefined {
  if (format.channels !== undefined) return undefined;
  const section = format.sections?.[0];
  for (const region of format.regions) {
    const frame = payloadFrame(region.payload, region);
    if (frame === undefined) continue;
    const start = region.start[0] as string;
    const head = region.startInPayload === true ? "" : start;
    const tail = region.end?.[0] ?? "";
    const open = section === undefined ? "" : (section.start[0] as string);
    const close = section === undefined ? "" : (section.end[0] as string);
    return {
      begin: (name) => `${open}${head}${frame.before(name)}`,
      end: `${frame.after}${tail}${close}`,
      // A payload that opens its own region (`{`) triggers on itself.
      trigger: open !== "" ? open : region.startInPayload === true ? frame.before("").slice(0, start.length) : start,
    };
  }
  return undefined;
}

export function buildStructuralTag(format: FormatId | FormatDescription, request: unknown): StructuralTag {
  const description = formatOf(format);
  const frame = callFrame(description);
  if (frame === undefined) {
    throw new ChatwireError(
      "unknown_format",
      description.channels !== undefined
        ? // A channel call ends at the next header or with a stop token (harmony's `<|call|>`), not with text of its own.
          `no structural tag for format ${JSON.stringify(description.id)}: its calls are channel messages, not JSON arguments between fixed text (a call ends at the next header or with a stop token)`
        : `no structural tag for format ${JSON.stringify(description.id)}: its calls are not JSON arguments between fixed text`,
    );
  }
  const tools = callableTools(toolRequest(request));
  if (tools.length === 0) throw new ChatwireError("invalid_request", "no callable tool to describe", { field: "tool_choice" });
  return {
    type: "structural_tag",
    structures: tools.map((t) => ({ begin: frame.begin(t.function.name), schema: plain(t.function.parameters ?? { type: "object", properties: {} }) as JsonSchema, end: frame.end })),
    triggers: [frame.trigger],
  };
}

/** A deep copy with PyFloat numbers as plain numbers (JSON output). */
function plain(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}
