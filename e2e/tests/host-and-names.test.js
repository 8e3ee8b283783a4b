// Issue 29's last tryout findings, in Chromium: Latin names keep their order in Arabic
// (a seat's box, the replay's score box) and the replay's step arrows point the way the
// steps go; the replay of a running table asks for no analysis (no 409 in the console);
// a bot's seat opened mid-hand says "opens after this hand" on the felt and in the host's
// choice; a friend's seat handed on is no longer shown online; a signed-in host's own
// seat is in "My tables" as soon as the table is made, each row naming who sits where.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot } from "../lib.js";

const RECORD = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "bid-euchre-loner.json");

let server, browser;
before(async () => { server = await startServer({ cutWaitMs: 500 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/**
 * The x of the middle of each character of `selector`'s text (in the text's logical
 * order), from the laid-out glyphs: how the line reads on screen.
 */
function glyphsX(page, selector) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    const xs = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        xs.push([node.data[i], box.left + box.width / 2]);
      }
    }
    return xs;
  }, selector);
}

/** The x of the first `char` at or after `from` in `xs`. */
function xOf(xs, char, from = 0) {
  const at = xs.findIndex(([c], i) => i >= from && c === char);
  assert.ok(at >= 0, `no ${char} in ${xs.map(([c]) => c).join("")}`);
  return xs[at][1];
}

test("Arabic replay: Latin names keep their order in a seat's box and the score box; the arrows point the steps' way", { timeout: 60_000 }, async () => {
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}/replay?lang=ar#step=1&view=0`);
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  const record = { ...JSON.parse(readFileSync(RECORD, "utf8")), players: ["Ann", "Bo", "Cy (bot)", "Di"] };
  await page.setInputFiles("#record-file", { name: "named.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(record)) });
  await page.waitForSelector("body[data-step='0']");
  // Seat 0 as Ann sees it: "أنت (Ann)", read right to left: أنت, then (Ann) whole.
  const mine = await glyphsX(page, '.seat[data-seat="0"] .name');
  assert.equal(mine.map(([c]) => c).join(""), "أنت (Ann)");
  assert.ok(xOf(mine, "أ") > xOf(mine, "(") && xOf(mine, "(") > xOf(mine, "A") && xOf(mine, "A") > xOf(mine, ")"), JSON.stringify(mine));
  // A named bot: "Cy (بوت)", Cy first (rightmost).
  const bot = await glyphsX(page, '.seat[data-seat="2"] .name');
  assert.equal(bot.map(([c]) => c).join(""), "Cy (بوت)");
  assert.ok(xOf(bot, "C") > xOf(bot, "(") && xOf(bot, "(") > xOf(bot, "ب") && xOf(bot, "ب") > xOf(bot, ")"), JSON.stringify(bot));
  // The score box's team: "الفريق B (Bo، Di)": the team's word, its letter, then the
  // names inside their parentheses (a run of Latin once took the letter and the "(" in).
  const team = await glyphsX(page, "#info table.scores tr:nth-of-type(2) th");
  assert.equal(team.map(([c]) => c).join(""), "الفريق B (Bo، Di)");
  const open = xOf(team, "(");
  assert.ok(xOf(team, "B") > open, `the team letter right of "(": ${JSON.stringify(team)}`);
  assert.ok(open > xOf(team, "o") && xOf(team, "o") > xOf(team, "D") && xOf(team, "D") > xOf(team, ")"), JSON.stringify(team));
  // The step buttons, right to left: "first" is at the right and draws ▶| (its bar on
  // the outside), "last" at the left draws |◀.
  const first = await glyphsX(page, "#first");
  const last = await glyphsX(page, "#last");
  assert.ok(xOf(first, "|") > xOf(first, "◀"), `first: ${JSON.stringify(first)}`);
  assert.ok(xOf(last, "|") < xOf(last, "▶"), `last: ${JSON.stringify(last)}`);
  assert.ok(xOf(first, "|") > xOf(last, "|"), "first is right of last");
  await shot(page, "replay-ar-names-390x844");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the replay of a running table asks for no analysis and says the game is still on", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const player = await openSeat(browser, created, 0, { name: "Ann" });
  await player.waitForSelector('body[data-my-turn="true"]', { timeout: 20_000 });
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  const asked = [];
  page.on("request", (request) => { if (request.url().includes("/analysis")) asked.push(request.url()); });
  await page.goto(`${server.url}/replay/${created.id}`);
  await page.waitForSelector("#load-status:has-text('still in play')", { timeout: 10_000 });
  assert.deepEqual(asked, []);
  assert.deepEqual(page.errors, [], "no 409 in the console");
  await page.context().close();
  await player.context().close();
});

test("a bot's seat opened mid-hand says it opens after this hand, and opens when the hand ends", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { name: "Ann", host: true });
  await host.waitForSelector('body[data-my-turn="true"]', { timeout: 20_000 });
  await host.selectOption("#host-seat-2", "open");
  const badge = host.locator('.seat[data-seat="2"] .badge.opening');
  await badge.waitFor({ timeout: 5_000 });
  assert.equal(await badge.textContent(), "opens after this hand");
  assert.equal(await host.locator("#host-seat-2").inputValue(), "open", "the host's choice stays a person");
  assert.match(await host.locator("#host").textContent(), /opens for a person when this hand ends/);
  await shot(host, "opens-after-hand-1280");
  await playSeat(host, { until: "hand" });
  await host.locator('.seat[data-seat="2"] .badge.open').waitFor({ timeout: 10_000 });
  assert.equal(await badge.count(), 0);
  assert.deepEqual(host.errors, []);
  await host.context().close();
});

test("a friend's seat handed on is not shown online in the host's seats", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { name: "Ann", host: true });
  const friend = await openSeat(browser, created, 1, { name: "Bo" });
  await host.locator('.seat[data-seat="1"] .badge.online').waitFor({ timeout: 10_000 });
  await friend.waitForSelector("#hand .card", { timeout: 20_000 });
  await host.selectOption("#host-seat-1", "bot:easy");
  await host.click(".seat-confirm button.danger");
  await friend.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
  await host.locator('.seat[data-seat="1"] .badge.bot').waitFor({ timeout: 10_000 });
  assert.equal(await host.locator('.seat[data-seat="1"] .badge.online').count(), 0);
  assert.equal(await host.locator('.seat[data-seat="1"] .who').textContent(), "Bot 1");
  assert.doesNotMatch(await host.locator("#host").textContent(), /Bo\b/);
  assert.deepEqual(host.errors, []);
  await host.context().close();
  await friend.context().close();
});

test("a friend's seat opened for someone else mid-hand: online until the hand ends, then open, not online", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { name: "Ann", host: true });
  const friend = await openSeat(browser, created, 1, { name: "Bo" });
  await friend.waitForSelector("#hand .card", { timeout: 20_000 });
  await host.waitForSelector('body[data-phase="auction"], body[data-phase="play"]', { timeout: 20_000 });
  await host.selectOption("#host-seat-1", "open");
  await host.click(".seat-confirm button.danger");
  // During the hand Bo plays on: online, and the seat says it opens after this hand.
  await host.locator('.seat[data-seat="1"] .badge.opening').waitFor({ timeout: 5_000 });
  assert.equal(await host.locator('.seat[data-seat="1"] .badge.online').count(), 1);
  // Both play the hand out; at its end the seat opens and Bo's page is closed.
  await Promise.all([playSeat(host, { until: "hand" }), playSeat(friend, { until: "hand", timeout: 30_000 }).catch(() => {})]);
  await friend.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
  await host.locator('.seat[data-seat="1"] .badge.open').waitFor({ timeout: 10_000 });
  assert.equal(await host.locator('.seat[data-seat="1"] .badge.online').count(), 0, "Bo is not shown online");
  assert.equal(await host.locator('.seat[data-seat="1"] .badge.opening').count(), 0);
  assert.deepEqual(host.errors, []);
  await host.context().close();
  await friend.context().close();
});

test("a signed-in host's own seat is in My tables at once, each row naming who sits where", { timeout: 90_000 }, async () => {
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}/`);
  const status = await page.evaluate(async () => (await fetch("/api/accounts", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Hosta", password: "a long password" }),
  })).status);
  assert.equal(status, 201);
  await page.goto(`${server.url}/`);
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  // Two Kaibosh tables, one with a bot at seat 1, one with a friend's open seat there.
  for (const second of ["bot:easy", "open"]) {
    await page.selectOption("#game", "kaibosh");
    await page.selectOption("#seat-list select >> nth=1", second);
    await page.click("#create");
    await page.waitForSelector("#created:not([hidden])");
  }
  const rows = page.locator("#my-tables li");
  await page.waitForFunction(() => document.querySelectorAll("#my-tables li").length === 2, null, { timeout: 10_000 });
  const texts = await rows.allTextContents();
  assert.notEqual(texts[0], texts[1], "the rows differ");
  assert.ok(texts.every((text) => /seat 0 · .*You \(/.test(text)), texts.join(" | "));
  assert.ok(texts.some((text) => /Bot 1/.test(text)) && texts.some((text) => /Seat 1/.test(text)), texts.join(" | "));
  await shot(page, "my-tables-390x844");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
