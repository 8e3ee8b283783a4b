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

test("a night's named bot in one form: its name and its level, never \"Botty (bot)\" beside it", { timeout: 60_000 }, async () => {
  const response = await fetch(`${server.url}/api/nights`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sets: 1, players: [{ name: "Ann" }, { name: "Botty", sitter: "bot:easy" }, { name: "Robo", sitter: "bot:medium" }, { name: "Cy", sitter: "bot:easy" }] }),
  });
  assert.equal(response.status, 201);
  const night = await response.json();
  const table = (await (await fetch(`${server.url}/api/nights/${night.id}`)).json()).tables[0];
  // The public list of tables: "Botty (easy)", as "Bot 2 (medium)".
  const lobby = await newPage(browser, { width: 1280, height: 900 });
  await lobby.goto(`${server.url}/`);
  const row = lobby.locator("#tables .table-row", { hasText: "Botty" });
  await row.waitFor({ timeout: 15_000 });
  const text = await row.textContent();
  assert.ok(text.includes("Botty (easy)") && text.includes("Robo (medium)"), `the lobby's row: ${text}`);
  assert.ok(!text.includes("(bot)"), `the lobby's row: ${text}`);
  // At the table: the name, and its level on its badge.
  const watch = await newPage(browser, { width: 1280, height: 900 });
  await watch.goto(`${server.url}/table/${table}#night=${night.id}`);
  const seat = watch.locator(".seat", { hasText: "Botty" });
  await seat.locator(".badge.bot").waitFor();
  assert.equal((await seat.locator(".name").textContent()).trim(), "Botty");
  assert.match(await seat.locator(".badge.bot").textContent(), /^bot · easy$/);
  assert.deepEqual([...lobby.errors, ...watch.errors], []);
});
