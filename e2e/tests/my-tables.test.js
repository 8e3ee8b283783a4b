// A seat bound to an account, in Chromium: Ann signs up and sits down at a Kaibosh table
// with three bots; a guest holding her seat's link is refused; in a second browser
// (another device) she signs in, finds the table under "My tables" in the lobby, opens
// it without the link and plays the game to its end; her page then counts the game,
// with its replay. Screenshots of the lobby and the player's page at 1280x800 and
// 390x844. A signed-in host's new table is in "My tables" as soon as its links show.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, playSeat, shot, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Signs in as Ann on this page's browser (signing up first if `create`). */
async function signIn(page, create) {
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  const form = create ? "sign-up" : "sign-in";
  await page.fill(`#${form}-name`, "Ann");
  await page.fill(`#${form}-password`, "correct horse");
  await page.locator(`#${form} button[type=submit]`).click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("#account .account-name");
}

test("a seat taken signed in: refused to the link, opened from My tables on another device, played on", { timeout: 180_000 }, async () => {
  const created = await createTable(server.url, {
    game: "kaibosh",
    options: { deals: 1 },
    seats: ["open", "bot:rules", "bot:rules", "bot:rules"],
  });
  const invite = created.invites[0].url;

  const laptop = await newPage(browser);
  await laptop.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await signIn(laptop, true);
  await laptop.evaluate(() => localStorage.setItem("calltrump.name", "typed name"));
  await laptop.goto(invite);
  await laptop.waitForSelector('body[data-status="playing"]');
  // The seat carries the account's name, not the one typed in this browser.
  await laptop.waitForSelector('.seat[data-seat="0"] .who:has-text("Ann")');

  // A guest with the seat's link is refused, and told why.
  const guest = await newPage(browser);
  await guest.addInitScript(() => localStorage.setItem("calltrump.name", "Mallory"));
  await guest.goto(invite);
  await guest.waitForSelector("text=sign in as that player");
  assert.equal(await guest.locator('.seat[data-seat="0"] .who:has-text("Mallory")').count(), 0);

  // Another device: Ann signs in; the lobby lists her seat.
  const phone = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await phone.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await signIn(phone, false);
  await phone.waitForSelector("#my-tables .table-row");
  assert.match(await phone.textContent("#my-tables .table-row"), /Kaibosh/);
  assert.ok(await noHorizontalOverflow(phone), "the lobby fits the phone");
  await shot(phone, "my-tables-lobby-390");
  await laptop.goto(`${server.url}/`);
  await laptop.waitForSelector("#my-tables .table-row");
  await shot(laptop, "my-tables-lobby-1280");

  await phone.locator("#my-tables a.button").click();
  await phone.waitForURL(new RegExp(`/table/${created.id}#seat=0$`));
  await phone.waitForSelector("body[data-version]:not([data-version=''])");
  await playSeat(phone);
  await phone.waitForSelector('body[data-phase="game-over"]');

  // Her page counts the game, with its replay and analysis.
  await phone.goto(`${server.url}/players/Ann`);
  await phone.waitForSelector("body[data-ready=true]");
  assert.equal(await phone.textContent("#player-name"), "Ann's games");
  assert.equal(await phone.locator("#tallies tbody tr").count(), 1);
  const cells = await phone.locator("#tallies tbody td").allTextContents();
  assert.equal(cells[0], "1", "one game played");
  assert.equal(Number(cells[1]) + Number(cells[2]) + Number(cells[3]), 1, "won, lost or drawn");
  assert.equal(await phone.getAttribute("#games a.button >> nth=0", "href"), `/replay/${created.id}`);
  assert.ok(await noHorizontalOverflow(phone), "the player's page fits the phone");
  await shot(phone, "player-390");
  await laptop.goto(`${server.url}/players/Ann`);
  await laptop.waitForSelector("body[data-ready=true]");
  await shot(laptop, "player-1280");
  for (const page of [laptop, phone]) assert.deepEqual(page.errors, []);
});

test("a friend seated by a link who signs in from the table comes back to the seat, bound", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, {
    game: "kaibosh",
    seats: ["open", "open", "bot:rules", "bot:rules"],
  });
  const invite = created.invites.find((i) => i.seat === 1).url;
  const page = await newPage(browser);
  await page.addInitScript(() => localStorage.setItem("calltrump.name", "Bob"));
  await page.goto(invite);
  await page.waitForSelector('.seat[data-seat="1"] .who:has-text("Bob")');
  await page.locator("#sign-in-link").click();
  await page.waitForURL(/\/sign-in\?next=/);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", "Bobby");
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  // Back at the seat's link, token and all, and the seat is now the account's.
  await page.waitForURL(invite);
  await page.waitForSelector('.seat[data-seat="1"] .who:has-text("Bobby")');
});

test("a signed-in host's new table is in My tables as soon as its links show, with the seat that is theirs", { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", "Lea");
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#my-tables-panel:not([hidden])");
  assert.equal(await page.locator("#my-tables-empty").isVisible(), true, "no table yet");
  // Seat 0 is "me" (the form's default), the others bots: the server binds seat 0 to Lea
  // at creation, and the lobby says so with the links, not at its next refresh.
  assert.equal(await page.inputValue("#seat-0"), "me");
  await page.click("#create");
  await page.waitForSelector("#created:not([hidden])");
  assert.equal(await page.locator("#my-tables-empty").isHidden(), true, "My tables does not say there is no seat");
  const rows = await page.locator("#my-tables .table-row").allTextContents();
  assert.equal(rows.length, 1);
  assert.match(rows[0], /seat 0 · waiting for players/);
  assert.match(rows[0], /Back to my seat/);
  // No friend's seat: no form to invite someone to one (it showed, empty, over the links).
  assert.equal(await page.locator("#invite-form").isHidden(), true, "no invitation form without a friend's seat");
  // The Tables list agrees: the seat is this player's.
  await page.locator("#tables .table-row", { hasText: "your seat" }).waitFor();
  await shot(page, "my-tables-new-table-1280");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
