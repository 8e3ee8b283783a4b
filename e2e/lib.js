// Shared by the browser tests: the real server binary on a free port, Debian's
// Chromium through playwright-core, and small helpers.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = path.join(here, "screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });

const BIN = process.env.CALLTRUMP_BIN ?? path.join(here, "..", "target", "release", "calltrump");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** Starts `calltrump serve` on port 0 with a fresh data folder; resolves once it prints its URL. */
export async function startServer({ botDelayMs = 0, graceSecs = 60 } = {}) {
  const data = mkdtempSync(path.join(tmpdir(), "calltrump-e2e-"));
  const child = spawn(
    BIN,
    ["serve", "--addr", "127.0.0.1:0", "--data", data,
     "--bot-delay-ms", String(botDelayMs), "--grace-secs", String(graceSecs)],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "warn" } },
  );
  let log = "";
  child.stderr.on("data", (chunk) => { log += chunk; });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the server printed no URL in 30 s:\n${out}${log}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = out.match(/serving at (http:\/\/\S+?)\/?\s/);
      if (found) { clearTimeout(timer); resolve(found[1]); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}):\n${log}`)); });
  });
  return {
    url,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless; each launch has its own fresh profile folder. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** A new page whose uncaught errors and console errors fail the test at `check()`. */
export async function newPage(browser, { width = 1280, height = 800, ...options } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  page.errors = errors;
  return page;
}

/** Creates a table through the HTTP API. */
export async function createTable(base, body) {
  const response = await fetch(`${base}/api/tables`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
  return response.json();
}

export function shot(page, name) {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
