/**
 * Headless Chromium for the browser tests (the Debian build at /usr/bin/chromium, driven by
 * playwright-core), and a fake origin: every request to ORIGIN is answered by `files` in-process, so a
 * page gets real same-origin scripts and response headers (a CSP) without a listening server.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ORIGIN = "http://chatwire.test";
export const haveChromium = existsSync(CHROMIUM);

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export interface Served {
  body: string | Buffer;
  type: string;
  headers?: Record<string, string>;
}

/** A new page whose requests to ORIGIN are served from `files` (path -> response); anything else fails. */
export async function pageWith(browser: Browser, files: Record<string, Served>): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    const file = url.origin === ORIGIN ? files[url.pathname] : undefined;
    if (file === undefined) return route.fulfill({ status: 404, body: "not found" });
    return route.fulfill({ status: 200, body: file.body, contentType: file.type, headers: file.headers ?? {} });
  });
  return page;
}
