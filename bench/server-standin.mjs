/**
 * A stand-in llama-server for the server benchmark, run as its own process (node bench/server-standin.mjs):
 * `POST /completion` answers a fixed completion (reasoning, text, one hermes tool call), whole or as SSE
 * in 8-character events; a body with `big: true` gets one 16 MB completion, streamed as a single SSE line. Prints
 * `listening <port>` on stdout when ready. No model, no work: what it costs is the floor.
 */
import { createServer } from "node:http";

export const COMPLETION =
  '<think>\nThe user wants the weather in Paris.\n</think>\n\nLet me check that for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>';
const BIG = JSON.stringify({ content: "All good. ".repeat(1_600_000), stop: true, stop_type: "eos", tokens_evaluated: 10, tokens_predicted: 4_000_000 });
const last = { content: "", stop: true, stop_type: "eos", tokens_evaluated: 42, tokens_predicted: 17 };

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
    if (body.big === true) {
      res.writeHead(200, { "content-type": body.stream === true ? "text/event-stream" : "application/json" });
      res.end(body.stream === true ? `data: ${BIG}\n\n` : BIG);
      return;
    }
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...last, content: COMPLETION }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    let out = "";
    for (let i = 0; i < COMPLETION.length; i += 8) out += `data: ${JSON.stringify({ content: COMPLETION.slice(i, i + 8), stop: false })}\n\n`;
    res.end(`${out}data: ${JSON.stringify(last)}\n\n`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`listening ${server.address().port}`));
