// Phones held either way and the laptop: in every phase this seat acts in (auction,
// trump, exchange, play) and at the hand's end, the hand's cards and the legal choices
// are inside the window without scrolling, at every size in turn (one hand per variant,
// the window resized at each check as a phone is turned). On a turn clock, the player's
// countdown is shown just above their hand on their every turn. And Bid Euchre's bid picker.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, createTable, newPage, playSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const PORTRAIT_360 = { width: 360, height: 740 };
const PORTRAIT_390 = { width: 390, height: 844 };
const LANDSCAPE = { width: 844, height: 390 };
const LAPTOP = { width: 1280, height: 800 };
const SIZES = [PORTRAIT_360, PORTRAIT_390, LANDSCAPE, LAPTOP];
// Kout Bo in Arabic too (right to left, its own words): the same screens must hold.
const VARIANTS = [["kaibosh", undefined, 4], ["bid-euchre", "alexa", 4], ["bid-euchre", "simplified", 4], ["kout", "kout6", 6], ["kout", "kout4", 4], ["kout", "kout6", 6, "ar"], ["kout", "kout4", 4, "ar"]];

/**
 * What of the hand and the choices (and, on a phone held landscape, the felt) lies outside the window, measured in the page's own
 * coordinates (a scrolled page counts as outside): an empty list when all is in view.
 * Also whether Bid Euchre's bids are drawn as a grid or a picker.
 */
function outside(page) {
  return page.evaluate(() => {
    const wrong = [];
    const things = [...document.querySelectorAll("#hand .card, #controls button, #controls input, .summary .button, .summary button")];
    // A phone held landscape: the whole table too (its bottom seat was cut off).
    const felt = document.querySelector("#felt");
    if (felt && window.innerHeight <= 500 && window.innerWidth > window.innerHeight) things.push(felt);
    for (const node of things) {
      if (node.offsetParent === null) continue;
      const box = node.getBoundingClientRect();
      const top = box.top + window.scrollY;
      const left = box.left + window.scrollX;
      if (top < 0 || left < 0 || top + box.height > window.innerHeight + 0.5 || left + box.width > window.innerWidth + 0.5) {
        wrong.push(`${node.id === "felt" ? "the felt" : node.dataset.key ?? node.dataset.action ?? node.textContent} at (${Math.round(left)}, ${Math.round(top)}) ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    // On this player's turn, the turn clock's countdown in view, just above the hand.
    const clock = document.getElementById("my-clock");
    const cards = document.querySelector("#hand .card");
    if (document.body.dataset.myTurn === "true" && cards) {
      if (clock.hidden) wrong.push("no turn clock on my turn");
      else {
        const at = clock.getBoundingClientRect();
        const hand = document.getElementById("hand").getBoundingClientRect();
        if (at.top + window.scrollY < 0 || at.bottom + window.scrollY > window.innerHeight + 0.5) wrong.push(`the turn clock at ${Math.round(at.top)}..${Math.round(at.bottom)}`);
        // A wide screen: on one line right beside the turn line's words (in Arabic it stood
        // by the hand's far corner, wrapped). Else just above the hand. Never over a card.
        if (window.innerWidth >= 1200 && window.innerHeight > 500) {
          const turn = document.getElementById("turn-line").getBoundingClientRect();
          const gap = Math.max(turn.left - at.right, at.left - turn.right);
          const middle = (at.top + at.bottom) / 2;
          if (gap < 0 || gap > 16 || middle < turn.top || middle > turn.bottom) wrong.push(`the turn clock at (${Math.round(at.left)}..${Math.round(at.right)}, ${Math.round(at.top)}..${Math.round(at.bottom)}), not beside the turn line at (${Math.round(turn.left)}..${Math.round(turn.right)}, ${Math.round(turn.top)}..${Math.round(turn.bottom)})`);
          if (at.height > turn.height + 1) wrong.push(`the turn clock on more than one line: ${Math.round(at.height)} high`);
        } else if (at.bottom < hand.top - 24 || at.bottom > hand.bottom + 0.5) wrong.push(`the turn clock at ${Math.round(at.top)}..${Math.round(at.bottom)}, the hand at ${Math.round(hand.top)}..${Math.round(hand.bottom)}`);
        for (const card of document.querySelectorAll("#hand .card")) {
          const c = card.getBoundingClientRect();
          if (c.left < at.right && at.left < c.right && c.top < at.bottom && at.top < c.bottom) wrong.push(`the turn clock over ${card.dataset.key ?? card.textContent}`);
        }
        if (!/\d/.test(clock.textContent)) wrong.push(`the turn clock says "${clock.textContent}"`);
      }
    }
    const bids = document.querySelector(".bid-grid") ? "grid" : document.querySelector(".bid-picker") ? "picker" : null;
    return { wrong, seen: things.length, phase: document.body.dataset.phase, bids };
  });
}

/**
 * The page as it is now, at each size in turn, the way a phone is turned: the window
 * changes, the page lays itself out again (two frames), and then the hand and the choices
 * must be in it; Bid Euchre's bids a picker on a phone, a grid on the laptop.
 */
async function checkEverySize(page, what, phases) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    // The server's `clock` follows the update that made it this player's turn.
    await page.waitForFunction(() => document.body.dataset.myTurn !== "true" || !document.getElementById("my-clock").hidden, null, { timeout: 5_000 });
    const where = `${what} at ${size.width}x${size.height}`;
    const { wrong, seen, phase, bids } = await outside(page);
    assert.deepEqual(wrong, [], `${where}, ${phase}: outside the window`);
    if (bids) assert.equal(bids, size === LAPTOP ? "grid" : "picker", `${where}: the bids drawn for this window`);
    if (seen) phases.add(phase);
  }
}

for (const [game, variant, seats, lang = "en"] of VARIANTS) {
  test(`${game} ${variant ?? ""} (${lang}): the hand and the choices in the window at every size`, { timeout: 90_000 }, async () => {
    // A turn clock long enough never to run out: its countdown is part of the screen.
    const created = await createTable(server.url, { game, variant, seats: ["open", ...Array(seats - 1).fill("bot:rules")], turn_clock: { seconds: 900, level: "rules" } });
    // A touch screen whose window is resized at every check, as a phone turned.
    const page = await newPage(browser, { ...LAPTOP, isMobile: true, hasTouch: true });
    await page.addInitScript((language) => {
      localStorage.setItem("calltrump.name", "Ann");
      localStorage.setItem("calltrump.speed", "fast");
      localStorage.setItem("calltrump.lang", language);
    }, lang);
    await page.goto(created.invites.find((i) => i.seat === 0).url);
    await page.waitForSelector("body[data-version]:not([data-version=''])");
    assert.equal(await page.getAttribute("html", "dir"), lang === "ar" ? "rtl" : "ltr");
    const what = `${variant ?? game}${lang === "en" ? "" : `-${lang}`}`;
    const phases = new Set();
    // Before every decision (the first one's too) and after it.
    await page.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000, polling: 50 });
    await checkEverySize(page, what, phases);
    // Bid Euchre: bid when allowed, to reach the exchange and the play as the maker.
    const call = game === "bid-euchre" ? (calls) => calls.find((c) => c !== "pass") ?? calls[0] : undefined;
    await playSeat(page, {
      until: "hand",
      ...(call ? { call } : {}),
      onStep: async () => {
        await page.waitForFunction(() => document.body.dataset.busy === "false", null, { timeout: 10_000 }).catch(() => {});
        await checkEverySize(page, what, phases);
      },
    });
    await page.waitForSelector(".summary");
    await checkEverySize(page, `${what}, the hand's end`, phases);
    assert.ok(phases.has("play") || phases.has("hand-over"), `${what}: phases checked ${[...phases]}`);
    for (const size of [PORTRAIT_390, LANDSCAPE]) {
      await page.setViewportSize(size);
      await shot(page, `phone-${what}-${size.width}x${size.height}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("Bid Euchre on a phone: a level, then a strain; only legal bids offered", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await newPage(browser, { ...PORTRAIT_360, isMobile: true, hasTouch: true });
  await page.addInitScript(() => localStorage.setItem("calltrump.name", "Ann"));
  // What the server offered last (a view's legal actions) and what the page sent.
  let offeredByServer = [];
  const sent = [];
  page.on("websocket", (socket) => {
    socket.on("framereceived", ({ payload }) => {
      const message = JSON.parse(payload);
      if (message.view?.legal) offeredByServer = message.view.legal;
    });
    socket.on("framesent", ({ payload }) => {
      const message = JSON.parse(payload);
      if (message.type === "act") sent.push(message.action);
    });
  });
  page.legal = () => offeredByServer;
  page.acts = () => sent;
  await page.goto(created.invites.find((i) => i.seat === 0).url);
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  // This seat's first bid: a cut may come first.
  for (;;) {
    const what = await (await page.waitForFunction(() => (document.body.dataset.cut === "true" ? "cut" : document.body.dataset.myTurn === "true" ? document.body.dataset.phase : false), null, { timeout: 30_000, polling: 50 })).jsonValue();
    if (what === "auction") break;
    if (what === "cut") await page.click('[data-action="cut"]').catch(() => {});
    else throw new Error(`this seat acted in ${what} before bidding`);
    await page.waitForFunction(() => document.body.dataset.cut !== "true", null, { timeout: 30_000 });
  }
  assert.equal(await page.locator(".bid-grid").count(), 0, "no grid on a phone");
  // The server's legal calls, from the view the page holds.
  const legal = page.legal();
  assert.ok(legal.length > 2, `legal calls: ${legal}`);
  const levels = await page.locator(".picker-levels button").evaluateAll((bs) => bs.map((b) => b.dataset.level));
  assert.ok(levels.length >= 2, `levels offered: ${levels}`);
  assert.ok(await page.locator('.calls [data-action="pass"]').isVisible(), "pass is always there");
  // Every level shows exactly its strains, and together they are the legal bids.
  const offered = [];
  for (const level of levels) {
    await page.click(`.picker-levels [data-level="${level}"]`);
    assert.equal(await page.getAttribute(`.picker-levels [data-level="${level}"]`, "aria-checked"), "true");
    const strains = await page.locator(".picker-strains [data-action]:not([data-action=\"pass\"])").evaluateAll((bs) => bs.map((b) => b.dataset.action));
    assert.ok(strains.length >= 1, `${level} offers a strain`);
    for (const action of strains) assert.ok(action.startsWith(`${level} `), `${action} under ${level}`);
    offered.push(...strains);
  }
  assert.deepEqual([...offered].sort(), legal.filter((a) => a !== "pass").sort());
  // A number, then a suit: the bid sent is that one.
  const level = levels[1];
  await page.click(`.picker-levels [data-level="${level}"]`);
  const bid = await page.locator(".picker-strains [data-action]:not([data-action=\"pass\"])").last().getAttribute("data-action");
  await page.click(`.picker-strains [data-action="${bid}"]`);
  await page.waitForFunction(() => document.body.dataset.myTurn !== "true" || document.body.dataset.phase !== "auction", null, { timeout: 10_000 });
  assert.deepEqual(page.acts(), [bid]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A table that allows hints: the first call, its hint asked for and shown, on a phone held
// either way. The hint's answer must not push the hand or the choices out of the window
// (it did on a phone held sideways: the hand two thirds below the fold). For Bid Euchre,
// a table where this seat may still bid every level (its most rows of choices), if one of
// a few deals gives it.
for (const [game, variant, seats] of [["kaibosh", undefined, 4], ["bid-euchre", "alexa", 4], ["kout", "kout6", 6], ["kout", "kout4", 4]]) {
  for (const lang of ["en", "ar"]) {
    test(`${variant ?? game} (${lang}) with a hint shown: the hand and the choices in a phone's window`, { timeout: 120_000 }, async () => {
      let page;
      for (let tries = 0; ; tries += 1) {
        const created = await createTable(server.url, { game, variant, hints: true, seats: ["open", ...Array(seats - 1).fill("bot:rules")], turn_clock: { seconds: 900, level: "rules" } });
        page = await newPage(browser, { ...LANDSCAPE, isMobile: true, hasTouch: true });
        await page.addInitScript((language) => {
          localStorage.setItem("calltrump.name", "Ann");
          localStorage.setItem("calltrump.speed", "fast");
          localStorage.setItem("calltrump.lang", language);
        }, lang);
        await page.goto(created.invites.find((i) => i.seat === 0).url);
        for (;;) {
          const what = await (await page.waitForFunction(() => (document.body.dataset.cut === "true" ? "cut" : document.body.dataset.myTurn === "true" ? "turn" : false), null, { timeout: 30_000, polling: 50 })).jsonValue();
          if (what === "turn") break;
          await page.click('[data-action="cut"]', { timeout: 5000 }).catch(() => {});
          await page.waitForFunction(() => document.body.dataset.cut !== "true", null, { timeout: 10_000 });
        }
        const levels = await page.locator(".picker-levels .level").count();
        if (game !== "bid-euchre" || levels >= 11 || tries >= 5) break;
        await page.context().close();
      }
      await page.click('[data-key="hint"]');
      await page.waitForSelector(".hint-box", { timeout: 60_000 });
      for (const size of [LANDSCAPE, PORTRAIT_390, PORTRAIT_360]) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const where = `${variant ?? game} (${lang}) at ${size.width}x${size.height}, the hint shown`;
        assert.ok(await page.locator(".hint-box").isVisible(), `${where}: the hint`);
        const { wrong, phase } = await outside(page);
        assert.deepEqual(wrong, [], `${where}, ${phase}: outside the window`);
        await shot(page, `phone-hint-${variant ?? game}-${lang}-${size.width}x${size.height}`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}
