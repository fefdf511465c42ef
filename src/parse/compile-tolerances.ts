/**
 * Compiles a family's `tolerate` entries (language.ts, `Tolerance`) into what the engine and the
 * decoders consult. One entry of `COMPILE` per repair kind, typed over `Tolerance["kind"]`, so a kind
 * added to the language without its compiler is a compile error (as the payload kinds are). The
 * entries are also checked at run time: a description is plain data, and may come from a caller.
 */
import { ChatwireError } from "../errors.js";
import type { FormatDescription, Tolerance } from "./language.js";

type Kind = Tolerance["kind"];
type Of<K extends Kind> = Extract<Tolerance, { kind: K }>;

/** A closer that, right after a valid call of a region, is read as that call's end (`stray-closer`). */
export interface StrayCloser {
  closer: readonly string[];
  /** The opener the model left out (named in the repair's message). */
  missing: string;
}

/** What the engine and the decoders consult; empty for a family that tolerates nothing. */
export interface CompiledTolerances {
  /** The stray closers that may follow a call of a region with these start markers. */
  strayClosers(regionStart: readonly string[]): readonly StrayCloser[];
}

/** The accumulator the kind compilers fill. */
interface Build {
  stray: Array<{ after: string; closer: StrayCloser }>;
}

const COMPILE: { [K in Kind]: (t: Of<K>, into: Build, format: FormatDescription) => void } = {
  "stray-closer"(t, into, format) {
    if (!format.regions.some((r) => r.start.includes(t.after))) {
      throw invalid(format, t, `"after" ${JSON.stringify(t.after)} is no region's start marker`);
    }
    if (t.closer.length === 0 || t.closer.some((c) => c === "")) throw invalid(format, t, '"closer" needs non-empty markers');
    into.stray.push({ after: t.after, closer: { closer: t.closer, missing: t.missing } });
  },
  "missing-value-opener"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  fence(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  "other-syntax"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  "key-alias"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
  "bare-call"(t, _into, format) {
    throw invalid(format, t, "not implemented");
  },
};

/** The keys each kind may have (besides `kind`): a misspelt key is rejected by name, not ignored. */
const KEYS: { [K in Kind]: ReadonlyArray<Exclude<keyof Of<K>, "kind">> } = {
  "stray-closer": ["after", "closer", "missing", "evidence"],
  "missing-value-opener": ["open", "evidence"],
  fence: ["open", "around", "evidence"],
  "other-syntax": ["region", "payload", "evidence"],
  "key-alias": ["nameKeys", "argsKeys", "argsAsString", "evidence"],
  "bare-call": ["evidence"],
};

const NONE: CompiledTolerances = { strayClosers: () => [] };

const compiled = new WeakMap<FormatDescription, CompiledTolerances>();

/** The compiled tolerances of a description (cached per description object). */
export function compileTolerances(format: FormatDescription): CompiledTolerances {
  const hit = compiled.get(format);
  if (hit) return hit;
  const list = format.tolerate ?? [];
  const into: Build = { stray: [] };
  for (const t of list) {
    check(format, t);
    (COMPILE[t.kind] as (t: Tolerance, into: Build, format: FormatDescription) => void)(t, into, format);
  }
  const out = list.length === 0 ? NONE : finish(into);
  compiled.set(format, out);
  return out;
}

function finish(into: Build): CompiledTolerances {
  const byStart = new Map<readonly string[], readonly StrayCloser[]>();
  return {
    strayClosers(regionStart) {
      let hit = byStart.get(regionStart);
      if (hit === undefined) {
        hit = into.stray.filter((s) => regionStart.includes(s.after)).map((s) => s.closer);
        byStart.set(regionStart, hit);
      }
      return hit;
    },
  };
}

/** Run-time check of one entry: a known kind, known keys, an evidence URL. */
function check(format: FormatDescription, t: Tolerance): void {
  const raw = t as unknown as Record<string, unknown>;
  const kind = raw["kind"];
  if (typeof kind !== "string" || !Object.hasOwn(KEYS, kind)) {
    throw new ChatwireError("invalid_format", `${format.id}: unknown tolerance kind ${JSON.stringify(kind)} (known: ${Object.keys(KEYS).join(", ")})`);
  }
  const allowed = new Set<string>(KEYS[kind as Kind] as readonly string[]);
  for (const key of Object.keys(raw)) {
    if (key !== "kind" && !allowed.has(key)) throw invalid(format, t, `unknown key ${JSON.stringify(key)}`);
  }
  const evidence = raw["evidence"];
  if (typeof evidence !== "string" || !/^https:\/\/\S+$/.test(evidence)) throw invalid(format, t, '"evidence" must be the https URL of a real completion');
}

function invalid(format: FormatDescription, t: Tolerance, why: string): ChatwireError {
  return new ChatwireError("invalid_format", `${format.id}: tolerance ${JSON.stringify(t.kind)}: ${why}`);
}
