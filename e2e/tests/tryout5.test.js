// The fifth tryout's stumbles in the pages: a table of bots alone made in the lobby says
// what is true of it; the clock's note does not move the hand; a night's set says who
// plays it to its signed-in player and leads back to the night from every way in.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ cutWaitMs: 500 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

for (const [lang, unattended, words] of [
  ["en", false, /^Kaibosh · every seat is a bot's: the game starts when you open the table, to watch\.$/],
  ["ar", false, /كل المقاعد للبوتات: تبدأ اللعبة حين تفتح الطاولة، لتشاهدها\.$/],
  ["en", true, /^Kaibosh · the bots are playing already: open the table to watch\.$/],
]) {
  test(`${lang}: a lobby table with bots in every seat${unattended ? ", unattended," : ""} does not ask its maker to sit down`, { timeout: 60_000 }, async () => {
    const page = await newPage(browser, { width: 390, height: 844, isMobile: true, hasTouch: true });
    await page.addInitScript((l) => localStorage.setItem("calltrump.lang", l), lang);
    await page.goto(`${server.url}/`);
    await page.waitForSelector("body[data-ready='true']", { state: "attached" });
    await page.selectOption("#game", "kaibosh");
    await page.selectOption("#seat-list select >> nth=0", "bot:medium");
    if (unattended) await page.check("#unattended");
    await page.click("#create");
    await page.waitForSelector("#created:not([hidden])");
    const what = (await page.locator("#created-what").textContent()).trim();
    assert.match(what, words);
    await shot(page, `tryout5-botsonly-${lang}${unattended ? "-unattended" : ""}`);
    // What it says holds: the table opened from the link plays on with nobody seated.
    await page.click("#open-seat");
    await page.waitForSelector("body[data-version]:not([data-version=''])");
    await page.waitForFunction(() => document.querySelector(".seat.to-act") !== null, null, { timeout: 20_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("ar at 360x740: the clock's note comes over what is above the hand, and the hand does not move for it", { timeout: 90_000 }, async () => {
  const size = { width: 360, height: 740 };
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"], turn_clock: { seconds: 3, level: "random" } });
  const page = await openSeat(browser, created, 0, { ...size, isMobile: true, hasTouch: true });
  await page.evaluate(() => localStorage.setItem("calltrump.lang", "ar"));
  await page.reload();
  await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30_000 });
  const note = page.locator("#time-up-note:not([hidden])");
  await note.waitFor({ timeout: 15_000 });
  // In one go (nothing else can change the page between): the hand's top with the note
  // shown and with it hidden.
  const [withNote, without, noteBox] = await page.evaluate(() => {
    const box = document.getElementById("time-up-note");
    const top = () => document.getElementById("hand").getBoundingClientRect().top;
    const shown = top();
    const noteAt = box.getBoundingClientRect().toJSON();
    box.hidden = true;
    const hidden = top();
    box.hidden = false;
    return [shown, hidden, noteAt];
  });
  assert.equal(withNote, without, "the note takes no room above the hand");
  assert.ok(noteBox.bottom <= withNote + 0.5 && noteBox.top >= 0 && noteBox.left >= 0 && noteBox.right <= size.width, `the note above the hand, in the window: ${JSON.stringify(noteBox)} hand at ${withNote}`);
  assert.match((await note.locator("span").textContent()).trim(), /^انتهى وقتك: قرر بوت عنك: .+\.$/);
  await shot(page, "tryout5-time-up-ar-360x740");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** A new page signed in as a new account `name` (signed up through the API). */
async function signedIn(name, size = { width: 390, height: 844 }) {
  const page = await newPage(browser, { ...size, isMobile: true, hasTouch: true });
  await page.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await page.goto(`${server.url}/`);
  const status = await page.evaluate(async (n) => (await fetch("/api/accounts", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: n, password: "a long password" }),
  })).status, name);
  assert.equal(status, 201);
  return page;
}

/** A rated night of one set: `name`'s account and three bots; its id. */
async function ratedNight(page, name) {
  const answer = await page.evaluate(async (n) => {
    const response = await fetch("/api/nights", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ players: [{ name: n, sitter: "person" }, ...[1, 2, 3].map((i) => ({ name: `Bot ${i}`, sitter: "bot:easy" }))], sets: 1, rated: true }),
    });
    return [response.status, await response.json()];
  }, name);
  assert.equal(answer[0], 201, JSON.stringify(answer[1]));
  return answer[1].id;
}

test("a rated night's page opened without the player's link offers the signed-in player their seat", { timeout: 90_000 }, async () => {
  const page = await signedIn("Nora Tester");
  const id = await ratedNight(page, "Nora Tester");
  // As the lobby's "Follow the night" opens it: no #player= token.
  await page.goto(`${server.url}/night/${id}`);
  await page.waitForSelector("#you a", { timeout: 15_000 });
  assert.match(await page.locator("#you").textContent(), /^Nora Tester: you play this set with Bot \d\. Go to your seat$/);
  await shot(page, "tryout5-night-signed-in-no-link");
  // The link takes her seat (her account's) at the set's table, and names the night.
  const href = await page.locator("#you a").getAttribute("href");
  assert.match(href, new RegExp(`#seat=\\d&night=${id}$`));
  await page.click("#you a");
  await page.waitForSelector(".seat.me", { timeout: 15_000 });
  assert.match(await page.locator(".seat.me .name").textContent(), /Nora Tester/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("ar: someone else signed in, on a rated night's page, is offered no seat", { timeout: 60_000 }, async () => {
  const nora = await signedIn("Nora Two");
  const id = await ratedNight(nora, "Nora Two");
  await nora.context().close();
  const omar = await signedIn("عمر");
  await omar.evaluate(() => localStorage.setItem("calltrump.lang", "ar"));
  await omar.goto(`${server.url}/night/${id}`);
  await omar.waitForSelector("#seating a");
  assert.equal(await omar.locator("#you").isHidden(), true);
  assert.equal(await omar.locator("#seating a").textContent(), "شاهد هذه الجولة");
  assert.deepEqual(omar.errors, []);
  await omar.context().close();
});

test("a night's set reached through \"My tables\" ends with the way back to the night", { timeout: 180_000 }, async () => {
  const page = await signedIn("Nora Three", { width: 1280, height: 900 });
  const id = await ratedNight(page, "Nora Three");
  await page.goto(`${server.url}/`);
  const mine = page.locator("#my-tables .table-row a.button").first();
  await mine.waitFor({ timeout: 15_000 });
  const href = await mine.getAttribute("href");
  assert.doesNotMatch(href, /night=/, "the link names no night");
  await mine.click();
  await page.waitForSelector(".seat.me");
  await playSeat(page, { timeout: 150_000 });
  const back = page.locator(".summary.final #back-to-night");
  await back.waitFor({ timeout: 10_000 });
  assert.equal(await back.getAttribute("href"), `/night/${id}`);
  assert.equal((await back.textContent()).trim(), "The night: scores and the next set");
  await shot(page, "tryout5-night-set-over-from-my-tables");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
