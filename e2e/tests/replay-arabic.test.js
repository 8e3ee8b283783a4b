// The replay viewer in Arabic: `?lang=ar` lays it out right to left with no English left
// in its words (a Bid Euchre record with its analysis, stepped through, from every view);
// forward is leftwards (the arrows and the arrow key); the file choice speaks the page's
// language and stays inside its box on a phone held landscape, in either language.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer, launchBrowser, newPage, shot, noHorizontalOverflow, signedNumbers } from "../lib.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const RECORD = path.join(FIXTURES, "bid-euchre-loner.json");
const ANALYSIS = path.join(FIXTURES, "bid-euchre-loner.analysis.json");
const SIZES = [[360, 740], [390, 844], [844, 390], [1280, 800]];
const LONG_NAME = "bid-euchre-alexa-records-from-calltrump-simulate-seed-20261127-games-0001-1000.jsonl";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/**
 * The Latin words on the page (text, labels, titles, the select's options), with where:
 * the brand, the language's own name, code, card corners, the keys' names and the files'
 * own words (their names, an analysis's reading, marked `lang="en"`) left out.
 */
function englishLeft(page) {
  return page.evaluate(() => {
    const found = [];
    const allowed = new Set(["calltrump", "English", "JSON", "Home", "End"]);
    const check = (text, where) => {
      for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.has(word)) found.push(`${word} (${where})`);
    };
    check(document.title, "title");
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        // Also the files' names and an analysis's reading: the user's files' own words.
        if (parent.closest(".card .index, .card .letter, #lang, code, script, style, .account, .file-name, .reading[lang='en']")) continue;
        check(node.textContent, parent.id || parent.className || parent.localName);
      } else if (!node.closest("#lang, code")) {
        for (const attribute of ["aria-label", "title", "placeholder", "data-win", "data-badge"]) {
          const value = node.getAttribute(attribute);
          if (value) check(value, `${node.id || node.className || node.localName} @${attribute}`);
        }
      }
    }
    return found;
  });
}

test("?lang=ar: the replay viewer right to left, no English left as it steps, from every view", { timeout: 120_000 }, async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await page.goto(`${server.url}/replay?lang=ar`);
  assert.equal(await page.getAttribute("html", "dir"), "rtl");
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  assert.deepEqual(await englishLeft(page), [], "before a file is chosen");
  assert.equal(await page.locator("#load-h").textContent(), "افتح لعبة");
  await shot(page, "replay-ar-empty-1280");

  await page.setInputFiles("#analysis-file", ANALYSIS);
  await page.setInputFiles("#record-file", RECORD);
  await page.waitForSelector("body[data-step='0']");
  await page.waitForFunction(() => document.querySelector("#steps .mark"));
  assert.equal(await page.locator("#step-count").textContent(), "الخطوة 1 من 290");
  assert.equal(await page.locator(".file-name").first().textContent(), "bid-euchre-loner.json");
  // Forward is the left arrow key, and the arrows point left.
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("body[data-step='1']");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("body[data-step='0']");
  assert.equal(await page.locator("#forward").getAttribute("title"), "إلى الأمام (←)");
  const forward = await page.locator("#forward").evaluate((b) => getComputedStyle(b).transform);
  assert.match(forward, /^matrix\(-1, /, "the forward arrow is turned to point left");
  const back = await page.locator("#back").boundingBox();
  const next = await page.locator("#forward").boundingBox();
  assert.ok(back.x > next.x, "back is on the right of forward, as the steps run right to left");

  // Through a hand's auction, play and end, the loner hand's exchange, a mark: each step in Arabic.
  const seen = new Set();
  for (const step of [1, 2, 5, 8, 36, 37, 40]) {
    // Step there with the keys, one at a time from where it is.
    let at = Number(await page.evaluate(() => document.body.dataset.step));
    while (at < step) {
      await page.keyboard.press("ArrowLeft");
      at += 1;
      await page.waitForSelector(`body[data-step='${at}']`);
    }
    const left = await englishLeft(page);
    assert.deepEqual(left, [], `English left at step ${step}`);
    // Each card on the table lies on its seat's side: the felt is not mirrored apart from its cards.
    const sides = await page.evaluate(() => {
      const felt = document.getElementById("felt").getBoundingClientRect();
      const middle = felt.left + felt.width / 2;
      const side = (r) => { const x = r.left + r.width / 2 - middle; return Math.abs(x) < felt.width / 8 ? 0 : Math.sign(x); };
      return [...document.querySelectorAll("#center .played")].map((card) => {
        const at = [...card.classList].find((c) => c.startsWith("at-")).slice(3);
        return [at, side(card.getBoundingClientRect()), side(document.querySelector(`.seat.pos-${at}`).getBoundingClientRect())];
      });
    });
    for (const [at, card, seat] of sides) assert.equal(card, seat, `step ${step}: the card of position ${at} on side ${card}, its seat on ${seat}`);
    seen.add(await page.evaluate(() => document.body.dataset.phase));
  }
  // The loner hand (the 7th), where cards are given face down, and the last step (game over).
  await page.selectOption("#hand-select", "6");
  await page.keyboard.press("End");
  assert.deepEqual(await englishLeft(page), [], "English left at the loner hand's end");
  await page.selectOption("#hand-select", await page.locator("#hand-select option").last().getAttribute("value"));
  await page.keyboard.press("End");
  await page.waitForSelector("body[data-step='289']");
  assert.equal(await page.evaluate(() => document.body.dataset.phase), "game-over");
  assert.deepEqual(await englishLeft(page), [], "English left at the game's end");
  assert.match(await page.locator("#center").textContent(), /انتهت اللعبة/);
  seen.add("game-over");
  assert.ok(["auction", "play", "hand-over", "game-over"].every((p) => seen.has(p)), `phases seen: ${[...seen]}`);
  // Every signed number reads with its sign first ("-7", not "7-"), at each hand's end.
  const signed = [];
  for (const hand of await page.locator("#hand-select option").evaluateAll((os) => os.map((o) => o.value))) {
    await page.selectOption("#hand-select", hand);
    await page.keyboard.press("End");
    signed.push(...await signedNumbers(page));
  }
  assert.ok(signed.some((s) => s.text.startsWith("-") || s.text.startsWith("\u2212")), `a negative number seen: ${JSON.stringify(signed)}`);
  assert.deepEqual(signed.filter((s) => !s.signLeft), [], "signed numbers read with their sign first");
  await shot(page, "replay-ar-game-over-1280");

  // Every view: a spectator's, a seat's.
  for (const view of ["spectator", "2"]) {
    await page.selectOption("#seat-select", view);
    await page.waitForFunction((v) => location.hash.endsWith(`view=${v}`), view);
    assert.deepEqual(await englishLeft(page), [], `English left in view ${view}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the replay's files and board fit every screen, in English and in Arabic", { timeout: 120_000 }, async () => {
  for (const lang of ["en", "ar"]) {
    for (const [width, height] of SIZES) {
      const phone = width < 900;
      const page = await newPage(browser, { width, height, isMobile: phone, hasTouch: phone });
      await page.goto(`${server.url}/replay?lang=${lang}`);
      await page.waitForSelector("body[data-ready='true']", { state: "attached" });
      const at = `${lang} ${width}x${height}`;
      // The file boxes stay inside the box that holds them, and inside the screen.
      const inside = () => page.evaluate(() => {
        const load = document.getElementById("load").getBoundingClientRect();
        return [...document.querySelectorAll("#load .file-pick")].map((f) => {
          const r = f.getBoundingClientRect();
          return { left: r.left, right: r.right, box: [load.left, load.right], screen: document.documentElement.clientWidth };
        });
      });
      const fits = (boxes, when) => {
        assert.equal(boxes.length, 2);
        for (const b of boxes) {
          assert.ok(b.left >= b.box[0] - 0.5 && b.right <= b.box[1] + 0.5, `${at} ${when}: a file box at ${b.left}..${b.right} outside its panel ${b.box}`);
          assert.ok(b.left >= 0 && b.right <= b.screen, `${at} ${when}: a file box at ${b.left}..${b.right} off the screen ${b.screen}`);
        }
      };
      fits(await inside(), "before a file");
      await shot(page, `replay-${lang}-empty-${width}x${height}`);
      // A long file name (as `simulate --records` files get) wraps inside the box.
      await page.setInputFiles("#record-file", { name: LONG_NAME, mimeType: "application/json", buffer: readFileSync(RECORD) });
      await page.waitForSelector("body[data-step='0']");
      assert.equal(await page.locator(".file-name").first().textContent(), LONG_NAME);
      for (let i = 0; i < 6; i += 1) await page.click("#forward");
      await page.waitForSelector("body[data-step='6']");
      fits(await inside(), "with a game open");
      assert.ok(await noHorizontalOverflow(page), `${at}: nothing to scroll sideways`);
      const forward = await page.locator("#forward").boundingBox();
      assert.ok(forward.y >= 0 && forward.y + forward.height <= height, `${at}: the step button in view`);
      await shot(page, `replay-${lang}-step-${width}x${height}`);
      assert.deepEqual(page.errors, [], at);
      await page.context().close();
    }
  }
});
