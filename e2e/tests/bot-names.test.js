// A bot is named in one form on every page: its name ("Bot 2", or its own marked as a
// bot's) and, where its level matters, the level after it: "Bot 2 (medium)". The lobby's
// list of tables and the welcome at a seat said "a bot (medium)", the table "Bot 1 (bot)".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, createTable, newPage } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("the lobby's tables and a seat's welcome name bots as the table does, with their levels", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:easy", "bot:medium", "bot:hard"] });
  const lobby = await newPage(browser, { width: 1280, height: 900 });
  await lobby.goto(`${server.url}/`);
  const row = lobby.locator("#tables .table-row", { hasText: "Kaibosh" });
  await row.waitFor({ timeout: 15_000 });
  const text = await row.textContent();
  for (const bot of ["Bot 1 (easy)", "Bot 2 (medium)", "Bot 3 (hard)"]) assert.ok(text.includes(bot), `${bot} in the lobby's row: ${text}`);
  assert.ok(!/a bot/.test(text), `the lobby's row: ${text}`);
  // The seat's welcome names the partner the same way.
  const seat = await newPage(browser, { width: 1280, height: 900 });
  await seat.goto(created.invites.find((i) => i.seat === 0).url);
  await seat.waitForSelector("#name-dialog[open]");
  const welcome = await seat.locator("#name-what").textContent();
  assert.ok(welcome.includes("Bot 2 (medium)"), welcome);
  assert.ok(!/a bot/.test(welcome), welcome);
  // At the table, in the same words: the seat's name, its level on its badge.
  await seat.fill("#name-input", "Ann");
  await seat.click("#name-form button[type=submit]");
  await seat.waitForSelector('.seat[data-seat="2"] .badge.bot');
  assert.match(await seat.locator('.seat[data-seat="2"] .name').textContent(), /^Bot 2$/);
  assert.match(await seat.locator('.seat[data-seat="2"] .badge.bot').textContent(), /medium/);
  assert.deepEqual([...lobby.errors, ...seat.errors], []);
});
