// The README's screenshots of the table (docs/screenshots/), made again from the real
// server in Debian's Chromium: `node e2e/readme-screenshots.js` (after `cargo build
// --release -p calltrump`; CALLTRUMP_BIN names another binary; file names as arguments
// make only those). Each is a window's worth
// (not the whole page), taken at Ann's turn on a 60 s turn clock against bots.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, launchBrowser, createTable, openSeat } from "./lib.js";

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "docs", "screenshots");
const CLOCK = { seconds: 60, level: "medium" };

/**
 * Ann plays (passing when she may, else the first choice or card) until it is her turn
 * in `phase` with at least `tricks` tricks taken, then the window is saved as `file`.
 */
async function shootAt(page, file, { phase, tricks = 0 }) {
  for (let step = 0; step < 500; step += 1) {
    const what = await (await page.waitForFunction(([p, n]) => {
      const d = document.body.dataset;
      if (d.myTurn === "true" && d.phase === p && Number(d.tricks) >= n && !document.getElementById("my-clock").hidden) return "here";
      if (d.cut === "true") return "cut";
      return d.myTurn === "true" ? "turn" : false;
    }, [phase, tricks], { timeout: 60_000, polling: 50 })).jsonValue();
    if (what === "here") {
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.screenshot({ path: path.join(OUT, file) });
      return;
    }
    const version = await page.evaluate(() => document.body.dataset.version);
    const calls = await page.locator(".calls [data-action]").evaluateAll((bs) => bs.map((b) => b.dataset.action));
    if (what === "cut") await page.click('[data-action="cut"]').catch(() => {});
    else if (calls.length) await page.click(`[data-action="${calls.includes("pass") ? "pass" : calls[0]}"]`);
    else if (await page.locator('[data-action^="trump "]').count()) await page.locator('[data-action^="trump "]').first().click();
    else await page.locator(".hand .card.legal").first().click();
    await page.waitForFunction((v) => document.body.dataset.version !== v, version, { timeout: 30_000 });
  }
  throw new Error(`${file}: no turn of Ann's in ${phase}`);
}

const SHOTS = [
  { file: "table-laptop.png", game: "kaibosh", seats: 4, phase: "play", tricks: 2, size: { width: 1280, height: 900 } },
  { file: "table-phone.png", game: "kaibosh", seats: 4, phase: "play", tricks: 2, size: { width: 360, height: 800, deviceScaleFactor: 2 } },
  { file: "phone-portrait.png", game: "bid-euchre", variant: "alexa", seats: 4, phase: "auction", size: { width: 390, height: 844 } },
  { file: "phone-landscape.png", game: "kout", variant: "kout6", seats: 6, phase: "play", tricks: 1, size: { width: 844, height: 390 } },
  { file: "phone-arabic.png", game: "kout", variant: "kout6", seats: 6, phase: "play", tricks: 1, size: { width: 390, height: 844 }, lang: "ar" },
  { file: "phone-english.png", game: "kout", variant: "kout6", seats: 6, phase: "play", tricks: 1, size: { width: 390, height: 844 } },
];

const server = await startServer({ cutWaitMs: 15_000 });
const browser = await launchBrowser();
try {
  const only = process.argv.slice(2);
  for (const { file, game, variant, seats, phase, tricks, size, lang = "en" } of SHOTS.filter((s) => !only.length || only.includes(s.file))) {
    const created = await createTable(server.url, {
      game, variant, turn_clock: CLOCK,
      seats: ["open", ...Array.from({ length: seats - 1 }, () => "bot:medium")],
    });
    const { width, height, ...more } = size;
    const page = await openSeat(browser, created, 0, { name: "Ann", host: true, width, height, ...more, ...(width < 900 ? { isMobile: true, hasTouch: true } : {}) });
    if (lang !== "en") {
      await page.evaluate((l) => localStorage.setItem("calltrump.lang", l), lang);
      await page.reload();
    }
    await shootAt(page, file, { phase, tricks });
    await page.context().close();
    console.log(`docs/screenshots/${file}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
