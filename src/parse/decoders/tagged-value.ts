/**
 * A value of a tagged call (tagged.ts) as its text arrives: the one leading newline stripped, a union
 * type decided from the value's start, a string written out as JSON as it comes, any other value typed
 * (coerce.ts) when complete. Each function appends what belongs to the call's arguments JSON to
 * `call.args` and returns the arguments fragment for the client ("" for none), which also holds the
 * bodies of streamed strings that `call.args` leaves out (see OpenCall.args).
 */
import { couldBeNonString, propertySchema, schemaTypes, typeRawValue } from "../coerce.js";
import type { ValueType } from "../coerce.js";
import { jsonStringBody, JsonStringWriter } from "../literal/json-text.js";
import type { OpenCall } from "./tagged-call.js";

const NEWLINE = 0x0a;
/** How much of a value's start decides whether a union type can still be something other than a string. */
const TYPE_PROBE = 64;

export interface OpenValue {
  key: string;
  types: readonly ValueType[];
  /** stream: a string written as it arrives; hold: written when complete. */
  mode: "stream" | "hold";
  /** The text of a held value. */
  parts: string[];
  /** The value's first characters until it is known whether they start with the newline to strip. */
  lead: string | null;
  /** Where `lead` starts in `seen`. */
  leadAt: number;
  /** Where the value's text (after the stripped newline) starts and ends so far in `seen`; from < 0: none yet. */
  from: number;
  to: number;
  /** A streamed value: where its body goes in the call's `args`. */
  bodyAt: number;
  /** The value's start without leading whitespace, up to TYPE_PROBE characters (for the union decision). */
  probe: string;
  /** The last character given to the value was a newline (true at its start: a value starts a line). */
  atLineStart: boolean;
  writer: JsonStringWriter;
  // --- padded-value (helper wild-more) ---
  /**
   * The `padded-value` tolerance is on and may still apply: the value has no text yet and no newline
   * was stripped before it (the padding stands where the template writes that newline).
   */
  padTolerated: boolean;
  /**
   * A value that opened with a space or tab, held until a newline in it shows it is no padded line
   * (then it is given to the value as it came), or until it closes; `padAt`: its offset in `seen`.
   */
  pad: string | null;
  padAt: number;
  /** The value was read without its padding: the text as the model wrote it (the repair's `text`). */
  padRepaired?: string;
  // --- end padded-value ---
}

const isPad = (c: number): boolean => c === 0x20 || c === 0x09;

/** A value of `call` opens: typed by the tool's schema, else by `untyped`. `cdata`: the syntax's. */
export function openValue(call: OpenCall, key: string, untyped: readonly ValueType[], cdata: boolean, padded = false): { value: OpenValue; fragment: string } {
  const schema = propertySchema(call.parameters, key);
  const types = schema !== undefined ? schemaTypes(schema, call.parameters) : untyped;
  const stream = types.length === 1 && types[0] === "string" && !cdata;
  // `{` is written with the first key, so that a JSON body can still replace the parameters.
  const keyJson = JSON.stringify(key);
  if (call.keys.has(key)) call.repeated = true;
  call.keys.add(key);
  const fragment = (call.n > 0 ? ", " : "{") + keyJson + ": " + (stream ? '"' : "");
  call.args.append(fragment);
  call.n++;
  const value: OpenValue = {
    key, types, mode: stream ? "stream" : "hold", parts: [], lead: "", leadAt: -1, from: -1, to: -1,
    bodyAt: call.args.length, probe: "", atLineStart: true, writer: new JsonStringWriter(),
    padTolerated: padded, pad: null, padAt: -1,
  };
  return { value, fragment };
}

/** Text of the value, `at` its offset in `seen` (a value's text is one stretch of the region's). */
export function addValueText(call: OpenCall, v: OpenValue, text: string, at: number, cdata: boolean): string {
  let t = text;
  if (v.lead !== null) {
    // Strip one leading newline; a lone "\r" waits for the next character.
    const leadAt = at - v.lead.length;
    const lead = v.lead + t;
    if (lead === "" || lead === "\r") {
      v.lead = lead;
      v.leadAt = leadAt;
      return "";
    }
    v.lead = null;
    const strip = lead.startsWith("\r\n") ? 2 : lead.startsWith("\n") ? 1 : 0;
    t = strip === 0 ? lead : lead.slice(strip);
    at = leadAt + strip;
    if (strip > 0) v.padTolerated = false;
  }
  if (t === "") return "";
  // --- padded-value (helper wild-more) ---
  if (v.pad !== null || (v.padTolerated && v.from < 0 && isPad(t.charCodeAt(0)))) {
    if (v.pad === null) {
      v.pad = "";
      v.padAt = at;
    }
    v.pad += t;
    v.atLineStart = false;
    if (!v.pad.includes("\n")) return "";
    // More than one line: the whitespace is the value's own.
    return releasePad(call, v, v.pad, v.padAt, cdata);
  }
  v.padTolerated = false;
  // --- end padded-value ---
  if (v.from < 0) v.from = at;
  v.to = at + t.length;
  v.atLineStart = t.charCodeAt(t.length - 1) === NEWLINE;
  if (v.mode === "stream") return v.writer.write(t);
  v.parts.push(t);
  if (v.probe.length >= TYPE_PROBE || !v.types.includes("string") || cdata) return "";
  v.probe = (v.probe + t).trimStart().slice(0, TYPE_PROBE);
  if (v.probe === "" || couldBeNonString(v.probe, v.types)) return "";
  // It can only be a string now: write what came so far and stream the rest.
  v.mode = "stream";
  call.args.append('"');
  v.bodyAt = call.args.length;
  return '"' + v.writer.write(v.parts.join(""));
}

/** The value's text is complete: its end is written. */
export function closeValue(call: OpenCall, v: OpenValue, cdata: boolean, newlineBeforeClose = false): string {
  let fragment = "";
  // --- padded-value (helper wild-more) ---
  if (v.pad !== null) {
    const raw = v.pad;
    const inner = raw.replace(/^[ \t]+/, "");
    const core = inner.replace(/[ \t]+$/, "");
    // Padded on both sides (the close tag's newline not written either): the padding is layout.
    if (core !== "" && core.length < inner.length && !newlineBeforeClose) {
      v.padRepaired = raw;
      fragment = releasePad(call, v, core, v.padAt + raw.length - inner.length, cdata);
    } else fragment = releasePad(call, v, raw, v.padAt, cdata);
  }
  // --- end padded-value ---
  if (v.lead !== null && v.lead !== "") {
    // A value that is only a "\r": it is the value's text.
    const lead = v.lead;
    v.lead = null;
    if (v.from < 0) v.from = v.leadAt;
    v.to = v.leadAt + lead.length;
    if (v.mode === "stream") fragment = v.writer.write(lead);
    else v.parts.push(lead);
  }
  if (v.mode === "stream") {
    call.streamed.push({ key: v.key, at: v.bodyAt, from: v.from, to: v.to });
    call.args.append('"');
    return fragment + v.writer.end() + '"';
  }
  const text = v.parts.join("");
  const wrapped = cdata ? unwrapCdata(text) : undefined;
  const json = wrapped !== undefined ? `"${jsonStringBody(wrapped)}"` : typeRawValue(text, v.types).json;
  // A typed value reads its trimmed text anyway: then the padding changed nothing, and nothing was repaired.
  if (v.padRepaired !== undefined && wrapped === undefined && typeRawValue(v.padRepaired, v.types).json === json) v.padRepaired = undefined;
  call.args.append(json);
  return fragment + json;
}

// --- padded-value (helper wild-more) ---
/** The held padded text (or what is left of it) given to the value as ordinary text. */
function releasePad(call: OpenCall, v: OpenValue, text: string, at: number, cdata: boolean): string {
  v.pad = null;
  v.padTolerated = false;
  v.atLineStart = true;
  return addValueText(call, v, text, at, cdata);
}
// --- end padded-value ---

/** The text of a `<![CDATA[...]]>` section that is the whole value (whitespace around it allowed). */
export function unwrapCdata(text: string): string | undefined {
  const t = text.trim();
  return t.startsWith("<![CDATA[") && t.endsWith("]]>") ? t.slice(9, -3) : undefined;
}
