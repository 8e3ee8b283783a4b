// The turn clock (issue 29): chosen in the lobby, counted down on the table from the
// server's time (a reload does not restart it, nor the cut's wait), and when it runs out
// a bot decides that once and the player is told.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, shot } from "../lib.js";

let browser;
const servers = [];
after(async () => { await browser?.close(); for (const s of servers) await s.stop(); });

async function serve(options) {
  const server = await startServer(options);
  servers.push(server);
  browser ??= await launchBrowser();
  return server;
}

/** The seconds this player's own clock (above their hand) shows, once shown. */
async function clockSecs(page) {
  const clock = page.locator("#my-clock:not([hidden])");
  await clock.waitFor({ timeout: 30_000 });
  return Number((await clock.textContent()).match(/\d+/)[0]);
}

test("a phone player's turn clock from the lobby counts the server's time and a bot decides when it runs out", { timeout: 60_000 }, async () => {
  const server = await serve({ cutWaitMs: 500 });
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.addInitScript(() => { localStorage.setItem("calltrump.name", "Ann"); localStorage.setItem("calltrump.speed", "fast"); });
  await page.goto(`${server.url}/`);
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  await page.selectOption("#game", "kaibosh");
  await page.selectOption("#turn-clock", "15");
  await page.selectOption("#clock-level", "random");
  await page.click("#create");
  await page.waitForSelector("#created:not([hidden])");
  await page.click("#open-seat");
  await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30_000 });
  const first = await clockSecs(page);
  assert.ok(first <= 15 && first >= 10, `${first} s at the start of the turn`);
  // The countdown is on the phone's screen, just above the hand (not a seat's badge).
  const box = await page.locator("#my-clock").boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
  const hand = await page.locator("#hand").boundingBox();
  assert.ok(hand.y - (box.y + box.height) <= 1 && hand.y - (box.y + box.height) >= -1, `the clock ends at ${box.y + box.height}, the hand starts at ${hand.y}`);
  assert.equal(await page.locator('.seat[data-seat="0"] .badge.clock').count(), 0);
  await shot(page, "turn-clock-390x844");
  // Opened again 3 s later, the page counts what is left, not a fresh clock.
  await page.waitForTimeout(3000);
  await page.reload();
  await page.waitForSelector('body[data-my-turn="true"]', { timeout: 10_000 });
  const again = await clockSecs(page);
  assert.ok(again <= first - 2, `${again} s after a reload, ${first} s before it`);
  // Ann does nothing: a bot decides for her, and she is told.
  await page.waitForSelector('#log li:has-text("Your time ran out: a bot decided for you this once.")', { state: "attached", timeout: 20_000 });
  // The seat is still hers: no bot stands in.
  assert.equal(await page.locator('.seat[data-seat="0"] .badge.away').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a reopened page counts down what is left of the wait to cut, not a fresh wait", { timeout: 60_000 }, async () => {
  const server = await serve({ cutWaitMs: 12_000 });
  // Seat 1 deals first: seat 0, at its right, cuts the first hand's deck.
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"], first_dealer: 1 });
  const page = await openSeat(browser, created, 0, { width: 844, height: 390, isMobile: true, hasTouch: true });
  await page.waitForSelector('body[data-cut="true"]', { timeout: 20_000 });
  const secs = async () => {
    const clock = page.locator("#cut-countdown", { hasText: /^\d+ s left/ });
    await clock.waitFor({ timeout: 10_000 });
    return Number((await clock.textContent()).match(/^\d+/)[0]);
  };
  const first = await secs();
  assert.ok(first >= 9, `${first} s at first`);
  await page.waitForTimeout(3000);
  await page.reload();
  await page.waitForSelector('body[data-cut="true"]', { timeout: 10_000 });
  const again = await secs();
  assert.ok(again <= first - 2, `${again} s after a reload, ${first} s before it`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
