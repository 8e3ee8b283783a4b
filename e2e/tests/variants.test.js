// One person with bots plays through the UI a whole hand of every other variant: a Bid
// Euchre loner with its exchange (alexa), simplified Bid Euchre, Kout Bo for four, and
// Kout Bo for six on a phone-sized page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, createTable, openSeat, playSeat, shot, noHorizontalOverflow, watchFor } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const bots = (n) => ["open", ...Array(n - 1).fill("bot:rules")];

test("Bid Euchre alexa: a loner, the partner's cards, the discard", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", options: { deals: 4 }, seats: bots(4) });
  const page = await openSeat(browser, created, 0);
  const seen = await watchFor(page, ['.seat.out .badge.out', ".bid-grid", '[data-key="exchange"]', ".hand .card.received"]);
  let shotTaken = false;
  // Call for two alone whenever allowed: the partner gives two cards, this seat discards two.
  const done = await playSeat(page, {
    call: (calls) => calls.find((c) => c.startsWith("call2 ")) ?? (calls.includes("pass") ? "pass" : calls[0]),
    onStep: async (so) => {
      if (!shotTaken && so.exchanges.length) {
        shotTaken = true;
        await shot(page, "bid-euchre-after-exchange-1280");
      }
    },
  });
  assert.ok(done.exchanges.length >= 1, `an exchange was made: ${JSON.stringify(done)}`);
  for (const action of done.exchanges) assert.match(action, /^(discard|give) \w+ of \w+ and \w+ of \w+$/);
  const flags = await seen();
  assert.ok(flags[".bid-grid"], "bids offered as a grid of levels and strains");
  assert.ok(flags['.seat.out .badge.out'], "the loner's partner sits out");
  if (done.exchanges.some((a) => a.startsWith("discard"))) assert.ok(flags[".hand .card.received"], "the cards the partner gave are marked");
  await page.locator(".summary.final").waitFor();
  assert.deepEqual(page.errors, []);
});

for (const [game, variant, seats, width] of [["bid-euchre", "simplified", 4, 1280], ["kout", "kout4", 4, 1280], ["kout", "kout6", 6, 360]]) {
  test(`${game} ${variant}: a whole hand at ${width} px`, { timeout: 90_000 }, async () => {
    const created = await createTable(server.url, { game, variant, seats: bots(seats) });
    const page = await openSeat(browser, created, 0, width === 360 ? { width: 360, height: 760, isMobile: true, hasTouch: true } : { height: 800 });
    assert.equal(await page.locator(".felt .seat").count(), seats);
    // Each seat's team is shown at every width (a letter on a phone).
    assert.equal(await page.locator(".felt .seat .badge.team:visible").count(), seats);
    if (width === 360) assert.ok(await page.locator("#score-line").isVisible(), "the scores above the table on a phone");
    // This seat's first call: the choices and the whole hand in the window.
    await page.waitForFunction(() => document.body.dataset.myTurn === "true" && document.querySelector(".calls"), null, { timeout: 30_000, polling: 50 });
    const hand = await page.locator("#hand").boundingBox();
    assert.ok(hand.y + hand.height <= page.viewportSize().height, `the hand ends at ${hand.y + hand.height} during the auction`);
    await shot(page, `${variant}-auction-${width}`);
    if (game === "kout") {
      // Kout Bo's bids go by their names (the view's call_names); a 9 may always be bid.
      assert.equal(await page.locator('.calls button[data-action="bid 9"]').textContent(), "Bawan (9)");
      const bab = page.locator('.calls button[data-action="bid 5"]');
      if (await bab.count()) assert.equal(await bab.textContent(), "Bab (5)");
    }
    let midHand = false;
    const done = await playSeat(page, {
      until: "hand",
      onStep: async (so) => {
        if (so.plays === 2 && !midHand) {
          midHand = true;
          await shot(page, `${variant}-${width}`);
          // Every card on the table says whose it is (both counted at one moment: the
          // bots play on meanwhile).
          const [played, named] = await page.evaluate(() => [
            document.querySelectorAll(".center .played").length, document.querySelectorAll(".center .played .by").length]);
          assert.equal(named, played);
          assert.ok(await noHorizontalOverflow(page), "nothing sticks out sideways");
        }
      },
    });
    // A whole hand: this seat played, or sat out its partner's loner (Bid Euchre).
    const satOut = done.exchanges.length > 0 || (await page.locator(".seat.me.out").count()) > 0;
    assert.ok(done.plays >= 1 || satOut, JSON.stringify(done));
    if (variant === "kout6") {
      // The rules are in the bar's menu on a phone, and open in a new tab.
      await page.click("#menu-toggle");
      const rulesErrors = [];
      page.context().once("page", (p) => p.on("console", (m) => { if (m.type() === "error") rulesErrors.push(m.text()); }));
      const [rules] = await Promise.all([page.context().waitForEvent("page"), page.click("#rules-link")]);
      await rules.waitForLoadState("load");
      assert.equal(await rules.textContent("h1"), "Kout Bo");
      assert.deepEqual(rulesErrors, []);
      await rules.close();
    }
    await page.waitForSelector(".summary");
    assert.match(await page.locator(".summary").textContent(), /Hand over|Game over/);
    assert.deepEqual(page.errors, []);
  });
}

test("a table that allows it takes back a card played against bots", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: bots(4), undo: true });
  const page = await openSeat(browser, created, 0);
  let held = 0;
  let tookBack = false;
  await playSeat(page, {
    until: "hand",
    onStep: async (so) => {
      if (tookBack || so.plays !== 1) return;
      tookBack = true;
      await page.waitForFunction(() => document.body.dataset.busy === "false");
      held = await page.locator(".hand .card").count();
      await page.click('button:has-text("Take back")');
      await page.waitForFunction((n) => document.querySelectorAll(".hand .card").length === n + 1, held);
      await page.waitForSelector('#log li:has-text("took back")');
    },
  });
  assert.ok(tookBack && held === 5, `took back the first card (${held} left before)`);
  assert.deepEqual(page.errors, []);
});
