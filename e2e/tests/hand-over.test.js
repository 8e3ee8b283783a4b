// Issue 29's tryout: a friend's page once the host hands their seat on during a hand
// says the page is closed and no longer shows the seat's hand, now someone else's; a
// player back after a bot stood in for them is told what was played meanwhile.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ cutWaitMs: 500, graceSecs: 1 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a friend whose seat the host hands to a bot mid-hand no longer sees the hand", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const friend = await openSeat(browser, created, 0, { name: "Bo", width: 390, height: 844, isMobile: true, hasTouch: true });
  await friend.waitForSelector("#hand .card", { timeout: 20_000 });
  const host = await newPage(browser, { width: 1280, height: 800 });
  await host.goto(`${server.url}/table/${created.id}#host=${created.host_token}`);
  await host.waitForSelector("#host-seat-0");
  await host.selectOption("#host-seat-0", "bot:easy");
  await host.click(".seat-confirm button.danger");
  await friend.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
  assert.match(await friend.locator("#turn-line").textContent(), /This page is closed/);
  assert.equal(await friend.locator("#hand").isHidden(), true, "the hand is hidden");
  assert.equal(await friend.locator("#hand .card").count(), 0);
  await shot(friend, "handed-on-390");
  assert.deepEqual([...host.errors, ...friend.errors.filter((e) => !/WebSocket/.test(e))], []);
  await host.context().close();
  await friend.context().close();
});

test("a player back at the seat is told how many hands a bot played for them and the scores", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0, { name: "Ann", width: 844, height: 390, isMobile: true, hasTouch: true });
  await page.waitForSelector("#hand .card", { timeout: 20_000 });
  // Ann leaves for the lobby; past her second of grace a bot plays her seat, two more
  // hands at least.
  await page.goto(`${server.url}/`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const record = await (await fetch(`${server.url}/api/tables/${created.id}/record`)).json();
    if (record.hands.length >= 3) break;
    assert.ok(Date.now() < deadline, "the bot standing in played no hands");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await page.goto(created.invites[0].url);
  const line = page.locator('#log li:has-text("While you were away, a bot played for you.")');
  await line.waitFor({ state: "attached", timeout: 10_000 });
  const text = await line.textContent();
  const played = Number(text.match(/Hands played: (\d+)/)[1]);
  assert.ok(played >= 2, text);
  // A hand lost can take a side below zero.
  assert.match(text, /Us 0 → -?\d+, Them 0 → -?\d+\.$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
