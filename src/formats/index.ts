/**
 * The format registry: every family's description, looked up by id, and template detection.
 * Detection tries the families in DETECTION_ORDER, most specific first, because many templates share
 * markers (`<tool_call>` appears in hermes, qwen3-coder and apriel templates; `<function=` in qwen3-coder,
 * seed-oss and functionary v3.1), so a family's rule only has to separate it from the ones after it.
 */
import { ChatwireError } from "../errors.js";
import type { FormatDescription, FormatId, ReasoningMarkers } from "./types.js";
import { apertus } from "./apertus.js";
import { apriel } from "./apriel.js";
import { commandR7b } from "./command-r7b.js";
import { deepseekR1 } from "./deepseek-r1.js";
import { deepseekV31 } from "./deepseek-v3.1.js";
import { firefunctionV2 } from "./firefunction-v2.js";
import { functionaryV31 } from "./functionary-v3.1.js";
import { functionaryV32 } from "./functionary-v3.2.js";
import { gigachat3 } from "./gigachat3.js";
import { granite } from "./granite.js";
import { harmony } from "./harmony.js";
import { hermes } from "./hermes.js";
import { jsonBlock } from "./json-block.js";
import { kimiK2 } from "./kimi-k2.js";
import { llama3Json } from "./llama3-json.js";
import { mistral } from "./mistral.js";
import { nemotronV2 } from "./nemotron-v2.js";
import { phi4Mini } from "./phi4-mini.js";
import { qwen3Coder } from "./qwen3-coder.js";
import { seedOss } from "./seed-oss.js";
import { glm45 } from "./glm-4.5.js";
import { minimaxM2 } from "./minimax-m2.js";
import { deepseekV32 } from "./deepseek-v3.2.js";
import { pythonic } from "./pythonic.js";
import { lfm2 } from "./lfm2.js";
import { taggedPythonic } from "./tagged-pythonic.js";
import { gemma4 } from "./gemma4.js";

export type { FormatDescription, FormatId } from "./types.js";
export type * from "./types.js";

/**
 * Registered descriptions. The tagged/pythonic families (qwen3-coder, seed-oss, glm-4.5, minimax-m2,
 * deepseek-v3.2, pythonic, lfm2, tagged-pythonic, gemma4) add themselves here with one line each.
 */
const FORMATS: readonly FormatDescription[] = [
  hermes,
  llama3Json,
  mistral,
  deepseekR1,
  deepseekV31,
  kimiK2,
  harmony,
  granite,
  commandR7b,
  functionaryV31,
  functionaryV32,
  firefunctionV2,
  phi4Mini,
  nemotronV2,
  apertus,
  apriel,
  gigachat3,
  jsonBlock,
  qwen3Coder,
  seedOss,
  glm45,
  minimaxM2,
  deepseekV32,
  pythonic,
  lfm2,
  taggedPythonic,
  gemma4,
];

/**
 * Most specific first. Why some pairs are ordered as they are:
 * - deepseek-v3.2 (`DSML`) and deepseek-v3.1 templates also contain the R1 markers;
 * - seed-oss and functionary-v3.1 write `<function=` like qwen3-coder;
 * - apriel 1.5 and qwen3-coder templates also contain `<tool_call>`, so hermes is last;
 * - firefunction-v2 writes ` functools[` (leading space), phi4-mini `functools[`;
 * - functionary-v3.1 is Llama 3.1 based, so it precedes llama3-json.
 */
const DETECTION_ORDER: readonly FormatId[] = [
  "harmony",
  "deepseek-v3.2",
  "deepseek-v3.1",
  "deepseek-r1",
  "kimi-k2",
  "seed-oss",
  "minimax-m2",
  "glm-4.5",
  "gemma4",
  "functionary-v3.1",
  "qwen3-coder",
  "functionary-v3.2",
  "lfm2",
  "command-r7b",
  "granite",
  "apertus",
  "apriel",
  "nemotron-v2",
  "gigachat3",
  "firefunction-v2",
  "phi4-mini",
  "mistral",
  "tagged-pythonic",
  "pythonic",
  "llama3-json",
  "hermes",
  "json-block",
];

const byId = new Map<string, FormatDescription>(FORMATS.map((f) => [f.id, f]));

/** The description of a format id; throws ChatwireError `unknown_format` for an unregistered id. */
export function getFormat(id: string): FormatDescription {
  const format = byId.get(id);
  if (format === undefined) {
    const known = listFormats().map((f) => f.id).join(", ");
    throw new ChatwireError("unknown_format", `unknown format ${JSON.stringify(id)} (known: ${known})`);
  }
  return format;
}

/** Every registered format, in detection order (then any registered id missing from the order). */
export function listFormats(): FormatDescription[] {
  const ordered = DETECTION_ORDER.flatMap((id) => byId.get(id) ?? []);
  return [...ordered, ...FORMATS.filter((f) => !DETECTION_ORDER.includes(f.id))];
}

function matches(format: FormatDescription, source: string): boolean {
  const rule = format.detect;
  if (rule === undefined) return false;
  if (rule.noneOf?.some((s) => source.includes(s))) return false;
  return rule.anyOf.some((group) => group.every((s) => source.includes(s)));
}

/** The tool-call format a chat template writes, or undefined when it has no recognised tool syntax. */
export function detectFormat(templateSource: string): FormatId | undefined {
  return listFormats().find((f) => matches(f, templateSource))?.id;
}

/**
 * The reasoning markers a template uses: those of its detected format when they occur in the source,
 * else the first generic `<think>`-style pair found in it (templates without tool syntax still think).
 */
export function detectReasoning(templateSource: string): ReasoningMarkers | undefined {
  const id = detectFormat(templateSource);
  const candidates = [...(id ? (getFormat(id).reasoning ?? []) : []), ...GENERIC_REASONING];
  return candidates.find((r) => r.start.some((s) => templateSource.includes(s)) || r.end.some((e) => templateSource.includes(e)));
}

/** Reasoning pairs seen in templates whose tool format is unknown or absent. */
const GENERIC_REASONING: readonly ReasoningMarkers[] = [
  { start: ["<think>"], end: ["</think>"] },
  { start: ["<seed:think>"], end: ["</seed:think>"] },
  { start: ["[THINK]"], end: ["[/THINK]"] },
  { start: ["<|START_THINKING|>"], end: ["<|END_THINKING|>"] },
];
