/**
 * The parse engine: one incremental marker lexer and a small state machine, driven by a compiled
 * format (compile-format.ts: a description in the format language, language.ts, with its payloads
 * made decoders and its patterns matchers). It serves both one-shot and streaming parse: one-shot is
 * "push everything, then end", so the two agree for every split by construction.
 *
 * States: content or reasoning text (text-output.ts); a section (a group of calls); a call region
 * (region.ts), whose inner text goes to the format's payload decoder; a channel message header
 * (channels.ts). Each state scans only for its own markers (marker-tables.ts). Text that may still
 * become a marker is held back and released as soon as it cannot; nothing emitted is retracted.
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
import type { CompiledFormat, CompiledRegion } from "./compile-format.js";
import type { Delta, FinishReason, ParseIssue } from "../types.js";
import { headerState, headerText, promptStart, routeHeader } from "./channels.js";
import type { HeaderState } from "./channels.js";
import { quoteStart } from "./decoder.js";
import { DeltaSink } from "./deltas.js";
import { idsFor } from "./ids.js";
import { lineEndCloser, ScanMemo, startOfOutputHit } from "./marker-context.js";
import { tablesFor } from "./marker-tables.js";
import type { FormatTables, MarkerAction, MarkerTable } from "./marker-tables.js";
import type { CallPolicy } from "./policy.js";
import { CallLedger, Region } from "./region.js";
import type { Channel, RegionHost, Section } from "./region.js";
import { TextOutput } from "./text-output.js";

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
  | HeaderState;

export interface EngineOptions {
  idGenerator?: () => string;
  promptSuffix?: string;
  /** What a call written inside reasoning is (see ParseOptions.reasoningCalls); default "call". */
  reasoningCalls?: "call" | "text";
}

export class ParseEngine implements RegionHost {
  private readonly tables: FormatTables;
  /** The reasoning state's table: with or without call markers (options.reasoningCalls). */
  private readonly reasoningTable: MarkerTable;
  private readonly sink = new DeltaSink();
  private readonly out = new TextOutput(this.sink);
  private readonly calls: CallLedger;
  private state: State = { kind: "text", channel: "content" };
  /** Text held back because it may be the start of a marker. */
  private held = "";
  private readonly issues: ParseIssue[] = [];
  private ended = false;

  constructor(
    private readonly format: CompiledFormat,
    private readonly policy: CallPolicy,
    options: EngineOptions = {},
  ) {
    this.tables = tablesFor(format);
    this.reasoningTable = options.reasoningCalls === "text" ? this.tables.reasoningText : this.tables.reasoning;
    this.calls = new CallLedger(format, policy, this.sink, idsFor(format.idStyle, options.idGenerator));
    this.initialState(options.promptSuffix);
  }

  push(delta: string): Delta[] {
    if (this.ended || delta === "") return this.sink.take();
    const st = this.state;
    if (st.kind === "region") {
      // The common push inside a call: the region reads it without the loop where it can.
      const text = this.held === "" ? delta : this.held + delta;
      const took = st.r.push(text);
      if (took === undefined) this.run(text, false);
      else if (typeof took === "string") this.run(took, false);
      else this.held = took === 0 ? "" : text.slice(text.length - took);
      return this.sink.take();
    }
    this.run(this.held + delta, false);
    return this.sink.take();
  }

  end(): Delta[] {
    if (this.ended) return [];
    this.ended = true;
    this.run(this.held, true);
    this.held = "";
    this.finishState();
    if (this.policy.choice.kind === "required" && this.calls.validCalls === 0) {
      this.issues.push({ type: "tool_choice", message: 'tool_choice is "required" but the output has no valid call', text: "" });
    }
    const finish: FinishReason = this.calls.validCalls > 0 ? "tool_calls" : "stop";
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
        return this.out.atStart ? this.tables.contentAtStart : this.tables.content;
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
    const memo = new ScanMemo();
    while (pos < buf.length) {
      const t = this.table();
      const hit = memo.scan(t.set, buf, pos, final);
      if (t === this.tables.contentAtStart) {
        const at = startOfOutputHit(buf, pos, hit, t);
        if (at === "late") {
          this.out.atStart = false;
          continue;
        }
        if (at !== undefined) {
          // A region that never opens at the start: its marker's text before the payload is text.
          this.text(buf.slice(pos, at));
          pos = at;
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
      const lineEnd = action.kind === "strayCloser" && action.lineEnd === true ? lineEndCloser(buf, pos, final) : "closer";
      if (lineEnd === "hold") {
        this.held = buf.slice(hit.index);
        return;
      }
      if (lineEnd === "text") {
        // Not a lone closer: text, which ends the after-call state.
        this.text(hit.marker);
        continue;
      }
      const st = this.state;
      if (st.kind === "region" && (action.kind === "regionEnd" || action.kind === "regionEndThenHeader" || action.kind === "regionEndThenRegion") && st.r.decoder.opaque?.()) {
        // The end marker sits inside a literal of the payload (`"</tool_call>"` in a JSON string).
        const after = st.r.feed(hit.marker, true);
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
        this.out.text(st.channel, s);
        return undefined;
      case "section":
        this.sectionText(st.section, s);
        return undefined;
      case "region":
        return st.r.feed(s, true);
      case "header": {
        // Text that shows the header is not one is content, and what follows it is read again.
        const cut = headerText(st, s);
        if (cut < 0) return undefined;
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
  private notHeader(st: HeaderState): void {
    this.state = { kind: "text", channel: "content" };
    this.out.keep("content", st.opener + st.text.join(""));
  }

  private marker(m: string, action: MarkerAction): void {
    const st = this.state;
    // A reasoning block before the answer does not end "the start of the output" (xLAM thinks, then
    // writes its bare JSON list).
    if (st.kind === "text" && st.channel === "content" && action.kind !== "reasoningStart") this.out.atStart = false;
    switch (action.kind) {
      case "reasoningStart":
        if (st.kind === "text" && st.channel === "reasoning") {
          // Already reasoning: a repeated opener before any reasoning text is dropped, later it is text.
          if (!this.out.reasoning.blank) this.out.reasoning.text(m);
          return;
        }
        this.out.reasoning.boundary();
        this.state = { kind: "text", channel: "reasoning" };
        return;
      case "reasoningEnd":
        this.out.reasoning.boundary();
        this.out.content.boundary();
        this.state = { kind: "text", channel: "content" };
        return;
      case "bodyEnd":
        if (st.kind === "section") {
          this.endSection(st.section, m);
          this.out.content.boundary();
          return;
        }
        if (st.kind === "header") {
          this.notHeader(st);
          this.out.content.boundary();
          return;
        }
        if (st.kind === "text" && st.channel === "reasoning") {
          this.out.reasoning.boundary();
          this.out.content.boundary();
        } else this.out.content.boundary();
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
        if (st.kind === "region") st.r.close(true, m);
        return;
      case "regionEndThenRegion":
        // The end marker is missing: the region is over as at the end of the output, and the marker
        // opens the next one wherever the first one had left the state (reasoning, a section).
        if (st.kind === "region") st.r.close(false, "");
        this.openRegion(action.region, m);
        return;
      case "regionEndThenHeader":
        if (st.kind === "region") st.r.close(true, "");
        this.state = headerState(m, "");
        return;
      case "headerStart":
        if (st.kind === "text" && st.channel === "reasoning") this.out.reasoning.boundary();
        if (st.kind === "section") this.endSection(st.section, "");
        this.state = headerState(m, "");
        return;
      case "headerEnd":
        if (st.kind === "header") this.headerEnd(st, m);
        return;
      case "strayCloser":
        // Only the after-call table holds it, so the state is that one.
        if (st.kind !== "text" || st.after === undefined) return this.out.text(st.kind === "text" ? st.channel : "content", m);
        this.issues.push({
          type: "repaired",
          repair: action.repair,
          message: action.message,
          text: m,
          name: st.after.name,
          call: st.after.call,
        });
        this.out.boundary(st.channel);
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
    this.out.text(section.channel, s);
  }

  private endSection(section: Section, m: string): void {
    if (!section.valid) this.out.keep(section.channel, section.pending.join("") + m);
    else this.out.boundary(section.channel);
    this.state = { kind: "text", channel: section.channel };
  }

  // ---- call regions --------------------------------------------------------------------------

  private openRegion(region: CompiledRegion, marker: string): void {
    const st = this.state;
    const section = st.kind === "section" ? st.section : undefined;
    const channel: Channel = section ? section.channel : st.kind === "text" ? st.channel : "content";
    const selfClosing = region.end === undefined || region.end.length === 0;
    const inPayload = region.startInPayload;
    const payload = inPayload === undefined || inPayload === false ? "" : inPayload === true ? marker : marker.slice(marker.length - inPayload);
    const r = this.newRegion(region, channel, section, marker, marker.length - payload.length, selfClosing);
    this.state = { kind: "region", r };
    if (payload !== "") {
      const rest = r.feed(payload, false);
      if (rest !== undefined) this.text(rest);
    }
  }

  private newRegion(region: CompiledRegion, channel: Channel, section: Section | undefined, raw: string, payloadAt: number, selfClosing: boolean): Region {
    return new Region(region, this.tables.region(region), channel, section, raw, payloadAt, selfClosing, this.calls, this);
  }

  /** The region is over (Region.finish): keep `text`, and leave the state. */
  regionOver(r: Region, text: string): void {
    for (const issue of r.issues) this.issues.push(issue);
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
        if (/\S/.test(before)) this.out.text(section.channel, before);
      }
      if (text !== "") {
        // Failed text is emitted now, with the section's own text before it if no call succeeded yet.
        const prefix = section.pending.join("");
        section.pending = [];
        section.text = [];
        this.out.keep(r.channel, prefix + text);
      }
      if (r.valid > 0) this.out.boundary(section.channel);
      return;
    }
    this.state = { kind: "text", channel: r.channel };
    this.out.keep(r.channel, text);
    if (r.valid > 0) {
      this.out.boundary(r.channel);
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

  /** A header end: the header routes the message body. */
  private headerEnd(st: HeaderState, endMarker: string): void {
    const route = routeHeader(this.format, st, endMarker);
    switch (route.to) {
      case "not-protocol":
        // A complete header that is none the format writes (`<|channel|>analys`, `assistant junk`, a
        // Functionary recipient line that is prose): it is not a header. What the model wrote of it,
        // its start and end markers included, is content, kept exactly; the output goes on as content,
        // and a `malformed` issue quotes it (the model wrote a header end: it meant one).
        this.state = { kind: "text", channel: "content" };
        this.issues.push({ type: "malformed", message: `a message header the format does not write, kept as content: ${quoteStart(route.text)}`, text: route.text });
        this.out.keep("content", route.text);
        return;
      case "reasoning":
        this.out.reasoning.boundary();
        this.state = { kind: "text", channel: "reasoning" };
        return;
      case "content":
        this.state = { kind: "text", channel: "content" };
        return;
      case "calls":
        // A message to a tool whose body holds the call: the header waits, like a section's markers,
        // for a call to that tool to succeed in the body (else it is kept as content with the body).
        this.state = { kind: "section", section: { channel: "content", pending: [route.raw], text: [], valid: false, recipient: route.name } };
        return;
      case "call": {
        const r = this.newRegion(this.tables.channelRegion!, "content", undefined, route.raw, route.raw.length, false);
        this.state = { kind: "region", r };
        r.openCall(route.name, undefined);
        return;
      }
    }
  }

  /** At the end of the output: close whatever is open. */
  private finishState(): void {
    const st = this.state;
    switch (st.kind) {
      case "region":
        st.r.close(false, "");
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
        if (written.trim() !== "") this.out.keep("content", st.opener + written);
        break;
      }
      case "text":
        break;
    }
    const after = this.state;
    if (after.kind === "section") {
      const s = after.section;
      if (!s.valid) this.out.keep(s.channel, s.pending.join(""));
      this.state = { kind: "text", channel: s.channel };
    }
    this.out.reasoning.boundary();
    this.out.content.boundary();
  }

  // ---- start state -----------------------------------------------------------------------------

  /** Where the output starts, from the end of the rendered prompt (channels.ts promptStart). */
  private initialState(suffix: string | undefined): void {
    const start = promptStart(this.format, suffix);
    if (start === "content") return;
    if (start === "reasoning") {
      this.out.reasoning.boundary();
      this.state = { kind: "text", channel: "reasoning" };
      return;
    }
    this.state = start;
    // A header the prompt opened: the output has begun (only a header assumed without a suffix has not).
    if (suffix !== undefined) this.out.atStart = false;
  }
}
