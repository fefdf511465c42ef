/**
 * Run-time validation of a format description. `defineFormat` checks a family against the language
 * only at compile time; a description built at run time (read from JSON, written in plain JavaScript)
 * reaches the engine unchecked, and a misspelt key would silently mean its default. So, as
 * transformers' `load_response_template` does, every object of a description is checked against the
 * language: an unknown key, a missing one, a value of the wrong type or an unknown payload kind is a
 * ChatwireError (`invalid_format`) whose `field` is the path, `regions[0].payload.kind`.
 *
 * The checks are tables with one entry per field of each language type (`Fields<T>` lists every key of
 * T), so a field added to the language is one line here, and one left out is a compile error. The
 * payload kinds are a PayloadTable like every other layer's. A description is checked once (the
 * engine compiles it once per object).
 */
import { ChatwireError } from "../errors.js";
import type {
  CallSection,
  ChannelRule,
  ChannelSpec,
  Detection,
  FormatDescription,
  ImplicitEnd,
  KeyValueParams,
  NamedParams,
  Payload,
  ReasoningMarkers,
  RegionSpec,
} from "./language.js";
import { LITERAL_DIALECTS, type CallDialectName } from "./literal/dialects.js";
import type { PayloadKind, PayloadOf } from "./payload-kinds.js";

/** Checks the value at `path` (undefined when the key is absent); throws when it does not fit. */
type Check = (value: unknown, path: string) => void;

/** Every key of every member of T. */
type AllKeys<T> = T extends unknown ? keyof T : never;

/** One check per key of a language type. */
type Fields<T> = { readonly [K in AllKeys<T>]: Check };

function invalid(path: string, message: string): never {
  throw new ChatwireError("invalid_format", `format description: ${path}: ${message}`, { field: path });
}

const typeName = (v: unknown): string => (v === undefined ? "nothing" : v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);

const at = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

/** Absent, or as `check` says. */
const opt =
  (check: Check): Check =>
  (v, path) => {
    if (v !== undefined) check(v, path);
  };

const str: Check = (v, path) => {
  if (typeof v !== "string") invalid(path, `expected a string, got ${typeName(v)}`);
};

const bool: Check = (v, path) => {
  if (typeof v !== "boolean") invalid(path, `expected true or false, got ${typeName(v)}`);
};

const oneOf =
  (values: readonly string[]): Check =>
  (v, path) => {
    if (typeof v === "string" && values.includes(v)) return;
    invalid(path, `expected one of ${values.map((x) => JSON.stringify(x)).join(", ")}, got ${JSON.stringify(v) ?? "nothing"}`);
  };

const list =
  (item: Check): Check =>
  (v, path) => {
    if (!Array.isArray(v)) return invalid(path, `expected an array, got ${typeName(v)}`);
    v.forEach((x, i) => item(x, `${path}[${i}]`));
  };

const strings = list(str);

const pair: Check = (v, path) => {
  strings(v, path);
  if ((v as unknown[]).length !== 2) invalid(path, "expected two strings");
};

function plainObject(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return invalid(path, `expected an object, got ${typeName(v)}`);
  return v as Record<string, unknown>;
}

/** An object with exactly these keys (each checked, absent ones as undefined). */
function obj<T>(fields: Fields<T>): Check {
  const table = fields as Readonly<Record<string, Check>>;
  return (v, path) => {
    const o = plainObject(v, path);
    for (const key of Object.keys(o)) if (!Object.hasOwn(table, key)) invalid(at(path, key), `unknown key (known: ${Object.keys(table).join(", ")})`);
    for (const [key, check] of Object.entries(table)) check(o[key], at(path, key));
  };
}

/** The checks of an object whose shape is one of several, chosen by `pick`. */
const variant =
  (pick: (o: Record<string, unknown>) => Check): Check =>
  (v, path) =>
    pick(plainObject(v, path))(v, path);

const UNTYPED = oneOf(["string", "json"]);

const IMPLICIT_END = obj<ImplicitEnd>({ tag: str, after: opt(strings), inline: opt(bool), then: opt(strings) });

const NAMED_PARAMS = obj<NamedParams>({
  open: strings,
  close: str,
  typedBy: opt(obj<NonNullable<NamedParams["typedBy"]>>({ hole: str, json: strings, string: strings })),
});

const KEY_VALUE_PARAMS = obj<KeyValueParams>({
  key: obj<KeyValueParams["key"]>({ open: str, close: str }),
  value: obj<KeyValueParams["value"]>({ open: str, close: str }),
});

type XmlParams = PayloadOf<"xml-calls">["params"];
const XML_PARAM_FORMS = {
  attribute: obj<Extract<XmlParams, { by: "attribute" }>>({ by: str, element: str, key: str, type: opt(str) }),
  element: obj<Extract<XmlParams, { by: "element" }>>({ by: str }),
} satisfies Record<XmlParams["by"], Check>;
const XML_PARAMS: Check = (v, path) => {
  const by = plainObject(v, path)["by"];
  oneOf(Object.keys(XML_PARAM_FORMS))(by, at(path, "by"));
  XML_PARAM_FORMS[by as XmlParams["by"]](v, path);
};

const DIALECTS: readonly CallDialectName[] = (Object.keys(LITERAL_DIALECTS) as (keyof typeof LITERAL_DIALECTS)[]).filter(
  (d): d is CallDialectName => LITERAL_DIALECTS[d].args !== undefined,
);

/** The fields of each payload kind, besides `kind`. */
const PAYLOAD_FIELDS: { readonly [K in PayloadKind]: Fields<Omit<PayloadOf<K>, "kind">> } = {
  "json-calls": { nameKeys: opt(strings), argsKeys: opt(strings), idKeys: opt(strings), nameIsKey: opt(bool), sequence: opt(bool), array: opt(bool) },
  "json-args": { fence: opt(bool), rawText: opt(bool) },
  "header-args": { header: strings, headerEnd: strings, braceEndsHeader: opt(bool), headerIsId: opt(bool), fence: opt(bool) },
  tagged: {
    call: opt(obj<NonNullable<PayloadOf<"tagged">["call"]>>({ open: strings, close: str })),
    nameSep: opt(str),
    params: variant((o) => ("key" in o ? KEY_VALUE_PARAMS : NAMED_PARAMS)),
    afterParam: opt(strings),
    afterParamNewline: opt(bool),
    implicitEnds: opt(list(IMPLICIT_END)),
    untyped: UNTYPED,
    jsonBody: opt(bool),
    cdata: opt(bool),
  },
  "xml-calls": {
    open: pair,
    close: pair,
    call: obj<PayloadOf<"xml-calls">["call"]>({ element: str, head: strings }),
    params: XML_PARAMS,
    jsonElement: opt(str),
    itemTag: str,
    untyped: UNTYPED,
  },
  "literal-calls": { dialect: oneOf(DIALECTS), namePrefix: opt(str), list: opt(bool), sequence: opt(bool) },
  "python-or-json": { json: (v, path) => payload(v, path) },
  "python-tag": {},
  "by-first-char": {
    cases: (v, path) => {
      for (const [c, p] of Object.entries(plainObject(v, path))) payload(p, at(path, c));
    },
    otherwise: (v, path) => payload(v, path),
  },
};

const KINDS = Object.keys(PAYLOAD_FIELDS) as PayloadKind[];

const payloadChecks = new Map<PayloadKind, Check>(KINDS.map((k) => [k, obj<Payload>({ kind: str, ...PAYLOAD_FIELDS[k] } as Fields<Payload>)]));

function payload(v: unknown, path: string): void {
  const kind = plainObject(v, path)["kind"];
  const check = typeof kind === "string" ? payloadChecks.get(kind as PayloadKind) : undefined;
  if (check === undefined) return invalid(at(path, "kind"), `unknown payload kind ${JSON.stringify(kind) ?? "(none)"} (known: ${KINDS.join(", ")})`);
  check(v, path);
}

const MARKER_PAIR = obj<ReasoningMarkers | CallSection>({ start: strings, end: strings });

const RULE_FORMS = ["find", "start", "whole"] as const;
const RULE_FIELDS = obj<ChannelRule>({ find: opt(str), start: opt(str), whole: opt(str), to: oneOf(["content", "reasoning", "call", "calls", "drop"]) });
const CHANNEL_RULE: Check = (v, path) => {
  RULE_FIELDS(v, path);
  const forms = RULE_FORMS.filter((k) => (v as Record<string, unknown>)[k] !== undefined);
  if (forms.length !== 1) invalid(path, `a channel rule has exactly one of ${RULE_FORMS.join(", ")} (got ${forms.length})`);
};

const FORMAT = obj<FormatDescription>({
  id: str,
  description: str,
  detect: opt(obj<Detection>({ anyOf: list(strings), noneOf: opt(strings), before: opt(strings) })),
  reasoning: opt(list(MARKER_PAIR)),
  regions: list(
    obj<RegionSpec>({
      start: strings,
      end: opt(strings),
      startInPayload: opt((v, path) => {
        if (typeof v === "boolean" || (Number.isInteger(v) && (v as number) > 0)) return;
        invalid(path, `expected true, false or a positive count, got ${JSON.stringify(v)}`);
      }),
      atStartOnly: opt(bool),
      quietIfNotCall: opt(bool),
      endsAtNextStart: opt(bool),
      payload,
    }),
  ),
  sections: opt(list(MARKER_PAIR)),
  channels: opt(
    obj<ChannelSpec>({
      headerStart: strings,
      headerEnd: strings,
      bodyEnd: strings,
      headers: strings,
      rules: list(CHANNEL_RULE),
      otherwise: oneOf(["content", "reasoning", "drop"]),
      callPayload: payload,
      startsInHeader: opt(bool),
      ends: opt(obj<NonNullable<ChannelSpec["ends"]>>({ message: opt(str), call: opt(str), output: opt(str), callOutput: opt(str) })),
    }),
  ),
  ignore: opt(strings),
  idStyle: opt(oneOf(["openai", "mistral"])),
  pseudoTools: opt(strings),
  grammar: opt(obj<NonNullable<FormatDescription["grammar"]>>({ unavailable: str })),
  // Each entry's kind, keys and evidence are checked by its own table in compile-tolerances.ts.
  tolerate: opt(list((v, path) => void plainObject(v, path))),
});

const checked = new WeakSet<object>();

/** Throws a ChatwireError naming the first path of the description that the language does not allow. */
export function validateFormat(format: FormatDescription): void {
  if (checked.has(format)) return;
  FORMAT(format, "");
  checked.add(format);
}
