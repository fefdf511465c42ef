/**
 * The markup inside a call: a value's or the first key's open tag missing, the name prefix left out,
 * another argument list, open tags spelled as another family's, padded values.
 * Each entry checks its tolerance against the description and fills the accumulator (build.ts).
 */
import { literalDialect } from "../literal/dialects.js";
import type { LiteralDialect } from "../literal/dialects.js";
import { compilePattern } from "../patterns.js";
import type { CompiledPattern } from "../patterns.js";
import { allPayloads, invalid, valueOpens } from "./build.js";
import type { KindCompilers } from "./build.js";

type Kinds = "missing-value-opener" | "missing-name-prefix" | "missing-key-opener" | "argument-list" | "tag-alias" | "padded-value";

export const CALL_MARKUP: KindCompilers<Kinds> = {
  "missing-value-opener"(t, into, format) {
    if (!format.regions.some((r) => valueOpens(r.payload).includes(t.open))) {
      throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is no value open tag of the family's payloads`);
    }
    into.valueOpeners.add(t.open);
  },
  "missing-name-prefix"(t, into, format) {
    if (t.prefix === "" || !allPayloads(format).some((p) => p.kind === "literal-calls" && p.namePrefix === t.prefix)) {
      throw invalid(format, t, `"prefix" ${JSON.stringify(t.prefix)} is no name prefix of the family's literal calls`);
    }
    const instead = t.instead ?? [""];
    if (instead.length === 0 || instead.some((x) => typeof x !== "string" || x === t.prefix || (x !== "" && !t.prefix.endsWith(x)))) {
      throw invalid(format, t, '"instead" must be what is left of the prefix: "" or a shorter end of it');
    }
    into.namePrefixes.set(t.prefix, [...(into.namePrefixes.get(t.prefix) ?? []), ...instead]);
  },
  "missing-key-opener"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "tagged" && p.call === undefined && "key" in p.params && p.params.key.open === t.open)) {
      throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is no key open tag of a call named by its leading text`);
    }
    into.keyOpeners.add(t.open);
  },
  "argument-list"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "literal-calls" && p.dialect === t.dialect)) throw invalid(format, t, `the family writes no ${t.dialect} calls`);
    const d = literalDialect(t.dialect);
    const own = d.args!;
    if ([t.open, t.close, ...t.assign].some((c) => c.length !== 1) || t.assign.length === 0) throw invalid(format, t, '"open", "close" and each "assign" must be one character');
    if (t.open === own.open) throw invalid(format, t, `"open" ${JSON.stringify(t.open)} is the dialect's own`);
    const dialect: LiteralDialect = { ...d, name: `${d.name} with ${t.open}${t.close}`, args: { ...own, open: t.open, close: t.close, assign: t.assign[0]!, ...(t.assign.length > 1 ? { assignAlso: t.assign.slice(1) } : {}) } };
    const message = `arguments written in ${t.open}${t.close} instead of ${own.open}${own.close} read as the call's argument list`;
    into.argumentLists.push({ dialect: t.dialect, list: { dialect, message } });
  },
  "tag-alias"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "tagged")) throw invalid(format, t, "the family writes no tagged calls");
    const patterns = (name: string, list: readonly string[], hole: string): CompiledPattern[] => {
      const out = list.map(compilePattern);
      if (out.some((p) => !p.holes.includes(hole))) throw invalid(format, t, `"${name}" patterns need a {${hole}} hole`);
      return out;
    };
    if (t.call.length + t.param.length === 0) throw invalid(format, t, "names no tag");
    into.tagAliases.push({ call: patterns("call", t.call, "name"), param: patterns("param", t.param, "key"), typedBy: t.typedBy });
  },
  "padded-value"(t, into, format) {
    if (!allPayloads(format).some((p) => p.kind === "tagged")) throw invalid(format, t, "the family writes no tagged values");
    into.paddedValues = true;
  },
};
