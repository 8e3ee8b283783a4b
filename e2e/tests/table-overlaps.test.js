// The felt as a player sees it through a hand against bots, at a laptop's and phones'
// sizes, in English and Arabic: at every change of the table (each card played, each
// trick taken), the words on it do not lie over each other. A played card (with its
// ring, when it wins or is winning) covers no seat's name or badge and no name under
// another card; the name under a card covers no seat; the trick's result covers no card
// and no name under a card.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, createTable, newPage, playSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** In the page: checks the felt at every change, keeping what overlapped (once each). */
function watchOverlaps() {
  window.__overlaps = new Set();
  window.__checks = 0;
  // A ring (the winning card's, the leading card's) reaches this far outside the card.
  const RING = 5;
  const box = (node, grow = 0) => {
    const r = node.getBoundingClientRect();
    return { left: r.left - grow, right: r.right + grow, top: r.top - grow, bottom: r.bottom + grow, w: r.width, h: r.height };
  };
  const meets = (a, b) => a.w > 0 && b.w > 0 && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const say = (node) => `${node.className} "${(node.textContent ?? "").trim().slice(0, 30)}"`;
  const check = () => {
    const felt = document.getElementById("felt");
    if (!felt) return;
    window.__checks += 1;
    // A card still landing (its short animation) is not yet where it stays.
    const cards = [...felt.querySelectorAll(".center .played")].filter((c) => !c.getAnimations().some((a) => a.playState === "running"));
    const bys = [...felt.querySelectorAll(".center .played .by")];
    const notes = [...felt.querySelectorAll(".center .center-note")];
    const seats = [...felt.querySelectorAll(".seat")];
    const labels = [...felt.querySelectorAll(".seat .name, .seat .badge")];
    const where = `${window.innerWidth}x${window.innerHeight} ${document.body.dataset.phase}`;
    const found = (a, b) => window.__overlaps.add(`${where}: ${say(a)} over ${say(b)}`);
    for (const card of cards) {
      const ringed = card.classList.contains("winner") || card.classList.contains("leading");
      const c = box(card, ringed ? RING : 0);
      for (const label of labels) if (meets(c, box(label))) found(card, label);
      for (const by of bys) if (meets(c, box(by))) found(card, by);
    }
    for (const by of bys) for (const seat of seats) if (meets(box(by), box(seat))) found(by, seat);
    for (const note of notes) {
      for (const by of bys) if (meets(box(note), box(by))) found(note, by);
      for (const card of cards) if (meets(box(note), box(card))) found(note, card);
    }
  };
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
  });
}

const CASES = [
  ["kaibosh", undefined, 4, "en", 1280, 800],
  ["kaibosh", undefined, 4, "ar", 1280, 800],
  ["kaibosh", undefined, 4, "ar", 360, 740],
  ["kaibosh", undefined, 4, "en", 844, 390],
  ["kout", "kout6", 6, "ar", 1280, 800],
  ["kout", "kout6", 6, "ar", 360, 740],
  ["kout", "kout6", 6, "en", 844, 390],
  ["kout", "kout4", 4, "en", 390, 844],
];

for (const [game, variant, seats, lang, width, height] of CASES) {
  test(`${variant ?? game} (${lang}) at ${width}x${height}: no words over each other on the felt through a hand`, { timeout: 120_000 }, async () => {
    const created = await createTable(server.url, { game, variant, seats: ["open", ...Array(seats - 1).fill("bot:rules")] });
    const page = await newPage(browser, { width, height, isMobile: width < 900, hasTouch: width < 900 });
    await page.addInitScript((language) => {
      localStorage.setItem("calltrump.name", "Ann");
      localStorage.setItem("calltrump.speed", "normal");
      localStorage.setItem("calltrump.lang", language);
    }, lang);
    await page.addInitScript(watchOverlaps);
    await page.goto(created.invites.find((i) => i.seat === 0).url);
    await page.waitForSelector("body[data-version]:not([data-version=''])");
    await playSeat(page, { until: "hand", timeout: 60_000 });
    const { overlaps, checks } = await page.evaluate(() => ({ overlaps: [...window.__overlaps], checks: window.__checks }));
    await shot(page, `overlaps-${variant ?? game}-${lang}-${width}x${height}`);
    assert.ok(checks > 20, `the felt checked at ${checks} changes`);
    assert.deepEqual(overlaps, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
