/**
 * A call written in another form than the family's: in a fence, in the family's other syntax or the
 * serving stack's, with other JSON keys, inside a wrapper tag or key, bare (the markers left out), or as a
 * Python literal.
 * Each entry checks its tolerance against the description and fills the accumulator (build.ts).
 */
import { heldCall } from "../decoders/bare-call.js";
import { callStarts } from "../decoders/pythonic.js";
import { repairing } from "../decoders/repairing.js";
import { wrapperTag } from "../decoders/wrapper-tag.js";
import { endOf, invalid, jsonCallPayloads, jsonCallRegions, jsonCallsIn, keyNames, leafPayloads, regionOf, wrapperOpens } from "./build.js";
import type { KindCompilers } from "./build.js";

type Kinds = "fence" | "other-syntax" | "stack-syntax" | "key-alias" | "wrapper-tag" | "wrapper-key" | "bare-call" | "python-literal";

export const CALL_FORMS: KindCompilers<Kinds> = {
  fence(t, into, format, compile) {
    if (t.open.length === 0 || t.open.some((o) => !o.startsWith("```"))) throw invalid(format, t, '"open" needs fence lines that start with ```');
    if ((t.payload === undefined) === (t.around === undefined)) throw invalid(format, t, 'needs exactly one of "payload" and "around"');
    if (t.anywhere !== undefined && (typeof t.anywhere !== "boolean" || t.payload === undefined)) throw invalid(format, t, '"anywhere" is a boolean, with "payload"');
    if (t.around !== undefined) {
      const around = t.around;
      if (!format.regions.some((r) => r.start.includes(around)) && !wrapperOpens(format).includes(around)) {
        throw invalid(format, t, `"around" ${JSON.stringify(around)} is no region's start marker`);
      }
      for (const open of t.open) {
        into.fenced.push({ open, around });
        into.stray.push({ after: `${open}\n${around}`, closer: { closer: "```", repair: "fence", message: `the closing \`\`\` of the ${open} fence around the call read as part of it` } });
      }
      return;
    }
    const decoder = compile(t.payload!);
    for (const open of t.open) {
      const message = `the ${open} fence around the call read as part of it`;
      if (t.anywhere === true) {
        // After text too: held until the fence closes, a call only if its whole body is calls.
        into.regions.push({ start: [`${open}\n`], end: ["```"], quietIfNotCall: true, decoder: heldCall(decoder, { repair: "fence", message, text: open }, "region") });
        continue;
      }
      into.regions.push({
        start: [`${open}\n`],
        end: ["```"],
        atStartOnly: true,
        quietIfNotCall: true,
        decoder: repairing(decoder, { repair: "fence", message, text: open }),
      });
    }
  },
  "other-syntax"(t, into, format, compile) {
    regionOf(format, t, t.region);
    if (t.when.length !== 1 || /\s/.test(t.when)) throw invalid(format, t, '"when" must be one non-space character');
    const message = `${t.region} holding a ${t.payload.kind} payload (the family's other syntax) read as a call`;
    into.others.push({ region: t.region, when: t.when, decoder: repairing(compile(t.payload), { repair: "other-syntax", message, text: t.region }) });
  },
  "stack-syntax"(t, into, format, compile) {
    if (typeof t.start !== "string" || t.start.trim() === "" || typeof t.end !== "string" || t.end.trim() === "") throw invalid(format, t, '"start" and "end" must be non-empty markers');
    if (format.regions.some((r) => r.start.includes(t.start))) throw invalid(format, t, `"start" ${JSON.stringify(t.start)} is already one of the family's own markers`);
    const message = `a call in the serving stack's prompted syntax ${t.start}...${t.end} read as a call`;
    into.regions.push({
      start: [t.start],
      end: [t.end],
      quietIfNotCall: true,
      outsideReasoning: true,
      decoder: repairing(compile(t.payload), { repair: "stack-syntax", message, text: `${t.start}…${t.end}` }),
    });
  },
  "key-alias"(t, into, format) {
    if (jsonCallPayloads(format).length === 0) throw invalid(format, t, "the family writes no JSON call objects");
    const nameKeys = keyNames(format, t, "nameKeys", t.nameKeys);
    const argsKeys = keyNames(format, t, "argsKeys", t.argsKeys);
    const envelopeKeys = keyNames(format, t, "envelopeKeys", t.envelopeKeys);
    if (t.argsAsString !== undefined && typeof t.argsAsString !== "boolean") throw invalid(format, t, '"argsAsString" must be a boolean');
    if (nameKeys.length === 0 && argsKeys.length === 0 && envelopeKeys.length === 0 && t.argsAsString !== true) throw invalid(format, t, "names no alias");
    const prev = into.keyAliases;
    into.keyAliases = {
      nameKeys: [...(prev?.nameKeys ?? []), ...nameKeys],
      argsKeys: [...(prev?.argsKeys ?? []), ...argsKeys],
      argsAsString: (prev?.argsAsString ?? false) || t.argsAsString === true,
      envelopeKeys: [...(prev?.envelopeKeys ?? []), ...envelopeKeys],
    };
  },
  "wrapper-tag"(t, into, format, compile) {
    const found = jsonCallRegions(format);
    if (found.length === 0) throw invalid(format, t, "the family has no region of JSON call objects");
    if (!Array.isArray(t.tags) || t.tags.length === 0 || t.tags.some((p) => !Array.isArray(p) || p.length !== 2 || !p.every((m) => typeof m === "string" && /^<\S+>$/.test(m)))) {
      throw invalid(format, t, '"tags" must be [open, close] pairs of tags');
    }
    const calls = compile(found[0]!.payload);
    for (const pair of t.tags) into.wrapped.push({ start: [pair[0]], decoder: heldCall(wrapperTag(pair, t.tags, calls), undefined, "region") });
  },
  "wrapper-key"(t, into, format) {
    if (jsonCallPayloads(format).length === 0) throw invalid(format, t, "the family writes no JSON call objects");
    const keys = keyNames(format, t, "keys", t.keys);
    if (keys.length === 0) throw invalid(format, t, '"keys" must be non-empty key names');
    into.wrapperKeys.push(...keys);
  },
  "bare-call"(t, into, format, compile) {
    const p = t.payload;
    if (p !== undefined && p.kind !== "json-calls" && p.kind !== "literal-calls") throw invalid(format, t, '"payload" must be a json-calls or literal-calls payload');
    if (p === undefined || p.kind === "json-calls") {
      const found = jsonCallRegions(format);
      if (found.length === 0) throw invalid(format, t, "the family has no region of JSON call objects");
      // The markers left out: those of a region that is not itself a bare start (xLAM's `[`).
      const missing = JSON.stringify((found.find((f) => !f.atStart) ?? found[0]!).markers[0] ?? "");
      into.bareCall = { decoder: compile(p ?? found[0]!.payload), starts: ["{", "["], message: `a completion that is only JSON call objects, without ${missing}, read as calls` };
    } else {
      // Its own call syntax: a literal-calls payload of one of the family's regions (same dialect and name prefix).
      const own = format.regions.filter((r) => leafPayloads(r.payload).some((q) => q.kind === "literal-calls" && q.dialect === p.dialect && (q.namePrefix ?? "") === (p.namePrefix ?? "")));
      if (own.length === 0) throw invalid(format, t, `the family writes no ${p.dialect} calls of that syntax`);
      const missing = [...new Set(own.flatMap((r) => r.start))].map((m) => JSON.stringify(m)).join(" or ");
      into.bareCall = { decoder: compile(p), starts: callStarts(p.namePrefix ?? ""), message: `a completion that is only a ${p.dialect} call, without ${missing}, read as a call` };
    }
    // A family whose output may already start with such a call reads it itself (llama3-json's `{`,
    // xLAM's `[`): the bare call starts only where the family's own regions do not.
    const own = (b: string): boolean => format.regions.some((r) => r.atStartOnly === true && r.start.some((m) => m.trimStart().startsWith(b)));
    const starts = into.bareCall.starts.filter((b) => !own(b));
    if (starts.length === 0) throw invalid(format, t, "the family already reads a call at the start of the output");
    into.bareCall = { ...into.bareCall, starts };
  },
  "python-literal"(t, into, format) {
    const region = regionOf(format, t, t.region);
    const json = jsonCallsIn(region.payload);
    if (json.length === 0 || region.payload.kind !== "json-calls") throw invalid(format, t, "the region holds no JSON call objects");
    endOf(format, t, t.region);
    into.pythonLiterals.push({ region: t.region, argsKeys: json[0]!.argsKeys ?? ["arguments"] });
  },
};
