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

/**
 * Starts `calltrump serve` on a free port (or `addr`) with a fresh data folder (or
 * `data`, to restart on the tables of a stopped server); resolves once it prints its URL.
 */
export async function startServer({ botDelayMs = 0, graceSecs = 60, cutWaitMs, addr = "127.0.0.1:0", data } = {}) {
  data ??= mkdtempSync(path.join(tmpdir(), "calltrump-e2e-"));
  const child = spawn(
    BIN,
    ["serve", "--addr", addr, "--data", data,
     "--bot-delay-ms", String(botDelayMs), "--grace-secs", String(graceSecs),
     ...(cutWaitMs == null ? [] : ["--cut-wait-ms", String(cutWaitMs)])],
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
    data,
    log: () => log,
    /** Stops the server; its data folder is removed unless `keepData`. */
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!keepData) rmSync(data, { recursive: true, force: true });
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

/**
 * Plays this page's seat by clicking until the game is over (`until: "game"`) or a hand
 * with tricks is over (`until: "hand"`). `call(actions)` picks a call from the offered
 * ones (default: pass when allowed). Answers what was done, for the test to check.
 */
export async function playSeat(page, { until = "game", call = defaultCall, timeout = 60_000, onStep } = {}) {
  const done = { calls: [], plays: 0, cuts: 0, trumps: 0, exchanges: [] };
  for (let step = 0; step < 3000; step += 1) {
    const what = await (await page.waitForFunction((goal) => {
      const d = document.body.dataset;
      if (d.phase === "game-over") return "over";
      if (goal === "hand" && d.phase === "hand-over" && Number(d.tricks) > 0) return "over";
      if (d.cut === "true") return "cut";
      if (d.myTurn === "true") return "turn";
      return false;
    }, until, { timeout, polling: 50 })).jsonValue();
    if (what === "over") return done;
    const version = await page.evaluate(() => document.body.dataset.version);
    if (what === "cut") {
      // The server may have cut at random meanwhile (a slow machine): then there is no
      // button any more, and the loop goes on.
      const cut = await page.click('[data-action="cut"]', { timeout: 5000 }).then(() => true, () => false);
      if (cut) done.cuts += 1;
    } else {
      const calls = await page.locator(".calls [data-action]").evaluateAll((bs) => bs.map((b) => b.dataset.action));
      const trumps = await page.locator('[data-action^="trump "]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
      if (calls.length) {
        const chosen = call(calls);
        done.calls.push(chosen);
        await page.click(`[data-action="${chosen}"]`);
      } else if (trumps.length) {
        await page.click(`[data-action="${trumps[0]}"]`);
        done.trumps += 1;
      } else if (await page.locator('[data-key="exchange"]').count()) {
        done.exchanges.push(await exchange(page));
      } else {
        await page.locator(".hand .card.legal").first().click();
        done.plays += 1;
      }
    }
    if (onStep) await onStep(done);
    // The click is answered by an update (or an error): wait for either.
    await page.waitForFunction((v) => document.body.dataset.version !== v || document.body.dataset.myTurn !== "true" && document.body.dataset.cut !== "true",
      version, { timeout, polling: 50 });
  }
  throw new Error("the game did not end within 3000 steps");
}

export function defaultCall(calls) {
  return calls.includes("pass") ? "pass" : calls[0];
}

/** Chooses cards to give or discard by clicking them, then confirms; answers the action. */
async function exchange(page) {
  const button = page.locator('[data-key="exchange"]');
  const cards = page.locator(".hand .card.legal");
  const count = await cards.count();
  for (let i = 0; i < count && (await button.isDisabled()); i += 1) await cards.nth(i).click();
  const action = await button.getAttribute("aria-label");
  await button.click();
  return action;
}

/** Whether the page is no wider than its window (nothing to scroll sideways). */
export function noHorizontalOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** A page at a seat of a table made with `createTable` (with the host's token if `host`). */
export async function openSeat(browser, created, seat, { host = false, name = "Ann", width = 1280, height = 900, speed = "fast", ...options } = {}) {
  const page = await newPage(browser, { width, height, ...options });
  await page.addInitScript(([n, s]) => {
    localStorage.setItem("calltrump.name", n);
    localStorage.setItem("calltrump.speed", s);
  }, [name, speed]);
  const invite = created.invites.find((i) => i.seat === seat);
  await page.goto(invite.url + (host ? `&host=${created.host_token}` : ""));
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  return page;
}

/** Records, in the page, whether an element matching each selector ever appeared. */
export async function watchFor(page, selectors) {
  await page.evaluate((list) => {
    window.__seen = {};
    const check = () => { for (const s of list) if (document.querySelector(s)) window.__seen[s] = true; };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
    check();
  }, selectors);
  return async () => page.evaluate(() => window.__seen);
}

/**
 * The signed numbers ("-4", "+3", "−0.50") on the page as they are laid out: each with
 * whether its sign is drawn on its left, as it reads in either language (a right-to-left
 * line left to itself draws "4-"). Hidden text is left out.
 */
export function signedNumbers(page) {
  return page.evaluate(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest("script, style, option, select")) continue;
      for (const m of node.textContent.matchAll(/(?<![\d\w])[-+\u2212]\d+(?:\.\d+)?/g)) {
        const rect = (from) => {
          const range = document.createRange();
          range.setStart(node, from);
          range.setEnd(node, from + 1);
          return range.getBoundingClientRect();
        };
        const sign = rect(m.index);
        const digit = rect(m.index + m[0].length - 1);
        if (sign.width === 0 || digit.width === 0) continue;
        found.push({ text: m[0], signLeft: sign.left < digit.left, where: node.parentElement.id || node.parentElement.className || node.parentElement.localName });
      }
    }
    return found;
  });
}
