/**
 * Per-state marker tables, precomputed once per format description: for each parser state, the set
 * of markers that mean something there and what each one does. The engine only ever scans for the
 * markers of its current state, so prose that happens to contain another state's marker is text.
 */
import type { CompiledFormat as FormatDescription, CompiledRegion as CallRegion } from "./compile-format.js";
import { MarkerSet } from "./lexer.js";
import type { RepairKind } from "../types.js";

export type MarkerAction =
  | { kind: "reasoningStart" }
  | { kind: "reasoningEnd" }
  | { kind: "region"; region: CallRegion }
  | { kind: "sectionStart" }
  | { kind: "sectionEnd" }
  | { kind: "headerStart" }
  | { kind: "headerEnd" }
  | { kind: "bodyEnd" }
  | { kind: "ignore" }
  | { kind: "regionEnd" }
  /** The region ends unterminated because the next region of its kind starts (`endsAtNextStart`). */
  | { kind: "regionEndThenRegion"; region: CallRegion }
  /** A channel call body ends because the next message's header starts. */
  | { kind: "regionEndThenHeader" }
  /** Right after a valid call: the closer of the opener the model left out (a `stray-closer` repair). */
  | { kind: "strayCloser"; repair: RepairKind; message: string; lineEnd?: boolean };

export interface MarkerTable {
  set: MarkerSet;
  actions: Map<string, MarkerAction>;
}

export interface FormatTables {
  content: MarkerTable;
  /** Content while nothing but whitespace has been seen: also the regions allowed only at the start. */
  contentAtStart: MarkerTable;
  reasoning: MarkerTable;
  /** Reasoning when calls written inside it are its text (`reasoningCalls: "text"`): no call markers. */
  reasoningText: MarkerTable;
  section: MarkerTable;
  header: MarkerTable;
  region(region: CallRegion): MarkerTable;
  /**
   * Text right after a valid call of `region`: the channel's table plus the stray closers the format
   * tolerates there; undefined when it tolerates none.
   */
  afterCall(region: CallRegion, channel: "content" | "reasoning"): MarkerTable | undefined;
  /** The region a channel call body is read as (ends at a body end or the next header). */
  channelRegion: CallRegion | undefined;
}

function table(entries: Array<[readonly string[] | undefined, MarkerAction]>): MarkerTable {
  const actions = new Map<string, MarkerAction>();
  for (const [markers, action] of entries) {
    for (const m of markers ?? []) if (!actions.has(m)) actions.set(m, action);
  }
  return { set: new MarkerSet(actions.keys()), actions };
}

function regionStarts(regions: readonly CallRegion[]): Array<[readonly string[], MarkerAction]> {
  return regions.map((region) => [region.start, { kind: "region", region }]);
}

const cache = new WeakMap<FormatDescription, FormatTables>();

export function tablesFor(format: FormatDescription): FormatTables {
  const hit = cache.get(format);
  if (hit) return hit;
  const reasoningStarts = format.reasoning?.flatMap((r) => r.start);
  const reasoningEnds = format.reasoning?.flatMap((r) => r.end);
  const sectionStarts = format.sections?.flatMap((s) => s.start);
  const sectionEnds = format.sections?.flatMap((s) => s.end);
  const anywhere = format.regions.filter((r) => !r.atStartOnly);
  const atStart = format.regions.filter((r) => r.atStartOnly);
  const ch = format.channels;

  type Entries = Array<[readonly string[] | undefined, MarkerAction]>;
  // What content and reasoning both react to: calls (also inside reasoning), channel messages, noise.
  const messageEntries: Entries = [
    [ch?.headerStart, { kind: "headerStart" }],
    [ch?.bodyEnd, { kind: "bodyEnd" }],
    [format.ignore, { kind: "ignore" }],
  ];
  const textEntries: Entries = [[sectionStarts, { kind: "sectionStart" }], ...regionStarts(anywhere), ...messageEntries];
  const reasoningMarkers: Entries = [
    [reasoningEnds, { kind: "reasoningEnd" }],
    // A model that repeats the opening marker the prompt already wrote (R1 distills do).
    [reasoningStarts, { kind: "reasoningStart" }],
  ];
  const contentEntries: Entries = [[reasoningStarts, { kind: "reasoningStart" }], ...textEntries];
  const channelRegion: CallRegion | undefined = ch
    ? { start: [], end: [...ch.bodyEnd, ...ch.headerStart], decoder: ch.callDecoder }
    : undefined;
  const regionTables = new Map<CallRegion, MarkerTable>();
  const afterTables = new Map<CallRegion, { content: MarkerTable; reasoning: MarkerTable } | null>();
  const contentTable = table(contentEntries);
  // A region read only outside reasoning (a stack-syntax tolerance) is reasoning text there.
  const inReasoning = anywhere.filter((r) => r.outsideReasoning !== true);
  const reasoningText: Entries = inReasoning.length === anywhere.length ? textEntries : [[sectionStarts, { kind: "sectionStart" }], ...regionStarts(inReasoning), ...messageEntries];
  const reasoningEntries: Entries = [...reasoningMarkers, ...reasoningText];
  const tables: FormatTables = {
    content: contentTable,
    contentAtStart: table([...regionStarts(atStart), ...contentEntries]),
    reasoning: table(reasoningEntries),
    // Call markers are then reasoning text; a channel header still ends a reasoning message.
    reasoningText: table([...reasoningMarkers, ...messageEntries]),
    // A channel message addressed to a tool (a `calls` route) is read as a section that its body end,
    // or the next header, ends.
    section: table([
      ...regionStarts(anywhere),
      [sectionEnds, { kind: "sectionEnd" }],
      [ch?.bodyEnd, { kind: "bodyEnd" }],
      [ch?.headerStart, { kind: "headerStart" }],
      [format.ignore, { kind: "ignore" }],
    ]),
    // A body end inside a header shows the "header" was not one (see the engine's notHeader).
    header: table([[ch?.headerEnd, { kind: "headerEnd" }], [ch?.bodyEnd, { kind: "bodyEnd" }]]),
    channelRegion,
    afterCall(region, channel) {
      let t = afterTables.get(region);
      if (t === undefined) {
        const strays = format.tolerances.strayClosers(region.start);
        // The format's own markers win over a stray closer of the same text.
        const extra: Entries = strays.map((s) => [[s.closer], { kind: "strayCloser", repair: s.repair, message: s.message, ...(s.lineEnd === true ? { lineEnd: true } : {}) }]);
        t = strays.length === 0 ? null : { content: table([...contentEntries, ...extra]), reasoning: table([...reasoningEntries, ...extra]) };
        afterTables.set(region, t);
      }
      return t === null ? undefined : t[channel];
    },
    region(region: CallRegion): MarkerTable {
      let t = regionTables.get(region);
      if (t === undefined) {
        t =
          region === channelRegion && ch
            ? table([
                [ch.bodyEnd, { kind: "regionEnd" }],
                [ch.headerStart, { kind: "regionEndThenHeader" }],
              ])
            : table([
                [region.end, { kind: "regionEnd" }],
                [region.endsAtNextStart === true ? region.start : undefined, { kind: "regionEndThenRegion", region }],
              ]);
        regionTables.set(region, t);
      }
      return t;
    },
  };
  cache.set(format, tables);
  return tables;
}
