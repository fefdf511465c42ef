import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "vitest";
import { parseCompletion } from "../../src/parse/index.js";
const root = "/work/wt/wild/fixtures/wild";
it("wild", () => {
  const out: string[] = [];
  for (const dir of readdirSync(root)) {
    if (!dir.match(/^[a-z0-9.-]+$/) || dir.endsWith(".json") || dir.endsWith(".md")) continue;
    for (const f of readdirSync(join(root, dir))) {
      const e = JSON.parse(readFileSync(join(root, dir, f), "utf8"));
      let r;
      try { r = parseCompletion(e.format, e.completion, e.request?.tools ? { tools: e.request.tools, ...(e.request.tool_choice ? { tool_choice: e.request.tool_choice } : {}) } : undefined, e.promptSuffix ? { promptSuffix: e.promptSuffix } : {}); } catch (x) { out.push(`${dir}/${f} THROW ${x}`); continue; }
      const got = (r.message.tool_calls ?? []).map((c) => [c.function.name, JSON.parse(c.function.arguments)]);
      const want = e.malformed ? [] : (e.expect.tool_calls ?? []).map((c: any) => [c.name, c.arguments]);
      const ok = JSON.stringify(got) === JSON.stringify(want) && (e.malformed || (r.message.content ?? "").trim() === (e.expect.content ?? "").trim());
      out.push(`${ok ? "OK  " : "FAIL"} ${dir}/${f} ${e.deviation} ${ok ? "" : JSON.stringify(r.message.content)?.slice(0, 120) + " " + JSON.stringify(got).slice(0, 100)} ${r.errors.filter((x) => x.type === "repaired").map((x) => x.repair).join(",")}`);
    }
  }
  console.log(out.join("\n"));
});
