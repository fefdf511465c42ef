import { it } from "vitest";
import { createStreamParser, parseCompletion } from "../src/parse/index.js";
function qwen(n: number) {
  const code = "def f(x):\n    return '</parameter>' + x  # <tag>\n".repeat(Math.ceil(n / 48)).slice(0, n);
  return `Sure.\n<tool_call>\n<function=write>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\n${code}\n</parameter>\n</function>\n</tool_call>`;
}
function time(fmt: string, text: string, chunk: number) {
  const t0 = performance.now();
  const p = createStreamParser(fmt as never, undefined);
  let n = 0;
  for (let i = 0; i < text.length; i += chunk) n += p.push(text.slice(i, i + chunk)).length;
  p.end();
  return performance.now() - t0;
}
it("perf", () => {
  for (const size of [25_000, 200_000, 1_600_000]) {
    const t = qwen(size);
    const s = time("qwen3-coder", t, 4);
    const t1 = performance.now(); parseCompletion("qwen3-coder" as never, t, undefined); const o = performance.now() - t1;
    console.log("qwen3-coder", size, "stream4", s.toFixed(1), "oneshot", o.toFixed(1));
  }
  const py = `[f(code=${JSON.stringify("x = 1\n".repeat(40000))}, n=1)]`;
  console.log("pythonic", py.length, time("pythonic", py, 4).toFixed(1));
  const gm = `<|tool_call>call:f{code:<|"|>${"x = 1\n".repeat(40000)}<|"|>,n:1}<tool_call|>`;
  console.log("gemma4", gm.length, time("gemma4", gm, 4).toFixed(1));
  const calls = Array.from({ length: 50 }, (_, i) => `<minimax:tool_call>\n<invoke name="f${i}">\n<parameter name="c">${"y".repeat(20000)}</parameter>\n</invoke>\n</minimax:tool_call>`).join("\ntext\n");
  const t2 = performance.now(); const r = parseCompletion("minimax-m2" as never, calls, undefined); console.log("minimax 1MB/50", calls.length, (performance.now() - t2).toFixed(1), r.message.tool_calls?.length);
  const glm = Array.from({ length: 50 }, (_, i) => `<tool_call>f${i}\n<arg_key>c</arg_key>\n<arg_value>${"<y>\n".repeat(5000)}</arg_value>\n</tool_call>`).join("\n");
  const t3 = performance.now(); const r3 = parseCompletion("glm-4.5" as never, glm, undefined); console.log("glm 1MB/50", glm.length, (performance.now() - t3).toFixed(1), r3.message.tool_calls?.length, time("glm-4.5", glm, 4).toFixed(1));
});
