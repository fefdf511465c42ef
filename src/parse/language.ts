/**
 * The format language: the vocabulary in which a model family describes what it writes. A family file
 * (src/formats/<id>.ts) is one plain-data object of this type; nothing in it is code. The engine
 * (and only the engine) interprets it: `compile-format.ts` turns a description into the marker
 * tables and payload decoders the engine runs, and the grammar emitter reads the same data.
 *
 * Layering: src/formats imports this file; nothing under src/parse imports src/formats.
 *
 * Patterns. Wherever a description names a marker whose text varies (a call header, a tag with the
 * tool's name in it) it writes a *pattern* (see patterns.ts): literal text with holes in braces,
 * `<function={name}>`, `<invoke name="{name}">`, `functions.{name}:{index}`. Holes: `{name}` a tool
 * name, `{key}` a parameter name, `{id}` a call id, `{index}` digits, any other `{word}` a short
 * attribute value. A space matches any run of whitespace, a `"` matches `"` or `'` (closed by the
 * same), `[...]` is optional, `\` escapes the next character.
 */
import type { CallDialectName } from "./literal/dialects.js";

/**
 * How a template's source gives the family away. The format matches when, for at least one group in
 * `anyOf`, every substring of the group occurs in the source, and no substring of `noneOf` occurs.
 */
export interface Detection {
  anyOf: readonly (readonly string[])[];
  noneOf?: readonly string[];
  /**
   * Families whose rule also matches this family's templates (they share markers), so this family
   * must be tried first. Only the few families that need it declare it; the registry sorts by it and
   * the corpus test checks every corpus template detects as expected.
   */
  before?: readonly string[];
}

/** A reasoning block: text between a start and an end marker goes to `reasoning_content`. */
export interface ReasoningMarkers {
  /** Alternative spellings of the opening marker. */
  start: readonly string[];
  /** Alternative spellings of the closing marker. */
  end: readonly string[];
}

/** How values of keys the tool's schema does not declare (or of any key without a schema) are typed. */
export type UntypedValues =
  /** kept as text (Qwen3-Coder, MiniMax) */
  | "string"
  /** decoded as JSON when they are JSON, else text (GLM, Seed-OSS) */
  | "json";

/** A tag that ends a value whose close tag is missing, when it starts a line (Qwen3-Coder). */
export interface ImplicitEnd {
  tag: string;
  /**
   * What must follow the tag (after whitespace), or the region end. Absent: the tag must be complete
   * on its line (`<parameter=name>`).
   */
  after?: readonly string[];
  /**
   * The tag ends the value in the middle of a line too (MiniMax writes `<parameter name="k">v</parameter>`
   * inline, so a missing `</parameter>` is followed by `</invoke>` on the value's line). Default: only at
   * the start of a line (a code value's own text).
   */
  inline?: boolean;
  /**
   * Tags that must follow the tag for it to end the value, instead of `after`: the first before any
   * other `<`, each later one after whitespace only (GLM: `<arg_key>unit</arg_key><arg_value>` inside a
   * value whose `</arg_value>` is missing starts the next parameter).
   */
  then?: readonly string[];
}

/** Parameters written as `<parameter=k>v</parameter>` or `<parameter name="k">v</parameter>`. */
export interface NamedParams {
  /** Patterns of the open tag; the `{key}` hole is the parameter name. */
  open: readonly string[];
  close: string;
  /**
   * DSML's `string="true|false"`: which hole of the open tag types an undeclared key, and which of
   * its values mean JSON or text (no value: `untyped`; any other value: the tag is not a parameter).
   */
  typedBy?: { hole: string; json: readonly string[]; string: readonly string[] };
}

/** Parameters written as a key tag then a value tag: GLM `<arg_key>k</arg_key><arg_value>v</arg_value>`. */
export interface KeyValueParams {
  key: { open: string; close: string };
  value: { open: string; close: string };
}

/**
 * The payload kinds: what the text inside a call region is. Each kind is read by one engine decoder;
 * a new shape of payload is a new kind here, reusable by every family.
 */
export type Payload =
  /**
   * JSON call objects, `{"name": "f", "arguments": {...}}`, an array of them, or (with `sequence`)
   * several separated by whitespace or `;`.
   */
  | {
      kind: "json-calls";
      /** Keys that hold the tool name (default `name`). */
      nameKeys?: readonly string[];
      /** Keys that hold the arguments (default `arguments`; `parameters` where the template writes it). */
      argsKeys?: readonly string[];
      /** Keys that hold the model's own call id (Mistral `id`). */
      idKeys?: readonly string[];
      /** `{"f": {...}}`: the object's only key is the name (Apertus). */
      nameIsKey?: boolean;
      /** Calls may follow one another, separated by whitespace or `;` (Llama 3). */
      sequence?: boolean;
      /**
       * The family's templates write a region's calls as one JSON array, even a single call (Apriel
       * `<tool_calls>[...]`); the parser reads a lone object too. An exported response template reads
       * the one layout it is told (src/response-template/export.ts).
       */
      array?: boolean;
    }
  /** A bare arguments value of a call whose name came from elsewhere (a channel header). */
  | {
      kind: "json-args";
      /** The value may sit in a ``` fence. */
      fence?: boolean;
      /** A body that is not JSON is still the call's input, as text (harmony). */
      rawText?: boolean;
    }
  /** A call header, then the arguments as JSON: `f<｜tool▁sep｜>{...}`, `functions.f:0<|...|>{...}`. */
  | {
      kind: "header-args";
      /**
       * Patterns for the header text (trimmed), tried in order; `{name}` is the tool name, `{id}` the
       * model's call id.
       */
      header: readonly string[];
      /** Strings that end the header (consumed). */
      headerEnd: readonly string[];
      /** A `{` also ends the header and starts the arguments (Mistral `[TOOL_CALLS]f{...}`). */
      braceEndsHeader?: boolean;
      /** The whole header (trimmed) is the model's call id (Kimi `functions.f:0`). */
      headerIsId?: boolean;
      /** The arguments may sit in a ``` fence (DeepSeek R1). */
      fence?: boolean;
    }
  /**
   * Tagged (XML-like) calls, values raw text typed by the tool's schema: Qwen3-Coder `<function=f>
   * <parameter=k>v</parameter></function>`, MiniMax `<invoke name="f">`, GLM `f<arg_key>...`.
   */
  | {
      kind: "tagged";
      /**
       * The call's open tag patterns (`{name}`) and close tag. Absent: the call's name is the
       * region's leading text, one call per region (GLM).
       */
      call?: { open: readonly string[]; close: string };
      /** With the name as leading text: a tag written right after it (Hy3 `<tool_sep:opensource>`). */
      nameSep?: string;
      params: NamedParams | KeyValueParams;
      /** Tags that may follow a value's close tag for it to be real (default: param open, call close). */
      afterParam?: readonly string[];
      /**
       * The whitespace after a value's close tag must hold a newline (Qwen3-Coder and Seed-OSS templates
       * write one), so that `</parameter> <parameter=x>` on one line of code stays code; tags written
       * with nothing between them (the one-line form) count too.
       */
      afterParamNewline?: boolean;
      /** Tags that end a value whose close tag is missing (Qwen3-Coder omits `</parameter>`). */
      implicitEnds?: readonly ImplicitEnd[];
      untyped: UntypedValues;
      /** A call's arguments may be one JSON object instead of parameter tags (DSML, as SGLang has seen it). */
      jsonBody?: boolean;
      /**
       * A value may be a `<![CDATA[...]]>` section, taken verbatim as a string (MiniCPM 5 wraps strings
       * holding `<`, `&` or newlines): values are then held until complete and unwrapped, never streamed
       * piecewise.
       */
      cdata?: boolean;
    }
  /**
   * Calls written as elements whose tags are special tokens (a value ends exactly at the next token).
   * MiniMax M3: `NS<invoke name="f">NS<city>Paris NS</city>NS</invoke>` (a parameter is an element
   * named by its key; mappings nest, lists are `<item>` elements); Kimi K3: `<|open|>call tool="f"<|sep|>
   * <|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|><|close|>call<|sep|>`.
   */
  | {
      kind: "xml-calls";
      /** An open tag is `open[0] + head + open[1]`, a close tag `close[0] + name + close[1]`. */
      open: readonly [string, string];
      close: readonly [string, string];
      /** The call element: its name, and patterns of its open tag's head (`{name}` the tool). */
      call: { element: string; head: readonly string[] };
      /** Parameters: elements named by their keys, or elements whose attributes give the key (and type). */
      params: { by: "element" } | { by: "attribute"; element: string; key: string; type?: string };
      /** An element whose text is the whole arguments object as JSON (Kimi K3 `json`). */
      jsonElement?: string;
      /** The element name of a list item. */
      itemTag: string;
      untyped: UntypedValues;
    }
  /**
   * Calls written as code: Python `[f(a=1), g()]` (`python`), Gemma 4 `call:f{k:<|"|>v<|"|>}` (`gemma`),
   * FunctionGemma `call:f{k:<escape>v<escape>}` (`functiongemma`). The dialect (literal/dialects.ts)
   * says how the argument list and its values are written.
   */
  | {
      kind: "literal-calls";
      dialect: CallDialectName;
      /** Written before each call's name (Gemma: `call:`). */
      namePrefix?: string;
      /** Calls may sit in a list `[...]` (Python). */
      list?: boolean;
      /** Outside a list, calls may follow one another separated by whitespace (Olmo 3). */
      sequence?: boolean;
    }
  /** Python calls, or JSON call objects when the first item starts with `{` (LFM2). */
  | { kind: "python-or-json"; json: Payload }
  /** Llama's `<|python_tag|>`: `tool.call(k="v")` or raw code, a call to `python`. */
  | { kind: "python-tag" }
  /** Chosen by the first non-space character of the payload (`{`, `[`); `otherwise` for the rest. */
  | { kind: "by-first-char"; cases: Readonly<Record<string, Payload>>; otherwise: Payload };

/** Where calls sit: a region from a start marker to an end marker (or to where the payload ends). */
export interface RegionSpec {
  /** Alternative spellings of the start marker. */
  start: readonly string[];
  /** Alternative spellings of the end marker; absent: the payload ends the region by itself. */
  end?: readonly string[];
  /** The start marker is also the payload's beginning: all of it, or its last N characters. */
  startInPayload?: boolean | number;
  /** The region may only open at the very start of the output (llama3's bare `{`). */
  atStartOnly?: boolean;
  /** A region that turns out not to hold a call is plain content, without an error. */
  quietIfNotCall?: boolean;
  /**
   * Another of the region's own start markers also ends it, as if its end marker were missing there
   * (read as at the end of the output), and opens the next region: Kimi K2 Thinking, calling inside
   * its reasoning, may drop `<|tool_call_end|>` between calls. A start marker inside a literal of the
   * payload (a JSON string) is the literal's text, as an end marker would be.
   */
  endsAtNextStart?: boolean;
  payload: Payload;
}

/** Markers that wrap a group of calls (DeepSeek `<｜tool▁calls▁begin｜>`, Kimi sections). */
export interface CallSection {
  start: readonly string[];
  end: readonly string[];
}

/**
 * Where a channel message's body goes. `call`: the body is that call's arguments (harmony). `calls`:
 * the message is addressed to that tool and its body is text holding call regions (Glimmer's
 * `to=f<|message|><atem:function_calls>...`); the header is kept aside like a section's markers, and
 * is protocol only once a call in the body to that tool succeeds (else it is content, kept exactly).
 */
export type ChannelRoute = { to: "content" } | { to: "reasoning" } | { to: "call"; name: string } | { to: "calls"; name: string } | { to: "drop" };

/**
 * A routing rule for a channel header. `find`: the pattern occurs anywhere in the header; `start`:
 * the header (trimmed) starts with it; `whole`: the header (trimmed) is it. A `call` or `calls` rule
 * takes the name from the `{name}` hole. The first rule that matches decides.
 */
export type ChannelRule = ({ find: string } | { start: string } | { whole: string }) & { to: "content" | "reasoning" | "call" | "calls" | "drop" };

/** Channel formats (harmony, functionary v3.2): messages, each a header then a body. */
export interface ChannelSpec {
  headerStart: readonly string[];
  headerEnd: readonly string[];
  bodyEnd: readonly string[];
  /**
   * The headers the format writes, as patterns each matched against the whole header text (the text
   * after the header start marker, trimmed): the protocol. A header that matches none of them is not
   * protocol (`<|channel|>analys`, a Functionary recipient line that is prose): it is not a header,
   * and its text, markers included, is content (docs/parsing.md, "Text: never lost"). Only a header
   * that matches is routed by `rules`, so everything a protocol header holds is the format's own words,
   * a channel name, a recipient or a content type.
   */
  headers: readonly string[];
  rules: readonly ChannelRule[];
  /** Where a protocol header no rule matches goes. */
  otherwise: "content" | "reasoning" | "drop";
  /** What a call's body is. */
  callPayload: Payload;
  /** Without a prompt suffix the output starts inside a header (the generation prompt opened one). */
  startsInHeader?: boolean;
  /**
   * The body ends the format writes, each one of `bodyEnd` (the parser ends a body at any of them, or
   * at the next header start; the grammar writes these): `message` after a reasoning or text body that
   * another message follows, `call` after a call's body, `output` after text that ends the output,
   * `callOutput` after a call that ends it (default `call`). Harmony: `<|end|>`, `<|call|>`,
   * `<|return|>`; Glimmer: `<|eom|>` between messages, `<|eot|>` at the end of the turn (after text or
   * a call). Left out: nothing is written there (a Functionary message ends where the next `>>>` starts).
   */
  ends?: { message?: string; call?: string; output?: string; callOutput?: string };
}

/**
 * A deviation from the family's own syntax that real models write and that is read as what they meant
 * (docs/parsing.md, "What we repair"). Each entry names a generic repair kind, its markers, and
 * `evidence`: the URL of a real completion that shows it. Every repair the engine makes is reported in
 * `errors` as a `repaired` issue; a repaired call must still name an accepted tool and validate, else
 * its text stays content with its ordinary error. Grammars never emit a tolerated form.
 */
export type Tolerance =
  /**
   * A call region opened by `after` (one of a region's start markers) that ended with a valid call,
   * then (after whitespace only) `closer`, the end of the opener `missing` that the model left out:
   * Qwen3.5's bare `<function=f>...</function>` then `</tool_call>`; a bare call then its section's
   * end. The closer belongs to the call.
   */
  | { kind: "stray-closer"; after: string; closer: readonly string[]; missing: string; evidence: string }
  /**
   * A tagged key-value parameter whose value open tag `open` is missing while its close tag is
   * present: GLM `<arg_key>k</arg_key>v</arg_value>`. The value is what lies between the key's close
   * tag and the value's close tag.
   */
  | { kind: "missing-value-opener"; open: string; evidence: string }
  /**
   * Markdown fences that only wrap a call: one of `open` (e.g. "```json", "```tool_code") and a
   * newline, then the call, then "```"; the fence lines belong to the call. Either `payload`: the
   * fence takes the place of the family's markers, opening the output, and holds a call written in
   * `payload` (a fence that holds no call is a code block: content, without an error); or `around`:
   * the fence wraps a region opened by that start marker, anywhere (Gemma 3 writes its pythonic list in
   * a ```tool_code fence after a sentence). `anywhere` (with `payload`): the fence may also open after
   * text, and is held until it closes: a call only if its whole body is calls naming accepted tools,
   * else a code block (content, without an error).
   */
  | { kind: "fence"; open: readonly string[]; payload?: Payload; around?: string; anywhere?: boolean; evidence: string }
  /**
   * A region opened by `region` (one of its start markers) whose payload starts with `when` (its
   * first non-space character) holds the family's other syntax `payload` instead of its own (Llama 4
   * `<|python_start|>` holding a JSON call object instead of a Python list).
   */
  | { kind: "other-syntax"; region: string; when: string; payload: Payload; evidence: string }
  /**
   * JSON call objects that name their keys otherwise: `name`/`arguments` aliases real models use for
   * this family, and arguments given as a JSON string (owned by the key-alias repair).
   * `envelopeKeys`: keys of a protocol envelope that say nothing about the call (JSON-RPC's
   * `"jsonrpc": "2.0"` beside `method`/`params`); without them such a key makes the object no call.
   */
  | { kind: "key-alias"; nameKeys?: readonly string[]; argsKeys?: readonly string[]; argsAsString?: boolean; envelopeKeys?: readonly string[]; evidence: string }
  /**
   * Tags the format does not have, wrapped around exactly the family's JSON call objects instead of
   * its markers: `tags` are open/close pairs that may nest, in any order, with whitespace between
   * (Qwen2 writing `<response><tools>{...}</tools></response>`). A region opens at any open tag and is
   * held until its close tag; it is a call only if the tags hold nothing but calls naming accepted
   * tools, else it is content, without an error.
   */
  | { kind: "wrapper-tag"; tags: ReadonlyArray<readonly [string, string]>; evidence: string }
  /**
   * A JSON object whose only key is one of `keys`, holding a list of the family's call objects
   * (llama.cpp's generic shape `{"tool_calls": [{"name": ..., "arguments": ...}]}`), where the family's
   * JSON calls are read: the list is read as the calls.
   */
  | { kind: "wrapper-key"; keys: readonly string[]; evidence: string }
  /**
   * A whole completion that is exactly one call naming a declared tool, the markers missing, written
   * in `payload`: one of the family's own call syntaxes, a `json-calls` or `literal-calls` payload
   * (absent: the family's JSON call objects, or a JSON list of them). Pythonic models write
   * `f(a=1)` without the `[...]` (then `payload` is the family's Python calls with `list: false`).
   */
  | { kind: "bare-call"; payload?: Payload; evidence: string }
  // ---- the markup repairs: missing or misspelled pieces of tags ----
  /**
   * A region opened by `region` ended by `closer`, a misspelling of its end marker (FunctionGemma's
   * `</end_function_call>` for `<end_function_call>`): the closer ends the region as its end marker
   * would, and belongs to the region's valid call (reported on the last one; no valid call: the text
   * stays content, closer included).
   */
  | { kind: "misspelled-closer"; region: string; closer: readonly string[]; evidence: string }
  /**
   * A literal call whose name `prefix` (Gemma's `call:`) is missing, or shortened to one of `instead`
   * (default `[""]`: left out): `<start_function_call>f{}` or `<|tool_call>:f{}` read as `call:f{}`,
   * inside the family's own region, for the region's first call (which must still name an accepted tool).
   */
  | { kind: "missing-name-prefix"; prefix: string; instead?: readonly string[]; evidence: string }
  /**
   * The sibling of `missing-value-opener` for the key: a tagged key-value parameter whose key open tag
   * `open` is missing before the first key, so the key runs into the name (GLM
   * `<tool_call>fk</arg_key><arg_value>v</arg_value>`). Read only against the request: exactly one
   * split of the text into an accepted declared tool's name and a key that tool declares.
   */
  | { kind: "missing-key-opener"; open: string; evidence: string }
  /**
   * A literal call whose argument list is written with other brackets and separators than the
   * dialect's (Gemma 4 writing `call:f(k=v)` or `call:f(k:<|"|>v<|"|>)` for `call:f{k:v}`), in the
   * family's calls of `dialect`: `open` / `close` in place of the dialect's, any of `assign` between
   * a name and its value; the values are the dialect's own.
   */
  | { kind: "argument-list"; dialect: CallDialectName; open: string; close: string; assign: readonly string[]; evidence: string }
  /**
   * Tagged calls whose tags are spelled as another tagged family writes them, inside the family's own
   * regions (Seed-OSS writing DSML's attribute tags `<function name="f">`, `<parameter name="k"
   * string="true">` in `<seed:tool_call>` for `<function=f>`, `<parameter=k>`): `call` and `param` are
   * more open tag patterns (`{name}`, `{key}`; `typedBy` as in NamedParams), the close tags stay the
   * family's.
   */
  | { kind: "tag-alias"; call: readonly string[]; param: readonly string[]; typedBy?: NamedParams["typedBy"]; evidence: string }
  /**
   * A tagged value written on one line with spaces or tabs on both sides where the template writes a
   * newline on each side (`<parameter=cmd> ls -lha </parameter>` for `<parameter=cmd>\nls -lha\n
   * </parameter>`): the padding is layout, the value is the text between it. A value with a newline in
   * it, or padded on one side only (a code line's indentation), keeps its whitespace.
   */
  | { kind: "padded-value"; evidence: string }
  // ---- a call in the serving stack's syntax, or its region's opener left out ----
  /**
   * A call written in the serving stack's own prompted syntax instead of the family's markers: the
   * stack's tool prompt (not the model's template) asks for `start` + `payload` + `end` (LM Studio's
   * default tool use: `[TOOL_REQUEST]{"name": ..., "arguments": ...}[END_TOOL_REQUEST]`). Read outside
   * reasoning only: the same block inside reasoning is the model rehearsing the format it was told.
   */
  | { kind: "stack-syntax"; start: string; end: string; payload: Payload; evidence: string }
  /**
   * A JSON call object on its own line with the start marker `opener` of its region left out and the
   * region's end marker written after it (Qwen2.5 writing `{"name": ...}` then `</tool_call>`): the end
   * marker confirms the call. Read outside reasoning; an object not followed by the end marker is content.
   */
  | { kind: "missing-opener"; opener: string; evidence: string }
  // ---- region markers repeated, swapped or foreign ----
  /**
   * A region opened by `region` ended by one of `closer`, another protocol's token the model writes in
   * place of the region's end marker (Hermes-2-Theta, a Llama-3 / ChatML merge, ending `<tool_call>`
   * JSON with `<|im_start|>`): it ends the region as the end marker would, and belongs to the region's
   * valid call (no valid call: the text stays content, the token included).
   */
  | { kind: "foreign-closer"; region: string; closer: readonly string[]; evidence: string }
  /**
   * The end marker of a region opened by `region` written again right after the region's valid call
   * (whitespace between): `</tool_call>\n</tool_call>`. The second one belongs to that call.
   */
  | { kind: "repeated-closer"; region: string; evidence: string }
  /**
   * The start marker `region` written twice, a newline between (`<tool_call>\n<tool_call>`): the first
   * one belongs to the call the second one opens.
   */
  | { kind: "repeated-opener"; region: string; evidence: string }
  /**
   * A region opened by `region` whose start marker is written as its end marker: the end marker, a
   * newline and `first`, the first character of the payload (`</tool_call>\n{"name": ...}</tool_call>`).
   * Read only as a call that names an accepted tool and validates; otherwise it is text, without an error.
   */
  | { kind: "closer-as-opener"; region: string; first: string; evidence: string }
  /**
   * A lone fence closer (a "```" that ends its line, or the output) right after a valid call of a
   * region opened by `after` (whitespace between), its opening fence never written: it belongs to the
   * call. A fence that opens a code block ("```python") is not one.
   */
  | { kind: "fence-closer"; after: string; evidence: string }
  /**
   * A JSON call region (opened by `region`) whose call object is written as a Python literal, strings
   * in '...' (`{"arguments": {'k': 1}, "name": 'f'}`): not JSON, but with one reading. Read only when
   * the region's JSON reading fails without naming a call, and only as one object with exactly a string
   * `name` and an object arguments key of the payload's own names.
   */
  | { kind: "python-literal"; region: string; evidence: string };

/** How call ids are made when the model writes none. */
export type IdStyle = "openai" | "mistral";

export interface FormatDescription {
  id: string;
  /** One line: which models write this. */
  description: string;
  /** Absent: never auto-detected, only chosen by id (json-block). */
  detect?: Detection;
  reasoning?: readonly ReasoningMarkers[];
  regions: readonly RegionSpec[];
  sections?: readonly CallSection[];
  channels?: ChannelSpec;
  /** Markers that carry no text, dropped outside calls (end-of-turn tokens, answer wrappers). */
  ignore?: readonly string[];
  idStyle?: IdStyle;
  /**
   * Tool names the template itself defines as protocol, not tools (Command R: "use the `directly-answer`
   * tool if calling the other tools is unnecessary"). A call to one with empty arguments is no call: it
   * is not returned and its markup vanishes like a valid call's. A request that declares a tool of that
   * name makes it an ordinary call.
   */
  pseudoTools?: readonly string[];
  /**
   * Set when no constraint grammar can be emitted for the format: `unavailable` says why, and is what
   * `chatwire grammar` and `serve` report. The grammar emitter reads it; a test keeps it in step with
   * what the emitter can write (a format it cannot write must say why, one it can must not).
   */
  grammar?: { unavailable: string };
  /** Deviations real models of this family write that are read as what they meant (see Tolerance). */
  tolerate?: readonly Tolerance[];
}

/**
 * Declares a family. Only a type helper: it keeps the literal `id` type (so the registry can infer
 * the `FormatId` union) and checks the object against the language.
 */
export function defineFormat<const I extends string>(format: FormatDescription & { id: I }): FormatDescription & { id: I } {
  return format;
}
