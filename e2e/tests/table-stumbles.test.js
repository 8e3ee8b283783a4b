// What a new user stumbled on at the table (issue 29, second round), each seen in the
// browser: a hand's result where a phone player looks; the host asked before a person's
// seat is handed on, in English and in Arabic; a friend still choosing a name told at
// once that the host gave the seat to a bot. (The chat staying open through a turn is in
// table-closed-chat.test.js.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ cutWaitMs: 1500 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const PHONES = [[360, 740], [390, 844], [844, 390]];

test("on a phone a hand's result stays in view on the felt once the next hand starts", { timeout: 120_000 }, async () => {
  for (const [width, height] of PHONES) {
    const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
    const page = await openSeat(browser, created, 0, { name: "Ann", width, height, isMobile: true, hasTouch: true });
    await playSeat(page, { until: "hand" });
    // The next hand begins (this seat may have to cut its deck first).
    await page.waitForFunction(() => {
      const d = document.body.dataset;
      return d.cut === "true" || !["hand-over", "dealing", ""].includes(d.phase);
    }, null, { timeout: 30_000 });
    if (await page.evaluate(() => document.body.dataset.cut === "true")) await page.click('[data-action="cut"]').catch(() => {});
    await page.waitForFunction(() => !["hand-over", "dealing", ""].includes(document.body.dataset.phase), null, { timeout: 30_000 });
    const at = `${width}x${height}`;
    const last = page.locator("#center .center-last");
    await last.waitFor({ timeout: 10_000 });
    const text = await last.textContent();
    assert.match(text, /^Last hand: .*Tricks .*Points /, `${at}: ${text}`);
    // The same words as the side panel's, which is below the hand on a phone.
    assert.equal(text, await page.locator("#info .last-hand").textContent());
    const box = await last.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${at}: the result at ${box?.y}..${box && box.y + box.height}`);
    // Nothing it covers: it lies inside the felt, clear of every seat's box.
    const felt = await page.locator("#felt").boundingBox();
    assert.ok(box.y >= felt.y && box.y + box.height <= felt.y + felt.height, `${at}: the result inside the felt`);
    for (const seat of await page.locator("#felt .seat").all()) {
      const s = await seat.boundingBox();
      const apart = box.y >= s.y + s.height || box.y + box.height <= s.y || box.x >= s.x + s.width || box.x + box.width <= s.x;
      assert.ok(apart, `${at}: the result over a seat at (${s.x}, ${s.y})`);
    }
    await shot(page, `last-hand-result-${at}`);
    // On a laptop the side panel beside the table says it: the felt does not.
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await last.isVisible(), false, "not on the felt of a laptop");
    assert.ok(await page.locator("#info .last-hand").isVisible());
    assert.deepEqual(page.errors, [], at);
    await page.context().close();
  }
});

/** The host's page of `created`, watching, with its seat menus; in `lang` if given. */
async function hostPage(created, lang) {
  const host = await newPage(browser, { width: 1280, height: 800 });
  await host.goto(`${server.url}/table/${created.id}${lang ? `?lang=${lang}` : ""}#host=${created.host_token}`);
  await host.waitForSelector("#host-seat-0");
  return host;
}

test("the host is asked before a person's seat goes to a bot, in English and in Arabic", { timeout: 60_000 }, async () => {
  for (const [lang, question, yes, no] of [
    ["en", "Give Seat 0 (Bo) to a bot (easy)? Its link stops working.", "Yes, hand it on", "Cancel"],
    ["ar", "أتعطي المقعد 0 (Bo) لبوت (سهل)؟ يتوقف رابطه عن العمل.", "نعم، سلّمه", "إلغاء"],
  ]) {
    const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
    const bo = await openSeat(browser, created, 0, { name: "Bo" });
    const host = await hostPage(created, lang);
    await host.waitForSelector('label[for="host-seat-0"]:has-text("Bo")');
    // Chosen, then cancelled: asked, nothing sent, Bo still seated and the menu as it was.
    await host.selectOption("#host-seat-0", "bot:easy");
    const confirm = host.locator(".seat-confirm");
    await confirm.waitFor();
    assert.equal(await confirm.locator("span").first().textContent(), question);
    await shot(host, `host-confirm-${lang}-1280`);
    await host.click(`.seat-confirm button:has-text("${no}")`);
    assert.equal(await confirm.count(), 0);
    assert.equal(await host.inputValue("#host-seat-0"), "open");
    assert.equal(await bo.evaluate(() => document.body.dataset.status), "open");
    assert.equal(await bo.locator("#conn").getAttribute("data-kind"), "ok", "Bo is still at his seat");
    // Chosen and confirmed: the seat is the bot's, Bo's page says so.
    await host.selectOption("#host-seat-0", "bot:easy");
    await host.click(`.seat-confirm button:has-text("${yes}")`);
    await bo.waitForSelector('#conn[data-kind="closed"]', { timeout: 10_000 });
    await host.waitForFunction(() => document.querySelector("#host-seat-0")?.value === "bot:easy");
    // A bot's level changes without a question: no link is lost.
    await host.selectOption("#host-seat-0", "bot:hard");
    assert.equal(await host.locator(".seat-confirm").count(), 0);
    await host.waitForSelector('.seat[data-seat="0"] .badge.bot');
    assert.deepEqual([...host.errors, ...bo.errors.filter((e) => !/WebSocket/.test(e))], [], lang);
    await host.context().close();
    await bo.context().close();
  }
});

test("a friend choosing a name is told at once that the host gave the seat to a bot", { timeout: 60_000 }, async () => {
  for (const lang of ["en", "ar"]) {
    const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
    const host = await hostPage(created);
    const friend = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
    const [link, fragment] = created.invites.find((i) => i.seat === 1).url.split("#");
    await friend.goto(`${link}?lang=${lang}#${fragment}`);
    await friend.waitForSelector("#name-dialog[open]");
    await friend.fill("#name-input", "Cy");
    // The host hands the seat to a bot while the friend has not pressed "Sit down".
    await host.selectOption("#host-seat-1", "bot:easy");
    await host.click(".seat-confirm button.danger");
    await friend.waitForSelector("#name-dialog:not([open])", { state: "attached", timeout: 10_000 });
    const line = await friend.locator("#turn-line").textContent();
    assert.match(line, lang === "en" ? /the host gave this seat to a bot before you sat down/ : /أعطى المضيف هذا المقعد لبوت قبل أن تجلس/);
    const watch = friend.locator("#turn-line a").first();
    assert.equal(await watch.getAttribute("href"), `/table/${created.id}`, "the table can still be watched");
    const box = await friend.locator("#turn-line").boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 844, "said where the friend looks");
    await friend.waitForSelector('#conn[data-kind="closed"]');
    // Nothing was sent in the friend's name: the seat is the bot's, without it.
    await host.waitForSelector('.seat[data-seat="1"] .badge.bot');
    assert.equal(await host.locator('.seat[data-seat="1"] .name').textContent().then((n) => n.includes("Cy")), false);
    await shot(friend, `seat-given-while-naming-${lang}-390`);
    assert.deepEqual([...host.errors, ...friend.errors.filter((e) => !/WebSocket/.test(e))], [], lang);
    await host.context().close();
    await friend.context().close();
  }
});

test("another seat's link pasted into a table's tab opens that seat", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0, { name: "Ann" });
  await page.waitForSelector('#felt .seat.me[data-seat="0"]');
  // Only the fragment differs: the browser does not load the page again by itself.
  await page.goto(created.invites.find((i) => i.seat === 1).url);
  await page.waitForSelector('#felt .seat.me[data-seat="1"]', { timeout: 15_000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
