// Issue 29's last findings, in Chromium: a long name in a seat's box is cut at its own
// end on a phone, in Arabic and English pages, Latin and Arabic names alike; a turn the
// clock ran out is said at once over the player's hand, with what the bot did; every
// seat and spectator is told when the table waits for a person to take a reopened seat;
// a night started from the lobby takes the lobby's turn clock; a night's default bots
// are named as bots.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ cutWaitMs: 500 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const PHONES = [{ width: 360, height: 740 }, { width: 390, height: 844 }];
const LATIN = "Alexandrina Montgomery-Fairweather";
const ARABIC = "عبدالرحمن بن عبدالعزيز آل سعود";

/**
 * For the text of `selector`, in logical order, each character, whether it is seen (its
 * glyph inside the box of every ancestor that clips) and the x of its glyph's middle.
 */
function seenGlyphs(page, selector) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const clips = [];
      for (let e = node.parentElement; e && e !== document.body; e = e.parentElement) {
        if (getComputedStyle(e).overflowX !== "visible") clips.push(e.getBoundingClientRect());
      }
      for (let i = 0; i < node.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        const middle = box.left + box.width / 2;
        out.push([node.data[i], box.width > 0 && clips.every((c) => middle > c.left && middle < c.right), middle]);
      }
    }
    return out;
  }, selector);
}

for (const size of PHONES) {
  for (const lang of ["ar", "en"]) {
    for (const [kind, name] of [["Latin", LATIN], ["Arabic", ARABIC]]) {
      test(`${lang} page at ${size.width}x${size.height}: a long ${kind} name in my seat's box keeps its start and loses its end`, { timeout: 60_000 }, async () => {
        const created = await createTable(server.url, { game: "kout", variant: "kout6", seats: ["open", "bot:rules", "bot:rules", "bot:rules", "bot:rules", "bot:rules"] });
        const page = await newPage(browser, { ...size, isMobile: true, hasTouch: true });
        await page.addInitScript(([n, l]) => {
          localStorage.setItem("calltrump.name", n);
          localStorage.setItem("calltrump.lang", l);
        }, [name, lang]);
        await page.goto(created.invites[0].url);
        await page.waitForSelector("body[data-version]:not([data-version=''])");
        const box = '.seat[data-seat="0"] .name';
        await page.waitForFunction(([s, n]) => document.querySelector(s)?.textContent.includes(n), [box, name]);
        const glyphs = await seenGlyphs(page, box);
        const text = glyphs.map(([c]) => c).join("");
        const you = lang === "ar" ? "أنت (" : "You (";
        assert.equal(text, `${you}${name})`);
        const start = you.length;
        const end = start + name.length;
        const seen = (from, to) => glyphs.slice(from, to).every(([, s]) => s);
        assert.ok(seen(0, start), `"${you}" whole: ${JSON.stringify(glyphs)}`);
        assert.ok(seen(end, end + 1), `")" seen: ${JSON.stringify(glyphs)}`);
        assert.ok(seen(start, start + 3), `the name's start seen: ${JSON.stringify(glyphs.slice(start, end))}`);
        assert.ok(!glyphs[end - 1][1], `the name too long for the box, its end cut: ${JSON.stringify(glyphs.slice(start, end))}`);
        // "You (", the name, ")" in the page's direction (right to left in Arabic).
        const x = (i) => glyphs[i][2] * (lang === "ar" ? -1 : 1);
        assert.ok(x(0) < x(start - 1) && x(start - 1) < x(start) && x(start) < x(end), `in order: ${JSON.stringify(glyphs)}`);
        await shot(page, `long-name-${lang}-${kind}-${size.width}x${size.height}`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }
}

// The tryout's path: an account whose name has a space signs up, turns the page Arabic
// and makes a table with bots from the lobby (four seats: a narrow box on a phone).
test("ar page at 360x740: a signed-in account's long name in its seat's box, from a table made in the lobby, shows whole: the own seat has the row's width", { timeout: 60_000 }, async () => {
  const name = "Maximilian Alexanderson";
  const page = await newPage(browser, { width: 360, height: 740 });
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", name);
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("body[data-ready=true]");
  await page.selectOption("header select", "ar");
  await page.waitForFunction(() => document.documentElement.dir === "rtl");
  await page.locator("#create").click();
  await page.waitForSelector("#created:not([hidden])");
  await page.locator("#open-seat").click();
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  const box = '.seat[data-seat="0"] .name';
  await page.waitForFunction(([s, n]) => document.querySelector(s)?.textContent.includes(n), [box, name]);
  const glyphs = await seenGlyphs(page, box);
  const text = glyphs.map(([c]) => c).join("");
  const you = "أنت (";
  assert.equal(text, `${you}${name})`);
  const start = you.length;
  const end = start + name.length;
  const seen = (from, to) => glyphs.slice(from, to).every(([, s]) => s);
  const shown = `${JSON.stringify(glyphs)}`;
  assert.ok(seen(0, start) && seen(end, end + 1), `"${you}" and ")" whole: ${shown}`);
  // The whole name: the box is as wide as the row allows, and no gap is left in it.
  assert.ok(seen(start, end), `the whole name seen: ${shown}`);
  const x = (i) => -glyphs[i][2];
  assert.ok(x(0) < x(start - 1) && x(start - 1) < x(start) && x(start) < x(end), `in order: ${shown}`);
  const room = await page.locator(box).evaluate((e) => {
    const row = e.querySelector(".who") ?? e;
    const used = [...row.children].reduce((sum, c) => sum + c.getBoundingClientRect().width, 0);
    return row.getBoundingClientRect().width - used;
  });
  assert.ok(room < 12, `the name fills the box, ${room} px left: ${shown}`);
  await shot(page, "long-account-name-ar-lobby-360x740");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [lang, size, words] of [["en", { width: 390, height: 844 }, /^Time ran out: a bot decided for you: (pass|bid .+|kaibosh \(every trick, alone\)|play the .+)\.$/],
  ["ar", { width: 360, height: 740 }, /^انتهى وقتك: قرر بوت عنك: .+\.$/],
  ["en", { width: 844, height: 390 }, /^Time ran out: a bot decided for you: (pass|bid .+|kaibosh \(every trick, alone\)|play the .+)\.$/]]) {
  test(`${lang} at ${size.width}x${size.height}: a turn the clock ran out is said over the hand at once, with what the bot did, until the player acts`, { timeout: 90_000 }, async () => {
    const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"], turn_clock: { seconds: 3, level: "random" } });
    const page = await openSeat(browser, created, 0, { ...size, isMobile: true, hasTouch: true });
    if (lang === "ar") {
      await page.evaluate(() => localStorage.setItem("calltrump.lang", "ar"));
      await page.reload();
    }
    await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30_000 });
    // Ann does nothing: the note comes with the bot's decision.
    const note = page.locator("#time-up-note:not([hidden])");
    await note.waitFor({ timeout: 15_000 });
    const said = (await note.locator("span").textContent()).trim();
    assert.match(said, words);
    const at = await note.boundingBox();
    const hand = await page.locator("#hand").boundingBox();
    assert.ok(at.y >= 0 && at.y + at.height <= size.height && at.x >= 0 && at.x + at.width <= size.width, `the note in the window: ${JSON.stringify(at)}`);
    assert.ok(at.y + at.height <= hand.y + 0.5, `the note above the hand: ${JSON.stringify(at)} ${JSON.stringify(hand)}`);
    await shot(page, `time-up-note-${lang}-${size.width}x${size.height}`);
    // The next time Ann acts, the note has been read.
    await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30_000 });
    const calls = await page.locator(".calls [data-action]").count();
    if (calls) await page.locator(".calls [data-action]").first().click();
    else await page.locator(".hand .card.legal").first().click();
    await page.locator("#time-up-note").waitFor({ state: "hidden", timeout: 5_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("a seat the host opened again: every seat and spectator is told the table waits for a person to take it", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { name: "Ann", host: true, width: 390, height: 844, isMobile: true, hasTouch: true });
  const watcher = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await watcher.addInitScript(() => { localStorage.setItem("calltrump.lang", "ar"); localStorage.setItem("calltrump.speed", "fast"); });
  await watcher.goto(created.watch_url);
  await host.waitForSelector('body[data-my-turn="true"]', { timeout: 20_000 });
  await host.selectOption("#host-seat-2", "open");
  await host.locator('.seat[data-seat="2"] .badge.opening').waitFor({ timeout: 5_000 });
  // Ann plays on: when the hand ends the seat opens, and the table waits at its turn.
  const waiting = /^Waiting for a person to take seat 2: the host has its link; a bot plays it in \d+ s\.$/;
  for (;;) {
    const what = await (await host.waitForFunction((re) => {
      if (new RegExp(re).test(document.getElementById("turn-line").textContent)) return "waiting";
      if (document.body.dataset.cut === "true") return "cut";
      return document.body.dataset.myTurn === "true" ? "turn" : false;
    }, waiting.source, { timeout: 30_000, polling: 50 })).jsonValue();
    if (what === "waiting") break;
    const version = await host.evaluate(() => document.body.dataset.version);
    if (what === "cut") await host.click('[data-action="cut"]').catch(() => {});
    else if (await host.locator(".calls [data-action]").count()) {
      const calls = await host.locator(".calls [data-action]").evaluateAll((bs) => bs.map((b) => b.dataset.action));
      await host.click(`[data-action="${calls.includes("pass") ? "pass" : calls[0]}"]`);
    } else await host.locator(".hand .card.legal").first().click();
    await host.waitForFunction((v) => document.body.dataset.version !== v, version, { timeout: 10_000 });
  }
  assert.match(await host.locator('.seat[data-seat="2"] .badge.open').textContent(), /^open · \d+ s$/);
  // The spectator, in Arabic, is told too (once the tricks before are shown).
  await watcher.waitForFunction(() => /^بانتظار شخص يأخذ المقعد 2: الرابط عند المضيف؛ يلعب بوت عنه بعد \d+ ث\.$/.test(document.getElementById("turn-line").textContent), null, { timeout: 30_000 });
  await shot(host, "waits-for-person-390x844");
  await shot(watcher, "waits-for-person-ar-360x740");
  assert.deepEqual([...host.errors, ...watcher.errors], []);
  await host.context().close();
  await watcher.context().close();
});

test("a night started from the lobby takes its turn clock; its default bots are named as bots", { timeout: 120_000 }, async () => {
  const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.addInitScript(() => { localStorage.setItem("calltrump.name", "Ann"); localStorage.setItem("calltrump.speed", "fast"); });
  await page.goto(`${server.url}/`);
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  await page.selectOption("#turn-clock", "30");
  await page.selectOption("#clock-level", "random");
  await page.click("#start-night");
  await page.waitForSelector("#player-list li");
  assert.equal(await page.locator("#turn-clock").inputValue(), "30");
  assert.equal(await page.locator("#clock-level").inputValue(), "random");
  const names = await page.locator("#player-list .player-name").evaluateAll((inputs) => inputs.map((i) => i.value));
  assert.deepEqual(names, ["Bot 1", "Bot 2", "Bot 3", "Bot 4", "Ann"]);
  const rows = page.locator("#player-list li");
  for (const i of [0, 1, 2, 3]) await rows.nth(i).locator(".player-sitter").selectOption("bot:random");
  await page.fill("#sets", "1");
  await page.click("#create-night");
  await page.waitForSelector("#night-created:not([hidden])");
  await page.click("#follow-night");
  await page.waitForSelector("#you a");
  await page.click("#you a");
  // Ann's set table runs the lobby's clock: at her turn, at most 30 s to decide.
  await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30_000 });
  const clock = page.locator("#my-clock:not([hidden])");
  await clock.waitFor({ timeout: 5_000 });
  const secs = Number((await clock.textContent()).match(/\d+/)[0]);
  assert.ok(secs > 0 && secs <= 30, `${secs} s to decide`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a seat the host took back: the lobby no longer offers \"Back to my seat\" for it", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "open", "bot:rules"] });
  const host = await newPage(browser, { width: 1280, height: 900 });
  await host.goto(created.host_url);
  await host.waitForSelector("#host-seat-1");
  const bo = await openSeat(browser, created, 1, { name: "Bo", width: 390, height: 844 });
  const cy = await openSeat(browser, created, 2, { name: "Cy", width: 390, height: 844 });
  await host.locator('.seat[data-seat="1"] .badge.online').waitFor({ timeout: 10_000 });
  await host.locator('.seat[data-seat="2"] .badge.online').waitFor({ timeout: 10_000 });
  // Bo has left the table's page when the host gives his seat to a bot; Cy is there
  // when hers is opened for someone else (a new link: the lobby cannot see that).
  const boContext = bo.context();
  await bo.close();
  await host.selectOption("#host-seat-1", "bot:easy");
  await host.click(".seat-confirm button.danger");
  await host.locator('.seat[data-seat="1"] .badge.bot').waitFor({ timeout: 10_000 });
  await host.selectOption("#host-seat-2", "open");
  await host.click(".seat-confirm button.danger");
  await cy.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
  for (const context of [boContext, cy.context()]) {
    const lobby = await context.newPage();
    await lobby.goto(`${server.url}/`);
    const row = lobby.locator("#tables li", { has: lobby.locator(`a[href="/table/${created.id}"]`) });
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.locator("a", { hasText: "Back to my seat" }).count(), 0, await row.textContent());
    await lobby.close();
  }
  assert.deepEqual([...host.errors, ...cy.errors], []);
  await host.context().close();
  await boContext.close();
  await cy.context().close();
});
