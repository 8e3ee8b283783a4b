// Live table life: a friend who leaves is shown away with the grace countdown, then a bot
// plays for them, and they get the seat back on return; when the server restarts, the
// pages reconnect by themselves and carry on from where they were.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ graceSecs: 3 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("away, a bot stands in, the seat comes back; a server restart is survived", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  let friend = await openSeat(browser, created, 1, { name: "Bo", width: 360, height: 740 });
  await host.waitForSelector('body[data-status="playing"]');
  const bo = '.seat[data-seat="1"]';
  await host.waitForSelector(`${bo} .badge.online`);

  await friend.close();
  const countdown = await host.locator(`${bo} .badge.away`).first().textContent({ timeout: 5000 });
  assert.match(countdown, /^away · bot in [0-3] s$/);
  await host.waitForSelector(`${bo} .badge.away:text("bot playing for them")`, { timeout: 10_000 });

  friend = await openSeat(browser, created, 1, { name: "Bo", width: 360, height: 740 });
  await host.waitForSelector(`${bo} .badge.online`);
  await friend.waitForSelector('.seat.me[data-seat="1"]');

  // The server goes away and comes back on the same address and data.
  const version = Number(await host.evaluate(() => document.body.dataset.version));
  const addr = new URL(server.url).host;
  await server.stop({ keepData: true });
  await host.waitForSelector('#conn[data-kind="connecting"]');
  // Long enough for the pages to find nobody there, and try again.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  server = await startServer({ addr, data: server.data, graceSecs: 3 });
  for (const page of [host, friend]) await page.waitForSelector('#conn[data-kind="ok"]', { timeout: 15_000 });
  assert.ok(Number(await host.evaluate(() => document.body.dataset.version)) >= version);

  // Both carry on to the end of a hand.
  const [a, b] = await Promise.all([playSeat(host, { until: "hand" }), playSeat(friend, { until: "hand" })]);
  assert.ok(a.plays + b.plays > 0);
  // While the server was away the browser logged the refused connections; nothing else.
  const unexpected = (page) => page.errors.filter((e) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(e));
  assert.deepEqual(unexpected(host), []);
  assert.deepEqual(unexpected(friend), []);
});

test("the host starts a table before everyone came: bots take the empty seats", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kout", variant: "kout6", seats: ["open", "open", "open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  await host.waitForSelector('#turn-line:has-text("Waiting for 2 more players")');
  assert.equal(await host.locator(".seat .badge.open").count(), 2);
  await host.click('#host button:has-text("Start now")');
  await host.waitForSelector('body[data-status="playing"]');
  await host.waitForSelector('.seat[data-seat="1"] .badge.bot:text("bot · medium")');
  assert.equal(await host.locator(".seat .badge.open").count(), 0);
  // A seat link the host gave to a bot is told so, and may watch instead.
  const late = await newPage(browser);
  await late.addInitScript(() => localStorage.setItem("calltrump.name", "Cy"));
  await late.goto(created.invites.find((i) => i.seat === 2).url);
  await late.waitForSelector('#turn-line:has-text("seat taken by a bot")');
  assert.equal(await late.getAttribute('#turn-line a:text("Watch instead")', "href"), `/table/${created.id}`);
  assert.match(await late.textContent("#toast"), /played by a bot now/);
  assert.deepEqual(host.errors, []);
});

test("a link to a table that does not exist says so and stops trying", { timeout: 30_000 }, async () => {
  const page = await newPage(browser, { width: 360, height: 740 });
  await page.goto(`${server.url}/table/0000000000000000`);
  await page.waitForSelector('#turn-line:has-text("There is no table at this link")');
  assert.equal(await page.getAttribute("#conn", "data-kind"), "closed");
  assert.equal(await page.getAttribute('#turn-line a', "href"), "/");
});
