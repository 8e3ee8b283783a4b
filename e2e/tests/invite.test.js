// Who is online and an invitation by name, in Chromium: Ann and Bob sign up in two
// browsers; each lobby lists the other under "Online now"; Ann makes a table from the
// lobby's form with a friend's seat and invites Bob to it by name; Bob's lobby shows the
// invitation without a reload, and its button sits him at that seat, bound to his
// account (a guest with the seat's link is refused). Bob leaving takes him off Ann's
// list. Screenshots of both lobbies at 1280x800 and 390x844.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot, noHorizontalOverflow } from "../lib.js";

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
  assert.ok(await noHorizontalOverflow(bob), "Bob's lobby fits the phone");
  await shot(bob, "invite-invited-390");

  // The seat's link seats no guest now: it is Bob's.
  const guest = await newPage(browser);
  await guest.goto(invite);
  await guest.waitForSelector("text=sign in as that player");

  await bob.locator("#my-tables .invitation a.button").click();
  await bob.waitForSelector('.seat[data-seat="1"] .who:has-text("Bob")');

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
