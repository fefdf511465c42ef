/**
 * The deployment guards in front of every route: CORS (answering preflight `OPTIONS` itself) and the
 * API key (`Authorization: Bearer KEY`, compared in constant time; a 401 in OpenAI's shape). `/health`
 * stays open so load balancers can probe it without the key.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./api-error.js";

export interface AccessOptions {
  /** Required Bearer token, or undefined for none. */
  apiKey: string | undefined;
  /** Origins allowed to call from a browser (`*` for any); empty: no CORS headers. */
  corsOrigins: readonly string[];
}

const ALLOWED_HEADERS = "authorization, content-type, openai-organization, openai-project, x-stainless-arch, x-stainless-lang, x-stainless-os, x-stainless-package-version, x-stainless-runtime, x-stainless-runtime-version, x-stainless-retry-count, x-stainless-timeout";
const OPEN_PATHS = new Set(["/health"]);

/** Adds CORS headers; answers a preflight. True when the request is fully answered. */
export function applyCors(options: AccessOptions, req: IncomingMessage, res: ServerResponse): boolean {
  if (options.corsOrigins.length === 0) return false;
  const origin = req.headers.origin;
  const any = options.corsOrigins.includes("*");
  if (origin !== undefined && (any || options.corsOrigins.includes(origin))) {
    res.setHeader("access-control-allow-origin", any ? "*" : origin);
    if (!any) res.setHeader("vary", "Origin");
    res.setHeader("access-control-expose-headers", "x-request-id");
  }
  if (req.method !== "OPTIONS") return false;
  res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
  // The client's own list when it sent one (the SDKs add x-stainless-* headers that change between versions).
  const asked = req.headers["access-control-request-headers"];
  res.setHeader("access-control-allow-headers", typeof asked === "string" && asked.length < 4096 ? asked : ALLOWED_HEADERS);
  res.setHeader("access-control-max-age", "600");
  res.writeHead(204, { "content-length": 0 }).end();
  return true;
}

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Throws a 401 unless the request carries the key (or the path is open). */
export function checkApiKey(options: AccessOptions, req: IncomingMessage, path: string): void {
  if (options.apiKey === undefined || OPEN_PATHS.has(path)) return;
  const header = req.headers.authorization;
  const given = typeof header === "string" && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, "").trim() : undefined;
  // Hashes have equal length, so the comparison time says nothing about the key.
  if (given !== undefined && timingSafeEqual(digest(given), digest(options.apiKey))) return;
  const message =
    given === undefined
      ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
      : "Incorrect API key provided.";
  throw new ApiError(401, "invalid_request_error", message, { code: "invalid_api_key" });
}
