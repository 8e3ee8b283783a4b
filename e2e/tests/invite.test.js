// Who is online and an invitation by name, in Chromium: Ann and Bob sign up in two
// browsers; each lobby lists the other under "Online now"; Ann makes a table from the
// lobby's form with a friend's seat and invites Bob to it by name; Bob's lobby shows the
// invitation without a reload (at its top, in My tables and in the Tables row, which
// says the seat is kept for him), and its button sits him at that seat, bound to his
// account (a guest with the seat's link is refused). Bob leaving takes him off Ann's
// list. Screenshots of both lobbies at 1280x800 and 390x844. And a friend's lobby stops
// offering "Back to my seat" once the host gave that seat to a bot.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot, noHorizontalOverflow, createTable, openSeat } from "../lib.js";

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

test("a signed-in host sees who is online and invites a player by name to a seat", { timeout: 120_000 }, async () => {
  const ann = await newPage(browser);
  const bob = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await signUp(ann, "Ann");
  await signUp(bob, "Bob");

  // Each lobby lists the other (and not itself).
  await ann.waitForSelector('#online a:text("Bob")');
  await bob.waitForSelector('#online a:text("Ann")');
  assert.equal(await ann.locator("#online li").count(), 1);
  assert.equal(await ann.getAttribute('#online a:text("Bob")', "href"), "/players/Bob");

  // Ann's table: her seat, a friend's, two bots; she invites Bob to seat 1.
  await ann.selectOption("#seat-1", "open");
  await ann.locator("#create").click();
  await ann.waitForSelector("#created:not([hidden])");
  await ann.waitForSelector("#invite-form:not([hidden])");
  assert.deepEqual(await ann.locator("#invite-seat option").evaluateAll((o) => o.map((x) => x.value)), ["1"]);
  // A name nobody has is refused, saying so.
  await ann.fill("#invite-name", "Nobody");
  await ann.locator("#invite-send").click();
  await ann.waitForSelector('#invite-result.error:has-text("no account is called")');
  await ann.fill("#invite-name", "Bob");
  await ann.locator("#invite-send").click();
  await ann.waitForSelector('#invite-result:has-text("Bob is invited to seat 1")');
  const invite = await ann.locator("#invites input.link").first().inputValue();
  assert.ok(await noHorizontalOverflow(ann), "Ann's lobby fits 1280");
  await shot(ann, "invite-host-1280");

  // Bob's lobby shows it without a reload, with the seat's button.
  await bob.waitForSelector('#my-tables .invitation:has-text("Ann invites you to seat 1")');
  assert.match(await bob.getAttribute("#my-tables .invitation a.button", "href"), /#seat=1$/);
  // Said at the top of his lobby too, with "Sit down"; the Tables row says whom the seat
  // is kept for (not "open seat") and offers him the same button.
  await bob.waitForSelector('#invitations-panel:not([hidden]) .invitation:has-text("Ann keeps seat 1 for you")');
  assert.match(await bob.getAttribute("#invitations .invitation a.sit-down", "href"), /#seat=1$/);
  const row = bob.locator("#tables .table-row", { hasText: "kept for Bob" });
  await row.waitFor();
  assert.doesNotMatch(await row.textContent(), /open seat/);
  assert.equal(await row.locator("a.sit-down").textContent(), "Sit down");
  await ann.waitForSelector('#tables .table-row:has-text("kept for Bob")');
  // The server names Bob at his seat in Ann's "My tables" while it is kept for him: her
  // invitation's line stands.
  const annTables = await ann.evaluate(() => fetch("/api/me/tables").then((r) => r.json()));
  assert.equal(annTables.tables[0].players[1].name, "Bob", JSON.stringify(annTables));
  assert.match(await ann.locator("#invite-result").textContent(), /^Bob is invited to seat 1/);
  assert.equal(await ann.locator("#invitations-panel").isHidden(), true, "Ann is invited nowhere");
  assert.ok(await noHorizontalOverflow(bob), "Bob's lobby fits the phone");
  await shot(bob, "invite-invited-390");

  // The seat's link seats no guest now: it is Bob's.
  const guest = await newPage(browser);
  await guest.goto(invite);
  await guest.waitForSelector("text=sign in as that player");

  await bob.locator("#my-tables .invitation a.button").click();
  await bob.waitForSelector('.seat[data-seat="1"] .who:has-text("Bob")');
  // Ann, the host, has not sat down yet: her seat is kept for her, not an open seat.
  const annSeat = bob.locator('.seat[data-seat="0"]');
  await annSeat.locator(".badge.kept").waitFor();
  assert.doesNotMatch(await annSeat.textContent(), /open seat/);
  assert.match(await annSeat.textContent(), /not seated yet/);
  assert.equal(await annSeat.locator(".badge.kept").getAttribute("title"), "Kept for Ann, who has not sat down yet");
  // Seated at a table still waiting for players, Bob may leave it from the table's page,
  // asked first; then he is back at the lobby, and the table is his no more.
  const tableId = new URL(bob.url()).pathname.split("/").pop();
  await bob.locator("#info button.leave-seat").click();
  assert.match(await bob.locator("#info .leave-question").textContent(), /^Leave seat 1\? The host is told/);
  await bob.locator("#info button.leave-no").click();
  assert.equal(await bob.locator("#info .leave-question").count(), 0, "Cancel keeps the seat");
  await bob.locator("#info button.leave-seat").click();
  await bob.locator("#info button.leave-yes").click();
  await bob.waitForURL(`${server.url}/`);
  const mine = await bob.evaluate(() => fetch("/api/me/tables").then((r) => r.text()));
  assert.doesNotMatch(mine, new RegExp(tableId), `Bob's tables: ${mine}`);
  // Ann's lobby hears of it: her invitation's line no longer says Bob is invited.
  await ann.waitForSelector('#invite-result:has-text("Bob is no longer invited to seat 1")', { timeout: 15_000 });

  // Bob gone: Ann's lobby no longer lists him.
  await bob.context().close();
  await guest.context().close();
  await ann.goto(`${server.url}/`);
  await ann.waitForSelector("#online-panel:not([hidden])");
  await ann.waitForSelector("#online-empty:not([hidden])");
  assert.equal(await ann.locator("#online li").count(), 0);
  // (The refused invitation's 404 is logged by the browser; no script failed.)
  assert.deepEqual(ann.errors.filter((e) => e.startsWith("page error")), []);
});

test("the lobby offers no way back to a seat the host took back", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { name: "Ann", host: true });
  const friend = await openSeat(browser, created, 1, { name: "Bo" });
  await friend.waitForSelector("#hand .card", { timeout: 20_000 });
  const lobby = await friend.context().newPage();
  await lobby.goto(`${server.url}/`);
  await lobby.waitForSelector("body[data-ready=true]");
  const row = lobby.locator("#tables .table-row", { hasText: "Bo" });
  await row.locator('a.button:text("Back to my seat")').waitFor();

  await host.selectOption("#host-seat-1", "bot:easy");
  await host.click(".seat-confirm button.danger");
  await friend.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
  // The lobby's next look at its tables (every 5 s) drops the button.
  await lobby.locator('#tables .table-row:has(a.button:text("Back to my seat"))').waitFor({ state: "detached", timeout: 15_000 });
  await host.context().close();
  await friend.context().close();
});
