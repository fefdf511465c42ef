/** The tagged decoder's syntax (tagged.ts): what compile-format.ts makes of a tagged payload. */
import type { ValueType } from "../coerce.js";
import type { PayloadOf } from "../payload-kinds.js";

/** What a parameter's open tag says. */
export interface ParamOpen {
  /** The key; absent when the key follows as text up to `keyClose` (GLM `<arg_key>k</arg_key>`). */
  key?: string;
  /** Types for this value when the schema does not declare the key (DSML's `string="true|false"`). */
  untyped?: readonly ValueType[];
}

/**
 * The tagged decoder's syntax: the description's tagged payload (language.ts), its tag patterns
 * compiled into readers (compile-format.ts). The fields taken over as they are keep the language's
 * meaning and documentation.
 */
export interface TaggedSyntax extends Pick<PayloadOf<"tagged">, "nameSep" | "afterParamNewline" | "implicitEnds" | "jsonBody" | "cdata"> {
  /**
   * The call's name from a complete open tag (`<function=f>` -> `f`), or undefined when the tag is not a
   * call's open tag. Absent: the call's name is the region's leading text, one call per region (GLM).
   */
  callOpen?: (tag: string) => string | undefined;
  /** The tag that closes a call; absent: the region's end closes it (GLM). */
  callClose?: string;
  /** Reads a parameter's open tag, or undefined when the tag is not one. */
  paramOpen: (tag: string) => ParamOpen | undefined;
  /** GLM: the tag that opens a key (it is also a parameter's open tag). */
  keyOpen?: string;
  /** GLM: the end of the key text, and the tag that then opens the value. */
  keyClose?: string;
  valueOpen?: string;
  /** The tag that closes a value. */
  paramClose: string;
  /** What may follow `paramClose` (after whitespace) for it to be the real end of the value. */
  afterParam: readonly string[];
  /** Types for a key the tool's schema does not declare (or when no schema is known). */
  untyped: readonly ValueType[];
}
