// Arabic: `?lang=ar` lays the pages out right to left with no English left in the
// table's chrome, through a Kout Bo hand on a phone; the language is remembered, taken
// from the browser, switched on every page; Kout Bo's rules in Arabic. And the turn
// signals: the tab's title and icon, the settings remembered, a notification when hidden.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, createTable, newPage, playSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

/** A seat's page of a new Kout Bo 6 table against bots, with `?lang=` if given. */
async function koutSeat(size, lang) {
  // On a turn clock (too long to run out): its countdown is in the page's words too.
  const created = await createTable(server.url, { game: "kout", variant: "kout6", seats: ["open", ...Array(5).fill("bot:rules")], turn_clock: { seconds: 900, level: "rules" } });
  const page = await newPage(browser, size);
  await page.addInitScript(() => {
    localStorage.setItem("calltrump.name", "سارة");
    localStorage.setItem("calltrump.speed", "fast");
  });
  const [link, fragment] = created.invites.find((i) => i.seat === 0).url.split("#");
  await page.goto(`${link}${lang ? `?lang=${lang}` : ""}#${fragment}`);
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  return page;
}

/**
 * The words of the table's chrome (bar, turn line, seats, middle, choices, hand, game
 * panel): text and the labels people and screen readers get, cards' printed faces and
 * the language switch's own names left out. Answers the Latin words found, with where.
 */
function englishLeft(page) {
  return page.evaluate(() => {
    const found = [];
    const roots = document.querySelectorAll(".table-bar, #turn-line, #score-line, #felt, #controls, #my-clock, #hand, #info");
    const allowed = new Set(["calltrump", "English"]);
    const check = (text, where) => {
      for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.has(word)) found.push(`${word} (${where})`);
    };
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          // A commitment is a hash, not words.
          // A card's suit letter and a joker's corner in Arabic too (a Latin S, H, D, C
          // was left on every card); only the ranks stay as printed (A, K, Q, J).
          if (parent.closest(".card .letter, .card .index i") && /[A-Za-z]/.test(node.textContent)) found.push(`${node.textContent} (a card's ${parent.className || "corner"})`);
          if (parent.closest(".card .index, .card .letter, #lang, code")) continue;
          check(node.textContent, parent.id || parent.className);
        } else if (node.localName !== "code") {
          for (const attribute of ["aria-label", "title", "placeholder"]) {
            const value = node.getAttribute(attribute);
            if (value) check(value, `${node.id || node.className} @${attribute}`);
          }
        }
      }
    }
    return found;
  });
}

test("?lang=ar: a Kout Bo hand on a phone right to left, no English left in the table's chrome", { timeout: 90_000 }, async () => {
  const page = await koutSeat(PHONE, "ar");
  assert.equal(await page.getAttribute("html", "lang"), "ar");
  assert.equal(await page.getAttribute("html", "dir"), "rtl");
  const checked = new Set();
  const check = async () => {
    const left = await englishLeft(page);
    assert.deepEqual(left, [], `English left in the ${await page.evaluate(() => document.body.dataset.phase)} phase`);
    checked.add(await page.evaluate(() => document.body.dataset.phase));
  };
  await page.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000 });
  await check();
  // The turn clock above the hand, in Arabic.
  await page.waitForFunction(() => document.body.dataset.myTurn !== "true" || !document.getElementById("my-clock").hidden, null, { timeout: 5_000 });
  if (await page.evaluate(() => document.body.dataset.myTurn === "true")) assert.match(await page.locator("#my-clock").textContent(), /^بقي \d+ ث لتقرر$/);
  // The bids by their Arabic names: باب (5) … بوان (9).
  const bids = await page.locator('.calls [data-action^="bid "]').evaluateAll((bs) => bs.map((b) => [b.dataset.action, b.textContent]));
  const NAMES = { 5: "باب", 6: "ستة", 7: "سبعة", 8: "ثمانية", 9: "بوان" };
  for (const [action, text] of bids) assert.equal(text, `${NAMES[action.split(" ")[1]]} (${action.split(" ")[1]})`);
  await playSeat(page, { until: "hand", onStep: async () => {
    await page.waitForFunction(() => document.body.dataset.busy === "false", null, { timeout: 10_000 }).catch(() => {});
    await check();
  } });
  await page.waitForSelector(".summary");
  await check();
  assert.ok(checked.has("play") && checked.has("hand-over"), `phases checked: ${[...checked]}`);
  await shot(page, "arabic-kout-390x844");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the language: remembered from ?lang=, else the browser's, switched on every page", { timeout: 60_000 }, async () => {
  // The browser's language first: Arabic.
  const arabic = await newPage(browser, { locale: "ar-KW" });
  await arabic.goto(`${server.url}/`);
  await arabic.waitForSelector("#lang");
  assert.equal(await arabic.getAttribute("html", "dir"), "rtl");
  assert.equal(await arabic.textContent("#create"), "أنشئ الطاولة");
  // Switched to English: remembered on the device, on the next page too.
  await Promise.all([arabic.waitForEvent("load"), arabic.selectOption("#lang", "en")]);
  await arabic.waitForSelector("#lang");
  assert.equal(await arabic.getAttribute("html", "lang"), "en");
  assert.equal(await arabic.textContent("#create"), "Create table");
  for (const where of ["/replay", "/night"]) {
    await arabic.goto(`${server.url}${where}`);
    await arabic.waitForSelector("#lang");
    assert.equal(await arabic.getAttribute("html", "dir"), "ltr", where);
  }
  // ?lang=ar wins and is remembered.
  await arabic.goto(`${server.url}/replay?lang=ar`);
  await arabic.waitForSelector("#lang");
  assert.equal(await arabic.getAttribute("html", "lang"), "ar");
  await arabic.goto(`${server.url}/`);
  await arabic.waitForSelector("#lang");
  assert.equal(await arabic.getAttribute("html", "dir"), "rtl");
  assert.equal(await arabic.inputValue("#lang"), "ar");
  assert.deepEqual(arabic.errors, []);
  await arabic.context().close();
  // The Arabic lobby fits a phone's width (nothing to scroll sideways).
  const phone = await newPage(browser, { width: 390, height: 844 });
  await phone.goto(`${server.url}/?lang=ar`);
  await phone.waitForSelector("#lang");
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth), 390);
  await phone.context().close();
});

test("Kout Bo's rules in Arabic at /rules/kout?lang=ar", async () => {
  const arabic = await (await fetch(`${server.url}/rules/kout?lang=ar`)).text();
  assert.match(arabic, /<html lang="ar" dir="rtl"/);
  for (const word of ["باب", "بوان", "ملزوم", "الحكم"]) assert.ok(arabic.includes(word), word);
  const english = await (await fetch(`${server.url}/rules/kout`)).text();
  assert.match(english, /<html lang="en" dir="ltr"/);
  assert.ok(english.includes("Bawan") && !english.includes("بوان"));
  // A game without Arabic rules answers in English.
  assert.match(await (await fetch(`${server.url}/rules/kaibosh?lang=ar`)).text(), /<html lang="en"/);
  // Arabic chosen on the device, a rules page written in English stays left to right,
  // its bar too, the account's part after a dot.
  const page = await newPage(browser, { locale: "ar-KW" });
  await page.goto(`${server.url}/rules/kaibosh`);
  await page.waitForSelector("#account");
  assert.equal(await page.getAttribute("html", "dir"), "ltr");
  assert.match(await page.textContent("#bar-nav"), /العربية · Sign in$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("turn signals: the tab's title and icon on your turn; settings remembered; a notification when hidden", { timeout: 60_000 }, async () => {
  const page = await koutSeat({ width: 1280, height: 800 });
  // Hidden, with notifications allowed: what the page shows is recorded.
  await page.addInitScript(() => {
    Object.defineProperty(document, "hidden", { get: () => true });
    window.shown = [];
    window.Notification = class { constructor(title, options) { window.shown.push({ title, body: options.body }); } static permission = "granted"; };
  });
  await page.context().grantPermissions(["notifications"]);
  await page.click(".turn-signals summary");
  assert.equal(await page.isChecked("#turn-sound"), false, "sound is off unless chosen");
  await page.check("#turn-sound");
  await page.check("#turn-notify");
  await page.reload();
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  assert.equal(await page.isChecked("#turn-sound"), true, "the sound setting is remembered");
  await page.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000 });
  assert.match(await page.title(), /^▶ Your turn · Kout Bo/);
  assert.match(await page.getAttribute('link[rel="icon"]', "href"), /^data:image\/svg\+xml,/);
  assert.deepEqual(await page.evaluate(() => window.shown), [{ title: "▶ Your turn at calltrump", body: "Kout Bo · 6 players" }]);
  // Its move made, the icon is the usual one again while others play (the icon's
  // changes are recorded: the player's next turn may come at once).
  await page.evaluate(() => {
    const link = document.querySelector('link[rel="icon"]');
    window.icons = [];
    new MutationObserver(() => window.icons.push(link.getAttribute("href"))).observe(link, { attributes: true });
  });
  await page.locator('.calls button, [data-action="cut"], [data-action^="trump "], .hand .card.legal').first().click();
  await page.waitForFunction(() => window.icons.length > 0, null, { timeout: 10_000 });
  assert.equal(await page.evaluate(() => window.icons[0]), "/assets/icon.svg");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
