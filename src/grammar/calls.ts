/**
 * How a format writes a group of calls, derived from its description (src/parse/language.ts): the call
 * regions whose payload has a writer (payloads.ts), their start and end markers (the first spelling of
 * each), and the section markers around them. A format that has no grammar says why in its own file
 * (`grammar.unavailable`); `derivedShape` is what the emitter itself can write, which a test keeps in
 * step with those declarations.
 */
import type { FormatDescription, RegionSpec } from "../formats/types.js";
import { onPayload, type PayloadTable } from "../parse/payload-kinds.js";
import type { FunctionTool } from "../types.js";
import { alt, lit } from "./gbnf.js";
import { bodiesHoldRegions } from "./channel-call-bodies.js";
import { channelLimit } from "./channels.js";
import { payloadWriter, type EmitContext, type PayloadWriter } from "./payloads.js";

export interface CallShape {
  /** The rule for one group of calls at one place in the output (`single`: exactly one call). */
  block(tools: readonly FunctionTool[], single: boolean): string;
  /** Every tag and marker a call writes: a raw value may hold none of them. */
  markers: readonly string[];
  /** Calls only at the very start of the output, then nothing else (Llama 3's bare JSON). */
  atStartOnly: boolean;
  /** The text every group of calls starts with, one per alternative (what a lazy grammar triggers on). */
  starts: readonly string[];
}

export type ShapeOrReason = CallShape | { reason: string };

interface Usable {
  region: RegionSpec;
  writer: PayloadWriter;
}

/** Payload kinds read with whitespace skipped around them, so the canonical form puts newlines there. */
const PADDED: PayloadTable<boolean> = {
  "json-calls": () => true,
  tagged: () => true,
  // A dispatch is written in its `otherwise` spelling (payloads.ts reads the template for the others).
  "by-first-char": (p) => onPayload(PADDED, p.otherwise),
  "json-args": () => false,
  "header-args": () => false,
  "xml-calls": () => false,
  "literal-calls": () => false,
  "python-or-json": () => false,
  "python-tag": () => false,
};

function padded(region: RegionSpec): boolean {
  return onPayload(PADDED, region.payload);
}

/** The call shape of a format, or the reason its file gives for having no grammar. */
export function callShape(format: FormatDescription, ctx: EmitContext): ShapeOrReason {
  const declared = format.grammar?.unavailable;
  if (declared !== undefined) return { reason: declared };
  return derivedShape(format, ctx);
}

/**
 * What the emitter can write for the description, ignoring its `grammar` field: the shape, or what
 * stops it (channel messages, a payload kind without a writer).
 */
export function derivedShape(format: FormatDescription, ctx: EmitContext): ShapeOrReason {
  if (format.channels !== undefined) {
    // The output is a sequence of messages whose headers route them: channels.ts writes those it can.
    const limit = channelLimit(format);
    if (limit !== undefined) return { reason: limit };
    // A message addressed to a tool holds a call region (Glimmer): its body is written as regions are.
    return bodiesHoldRegions(format) ? regionShape(format, ctx) : { markers: [], atStartOnly: false, starts: [], block: () => '""' };
  }
  return regionShape(format, ctx);
}

/** The shape of the format's call regions, or why none of them can be written. */
function regionShape(format: FormatDescription, ctx: EmitContext): ShapeOrReason {
  if (format.regions.length === 0) return { reason: "the format has no call regions" };
  const reasons: string[] = [];
  let usable: Usable[] = [];
  for (const region of format.regions) {
    const writer = payloadWriter(region.payload, ctx);
    if ("reason" in writer) reasons.push(`${region.start[0]}: ${writer.reason}`);
    else usable.push({ region, writer });
  }
  if (usable.length === 0) return { reason: reasons.join("; ") };
  // Calls at the start only (a bare `{`) are a shape of their own; other regions are left out then.
  const atStart = usable.filter((u) => u.region.atStartOnly === true);
  if (atStart.length > 0) usable = atStart;
  const { builder } = ctx;
  const regionRule = (u: Usable, tools: readonly FunctionTool[], single: boolean): string => {
    const { region, writer } = u;
    const start = region.start[0] as string;
    // The payload itself opens the region, so it starts with the marker (`[` is an array, `{` an object).
    if (region.startInPayload === true) return writer.group(tools, single, "", start[0]);
    const opened = typeof region.startInPayload === "number" ? start.slice(-region.startInPayload) : "";
    const nl = padded(region) && opened === "" ? '"\\n"' : "";
    const end = region.end?.[0];
    const group = writer.group(tools, single, opened);
    if (end === undefined) return [lit(start), nl, group].filter((p) => p !== "").join(" ");
    return [lit(start), nl, group, nl !== "" && writer.endsLine === true ? `${nl}?` : nl, lit(end)].filter((p) => p !== "").join(" ");
  };
  const section = format.sections?.[0];
  return {
    markers: [...new Set(usable.flatMap((u) => u.writer.markers))],
    atStartOnly: atStart.length > 0,
    // A region whose payload opens itself starts with its marker too (`{`, `<function=`).
    starts: section !== undefined ? [section.start[0] as string] : [...new Set(usable.map((u) => u.region.start[0] as string))],
    block(tools, single) {
      const region = builder.add("call-region", alt(usable.map((u) => regionRule(u, tools, single))));
      if (section === undefined) return region;
      const inner = single ? region : `${region}+`;
      return `${lit(section.start[0] as string)} ${inner} ${lit(section.end[0] as string)}`;
    },
  };
}
