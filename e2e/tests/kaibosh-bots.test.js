// One person against three bots plays a whole Kaibosh game by clicking, while a
// spectator watches: the spectator's page never holds a card it may not see; the
// person's page shows the trick's winner, each hand's summary, the fair deal verified,
// the game's end and its record; the host's controls change a seat and end the table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot, watchFor } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const NAMES = { 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const cardName = (c) => `${NAMES[c[0]]} of ${SUITS[c[1]]}`;
const DECK = Object.keys(SUITS).flatMap((s) => Object.keys(NAMES).map((r) => r + s));

test("a person plays a Kaibosh game against three bots; a spectator sees no hidden card", { timeout: 180_000 }, async () => {
  const created = await createTable(server.url, {
    game: "kaibosh", options: { target: 10 }, seats: ["open", "bot:rules", "bot:rules", "bot:rules"],
  });
  const page = await openSeat(browser, created, 0, { host: true });
  const spectator = await newPage(browser, { width: 1280, height: 900 });
  await spectator.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  // What reaches the spectator's socket: no hand, no dealt cards, ever.
  const frames = [];
  spectator.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => frames.push(JSON.parse(payload))));
  await spectator.goto(created.watch_url);
  await spectator.waitForSelector('body[data-status="playing"]');
  assert.equal(await spectator.locator("#hand .card").count(), 0, "a spectator has no hand");
  assert.match(await spectator.textContent("#title"), /watching/);
  const seen = await watchFor(page, [".center .played.winner", ".summary:not(.final)", ".verified.ok", ".verified.bad", ".hand .card.not-legal"]);

  let checks = 0;
  let bid = false;
  let switched = false;
  let lastTrickShown = false;
  const done = await playSeat(page, {
    timeout: 90_000,
    // Bid once, to name trump; pass otherwise.
    call: (calls) => {
      const lowest = calls.find((c) => c.startsWith("bid "));
      if (!bid && lowest) { bid = true; return lowest; }
      return calls.includes("pass") ? "pass" : calls[0];
    },
    onStep: async (so) => {
      // Every card the spectator's page shows, as a card or in words, has been played
      // (the record lists every public action, of every hand so far): no card still in
      // someone's hand, the person's or a bot's, is in its DOM.
      const shown = await spectator.locator("[data-card]").evaluateAll((cs) => cs.map((c) => c.dataset.card));
      const html = await spectator.content();
      const record = await (await fetch(`${server.url}/api/tables/${created.id}/record`)).json();
      const played = new Set(record.hands.flatMap((h) => h.actions.filter((a) => a.startsWith("play ")).map((a) => a.slice(5))));
      for (const card of shown) assert.ok(played.has(card), `the spectator shows ${card}, which nobody played`);
      for (const card of DECK) {
        if (html.includes(cardName(card))) assert.ok(played.has(card), `the spectator's page names the ${cardName(card)}, which nobody played`);
      }
      checks += 1;
      if (so.plays === 2 && !lastTrickShown) {
        // The last trick on demand: its cards by seat, its winner marked.
        lastTrickShown = true;
        await page.waitForFunction(() => document.body.dataset.busy === "false");
        await page.click('button:has-text("Show the last trick")');
        await page.waitForSelector('.center-note:has-text("Last trick")');
        assert.ok(await page.locator(".center .played").count() >= 3);
        assert.equal(await page.locator(".center .played.winner").count(), 1);
        await page.click('button:has-text("Hide the last trick")');
      }
      if (so.plays === 4 && !switched) {
        // The host swaps seat 3's bot for another level; everyone sees it.
        switched = true;
        await page.selectOption("#host-seat-3", "bot:random");
        await spectator.waitForSelector('.seat[data-seat="3"] .badge.bot:text("bot · random")');
        await shot(spectator, "spectator-1280");
      }
    },
  });
  assert.ok(checks > 10 && done.plays >= 6, `${checks} checks, ${done.plays} plays`);
  const views = frames.filter((f) => f.view).map((f) => f.view);
  assert.ok(views.length > 20 && views.every((v) => v.hand == null && v.viewer === "spectator"));
  assert.ok(frames.every((f) => f.dealt == null && (f.events ?? []).every((e) => e.hand == null)));
  assert.ok(switched && lastTrickShown);

  const final = page.locator(".summary.final");
  await final.waitFor();
  await shot(page, "kaibosh-game-over-1280");
  const flags = await seen();
  assert.ok(flags[".center .played.winner"], "a trick's winner was highlighted");
  assert.ok(flags[".summary:not(.final)"], "a hand's summary was shown");
  assert.ok(flags[".verified.ok"] && !flags[".verified.bad"], "the fair deals were verified");
  assert.ok(flags[".hand .card.not-legal"], "cards that may not be played were marked");
  assert.match(await spectator.locator(".summary.final").textContent(), /Game over: Team [AB] .* win|a draw/);

  // The record downloads, whole now that the game is over.
  const [download] = await Promise.all([page.waitForEvent("download"), final.locator("text=Download the record").click()]);
  const record = JSON.parse(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString()));
  assert.equal(record.game, "kaibosh");
  assert.ok(record.hands.length >= 1 && record.hands.every((h) => h.deal.every((cards) => cards.length === 6)));

  // The game is over: the host has nothing left to end.
  assert.equal(await page.locator('#host button:has-text("End the table")').isVisible(), false);
  assert.equal(await page.locator("#host").isVisible(), false);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(spectator.errors, []);
});
