/**
 * What the top-level keys of a JSON call object mean: which hold the tool name, the arguments, the
 * model's own call id, and which say nothing about the call. Besides the payload's own keys, the
 * family's key aliases (compile-tolerances.ts `keyAliases`) are read too, each use reported as a
 * `key-alias` repair.
 */
import type { KeyAliases } from "../compile-tolerances.js";
import type { DecoderEvent } from "../decoder.js";

export interface JsonCallsOptions {
  /** Keys that hold the tool name (default `name`). */
  nameKeys?: readonly string[];
  /** Keys that hold the arguments (default `arguments`). */
  argsKeys?: readonly string[];
  /** Keys that hold the model's own call id (Mistral `id`). */
  idKeys?: readonly string[];
  /** Apertus: `{"f": {...}}`, the object's only key is the name and its value the arguments. */
  nameIsKey?: boolean;
  /** Calls may follow one another, separated by whitespace or `;` (Llama 3 JSON). */
  sequence?: boolean;
}

/**
 * Keys a call object may carry besides its name and arguments without saying anything about them
 * (an id the format does not keep, Command R7B's `tool_call_id`; `"type": "function"`). Any other key
 * makes the object malformed: its text (a misspelt `"argumentz"`, an extra field) would otherwise be
 * lost.
 */
const NEUTRAL_KEYS: readonly string[] = ["id", "tool_call_id"];

export class CallKeys {
  readonly name: readonly string[];
  readonly args: readonly string[];
  readonly id: readonly string[];
  /** The family's aliases of the name and arguments keys (repairs), without the payload's own keys. */
  readonly nameAliases: readonly string[];
  readonly argsAliases: readonly string[];
  /** Arguments written as a JSON string holding them are read as what they hold (a repair). */
  readonly argsAsString: boolean;
  readonly nameIsKey: boolean;
  /** `function-wrapper`: keys whose object value is the call itself (`{"type": "function", "function": {...}}`). */
  readonly wrappedCall: readonly string[];

  constructor(opts: JsonCallsOptions, aliases: KeyAliases | undefined, wrappedCall: readonly string[] = []) {
    this.wrappedCall = wrappedCall;
    this.name = opts.nameKeys ?? ["name"];
    this.args = opts.argsKeys ?? ["arguments"];
    this.id = opts.idKeys ?? [];
    this.nameAliases = (aliases?.nameKeys ?? []).filter((k) => !this.name.includes(k));
    this.argsAliases = (aliases?.argsKeys ?? []).filter((k) => !this.args.includes(k));
    this.argsAsString = aliases?.argsAsString === true;
    this.nameIsKey = opts.nameIsKey === true;
  }

  /** A key some call object may have (the others say the object is no call: `{"answer": ...`). */
  isCallKey(key: string): boolean {
    return this.isName(key) || this.isArgs(key) || this.id.includes(key) || key === "type" || NEUTRAL_KEYS.includes(key) || this.wrappedCall.includes(key);
  }

  isName(key: string): boolean {
    return this.name.includes(key) || this.nameAliases.includes(key);
  }

  isArgs(key: string): boolean {
    return this.args.includes(key) || this.argsAliases.includes(key);
  }

  /** A key that says nothing about the call, given its value's text (`"type"` only when it says "function"). */
  isNeutral(key: string, valueText: string): boolean {
    return key === "type" ? /^"function"$/.test(valueText.trim()) : NEUTRAL_KEYS.includes(key);
  }

  /** The repair event of `keyText` (the key as written), an alias of `canonical`'s first key. */
  aliasRepair(keyText: string, canonical: readonly string[]): Extract<DecoderEvent, { kind: "repaired" }> {
    return { kind: "repaired", repair: "key-alias", message: `key ${keyText} read as ${JSON.stringify(canonical[0])}`, text: keyText };
  }
}
