// A hand played with the keyboard alone: Tab reaches every choice, arrows move along
// the hand, Enter plays; cards are named as a screen reader should say them; focus is
// visible; reduced motion stops the animations; the lobby fits a phone.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, noHorizontalOverflow, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const CARD_LABEL = /^(nine|ten|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)(, playable)?$/;

/** Presses Tab until the focused element matches `selector` (at most 80 times). */
async function tabTo(page, selector) {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

test("a Kaibosh hand played with the keyboard alone", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0);
  // A card landing on the table is animated, unless the reader asks for reduced motion.
  const landing = () => page.evaluate(() => {
    const probe = Object.assign(document.createElement("div"), { className: "card played fresh" });
    document.querySelector(".center").append(probe);
    const name = getComputedStyle(probe).animationName;
    probe.remove();
    return name;
  });
  assert.equal(await landing(), "land");
  await page.emulateMedia({ reducedMotion: "reduce" });
  assert.equal(await landing(), "none");
  let plays = 0;
  let checkedFocus = false;
  for (let step = 0; step < 200; step += 1) {
    const what = await (await page.waitForFunction(() => {
      const d = document.body.dataset;
      if (d.phase === "hand-over" && Number(d.tricks) > 0) return "over";
      if (d.phase === "game-over") return "over";
      if (d.cut === "true") return "cut";
      if (d.myTurn === "true") return "turn";
      return false;
    }, null, { timeout: 60_000, polling: 50 })).jsonValue();
    if (what === "over") break;
    const version = await page.evaluate(() => document.body.dataset.version);
    if (what === "cut") {
      await tabTo(page, '[data-action="cut"]');
      await page.keyboard.press("Enter");
    } else if (await page.locator('.calls [data-action="pass"]').count()) {
      await tabTo(page, '[data-action="pass"]');
      await page.keyboard.press("Enter");
    } else if (await page.locator('[data-action^="trump "]').count()) {
      await tabTo(page, '[data-action^="trump "]');
      await page.keyboard.press("Enter");
    } else {
      // One Tab stop for the hand, then arrows to a playable card.
      await tabTo(page, ".hand .card");
      const labels = await page.locator(".hand .card").evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label")));
      for (const label of labels) assert.match(label, CARD_LABEL);
      for (let i = 0; i < 8 && !(await page.evaluate(() => document.activeElement.classList.contains("legal"))); i += 1) {
        await page.keyboard.press("ArrowRight");
      }
      if (!checkedFocus) {
        checkedFocus = true;
        const outline = await page.evaluate(() => {
          const style = getComputedStyle(document.activeElement);
          return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
        });
        assert.ok(outline.style !== "none" && outline.width >= 2, `a visible focus ring: ${JSON.stringify(outline)}`);
        await shot(page, "keyboard-focus-1280");
      }
      await page.keyboard.press("Enter");
      plays += 1;
    }
    await page.waitForFunction((v) => document.body.dataset.version !== v || document.body.dataset.myTurn !== "true" && document.body.dataset.cut !== "true",
      version, { timeout: 60_000, polling: 50 });
  }
  assert.ok(plays >= 1, "cards were played with the keyboard");
  assert.deepEqual(page.errors, []);
});

test("the lobby and a table fit a 360 px wide phone", { timeout: 60_000 }, async () => {
  const page = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await page.goto(server.url + "/");
  await page.selectOption("#game", "kout");
  assert.ok(await noHorizontalOverflow(page), "the lobby fits");
  await shot(page, "lobby-360");
  const created = await createTable(server.url, { game: "bid-euchre", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const seat = await openSeat(browser, created, 0, { width: 360, height: 740, isMobile: true, hasTouch: true });
  // The bid grid is the widest thing a table shows.
  await seat.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000 });
  if (await seat.locator('[data-action="cut"]').count()) {
    await seat.click('[data-action="cut"]');
    await seat.waitForFunction(() => document.body.dataset.myTurn === "true", null, { timeout: 30_000 });
  }
  assert.ok(await noHorizontalOverflow(seat), "the table fits");
  await shot(seat, "bid-euchre-auction-360");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(seat.errors, []);
});
