/**
 * What `chatwire <command> --help` prints: the usage line, what the command does, every option it
 * accepts with what it means, and examples. The installed package has only this and the README to go
 * by, so each option is explained here (test/cli-help.test.ts checks that every accepted option is,
 * and docs/cli.md is this text for every command).
 */

export interface CommandHelp {
  summary: string;
  /** Option name (without `--`) -> its value's shape and meaning. */
  options: Record<string, string>;
  examples: string[];
}

const TEMPLATE = {
  template:
    "SRC  the chat template: a .jinja file, a tokenizer_config.json (or chat_template.json), a model folder, a .gguf file, or a built-in name (chatml-tools, qwen3)",
  "template-name": "NAME  which of a config's named templates to use (e.g. tool_use, rag); default: tool_use when there is one, else default",
};

const VAR = {
  var: "k=JSON  a template variable, the value as JSON: --var enable_thinking=false, --var reasoning_effort='\"high\"'. Repeatable. A value that is not JSON is refused (Python's False/True/None are named in the error: write false/true/null)",
};

const POLYFILL = {
  polyfill:
    "auto|always|never  the tool prompt chatwire adds for a template that cannot show tools (docs/polyfills.md): auto (default) when the template has no tool syntax, always, or never (transformers' exact bytes)",
};

export const HELP: Record<string, CommandHelp> = {
  render: {
    summary: "Renders an OpenAI Chat Completions or Responses request through the template and prints the prompt exactly as transformers' apply_chat_template does (no newline added).",
    options: {
      ...TEMPLATE,
      request: "FILE|-  the request JSON (default -, stdin)",
      "no-generation-prompt": "render without the assistant turn's opening (add_generation_prompt=False)",
      "continue-final-message": "end the prompt inside the last (assistant) message, to continue it",
      ...VAR,
      now: "ISO-DATE  the date templates print (strftime_now), e.g. 2026-01-02T03:04:05; default: now",
      ...POLYFILL,
      tokens: "print token ids ({\"ids\": [...]}) instead of text; special tokens come only from template text",
      tokenizer: "FILE  with --tokens: a tokenizer.json, a model folder or a .gguf; default: the one that comes with --template (model folder, beside tokenizer_config.json, .gguf)",
      "special-from-data": "with --tokens: let special-token text inside request data become special tokens (as a text prompt would); default: it stays text",
      "assistant-mask": "with --tokens: also print which ids are assistant output (generation spans), for training",
      json: "print {\"prompt\": ...} (with --tokens: {\"prompt\", \"ids\"}) as one JSON line",
    },
    examples: [
      "echo '{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}' | chatwire render --template qwen3",
      "chatwire render --template ./Qwen3-8B --request req.json --var enable_thinking=false --tokens",
    ],
  },
  parse: {
    summary:
      "Reads a raw model completion on stdin and prints the OpenAI assistant message ({\"message\", \"finish_reason\", \"errors\"}), or with --stream one JSON line per streamed delta.",
    options: {
      ...TEMPLATE,
      format: "ID  parse in this tool-call format instead of a template's (hermes, llama3-json, mistral, ...; see docs/formats.md)",
      request: "FILE  the request the completion answers: its tools validate the calls (stdin is the completion, so not -)",
      ...VAR,
      ...POLYFILL,
      "prompt-suffix": "TEXT  the end of the prompt the completion continues, e.g. '<think>\\n' when the generation prompt opened reasoning (with --template it is rendered from --request)",
      "reasoning-calls": "call|text  a tool call written inside reasoning: a call (default), or left as reasoning text",
      stream: "parse as a stream, printing each delta as a JSON line",
      "chunk-size": "N  with --stream: the completion is cut into deltas of N characters (default 8)",
    },
    examples: [
      "echo '<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>' | chatwire parse --format hermes",
      "chatwire parse --template qwen3 --request req.json --stream < completion.txt",
    ],
  },
  detect: {
    summary:
      "Prints the template's tool-call format id and its reasoning markers; when the template cannot show tools, says that the tool polyfill will be used and which format completions are then parsed in.",
    options: { ...TEMPLATE, json: "print {\"format\", \"detected\", \"reasoning\", \"polyfill\"} as one JSON line" },
    examples: ["chatwire detect --template qwen3", "chatwire detect --template ./Llama-3.1-8B-Instruct/tokenizer_config.json --json"],
  },
  caps: {
    summary: "Prints what the template can do, as JSON: format, probed capabilities (tools, system role, content parts, reasoning, variables), variants and special tokens.",
    options: { ...TEMPLATE, json: "print the JSON on one line (without it, indented: caps always prints JSON)" },
    examples: ["chatwire caps --template qwen3"],
  },
  grammar: {
    summary: "Prints the constraint for a completion of the request: a llama.cpp GBNF grammar (default), the JSON Schema of one call, or an xgrammar structural tag.",
    options: {
      ...TEMPLATE,
      format: "ID  build for this tool-call format instead of a template's",
      request: "FILE|-  the request with its tools (required)",
      kind: "gbnf|json-schema|structural-tag  what to print (default gbnf)",
    },
    examples: ["chatwire grammar --template qwen3 --request req.json > tools.gbnf", "chatwire grammar --format hermes --request req.json --kind structural-tag"],
  },
  check: {
    summary:
      "A conformance report on the template (docs/check.md): renders a battery of conversations, checks prefixes, tool history, reconstruction and, with a tokenizer, special tokens, BOS and token boundaries. Exit 1 when a check fails, 0 with warnings only.",
    options: {
      ...TEMPLATE,
      tokenizer: "FILE  a tokenizer.json or .gguf for the token checks; default: the one that comes with --template (model folder, beside tokenizer_config.json, .gguf)",
      format: "ID  check parsing in this format instead of the detected one",
      json: "print the report as JSON (its shape is documented in docs/check.md)",
      reference: "PYTHON  also compare every render byte for byte with transformers run by this Python (it must have transformers installed)",
    },
    examples: ["chatwire check --template ./Qwen3-8B", "chatwire check --template model.jinja --reference .venv/bin/python --json"],
  },
  "response-template": {
    summary:
      "Writes a tool-call format as a transformers 5.x response_template and prints {\"response_template\": ...} to merge into tokenizer_config.json (docs/response-templates.md, \"Export\"). What the form cannot say is one `chatwire: note:` line each on stderr.",
    options: {
      ...TEMPLATE,
      format: "ID  write this format (hermes, qwen3-coder, ...) instead of the template's detected one",
      "start-anchor": "TEXT  the text a response starts after (default: the template's assistant header, or none with --format)",
    },
    examples: ["chatwire response-template --template ./Qwen3-8B", "chatwire response-template --format hermes --start-anchor '<|im_start|>assistant\\n'"],
  },
  example: {
    summary: "The whole round trip on built-in data: an OpenAI request rendered through Qwen3's template, and Qwen3's answer parsed into an assistant message with a validated tool call.",
    options: { json: "print it all as one JSON object" },
    examples: ["chatwire example"],
  },
  serve: {
    summary:
      "An OpenAI-compatible server (Chat Completions, Responses, models, health, tokenize) in front of a raw completion backend; the prompt is rendered (as token ids) and the completion parsed by chatwire (docs/server.md). It may start before its backend: /health is 503 until the backend answers.",
    options: {
      ...TEMPLATE,
      backend: "URL  the backend's base URL, e.g. http://127.0.0.1:8080 (required)",
      "backend-kind": "llamacpp|openai|vllm|sglang|ollama  the protocol the backend speaks (required; openai is any plain /v1/completions server)",
      host: "H  the address to listen on (default 127.0.0.1: loopback only; 0.0.0.0 exposes it)",
      port: "N  the port (default 8000; 0 picks a free one)",
      model: "NAME  the backend's model name: sent to openai/vllm/sglang/ollama backends (they need one) and listed by /v1/models",
      tokenizer: "FILE  the vocabulary for token ids: a tokenizer.json or .gguf; default: the one that comes with --template, else llama-server's /tokenize",
      "text-prompt": "send the prompt as text (the backend may then read special-token text in request data as control tokens; a warning is printed)",
      "api-key": "KEY  require Authorization: Bearer KEY on every route but /health (also read from CHATWIRE_API_KEY)",
      cors: "ORIGIN  allow browser calls from ORIGIN (repeat, or comma-separate; * for any)",
      workers: "N  run N server processes behind the one port (node:cluster)",
      timeout: "SECONDS  longest wait for the backend to start answering and between two streamed pieces (default 300); past it 504",
      "max-body": "BYTES  largest request body accepted (default 8388608); past it 413",
      "keep-bos": "with --text-prompt: keep the prompt's leading bos_token (default: dropped, the backend adds its own)",
      "no-grammar": "do not send the backend a tool-call grammar",
      "stream-calls": "validated|early  stream a tool call once it has closed and validated (default), or as it is generated",
      "backend-body": "JSON  fields merged into every backend request, e.g. '{\"top_k\": 20}'; null removes a field chatwire sets",
      "no-access-log": "no log line per request",
    },
    examples: [
      "chatwire serve --template ./Qwen3-8B --backend http://127.0.0.1:8080 --backend-kind llamacpp",
      "chatwire serve --template qwen3 --tokenizer tokenizer.json --backend http://127.0.0.1:8001 --backend-kind vllm --model Qwen/Qwen3-8B --port 8000",
    ],
  },
  inspect: {
    summary: "The prompt inspector, a page that shows the rendered prompt, its tokens by class (special, added, text) and where each piece came from. Served on loopback, or written as a static page with --out.",
    options: {
      ...TEMPLATE,
      tokenizer: "FILE  a tokenizer.json for the token view",
      port: "N  the port to serve on (default: a free one); not with --out",
      out: "DIR  write the page (index.html + inspector.js) to DIR instead of serving it; it works offline with built-in and pasted templates",
    },
    examples: ["chatwire inspect --template ./Qwen3-8B --tokenizer ./Qwen3-8B/tokenizer.json --port 7000", "chatwire inspect --out ./inspector"],
  },
};

const LINE = 100;

/** `--name VALUE` and the meaning, from an entry written "VALUE  meaning" (or just the meaning for a flag). */
function optionParts(name: string, text: string): [string, string] {
  const gap = text.indexOf("  ");
  return gap === -1 ? [`--${name}`, text] : [`--${name} ${text.slice(0, gap)}`, text.slice(gap + 2)];
}

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** The text of `chatwire <name> --help`. */
export function helpText(name: string, usage: string): string {
  const help = HELP[name];
  if (help === undefined) return `usage: ${usage}\n`;
  const entries = [...Object.entries(help.options).map(([n, text]) => optionParts(n, text)), ["--help", "this text"] as [string, string]];
  const left = Math.min(34, Math.max(...entries.map(([l]) => l.length)) + 2);
  const options = entries.flatMap(([l, meaning]) => {
    const lines = wrap(meaning, LINE - left - 2);
    const first = l.length + 2 > left ? [`  ${l}`, `  ${" ".repeat(left)}${lines[0]}`] : [`  ${l.padEnd(left)}${lines[0]}`];
    return [...first, ...lines.slice(1).map((x) => `  ${" ".repeat(left)}${x}`)];
  });
  return `usage: ${usage}\n\n${wrap(help.summary, LINE).join("\n")}\n\noptions:\n${options.join("\n")}\n\nexamples:\n${help.examples.map((e) => `  ${e}`).join("\n")}\n`;
}
