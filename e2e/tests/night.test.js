// The alexa Bid Euchre night in the browser: started from the lobby with one person and
// three bots, the person's own link leads to their seat, they play the set through the
// table page, and the night's page shows the score sheets and the winner. A signed-in
// host comes first on the night form, as their account, with "Rated night" (a guest's
// form has neither).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot, playSeat, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a night started from the lobby leads Ann to her seat and keeps the score sheets", { timeout: 240_000 }, async () => {
  const host = await newPage(browser, { width: 1280, height: 900 });
  await host.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    localStorage.setItem("calltrump.speed", "fast");
  });
  await host.goto(`${server.url}/`);
  await host.click("#start-night");
  await host.waitForSelector("#player-list li");
  // Three bots and Ann; the form starts with four bots, then the one who starts it.
  const rows = host.locator("#player-list li");
  await rows.nth(0).locator("button").click();
  assert.equal(await rows.count(), 4);
  assert.equal(await rows.nth(3).locator(".player-name").inputValue(), "Ann");
  for (const i of [0, 1, 2]) await rows.nth(i).locator(".player-sitter").selectOption("bot:random");
  await host.fill("#sets", "1");
  assert.equal(await host.locator("#rated-box").isHidden(), true, "no rated night for a guest");
  await host.click("#create-night");
  await host.waitForSelector("#night-created:not([hidden])");
  const links = await host.locator("#player-links input").evaluateAll((inputs) => inputs.map((i) => i.value));
  assert.equal(links.length, 1, "a link for each person only");
  assert.match(links[0], /\/night\/[0-9a-f]{16}#player=[0-9a-f]{32}$/);

  // Ann follows the night from where she started it: the page says where she plays, and
  // leads there; at her seat the others go by the night's names.
  assert.equal(await host.locator("#follow-night").textContent(), "Follow the night as Ann");
  assert.equal(await host.locator("#follow-night").getAttribute("href"), links[0]);
  const ann = await newPage(browser, { width: 1280, height: 900 });
  await ann.addInitScript(() => { localStorage.setItem("calltrump.speed", "fast"); });
  await ann.goto(links[0]);
  await ann.waitForSelector("#you a");
  assert.match(await ann.locator("#night-status").textContent(), /^Set 1 of 1\.$/);
  assert.match(await ann.locator("#you").textContent(), /^Ann: you play this set with Bot \d\./);
  assert.equal(await ann.locator("#sheet tbody tr").count(), 4);
  await shot(ann, "night-start-1280");
  await ann.click("#you a");
  await ann.waitForSelector("body[data-version]:not([data-version=''])");
  assert.equal(await ann.locator("#name-dialog[open]").count(), 0, "a night's seat is named already");
  await ann.waitForSelector('.seat:has-text("Bot 2")');
  const seatText = await ann.locator("#table").textContent();
  // The bots by their names, which say they are bots: not "Bot 2 (bot)".
  for (const name of ["Bot 2", "Bot 3", "Bot 4"]) assert.ok(seatText.includes(name), `${name} at the table`);
  assert.ok(!seatText.includes("(bot)"), `a bot marked twice: ${seatText}`);
  const played = await playSeat(ann, { timeout: 90_000 });
  assert.ok(played.plays > 0, "Ann played cards");

  // Back to the night from the set's end (its page leads on to the next set): the set is
  // recorded and the night is over.
  const night = new URL(links[0]).pathname;
  assert.equal(await ann.getAttribute(".summary.final #back-to-night", "href"), night);
  await ann.click(".summary.final #back-to-night");
  await ann.waitForURL((url) => url.pathname === night);
  await ann.waitForFunction(() => /^The night is over/.test(document.querySelector("#night-status")?.textContent ?? ""), null, { timeout: 30_000 });
  const status = await ann.locator("#night-status").textContent();
  assert.match(status, /^The night is over after 1 set\. (\w+ wins|Shared win: .+)\.$/);
  const totals = await ann.locator("#sheet tbody tr td.score").allTextContents();
  assert.equal(totals.length, 4);
  for (const total of totals) assert.match(total, /^-?\d+$/);
  assert.ok(await ann.locator("#sheet tbody tr.winner th").first().textContent().then((t) => t.startsWith("★ ")),
    "the winner is marked with a star, not by colour alone");
  assert.equal(await ann.locator("#you").isHidden(), true, "nowhere to go after the night");
  await shot(ann, "night-over-1280");
  await ann.setViewportSize({ width: 360, height: 740 });
  assert.ok(await noHorizontalOverflow(ann), "the night's page fits a phone");
  await shot(ann, "night-over-360");
  assert.deepEqual([...host.errors, ...ann.errors], []);
});

test("the lobby lists the nights being played; a finished set leads on to the next one", { timeout: 90_000 }, async () => {
  const post = async (body) => {
    const response = await fetch(`${server.url}/api/nights`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal(response.status, 201);
    return response.json();
  };
  // A night waiting for Ann: the lobby lists it, to follow and to watch.
  const waiting = await post({ sets: 2, players: [{ name: "Ann" }, { name: "Bob", sitter: "bot:random" }, { name: "Cy", sitter: "bot:random" }, { name: "Di", sitter: "bot:random" }] });
  const lobby = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await lobby.goto(`${server.url}/`);
  const row = lobby.locator(`#nights li:has(a[href="/night/${waiting.id}"])`);
  await row.waitFor();
  assert.match(await row.textContent(), /Night · set 1 of 2\u00a0· Ann, Bob \(bot\), Cy \(bot\), Di \(bot\)/);
  const view = await (await fetch(`${server.url}/api/nights/${waiting.id}`)).json();
  assert.equal(await row.locator('a:text("Watch the set")').getAttribute("href"), `/table/${view.tables[0]}#night=${waiting.id}`);
  assert.ok(await noHorizontalOverflow(lobby), "the lobby with its nights fits a phone");
  await shot(lobby, "lobby-nights-360");

  // A night of bots asked to play unattended plays its sets at once: its first set's page leads to the second.
  const bots = await post({ sets: 2, unattended: true, players: ["Eve", "Fay", "Gus", "Hal"].map((name) => ({ name, sitter: "bot:random" })) });
  let tables = [];
  for (let i = 0; i < 100 && tables.length < 2; i += 1) {
    tables = (await (await fetch(`${server.url}/api/nights/${bots.id}`)).json()).tables;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.equal(tables.length, 2, "the second set was opened");
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}/table/${tables[0]}#night=${bots.id}`);
  await page.waitForSelector("#next-set");
  assert.equal(await page.getAttribute("#next-set", "href"), `/table/${tables[1]}#night=${bots.id}`);
  assert.equal(await page.textContent("#next-set"), "Watch the next set");
  assert.equal(await page.getAttribute("#back-to-night", "href"), `/night/${bots.id}`);
  await shot(page, "night-set-over-next-390");
  assert.deepEqual([...lobby.errors, ...page.errors], []);
});

test("a night's player who went to the lobby goes back in: to their seat, or to the night", { timeout: 90_000 }, async () => {
  const response = await fetch(`${server.url}/api/nights`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sets: 2, players: [{ name: "Bea", sitter: "person" }, ...["Cy", "Di", "Ed"].map((name) => ({ name, sitter: "bot:random" }))] }),
  });
  assert.equal(response.status, 201);
  const created = await response.json();
  const nightId = new URL(created.players[0].url).pathname.split("/")[2];
  const bea = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  // Bea opens her link once (the night's page keeps her token), then leaves for the lobby.
  await bea.goto(created.players[0].url);
  await bea.waitForSelector("#you a");
  await bea.goto(`${server.url}/`);
  const back = bea.locator(`#nights a.back-to-night-seat`);
  await back.waitFor({ timeout: 15_000 });
  assert.equal(await back.textContent(), "Back to my seat");
  assert.equal(await bea.locator(`#nights a[href="/night/${nightId}"]`).textContent(), "Back to my night");
  await shot(bea, "lobby-night-reentry-390");
  await back.click();
  await bea.waitForSelector("body[data-version]:not([data-version=''])");
  assert.equal(await bea.locator("#name-dialog[open]").count(), 0, "seated at once, by the night's name");
  await bea.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000 });
  assert.match(new URL(bea.url()).hash, new RegExp(`night=${nightId}`));
  // Someone else's browser only follows the night.
  const other = await newPage(browser);
  await other.goto(`${server.url}/`);
  await other.locator(`#nights a[href="/night/${nightId}"]`).waitFor({ timeout: 15_000 });
  assert.equal(await other.locator(`#nights a[href="/night/${nightId}"]`).textContent(), "Follow the night");
  assert.equal(await other.locator("#nights a.back-to-night-seat").count(), 0);
  assert.deepEqual([...bea.errors, ...other.errors], []);
  await bea.context().close();
  await other.context().close();
});

test("a signed-in host is the night's first player, as their account; a rated night asks for accounts", { timeout: 120_000 }, async () => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", "Rita");
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  // A name typed in this browser before is not the account's: the night goes by the account.
  await page.evaluate(() => localStorage.setItem("calltrump.name", "typed name"));
  await page.goto(`${server.url}/night`);
  await page.waitForSelector("#rated-box:not([hidden])");
  assert.match(await page.locator("#rated-box").textContent(), /^\s*Rated night \(each person plays as their account; bots easy to expert\)/);
  // Rita first, shown as herself (no box to retype her name in), then three bots: a
  // table of four, so that she does not sit the first set out.
  const rows = page.locator("#player-list li");
  assert.equal(await rows.count(), 4);
  assert.equal(await rows.nth(0).locator(".own-name").textContent(), "Rita");
  assert.equal(await rows.nth(0).locator("input, select").count(), 0, "her own name is not free text, nor her seat a bot");
  assert.match(await rows.nth(0).textContent(), /^Rita\s*you, as your account/);
  for (const i of [1, 2, 3]) {
    assert.equal(await rows.nth(i).locator(".player-name").inputValue(), `Bot ${i}`);
    assert.equal(await rows.nth(i).locator(".player-sitter").inputValue(), "bot:hard");
  }
  // Before "Rated" is ticked, the rule is said where the players are named.
  assert.equal(await page.isChecked("#rated"), false);
  assert.ok(await page.locator("#rated-rule").isVisible(), "the rated night's rule before the tick");
  assert.equal(await page.locator("#rated-rule").textContent(), "For a rated night, name each person by their account's name: a person without an account cannot play one.");
  // A name typed over a bot's makes the row a person's (not a hard bot named Omar).
  await rows.nth(1).locator(".player-name").fill("Omar");
  assert.equal(await rows.nth(1).locator(".player-sitter").inputValue(), "person");
  // Turned to a bot after, it keeps the name typed in it.
  await rows.nth(1).locator(".player-sitter").selectOption("bot:hard");
  assert.equal(await rows.nth(1).locator(".player-name").inputValue(), "Omar");
  // A row turned to a person loses its bot's name; turned back to a bot with no name
  // typed, it takes a bot's name again.
  await rows.nth(2).locator(".player-sitter").selectOption("person");
  assert.equal(await rows.nth(2).locator(".player-name").inputValue(), "");
  await rows.nth(2).locator(".player-sitter").selectOption("bot:hard");
  assert.match(await rows.nth(2).locator(".player-name").inputValue(), /^Bot \d$/);
  await page.fill("#sets", "1");
  // Rated, a person is named by their account: the form says so where the name is typed.
  await page.check("#rated");
  await page.click("#add-player");
  const added = rows.nth(4).locator(".player-name");
  assert.equal(await added.getAttribute("placeholder"), "Account's name");
  assert.equal(await added.getAttribute("aria-label"), "Account's name");
  assert.equal(await rows.nth(4).locator(".player-sitter option[value=person]").textContent(), "a person (their account)");
  // Its bots are of the levels with a rating, easy to expert.
  const levels = await rows.nth(1).locator(".player-sitter option[value^='bot:']").evaluateAll((options) => options.map((o) => [o.value, o.disabled]));
  assert.deepEqual(levels, [["bot:easy", false], ["bot:medium", false], ["bot:hard", false], ["bot:expert", false], ["bot:rules", true], ["bot:random", true]]);
  await shot(page, "night-form-signed-in-1280");
  // A person who has no account is refused, saying why: the night is rated.
  await added.fill("Nobody");
  await page.click("#create-night");
  await page.waitForSelector('#night-error:has-text("at a rated night each person plays as their account")');
  await rows.nth(4).locator("button").click();
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/nights") && r.method() === "POST");
  await page.click("#create-night");
  const asked = JSON.parse((await sent).postData());
  assert.equal(asked.rated, true);
  assert.deepEqual(asked.players[0], { name: "Rita", sitter: "person" });
  assert.deepEqual(asked.players.slice(1).map((p) => p.sitter), ["bot:hard", "bot:hard", "bot:hard"]);
  await page.waitForSelector("#night-created:not([hidden])");
  assert.match(await page.locator("#player-links input").first().inputValue(), /\/night\/[0-9a-f]{16}#player=/);
  // She follows the night as herself, and plays the first set.
  assert.equal(await page.locator("#follow-night").textContent(), "Follow the night as Rita");
  await page.click("#follow-night");
  await page.waitForSelector("#you a");
  assert.match(await page.locator("#you").textContent(), /^Rita: you play this set with Bot \d\./);
  assert.deepEqual(page.errors.filter((e) => e.startsWith("page error")), []);
  await page.context().close();
});

test("an Arabic phone's night form: the signed-in host's own row first, whole", { timeout: 60_000 }, async () => {
  const page = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}/sign-in?lang=ar`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", "سلمى");
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.goto(`${server.url}/night?lang=ar`);
  await page.waitForSelector("#rated-box:not([hidden])");
  const own = page.locator("#player-list li").first();
  assert.equal(await own.locator(".own-name").textContent(), "سلمى");
  assert.match(await own.textContent(), /أنت، بحسابك/);
  // The default bots are named in Arabic, as the tables' are.
  for (const i of [1, 2, 3]) assert.equal(await page.locator("#player-list li").nth(i).locator(".player-name").inputValue(), `بوت ${i}`);
  assert.ok(await noHorizontalOverflow(page), "the night's form fits the phone");
  await shot(page, "night-form-signed-in-ar-360");
  assert.deepEqual(page.errors.filter((e) => e.startsWith("page error")), []);
  await page.context().close();
});
