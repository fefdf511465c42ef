/**
 * What the browser bundle test runs, the same in Chromium and in Node: render real templates over the
 * fixture conversations, parse every fixture completion one-shot and streamed, and check tool-schema
 * errors and argument validation. Plain JS taking the chatwire module as an argument, so it is bundled
 * unchanged into the page and imported unchanged by Node.
 */

/** Deterministic call ids, so results compare across runs and engines. */
function counterIds() {
  let n = 0;
  return () => `call_${String(n++).padStart(24, "0")}`;
}

function describeError(err) {
  return { error: err?.code ?? err?.name ?? "Error", field: err?.field, message: String(err?.message ?? err) };
}

function codePointChunks(text, size) {
  const chars = Array.from(text);
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

export async function runCases(cw, inputs) {
  const out = { codegenAllowed: undefined, formats: {}, renders: {}, parses: {}, streams: {}, schemaErrors: {}, builtin: {} };
  try {
    out.codegenAllowed = new Function("return 1")() === 1;
  } catch {
    out.codegenAllowed = false;
  }
  const now = new Date(inputs.now);
  for (const t of inputs.templates) {
    const template = await cw.loadTemplate({ chat_template: t.chat_template, bos_token: t.bos_token, eos_token: t.eos_token });
    out.formats[t.name] = template.format;
    for (const c of inputs.conversations) {
      const body = cw.readJson(c.text);
      try {
        out.renders[`${t.name}/${c.name}`] = template.render(body.request, { addGenerationPrompt: true, polyfill: "never", ...body.options, now });
      } catch (err) {
        out.renders[`${t.name}/${c.name}`] = describeError(err);
      }
    }
  }
  for (const fixture of inputs.completions) {
    const request = { messages: [{ role: "user", content: "hi" }], tools: fixture.tools };
    for (const c of fixture.cases) {
      const key = `${fixture.format}/${c.name}`;
      const options = c.promptSuffix === undefined ? {} : { promptSuffix: c.promptSuffix };
      out.parses[key] = cw.parseCompletion(fixture.format, c.completion, request, { ...options, idGenerator: counterIds() });
      const stream = cw.createStreamParser(fixture.format, request, { ...options, idGenerator: counterIds() });
      const deltas = [];
      for (const chunk of codePointChunks(c.completion, 3)) deltas.push(...stream.push(chunk));
      deltas.push(...stream.end());
      out.streams[key] = deltas;
    }
  }
  const tool = (name, parameters) => ({ type: "function", function: { name, parameters } });
  const broken = {
    misspeltType: { type: "object", properties: { n: { type: "integr" } } },
    danglingRef: { type: "object", properties: { n: { $ref: "#/$defs/nope" } } },
  };
  const qwen = await cw.loadTemplate("qwen3");
  for (const [name, schema] of Object.entries(broken)) {
    const request = { messages: [{ role: "user", content: "hi" }], tools: [tool("a", {}), tool("b", {}), tool("c", schema)] };
    for (const [how, run] of Object.entries({
      render: () => qwen.render(request),
      parse: () => qwen.parse("hi", request),
      stream: () => qwen.streamParser(request),
    })) {
      try {
        run();
        out.schemaErrors[`${name}/${how}`] = "no error";
      } catch (err) {
        out.schemaErrors[`${name}/${how}`] = { code: err.code, field: err.field };
      }
    }
  }
  const strict = { messages: [{ role: "user", content: "hi" }], tools: [tool("get", { type: "object", properties: { n: { type: "integer" }, s: { type: "string", pattern: "^(a+)+$" } }, required: ["n"] })] };
  const call = (args) => `<tool_call>\n${JSON.stringify({ name: "get", arguments: args })}\n</tool_call>`;
  out.builtin.prompt = qwen.render(strict, { now });
  out.builtin.valid = qwen.parse(call({ n: 1, s: "aaaa" }), strict, { idGenerator: counterIds() });
  out.builtin.invalid = qwen.parse(call({ n: "one", s: `${"a".repeat(3000)}!` }), strict, { idGenerator: counterIds() });
  return out;
}
