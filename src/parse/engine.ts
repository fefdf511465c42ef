/**
 * The parse engine: one incremental marker lexer and a small state machine, driven by a compiled
 * format (compile-format.ts: a description in the format language, language.ts, with its payloads
 * made decoders and its patterns matchers). It serves both one-shot and streaming parse: one-shot is
 * "push everything, then end", so the two agree for every split by construction.
 *
 * States: content or reasoning text; a section (a group of calls); a call region, whose inner text
 * goes to the format's payload decoder; a channel message header. Each state scans only for its own
 * markers (marker-tables.ts). Text that may still become a marker is held back and released as soon
 * as it cannot; nothing emitted is retracted.
 *
 * Calls: opened (header delta) as soon as the decoder names an accepted tool; argument fragments
 * follow; validated when the call closes. A call that fails after it was opened is reported in the
 * final delta's `errors` with its `index` (the client drops it). The text of every call that did not
 * become a valid call is emitted as content (or reasoning, inside a reasoning block) when its region
 * ends, before anything after the region, so text order is kept.
 *
 * Work per push is proportional to the pushed text plus a bounded held-back tail: the buffer is never
 * re-scanned and never concatenated whole.
 */
import type { CompiledFormat, CompiledRegion as CallRegion } from "./compile-format.js";
import type { Delta, FinishReason, ParseIssue } from "../types.js";
import { QUOTE_LENGTH, quoteStart } from "./decoder.js";
import type { DecoderContext, DecoderEvent, PayloadDecoder } from "./decoder.js";
import { DeltaSink } from "./deltas.js";
import { idsFor, validId } from "./ids.js";
import { NO_MARKER } from "./lexer.js";
import type { ScanResult } from "./lexer.js";
import { tablesFor } from "./marker-tables.js";
import type { FormatTables, MarkerAction, MarkerTable } from "./marker-tables.js";
import type { CallPolicy } from "./policy.js";
import { TextRope } from "./rope.js";
import { TextChannel } from "./text-channel.js";
import { holdsNonFiniteNumber, validateArguments } from "./validate.js";

type Channel = "content" | "reasoning";

/** Longer than any channel message header (harmony's longest is a recipient and a content type). */
const MAX_HEADER = 256;

/** The first piece of a long region text fed to a decoder (see regionText). */
const FIRST_FEED = 256;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

interface Section {
  channel: Channel;
  /** The section's own text (markers and text) while no call in it has succeeded. */
  pending: string[];
  /** The text in `pending` that is not a marker: kept as content once a call in the section succeeds. */
  text: string[];
  valid: boolean;
  /**
   * A channel message addressed to this tool (a `calls` route): only a valid call to it makes the
   * section valid (its header protocol); `called` says one succeeded.
   */
  recipient?: string;
  called?: boolean;
}

interface CurrentCall {
  name: string;
  /** Set when the call was opened (streamed); undefined for a rejected name. */
  index?: number;
  rejected?: { type: ParseIssue["type"]; message: string };
  /** A call to one of the format's pseudo-tools (see the language's `pseudoTools`): never opened. */
  pseudo?: true;
}

interface Region {
  region: CallRegion;
  /** The markers that mean something inside this region (looked up once, not per push). */
  table: MarkerTable;
  /**
   * The region's end markers when all of them start with `<` and the decoder takes text unscanned
   * (see pushPlainUnscanned), else undefined: known per region (and per decoder it forwards to), so a
   * JSON decoder's push does not look the method up in vain.
   */
  ltEnds: readonly string[] | undefined;
  decoder: PayloadDecoder;
  channel: Channel;
  section: Section | undefined;
  /** The region's text so far, markers included (a rope: appended per push, read when calls end). */
  raw: TextRope;
  /**
   * How much of `raw` the region always keeps, whatever its decoder hands back: its start marker (or a
   * channel header). A decoder that hands back everything (`<function=>` is no call) must not make the
   * engine read the same marker again, which would open the same region forever.
   */
  floor: number;
  /** Where the payload starts in `raw` (decoder offsets are relative to it). */
  payloadAt: number;
  /** Where the payload ends in `raw`, once the end marker was appended (-1: at the end of `raw`). */
  bodyEnd: number;
  /** Failure messages still to be ended with a quote of the region text from a payload offset. */
  quotes: Array<{ issue: ParseIssue; at: number }>;
  valid: number;
  calls: number;
  /** Texts of failed calls, for when some call in the region succeeded. */
  failedRaw: string[];
  issues: ParseIssue[];
  current: CurrentCall | undefined;
  /** Repairs the decoder reported for the current (or next) call: kept only if that call validates. */
  repairs: ParseIssue[];
  /** The last call of the region that validated: its streamed index and name. */
  lastValid: { index: number; name: string } | undefined;
}

/**
 * Right after a valid call, while only whitespace followed it: the closers of an opener the model
 * left out may still come (a `stray-closer` tolerance), and belong to that call.
 */
interface AfterCall {
  table: MarkerTable;
  call: number;
  name: string;
}

type State =
  | { kind: "text"; channel: Channel; after?: AfterCall }
  | { kind: "section"; section: Section }
  | { kind: "region"; r: Region }
  /** `opener`: the model's header start marker; `fromPrompt`: header text that came from the prompt. */
  | { kind: "header"; text: string[]; length: number; opener: string; fromPrompt: string };

export interface EngineOptions {
  idGenerator?: () => string;
  promptSuffix?: string;
  /** What a call written inside reasoning is (see ParseOptions.reasoningCalls); default "call". */
  reasoningCalls?: "call" | "text";
}

export class ParseEngine {
  private readonly tables: FormatTables;
  /** The reasoning state's table: with or without call markers (options.reasoningCalls). */
  private readonly reasoningTable: MarkerTable;
  private readonly sink = new DeltaSink();
  private readonly content: TextChannel;
  private readonly reasoning: TextChannel;
  private readonly nextId: () => string;
  private state: State = { kind: "text", channel: "content" };
  /** Text held back because it may be the start of a marker. */
  private held = "";
  /** Nothing but whitespace has been seen (for regions allowed only at the start). */
  private atStart = true;
  private nextIndex = 0;
  private validCalls = 0;
  private readonly issues: ParseIssue[] = [];
  private ended = false;

  constructor(
    private readonly format: CompiledFormat,
    private readonly policy: CallPolicy,
    options: EngineOptions = {},
  ) {
    this.tables = tablesFor(format);
    this.reasoningTable = options.reasoningCalls === "text" ? this.tables.reasoningText : this.tables.reasoning;
    this.content = new TextChannel((t) => this.sink.content(t));
    this.reasoning = new TextChannel((t) => this.sink.reasoning(t));
    this.nextId = idsFor(format.idStyle, options.idGenerator);
    this.initialState(options.promptSuffix);
  }

  push(delta: string): Delta[] {
    if (this.ended || delta === "") return this.sink.take();
    const st = this.state;
    if (st.kind === "region") {
      // The common push inside a call. What run() would do with it, minus the loop: when no marker
      // can start in it, all of it is region text; when only its tail may still become a marker (`<`
      // at the end of a push of code), the text before that tail is, and the tail is held back.
      const r = st.r;
      const text = this.held === "" ? delta : this.held + delta;
      if (r.ltEnds !== undefined) {
        // Inside a tagged value: the decoder's one search for `<` also rules out the end markers.
        const d = r.decoder;
        const args = d.pushPlainUnscanned!(text, r.ltEnds);
        if (args !== undefined) {
          const hold = d.unscannedHold!;
          if (hold === 0) {
            this.held = "";
            this.tookRegionText(r, text, args);
          } else {
            this.held = text.slice(text.length - hold);
            if (hold < text.length) this.tookRegionText(r, text.slice(0, text.length - hold), args);
          }
          return this.sink.take();
        }
      }
      const opaque = r.decoder.pushOpaque?.(text);
      if (opaque !== undefined) {
        this.held = "";
        this.tookRegionText(r, text, opaque);
        return this.sink.take();
      }
      // Most pushes of a long value hold no character that starts a marker: one native search says so.
      const set = r.table.set;
      const hit = set.first !== undefined && text.indexOf(set.first) < 0 ? NO_MARKER : set.scan(text, 0);
      if (hit.kind === "none") {
        this.held = "";
        if (this.plainRegionText(r, text)) return this.sink.take();
        const rest = this.regionText(r, text, true);
        if (rest !== undefined) this.run(rest, false);
        return this.sink.take();
      }
      if (hit.kind === "hold" && (hit.index === 0 || this.plainRegionText(r, text.slice(0, hit.index)))) {
        this.held = text.slice(hit.index);
        return this.sink.take();
      }
      this.run(text, false);
      return this.sink.take();
    }
    this.run(this.held + delta, false);
    return this.sink.take();
  }

  /**
   * Region text taken by the decoder's fast path (inside a long value), with the same effect as
   * regionText; false when the decoder did not take it (then nothing happened).
   */
  private plainRegionText(r: Region, s: string): boolean {
    const plain = r.decoder.pushPlain?.(s);
    if (plain === undefined) return false;
    this.tookRegionText(r, s, plain);
    return true;
  }

  /** Region text `s` that a decoder's fast path took, making the arguments fragment `args`. */
  private tookRegionText(r: Region, s: string, args: string): void {
    r.raw.append(s);
    if (args !== "" && r.current?.index !== undefined) this.sink.args(r.current.index, args);
  }

  end(): Delta[] {
    if (this.ended) return [];
    this.ended = true;
    this.run(this.held, true);
    this.held = "";
    this.finishState();
    if (this.policy.choice.kind === "required" && this.validCalls === 0) {
      this.issues.push({ type: "tool_choice", message: 'tool_choice is "required" but the output has no valid call', text: "" });
    }
    const finish: FinishReason = this.validCalls > 0 ? "tool_calls" : "stop";
    const last: Delta = { finish_reason: finish };
    if (this.issues.length > 0) last.errors = this.issues;
    this.sink.push(last);
    return this.sink.take();
  }

  // ---- the lexer loop ------------------------------------------------------------------------

  private table(): MarkerTable {
    const s = this.state;
    switch (s.kind) {
      case "text":
        if (s.after !== undefined) return s.after.table;
        if (s.channel === "reasoning") return this.reasoningTable;
        return this.atStart ? this.tables.contentAtStart : this.tables.content;
      case "section":
        return this.tables.section;
      case "region":
        return s.r.table;
      case "header":
        return this.tables.header;
    }
  }

  private run(buf: string, final: boolean): void {
    let pos = 0;
    this.held = "";
    // The last scan of each table over `buf`: where it started and what it found. A region that turns
    // out not to be a call hands its text back; the next region of the same kind (`<tool_call>`
    // repeated) would scan the same text again for its end marker, which is quadratic. A scan from a
    // later position that is not past the hit has the same answer, so it is reused.
    const memo = new Map<MarkerTable, { from: number; hit: ScanResult }>();
    while (pos < buf.length) {
      const t = this.table();
      const last = memo.get(t);
      let hit: ScanResult;
      if (last !== undefined && last.from <= pos && (last.hit.kind === "none" || last.hit.index >= pos)) hit = last.hit;
      else {
        hit = t.set.scan(buf, pos, final);
        memo.set(t, { from: pos, hit });
      }
      if (t === this.tables.contentAtStart && hit.kind !== "none") {
        // Regions allowed only at the start must begin at the first non-whitespace character.
        const first = buf.slice(pos, hit.index).search(/\S/);
        if (first >= 0) {
          this.atStart = false;
          continue;
        }
      }
      const stop = hit.kind === "none" ? buf.length : hit.index;
      const rest = this.text(buf.slice(pos, stop));
      if (rest === undefined && hit.kind !== "none" && this.table() !== t) {
        // The text changed the state (a header that turned out not to be one): the marker after it
        // means what it means in the new state, as it would have had the text come in its own push.
        pos = stop;
        continue;
      }
      if (rest !== undefined) {
        // A region ended inside this text; what followed its payload is read again in the new state.
        // Usually it is the tail of that text, still in `buf`; it may also start in an earlier push.
        if (rest.length <= stop - pos) pos = stop - rest.length;
        else {
          buf = rest + buf.slice(stop);
          pos = 0;
          memo.clear();
        }
        continue;
      }
      if (hit.kind === "none") return;
      if (hit.kind === "hold") {
        this.held = buf.slice(hit.index);
        return;
      }
      pos = hit.index + hit.marker.length;
      const action = t.actions.get(hit.marker)!;
      const st = this.state;
      if (st.kind === "region" && (action.kind === "regionEnd" || action.kind === "regionEndThenHeader" || action.kind === "regionEndThenRegion") && st.r.decoder.opaque?.()) {
        // The end marker sits inside a literal of the payload (`"</tool_call>"` in a JSON string).
        const after = this.regionText(st.r, hit.marker, true);
        if (after !== undefined) {
          buf = after + buf.slice(pos);
          pos = 0;
          memo.clear();
        }
        continue;
      }
      this.marker(hit.marker, action);
    }
  }

  /** Text between markers, in the current state. Returns text to re-read when a region closed itself. */
  private text(s: string): string | undefined {
    if (s === "") return undefined;
    const st = this.state;
    switch (st.kind) {
      case "text":
        // Text after a call: a stray closer can no longer follow it (the run loop reads the marker
        // after this text again, in the plain text state).
        if (st.after !== undefined && /\S/.test(s)) this.state = { kind: "text", channel: st.channel };
        if (st.channel === "reasoning") this.reasoning.text(s);
        else {
          if (this.atStart && /\S/.test(s)) this.atStart = false;
          this.content.text(s);
        }
        return undefined;
      case "section":
        this.sectionText(st.section, s);
        return undefined;
      case "region":
        return this.regionText(st.r, s, true);
      case "header": {
        // A newline, or more text than a header holds, shows it is not one: the text up to there is
        // content, and what follows is read again as content (so the outcome does not depend on
        // where the stream was cut).
        const nl = s.indexOf("\n");
        const room = MAX_HEADER - st.length;
        const cut = Math.min(nl >= 0 ? nl + 1 : Infinity, s.length > room ? Math.max(room, 0) : Infinity);
        if (cut === Infinity) {
          st.text.push(s);
          st.length += s.length;
          return undefined;
        }
        st.text.push(s.slice(0, cut));
        this.notHeader(st);
        return cut < s.length ? s.slice(cut) : undefined;
      }
    }
  }

  /**
   * A message header that cannot be one (it spans lines, it is longer than any header, or a body end
   * comes before the header end: `Hello!` after the generation prompt's `<|start|>assistant`): its
   * text is content, kept exactly, and the output goes on as content.
   */
  private notHeader(st: Extract<State, { kind: "header" }>): void {
    this.state = { kind: "text", channel: "content" };
    this.keepText("content", st.opener + st.text.join(""));
  }

  private marker(m: string, action: MarkerAction): void {
    const st = this.state;
    // A reasoning block before the answer does not end "the start of the output" (xLAM thinks, then
    // writes its bare JSON list).
    if (st.kind === "text" && st.channel === "content" && action.kind !== "reasoningStart") this.atStart = false;
    switch (action.kind) {
      case "reasoningStart":
        if (st.kind === "text" && st.channel === "reasoning") {
          // Already reasoning: a repeated opener before any reasoning text is dropped, later it is text.
          if (!this.reasoning.blank) this.reasoning.text(m);
          return;
        }
        this.reasoning.boundary();
        this.state = { kind: "text", channel: "reasoning" };
        return;
      case "reasoningEnd":
        this.reasoning.boundary();
        this.content.boundary();
        this.state = { kind: "text", channel: "content" };
        return;
      case "bodyEnd":
        if (st.kind === "section") {
          this.endSection(st.section, m);
          this.content.boundary();
          return;
        }
        if (st.kind === "header") {
          this.notHeader(st);
          this.content.boundary();
          return;
        }
        if (st.kind === "text" && st.channel === "reasoning") {
          this.reasoning.boundary();
          this.content.boundary();
        } else this.content.boundary();
        this.state = { kind: "text", channel: "content" };
        return;
      case "ignore":
        if (st.kind === "section" && !st.section.valid) st.section.pending.push(m);
        return;
      case "sectionStart": {
        const channel = st.kind === "text" ? st.channel : "content";
        this.state = { kind: "section", section: { channel, pending: [m], text: [], valid: false } };
        return;
      }
      case "sectionEnd":
        if (st.kind === "section") this.endSection(st.section, m);
        return;
      case "region":
        this.openRegion(action.region, m);
        return;
      case "regionEnd":
        if (st.kind === "region") this.closeRegion(st.r, true, m);
        return;
      case "regionEndThenRegion":
        // The end marker is missing: the region is over as at the end of the output, and the marker
        // opens the next one wherever the first one had left the state (reasoning, a section).
        if (st.kind === "region") this.closeRegion(st.r, false, "");
        this.openRegion(action.region, m);
        return;
      case "regionEndThenHeader":
        if (st.kind === "region") this.closeRegion(st.r, true, "");
        this.state = { kind: "header", text: [], length: 0, opener: m, fromPrompt: "" };
        return;
      case "headerStart":
        if (st.kind === "text" && st.channel === "reasoning") this.reasoning.boundary();
        if (st.kind === "section") this.endSection(st.section, "");
        this.state = { kind: "header", text: [], length: 0, opener: m, fromPrompt: "" };
        return;
      case "headerEnd":
        if (st.kind === "header") this.routeHeader(st, m);
        return;
      case "strayCloser":
        // Only the after-call table holds it, so the state is that one.
        if (st.kind !== "text" || st.after === undefined) return this.channelText(st.kind === "text" ? st.channel : "content", m);
        this.issues.push({
          type: "repaired",
          repair: action.repair,
          message: action.message,
          text: m,
          name: st.after.name,
          call: st.after.call,
        });
        this.boundary(st.channel);
        this.state = { kind: "text", channel: st.channel };
        return;
    }
  }

  // ---- sections ------------------------------------------------------------------------------

  private sectionText(section: Section, s: string): void {
    if (!section.valid) {
      section.pending.push(s);
      section.text.push(s);
      return;
    }
    // After a valid call (a boundary), whitespace between calls is dropped; other text is kept.
    this.channelText(section.channel, s);
  }

  private endSection(section: Section, m: string): void {
    if (!section.valid) this.keepText(section.channel, section.pending.join("") + m);
    else this.boundary(section.channel);
    this.state = { kind: "text", channel: section.channel };
  }

  // ---- call regions --------------------------------------------------------------------------

  private openRegion(region: CallRegion, marker: string): void {
    const st = this.state;
    const section = st.kind === "section" ? st.section : undefined;
    const channel: Channel = section ? section.channel : st.kind === "text" ? st.channel : "content";
    const selfClosing = region.end === undefined || region.end.length === 0;
    const inPayload = region.startInPayload;
    const payload = inPayload === undefined || inPayload === false ? "" : inPayload === true ? marker : marker.slice(marker.length - inPayload);
    const r = this.newRegion(region, channel, section, marker, marker.length - payload.length, selfClosing);
    this.state = { kind: "region", r };
    if (payload !== "") {
      const rest = this.regionText(r, payload, false);
      if (rest !== undefined) this.text(rest);
    }
  }

  /**
   * A region whose raw text starts with `raw`; its payload (what the decoder sees) starts at
   * `payloadAt` in that text. Decoders slice the payload from the region's raw text.
   */
  private newRegion(region: CallRegion, channel: Channel, section: Section | undefined, raw: string, payloadAt: number, selfClosing: boolean): Region {
    const ctx: DecoderContext = {
      toolSchema: (name) => this.policy.schema(name),
      selfClosing,
      tolerances: this.format.tolerances,
      acceptsDeclared: (name) => this.policy.declares(name) && this.policy.accept(name, this.nextIndex).ok,
      declaredCallsPossible: this.policy.declaresAny() && this.policy.choice.kind !== "none",
      mayNameDeclared: (prefix) => this.policy.acceptsNameStarting(prefix, this.nextIndex),
      // Called only after `r` exists (decoders slice when a call ends).
      regionText: (from, to) => r.raw.slice(payloadAt + from, payloadAt + to),
      regionPieces: (from, to) => r.raw.pieces(payloadAt + from, payloadAt + to),
    };
    const table = this.tables.region(region);
    const decoder = region.decoder(ctx);
    const r: Region = { region, table, ltEnds: unscannedEnds(table, decoder), decoder, channel, section, raw: new TextRope(raw), floor: raw.length, payloadAt, bodyEnd: -1, quotes: [], valid: 0, calls: 0, failedRaw: [], issues: [], current: undefined, repairs: [], lastValid: undefined };
    return r;
  }

  /**
   * Feeds region text to the decoder. Returns the text after the payload if the region closed.
   *
   * A long text (the rest of a one-shot buffer, when no end marker follows) is fed in pieces that double
   * in size: a decoder may do work in proportion to what it is pushed (join it with what it kept, scan
   * it), and a region that ends after a few characters (`<function=` repeated, a `<tool_call>` that is
   * prose) must not cost the length of everything after it. Decoders give the same events for any
   * split, so this changes nothing but the cost.
   */
  private regionText(r: Region, s: string, record: boolean): string | undefined {
    if (s.length <= FIRST_FEED) {
      if (record) r.raw.append(s);
      return this.handle(r, this.decoderPush(r, s));
    }
    let at = 0;
    let size = FIRST_FEED;
    while (at < s.length) {
      let to = Math.min(s.length, at + size);
      // Never between the two halves of a surrogate pair (a stream never cuts there either).
      if (to < s.length && isHighSurrogate(s.charCodeAt(to - 1))) to++;
      const piece = s.slice(at, to);
      if (record) r.raw.append(piece);
      const rest = this.handle(r, this.decoderPush(r, piece));
      at = to;
      if (rest !== undefined) return at < s.length ? rest + s.slice(at) : rest;
      size *= 2;
    }
    return undefined;
  }

  /** Pushes region text to the decoder, then talks to the one it forwards to, if it now does. */
  private decoderPush(r: Region, s: string): DecoderEvent[] {
    const events = r.decoder.push(s);
    const inner = r.decoder.forwardsTo?.();
    if (inner !== undefined) {
      r.decoder = inner;
      r.ltEnds = unscannedEnds(r.table, inner);
    }
    return events;
  }

  private handle(r: Region, events: DecoderEvent[]): string | undefined {
    let rest: string | undefined;
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      switch (ev.kind) {
        case "call":
          this.onCall(r, ev.name, ev.id);
          break;
        case "args":
          if (r.current?.index !== undefined) this.sink.args(r.current.index, ev.text);
          break;
        case "done":
          this.onDone(r, ev.value, ev.raw);
          break;
        case "fail":
          this.onFail(r, ev);
          break;
        case "repaired":
          r.repairs.push({ type: "repaired", repair: ev.repair, message: ev.message, text: ev.text });
          break;
        case "close": {
          // The region keeps at least its start marker: the engine always moves past what it matched.
          const most = Math.max(0, r.raw.length - r.floor);
          rest = ev.rest.length > most ? ev.rest.slice(ev.rest.length - most) : ev.rest;
          this.trimRaw(r, rest);
          this.finishRegion(r);
          break;
        }
      }
    }
    return rest;
  }

  private onCall(r: Region, name: string, id: string | undefined): void {
    r.calls++;
    if (this.format.pseudoTools?.includes(name) === true && !this.policy.declares(name)) {
      r.current = { name, pseudo: true };
      return;
    }
    // With parallel_tool_calls false, the first call the model names is the one: a later call is
    // refused when it opens (streaming cannot wait to see whether the first one validates).
    const verdict = this.policy.accept(name, this.nextIndex);
    if (!verdict.ok) {
      r.current = { name, rejected: { type: verdict.type, message: verdict.message } };
      return;
    }
    const index = this.nextIndex++;
    r.current = { name, index };
    this.sink.callStart(index, id !== undefined && validId(this.format.idStyle, id) ? id : this.nextId(), name);
  }

  private onDone(r: Region, value: unknown, raw: string | undefined): void {
    const call = r.current;
    r.current = undefined;
    const repairs = r.repairs;
    r.repairs = [];
    if (call === undefined) return;
    if (call.rejected) {
      this.regionIssue(r, { type: call.rejected.type, message: call.rejected.message, name: call.name, text: raw ?? "" }, raw);
      return;
    }
    if (call.pseudo) {
      // Protocol, not a call: with empty arguments its markup vanishes as a valid call's does; with
      // arguments (which would be lost) it is refused like an undeclared tool, its text kept.
      if (isEmptyObject(value)) r.valid++;
      else this.regionIssue(r, { type: "unknown_tool", message: `${JSON.stringify(call.name)} is the template's own pseudo-tool, written with arguments`, name: call.name, text: raw ?? "" }, raw);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.regionIssue(r, { type: "invalid_arguments", message: "the arguments are not a JSON object", name: call.name, text: raw ?? "", index: call.index! }, raw);
      return;
    }
    if (holdsNonFiniteNumber(value)) {
      this.regionIssue(r, { type: "invalid_arguments", message: "the arguments hold a number too large for JSON (it reads as Infinity)", name: call.name, text: raw ?? "", index: call.index! }, raw);
      return;
    }
    const check = validateArguments(this.policy.schema(call.name), value);
    if (!check.ok) {
      this.regionIssue(r, { type: "invalid_arguments", message: check.message, name: call.name, text: raw ?? "", index: call.index!, details: check.details }, raw);
      return;
    }
    r.valid++;
    this.validCalls++;
    if (call.index !== undefined) {
      r.lastValid = { index: call.index, name: call.name };
      for (const repair of repairs) r.issues.push({ ...repair, name: call.name, call: call.index });
    }
    if (r.section !== undefined && r.section.recipient === call.name) r.section.called = true;
  }

  private onFail(r: Region, ev: Extract<DecoderEvent, { kind: "fail" }>): void {
    const call = r.current;
    r.current = undefined;
    r.repairs = [];
    const issue: ParseIssue = { type: call?.rejected?.type ?? ev.type, message: call?.rejected?.message ?? ev.message, text: ev.raw ?? "" };
    if (ev.at !== undefined && call?.rejected === undefined) r.quotes.push({ issue, at: ev.at });
    const name = call?.name ?? ev.name;
    if (name !== undefined) issue.name = name;
    if (call?.index !== undefined) issue.index = call.index;
    // A region that never named a call and is marked quiet is plain text, not a failed call.
    if (call === undefined && r.calls === 0 && r.region.quietIfNotCall) {
      if (ev.raw) r.failedRaw.push(ev.raw);
      return;
    }
    this.regionIssue(r, issue, ev.raw);
  }

  /**
   * Ends failure messages with the region text they point at, now that all of it is known: the same
   * text for every split of the stream (a decoder only sees the pieces it was pushed).
   */
  private endQuotes(r: Region): void {
    const end = r.bodyEnd >= 0 ? r.bodyEnd : r.raw.length;
    for (const { issue, at } of r.quotes) {
      const from = r.payloadAt + at;
      // One character past the quote's length tells whether there is more.
      issue.message += ` ${quoteStart(r.raw.slice(from, Math.min(end, from + QUOTE_LENGTH + 1)))}`;
    }
    r.quotes = [];
  }

  private regionIssue(r: Region, issue: ParseIssue, raw: string | undefined): void {
    r.issues.push(issue);
    if (raw) r.failedRaw.push(raw);
  }

  /**
   * Drops the text handed back by a self-closing decoder from the region's raw text. The rope cuts only
   * its last pieces: slicing a flat copy here would copy the rest of a one-shot buffer per region.
   */
  private trimRaw(r: Region, rest: string): void {
    r.raw.truncate(Math.max(0, r.raw.length - rest.length));
  }

  private closeRegion(r: Region, closed: boolean, endMarker: string): void {
    r.bodyEnd = r.raw.length;
    r.raw.append(endMarker);
    // A self-closing decoder cannot hand text back at the end of the output; ignore `close` here.
    this.handle(r, r.decoder.end(closed).filter((e) => e.kind !== "close"));
    this.finishRegion(r);
  }

  /** The region is over: emit the text of what did not become a valid call, and leave the state. */
  private finishRegion(r: Region): void {
    if (r.current !== undefined) {
      // The decoder ended without closing its call: treat it as cut off.
      this.onFail(r, { kind: "fail", type: "truncated", message: "the call was cut off before it ended" });
    }
    // The region's whole text is only built when something did not become a valid call.
    if (r.valid === 0 && r.issues.length === 1) r.issues[0]!.text = r.raw.toString();
    this.endQuotes(r);
    for (const issue of r.issues) {
      // A failure that names no text of its own is about the region's text, when all of it stays content;
      // beside a valid call it is not (`[f(a=1), (` : the `(` and what follows went back to be read again).
      if (issue.text === "" && r.valid === 0) issue.text = r.raw.toString();
      this.issues.push(issue);
    }
    const text = r.valid === 0 ? r.raw.toString() : r.failedRaw.join("");
    const section = r.section;
    if (section) {
      this.state = { kind: "section", section };
      if (r.valid > 0 && !section.valid && (section.recipient === undefined || section.called === true)) {
        // The section holds a call: its markers were protocol, its text before the call is content
        // (a whitespace-only run there is a separator between boundaries).
        section.valid = true;
        const before = section.text.join("");
        section.pending = [];
        section.text = [];
        if (/\S/.test(before)) this.channelText(section.channel, before);
      }
      if (text !== "") {
        // Failed text is emitted now, with the section's own text before it if no call succeeded yet.
        const prefix = section.pending.join("");
        section.pending = [];
        section.text = [];
        this.keepText(r.channel, prefix + text);
      }
      if (r.valid > 0) this.boundary(section.channel);
      return;
    }
    this.state = { kind: "text", channel: r.channel };
    this.keepText(r.channel, text);
    if (r.valid > 0) {
      this.boundary(r.channel);
      this.awaitStrayCloser(r);
    }
  }

  /** After a region's valid call: the format may tolerate the closer of an opener left out. */
  private awaitStrayCloser(r: Region): void {
    const last = r.lastValid;
    const table = last === undefined ? undefined : this.tables.afterCall(r.region, r.channel);
    if (table !== undefined) this.state = { kind: "text", channel: r.channel, after: { table, call: last!.index, name: last!.name } };
  }

  // ---- channel messages (harmony, functionary v3.2) --------------------------------------------

  private routeHeader(st: Extract<State, { kind: "header" }>, endMarker: string): void {
    const ch = this.format.channels!;
    const written = st.text.join("");
    // Without a prompt suffix the output starts in the header the generation prompt is assumed to have
    // opened; the output may open it itself (`<|start|>assistant<|channel|>...`, `<|channel|>analysis`).
    const lead = written.trimStart();
    const restart = st.opener === "" && st.fromPrompt === "" ? ch.headerStart.find((h) => lead.startsWith(h)) : undefined;
    const header = restart === undefined ? st.fromPrompt + written : lead.slice(restart.length);
    if (!ch.protocol(header)) {
      this.notProtocol(st, written + endMarker);
      return;
    }
    const route = ch.route(header);
    switch (route.to) {
      case "reasoning":
        this.reasoning.boundary();
        this.state = { kind: "text", channel: "reasoning" };
        return;
      case "content":
      case "drop":
        this.state = { kind: "text", channel: "content" };
        return;
      case "calls":
        // A message to a tool whose body holds the call: the header waits, like a section's markers,
        // for a call to that tool to succeed in the body (else it is kept as content with the body).
        this.state = { kind: "section", section: { channel: "content", pending: [st.opener + written + endMarker], text: [], valid: false, recipient: route.name } };
        return;
      case "call": {
        const raw = st.opener + written + endMarker;
        const r = this.newRegion(this.tables.channelRegion!, "content", undefined, raw, raw.length, false);
        this.state = { kind: "region", r };
        this.onCall(r, route.name, undefined);
        return;
      }
    }
  }

  /**
   * A complete header that is none the format writes (`<|channel|>analys`, `assistant junk`, a
   * Functionary recipient line that is prose): it is not protocol, so it is not a header. What the
   * model wrote of it, its start and end markers included, is content, kept exactly; the output goes
   * on as content, and a `malformed` issue quotes it (the model wrote a header end: it meant one).
   */
  private notProtocol(st: Extract<State, { kind: "header" }>, written: string): void {
    const text = st.opener + written;
    this.state = { kind: "text", channel: "content" };
    this.issues.push({ type: "malformed", message: `a message header the format does not write, kept as content: ${quoteStart(text)}`, text });
    this.keepText("content", text);
  }

  // ---- text output -----------------------------------------------------------------------------

  private channelText(channel: Channel, s: string): void {
    if (channel === "reasoning") this.reasoning.text(s);
    else {
      if (/\S/.test(s)) this.atStart = false;
      this.content.text(s);
    }
  }

  /** Text of what did not become a call: kept exactly, whitespace included. */
  private keepText(channel: Channel, s: string): void {
    if (s === "") return;
    this.atStart = false;
    if (channel === "reasoning") this.reasoning.verbatim(s);
    else this.content.verbatim(s);
  }

  /**
   * A valid call is a boundary for content only: reasoning keeps its text verbatim around calls
   * written inside it (the whitespace rule speaks of calls, output start and end).
   */
  private boundary(channel: Channel): void {
    if (channel === "content") this.content.boundary();
  }

  /** At the end of the output: close whatever is open. */
  private finishState(): void {
    const st = this.state;
    switch (st.kind) {
      case "region":
        this.closeRegion(st.r, false, "");
        break;
      case "section":
        break;
      case "header": {
        // The output ended inside a message header: the header end never came (`Hello!` right after
        // the generation prompt's `<|start|>assistant`, or a backend that strips special tokens), so
        // what was written there is not a header after all: it is kept as content. When the model
        // itself opened the header, the cut-off is reported.
        this.state = { kind: "text", channel: "content" };
        const written = st.text.join("");
        if (st.opener !== "" && written.trim() !== "") {
          this.issues.push({ type: "truncated", message: "the output ended inside a message header", text: st.opener + written });
        }
        if (written.trim() !== "") this.keepText("content", st.opener + written);
        break;
      }
      case "text":
        break;
    }
    const after = this.state;
    if (after.kind === "section") {
      const s = after.section;
      if (!s.valid) this.keepText(s.channel, s.pending.join(""));
      this.state = { kind: "text", channel: s.channel };
    }
    this.reasoning.boundary();
    this.content.boundary();
  }

  // ---- start state -----------------------------------------------------------------------------

  /**
   * Where the output starts, from the end of the rendered prompt: inside reasoning when the prompt
   * opened a reasoning block it did not close (`<think>\n`), inside a message header when it ends with
   * a header start (`<|start|>assistant`, `>>>`).
   */
  private initialState(suffix: string | undefined): void {
    const ch = this.format.channels;
    if (suffix === undefined) {
      if (ch?.startsInHeader) this.state = { kind: "header", text: [], length: 0, opener: "", fromPrompt: "" };
      return;
    }
    const last = (markers: readonly string[] | undefined) =>
      Math.max(-1, ...(markers ?? []).map((m) => {
        const at = suffix.lastIndexOf(m);
        return at < 0 ? -1 : at + m.length;
      }));
    const lastStart = (markers: readonly string[] | undefined) =>
      (markers ?? []).reduce<{ at: number; end: number }>((best, m) => {
        const at = suffix.lastIndexOf(m);
        return at >= 0 && at > best.at ? { at, end: at + m.length } : best;
      }, { at: -1, end: -1 });
    const reasoningOpen = lastStart(this.format.reasoning?.flatMap((r) => r.start));
    const reasoningClose = last(this.format.reasoning?.flatMap((r) => r.end));
    if (ch) {
      const header = lastStart(ch.headerStart);
      const closed = Math.max(last(ch.headerEnd), last(ch.bodyEnd));
      if (header.at >= 0 && header.end > closed) {
        this.state = { kind: "header", text: [], length: 0, opener: "", fromPrompt: suffix.slice(header.end) };
        this.atStart = false;
        return;
      }
    }
    if (reasoningOpen.at >= 0 && reasoningOpen.end > reasoningClose) {
      this.reasoning.boundary();
      this.state = { kind: "text", channel: "reasoning" };
    }
  }
}

/** What Region.ltEnds is for this table and decoder. */
function unscannedEnds(table: MarkerTable, decoder: PayloadDecoder): readonly string[] | undefined {
  return table.set.first === "<" && decoder.pushPlainUnscanned !== undefined ? table.set.markers : undefined;
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
