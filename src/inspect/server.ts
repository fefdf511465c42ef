/**
 * `chatwire inspect`'s HTTP side (Node only): serves the page and its script on loopback, tells the
 * page about the --template template (api/session), and turns prompts into token ids with the
 * --tokenizer tokenizer, with the same provenance rule as `render --tokens` (api/tokens).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ChatwireError } from "../errors.js";
import { templateFromConfig, type ChatTemplate, type TemplateConfig } from "../template/core.js";
import type { TokenizerJson } from "../tokens/index.js";
import { inspectorHtml } from "./page.js";
import type { InspectSession, TokenKind, TokensRequest, TokensResponse } from "./session.js";

export interface InspectOptions {
  template?: ChatTemplate;
  templateName?: string;
  tokenizer?: TokenizerJson;
  /** The browser bundle (dist/inspect/inspector.js). */
  script: string;
  host?: string;
  port?: number;
}

export interface RunningInspector {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

function configOf(template: ChatTemplate): TemplateConfig {
  const names = Object.keys(template.variants);
  const chat_template = names.length === 1 && names[0] === "default" ? (template.variants.default as string) : names.map((name) => ({ name, template: template.variants[name] as string }));
  return { chat_template, ...template.specialTokens };
}

export function sessionFor(options: InspectOptions): InspectSession {
  const session: InspectSession = { tokenizer: options.tokenizer !== undefined, addedTokens: (options.tokenizer?.added_tokens ?? []).map((t) => ({ text: t.content, special: t.special === true })) };
  if (options.template) {
    session.template = { config: configOf(options.template), origin: options.template.origin, ...(options.templateName ? { templateName: options.templateName } : {}) };
  }
  return session;
}

/**
 * Token ids of the prompt `body` renders to: control tokens only from template text. src/tokens (and
 * the optional @huggingface/tokenizers behind it) is imported only when a tokenizer was given.
 */
export async function tokensFor(body: TokensRequest, tokenizer: TokenizerJson): Promise<TokensResponse> {
  const { loadTokenizer } = await import("../tokens/index.js");
  const tok = await loadTokenizer(tokenizer);
  const template = templateFromConfig(body.template, body.templateName ? { templateName: body.templateName } : {});
  const { ids, prompt, offsets = [] } = template.renderTokens(body.request, tok, { addGenerationPrompt: body.addGenerationPrompt, polyfill: body.polyfill, offsets: true });
  // Each token's own text in the prompt (a byte-level token can split a character: its piece is then
  // the characters it overlaps).
  const added = new Set(tok.addedTokens.map((t) => t.id));
  const kinds = ids.map((id): TokenKind => (tok.specialIds.has(id) ? "special" : added.has(id) ? "added" : "text"));
  return { ids, pieces: offsets.map(([start, end]) => prompt.slice(start, end)), kinds };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ChatwireError("limit_exceeded", `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
  res.end(body);
}

export async function startInspector(options: InspectOptions): Promise<RunningInspector> {
  const session = sessionFor(options);
  const html = inspectorHtml();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    void (async () => {
      try {
        if (req.method === "GET" && (path === "/" || path === "/index.html")) return send(res, 200, "text/html; charset=utf-8", html);
        if (req.method === "GET" && path === "/inspector.js") return send(res, 200, "text/javascript; charset=utf-8", options.script);
        if (req.method === "GET" && path === "/api/session") return send(res, 200, "application/json", JSON.stringify(session));
        if (req.method === "POST" && path === "/api/tokens") {
          if (options.tokenizer === undefined) return send(res, 404, "application/json", JSON.stringify({ error: "no tokenizer: start with --tokenizer FILE" }));
          return send(res, 200, "application/json", JSON.stringify(await tokensFor(JSON.parse(await readBody(req)) as TokensRequest, options.tokenizer)));
        }
        send(res, 404, "text/plain", "not found");
      } catch (err) {
        const message = err instanceof ChatwireError ? `${err.code}: ${err.message}` : String((err as Error).message ?? err);
        send(res, 400, "application/json", JSON.stringify({ error: message }));
      }
    })();
  });
  // Loopback only: the page renders whatever templates it is given.
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    url: `http://${host}:${port}/`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
