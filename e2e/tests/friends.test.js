// Two friends at one Kaibosh table with two bots, as the "done when" asks: the
// host creates the table in the lobby on a laptop-sized window, the friend opens the
// invite link on a phone-sized one, both play the whole game by clicking, the friend
// reloads mid-hand and keeps the seat, and they chat (markup stays text).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, playSeat, shot, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("two friends and two bots play a Kaibosh game to the end", { timeout: 180_000 }, async () => {
  const host = await newPage(browser, { width: 1280, height: 900 });
  await host.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await host.goto(server.url + "/");
  await host.waitForSelector("body[data-ready='true']", { state: "attached" });
  await host.fill("#name", "Ann");
  // The name is remembered.
  await host.reload();
  await host.waitForSelector("body[data-ready='true']", { state: "attached" });
  assert.equal(await host.inputValue("#name"), "Ann");

  // The options follow the game: Bid Euchre has deals, Kout Bo six seats.
  await host.selectOption("#game", "bid-euchre");
  assert.equal(await host.inputValue('#options [name="deals"]'), "8");
  await host.selectOption("#game", "kout");
  assert.equal(await host.locator("#seat-list select").count(), 6);
  await host.selectOption("#game", "kaibosh");
  assert.equal(await host.inputValue('#options [name="target"]'), "50");
  assert.equal(await host.locator("#seat-list select").count(), 4);

  await host.fill('#options [name="target"]', "12");
  await host.selectOption("#seat-1", "open");
  await host.selectOption("#seat-2", "bot:rules");
  await host.selectOption("#seat-3", "bot:rules");
  await host.click("#create");
  await host.waitForSelector("#created:not([hidden])");
  const invite = await host.inputValue('#invites input[aria-label="Seat 1 (team B) link"]');
  assert.match(invite, /\/table\/[0-9a-f]+#token=[0-9a-f]{32}$/);
  assert.equal(await host.locator("#invites button", { hasText: "Copy" }).count(), 2);
  await host.click('#invites button[aria-label="Copy the Seat 1 (team B) link"]');
  await host.waitForSelector('#invites button:has-text("Copied")');
  // The new table is listed, with a way back to this browser's seat.
  await host.waitForSelector('.table-row:has-text("Kaibosh") >> text=Back to my seat');
  await shot(host, "lobby-1280");

  await host.click("#open-seat");
  await host.waitForSelector('body[data-status="open"]');
  await host.waitForSelector('#turn-line:has-text("Waiting for 1 more player")');
  assert.equal(await host.inputValue('#host input[aria-label="Seat 1 link"]'), invite);

  const friend = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await friend.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await friend.goto(invite);
  // A name with markup in it is shown as text, like chat.
  await friend.fill("#name-input", "<i>Bo</i>");
  await friend.press("#name-input", "Enter");
  await host.waitForSelector('body[data-status="playing"]');
  await host.waitForSelector('.seat[data-seat="1"] .who:has-text("<i>Bo</i>")');
  assert.equal(await host.locator(".seat i, .scores i, #log i").count(), 0);
  await friend.waitForSelector('.seat[data-seat="0"] .who:has-text("Ann")');

  // Chat, including markup that must stay text.
  const dialogs = [];
  for (const page of [host, friend]) page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
  const evil = "<img src=x onerror=alert(1)>";
  // On the phone the chat opens over the table from the bar's button.
  await friend.click("#chat-toggle");
  await friend.fill("#chat-input", evil);
  await friend.press("#chat-input", "Enter");
  await host.fill("#chat-input", "good luck!");
  await host.click('#chat-form button[type="submit"]');
  for (const page of [host, friend]) {
    await page.waitForSelector('#log .chat-line:has-text("good luck!")');
    const line = page.locator("#log .chat-line", { hasText: "onerror" });
    assert.equal(await line.locator("span").textContent(), evil);
    assert.equal(await line.locator("b").textContent(), "<i>Bo</i>: ");
    assert.equal(await page.locator("#log img").count(), 0);
  }
  await friend.click("#chat-close");

  let reloaded = false;
  const friendPlay = playSeat(friend, {
    timeout: 90_000,
    onStep: async (done) => {
      if (reloaded || done.plays !== 2) return;
      // Mid-hand: the same seat and the same cards after a reload.
      reloaded = true;
      await shot(friend, "table-360");
      assert.ok(await noHorizontalOverflow(friend), "the table fits 360 px");
      // The card just played has left the hand; nothing else changes it until this seat acts.
      await friend.waitForFunction(() => document.body.dataset.busy === "false");
      const before = await friend.locator(".hand .card").evaluateAll((cs) => cs.map((c) => c.dataset.card));
      await friend.reload();
      await friend.waitForSelector('.seat.me[data-seat="1"]');
      await friend.waitForFunction(() => document.body.dataset.busy === "false" && document.body.dataset.phase === "play");
      const after = await friend.locator(".hand .card").evaluateAll((cs) => cs.map((c) => c.dataset.card));
      assert.equal(before.length, 4);
      assert.deepEqual(after, before);
    },
  });
  const hostPlay = playSeat(host, {
    timeout: 90_000,
    onStep: async (done) => { if (done.plays === 3) await shot(host, "table-1280"); },
  });
  const [a, b] = await Promise.all([hostPlay, friendPlay]);
  assert.ok(reloaded, "the friend reloaded mid-game");
  assert.ok(a.plays > 6 && b.plays > 6, "both played whole hands");

  for (const page of [host, friend]) {
    const summary = page.locator(".summary.final");
    await summary.waitFor();
    assert.match(await summary.textContent(), /Game over: you (win|lose)|a draw/);
    const scores = await page.locator(".scores .score").allTextContents();
    assert.ok(scores.some((s) => Number(s) >= 12), `someone reached 12: ${scores}`);
  }
  await shot(host, "game-over-1280");
  await shot(friend, "game-over-360");
  assert.deepEqual(dialogs, []);
  assert.deepEqual(host.errors, []);
  assert.deepEqual(friend.errors, []);
});
