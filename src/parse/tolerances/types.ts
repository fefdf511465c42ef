/**
 * What compiled tolerances are (compile-tolerances.ts builds them): the object the engine and the
 * decoders consult, and the pieces it hands out.
 */
import type { DecoderFactory } from "../decoder.js";
import type { LiteralDialect } from "../literal/dialects.js";
import type { ValueType } from "../coerce.js";
import type { RepairKind } from "../../types.js";
import type { CompiledRegion } from "../compile-format.js";

/**
 * A marker that, right after a valid call of a region (whitespace between), is read as part of that
 * call: the closer of an opener the model left out (`stray-closer`), a fence's closing line (`fence`).
 */
export interface StrayCloser {
  closer: string;
  repair: RepairKind;
  /** The repair's message. */
  message: string;
  /** Only when the closer ends its line or the output (`fence-closer`: "```python" opens a code block). */
  lineEnd?: boolean;
}

/**
 * Other names real models of the family give a JSON call object's keys (`key-alias`), beside the
 * payload's own: each use is a repair. `argsAsString`: arguments written as a JSON string holding the
 * object are read as that object (without it such a string is not an arguments object).
 */
export interface KeyAliases {
  nameKeys: readonly string[];
  argsKeys: readonly string[];
  argsAsString: boolean;
  /** Keys of a protocol envelope that say nothing about the call (JSON-RPC's `jsonrpc`). */
  envelopeKeys?: readonly string[];
}

/**
 * A whole completion that is exactly one call, the family's markers missing (`bare-call`): read from
 * one of `starts` at the start of the output by `decoder`, the family's own reader of that call syntax
 * (self-closing there); `message` is the repair's, naming the markers the model left out.
 */
export interface BareCall {
  decoder: DecoderFactory;
  starts: readonly string[];
  message: string;
}

/** What the engine and the decoders consult; empty for a family that tolerates nothing. */
export interface CompiledTolerances {
  /** The stray closers that may follow a call of a region with these start markers. */
  strayClosers(regionStart: readonly string[]): readonly StrayCloser[];
  /** A tagged value whose open tag `open` is missing may be read up to its close tag. */
  missingValueOpener(open: string): boolean;
  /** The decoder of a region with these start markers, given its own (`other-syntax` may wrap it). */
  decoder(regionStart: readonly string[], own: DecoderFactory): DecoderFactory;
  /**
   * Regions the tolerances add, given the family's own (compiled): a fenced call in place of the
   * markers, and a fenced variant of a region (`fence` with `around`).
   */
  regions(own: readonly CompiledRegion[]): CompiledRegion[];
  /** JSON call object key aliases; undefined: the family tolerates none. */
  keyAliases: KeyAliases | undefined;
  /** Whole-completion bare calls; undefined: not tolerated. */
  bareCall: BareCall | undefined;
  /** Keys of a JSON object whose list value holds the calls (`wrapper-key`); empty: none. */
  wrapperKeys: readonly string[];
  // ---- the markup repairs (misspelled closers, missing tag pieces, tag aliases) ----
  /** Misspellings of the end marker of a region with these start markers (`misspelled-closer`). */
  misspelledClosers(regionStart: readonly string[]): readonly StrayCloser[];
  /** What a literal call may write instead of its name prefix `prefix` ("": nothing; `missing-name-prefix`). */
  missingNamePrefix(prefix: string): readonly string[];
  /** A tagged call's first key open tag `open` may be missing, the key run into the name (`missing-key-opener`). */
  missingKeyOpener(open: string): boolean;
  /** Other argument lists of the family's calls in `dialect` (`argument-list`). */
  argumentLists(dialect: string): readonly OtherArgumentList[];
  /** A tagged open tag spelled as another family writes it (`tag-alias`); undefined: none. */
  tagAlias(tag: string): TagAlias | undefined;
  /** The literal starts of the aliased open tags (`<parameter name=`): they may follow a value's close tag. */
  tagAliasStarts: readonly string[];
  /** A one-line tagged value padded with spaces or tabs on both sides is read without the padding. */
  paddedValues: boolean;
}

/** An argument list a literal call may be written in instead of its dialect's (`argument-list`). */
export interface OtherArgumentList {
  /** The dialect with this argument list (values as the dialect's own). */
  dialect: LiteralDialect;
  message: string;
}

/** What an aliased tag opens: a call (`name`) or a parameter (`key`, typed by `untyped` when set). */
export interface TagAlias {
  name?: string;
  key?: string;
  untyped?: readonly ValueType[];
  message: string;
}

