/**
 * Gemma 4's calls: `call:f{city:<|"|>London<|"|>,n:3}` inside `<|tool_call>...<tool_call|>`
 * (google-gemma-4-31B-it.jinja, macro format_argument): bare keys, strings between `<|"|>` tokens with
 * no escaping, nested `{...}` and `[...]`, `true`/`false`, numbers as Python prints them.
 */
import type { DecoderFactory } from "../decoder.js";
import { callListDecoder } from "./pythonic.js";
import type { CallListSyntax } from "./pythonic.js";

export const GEMMA4_CALLS: CallListSyntax = { namePrefix: "call:", argsOpen: "{", dialect: "gemma", list: false };

export const gemma4Calls: DecoderFactory = callListDecoder(GEMMA4_CALLS);
