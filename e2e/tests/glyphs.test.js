// Every character the table draws is in a font: none shows as a box (tofu). The cut's
// countdown, urgent in its last seconds, had a stopwatch emoji that no installed font
// has (a box before "بقي 1 ث" on an Arabic phone); it is a clock face drawn in CSS now.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, shot } from "../lib.js";

let server, browser;
// Five seconds to cut: the countdown is urgent (five seconds or fewer) at once.
before(async () => { server = await startServer({ cutWaitMs: 5000 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/**
 * The characters under `selector` (text, and the strings of `::before`/`::after`) that
 * the page's fonts draw as the box a missing glyph gets, each with where: a character
 * is drawn in its element's font on a canvas and compared with a private-use character
 * no font has.
 */
function missingGlyphs(page, selector) {
  return page.evaluate((selector) => {
    const canvas = Object.assign(document.createElement("canvas"), { width: 48, height: 48 });
    const context = canvas.getContext("2d", { willReadFrequently: true });
    const draw = (font, text) => {
      context.clearRect(0, 0, 48, 48);
      context.font = font;
      context.fillText(text, 8, 36);
      return context.getImageData(0, 0, 48, 48).data.join();
    };
    const found = [];
    for (const node of document.querySelectorAll(selector)) {
      for (const pseudo of [null, "::before", "::after"]) {
        const style = getComputedStyle(node, pseudo);
        const text = pseudo
          ? [...style.content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join("")
          : [...node.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("");
        const font = `${style.fontWeight} 24px ${style.fontFamily}`;
        const tofu = draw(font, "\u{10FFFD}");
        for (const char of new Set(text)) {
          if (char.codePointAt(0) < 0x80 || /\s/u.test(char)) continue;
          if (draw(font, char) === tofu) found.push(`U+${char.codePointAt(0).toString(16).toUpperCase()} in ${node.id || node.className}${pseudo ?? ""}`);
        }
      }
    }
    return found;
  }, selector);
}

for (const lang of ["ar", "en"]) {
  test(`${lang} at 360x740: the cut's urgent countdown, and all the table draws, in fonts the phone has`, { timeout: 60_000 }, async () => {
    // Seat 1 deals first: seat 0, at its right, cuts the first hand's deck.
    const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"], first_dealer: 1 });
    const page = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
    await page.addInitScript(() => localStorage.setItem("calltrump.name", "Sara"));
    const [link, fragment] = created.invites.find((i) => i.seat === 0).url.split("#");
    await page.goto(`${link}?lang=${lang}#${fragment}`);
    const clock = page.locator("#cut-countdown.urgent");
    await clock.waitFor({ timeout: 20_000 });
    assert.match(await clock.textContent(), lang === "ar" ? /^بقي \d ث، ثم قطع عشوائي$/ : /^\d s left, then a random cut$/);
    assert.deepEqual(await missingGlyphs(page, "body *"), [], "no character drawn as a box");
    // The urgent sign is there, drawn (not an empty box of text).
    const sign = await clock.evaluate((node) => {
      const style = getComputedStyle(node, "::before");
      return { width: parseFloat(style.width), border: style.borderTopStyle };
    });
    assert.ok(sign.width > 0 && sign.border === "solid", `the clock face is drawn: ${JSON.stringify(sign)}`);
    await shot(page, `cut-urgent-${lang}-360x740`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
