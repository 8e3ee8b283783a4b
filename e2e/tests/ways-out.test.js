// Ways out of a table, in Chromium: Bob declines Ann's invitation from his lobby (the
// invitation goes, and Ann's table page tells her); Ann closes her table, not started,
// from "My tables" (the row goes, and her table page says the table is closed). A
// player's page offers "Sit down" for an invitation, as the lobby does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Signs `name` up on `page`'s browser: back at the lobby, ready. */
async function signUp(page, name) {
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", name);
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("body[data-ready=true]");
}

/** Ann's lobby makes a table with her seat and a friend's, and invites `name` to seat 1. */
async function tableInviting(ann, name) {
  await ann.goto(`${server.url}/`);
  await ann.waitForSelector("body[data-ready=true]");
  await ann.selectOption("#seat-1", "open");
  await ann.locator("#create").click();
  await ann.waitForSelector("#invite-form:not([hidden])");
  await ann.fill("#invite-name", name);
  await ann.locator("#invite-send").click();
  await ann.waitForSelector(`#invite-result:has-text("${name} is invited to seat 1")`);
}

test("an invitation is declined, a table closed, and a player's page says Sit down", { timeout: 120_000 }, async () => {
  const ann = await newPage(browser);
  const bob = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await signUp(ann, "Ann");
  await signUp(bob, "Bob");
  await tableInviting(ann, "Bob");

  // Ann at her table as its host, from "My tables".
  const mine = ann.locator("#my-tables .table-row").first();
  await mine.locator("button.close-table").waitFor();
  const hostLink = await mine.locator("a.button").getAttribute("href");
  assert.match(hostLink, /&host=/);
  const table = await ann.context().newPage();
  table.errors = [];
  table.on("pageerror", (e) => table.errors.push(`page error: ${e.message}`));
  await table.goto(`${server.url}${hostLink}`);
  await table.waitForSelector('.seat[data-seat="1"] .who:has-text("Bob")');

  // Bob declines from his lobby: the invitation goes; Ann's table tells her.
  const invitation = bob.locator("#invitations .invitation");
  await invitation.locator("button.leave-seat").click();
  await bob.waitForSelector("#invitations-panel", { state: "hidden" });
  await bob.waitForSelector("#my-tables-empty:not([hidden])");
  await table.waitForSelector("text=Bob declined your invitation to seat 1");
  await table.waitForSelector('.seat[data-seat="1"] .who:not(:has-text("Bob"))');

  // Ann closes her table from "My tables": the row goes, the table page says so.
  await ann.bringToFront();
  await mine.locator("button.close-table").click();
  await ann.waitForSelector("#my-tables-empty:not([hidden])");
  await table.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });

  // Invited again: Bob's own page offers "Sit down", as his lobby does.
  await tableInviting(ann, "Bob");
  await bob.goto(`${server.url}/players/Bob`);
  await bob.waitForSelector("body[data-ready=true]");
  const row = bob.locator("#unfinished .table-row").first();
  assert.equal(await row.locator("a.button").textContent(), "Sit down");
  assert.equal(await row.locator("button.leave-seat").count(), 0, "the player's page only links");
  assert.deepEqual([...ann.errors, ...bob.errors, ...table.errors].filter((e) => e.startsWith("page error")), []);
  await ann.context().close();
  await bob.context().close();
});
