// Hints at a table created from the lobby with "allow hints": on the person's turn a
// Hint button (reachable with Tab) asks the server, and the answer shows the three best
// actions with their points beside the choices, the best marked on its bid button and,
// in the play, on its card.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot, createTable, signedNumbers } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Presses Tab until the focused element matches `selector` (at most 80 times). */
async function tabTo(page, selector) {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Waits for the person's turn (cutting the deck when asked); false once the game is over. */
async function myTurn(page) {
  for (;;) {
    const what = await (await page.waitForFunction(() => {
      const d = document.body.dataset;
      if (d.phase === "game-over") return "over";
      if (d.cut === "true") return "cut";
      if (d.myTurn === "true") return "turn";
      return false;
    }, null, { timeout: 60_000, polling: 50 })).jsonValue();
    if (what === "over") return false;
    if (what === "turn") return true;
    const version = await page.evaluate(() => document.body.dataset.version);
    await page.click('[data-action="cut"]');
    await page.waitForFunction((v) => document.body.dataset.version !== v, version, { timeout: 30_000, polling: 50 });
  }
}

/** Asks for a hint with the keyboard; the actions it shows, best first. */
async function askHint(page) {
  const button = page.locator('[data-key="hint"]');
  assert.equal(await button.count(), 1, "a Hint button on the person's turn");
  assert.match(await button.getAttribute("aria-label"), /^Hint/);
  await tabTo(page, '[data-key="hint"]');
  await page.keyboard.press("Enter");
  await page.waitForSelector(".hint-box .hint-actions li", { timeout: 30_000 });
  return page.locator(".hint-box .hint-actions li").evaluateAll((items) => items.map((li) => ({
    action: li.dataset.hintAction, text: li.textContent, best: li.classList.contains("best"),
  })));
}

/** Waits until the page has answered the action just sent. */
async function acted(page, version) {
  await page.waitForFunction((v) => document.body.dataset.version !== v || document.body.dataset.myTurn !== "true",
    version, { timeout: 30_000, polling: 50 });
}

test("Hint shows the three best actions at a table that allows hints", { timeout: 150_000 }, async () => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    localStorage.setItem("calltrump.speed", "fast");
  });
  // The lobby: Kaibosh, you and three bots, hints allowed.
  await page.goto(server.url);
  const allow = page.getByLabel("Allow hints (games against bots)");
  assert.equal(await allow.isChecked(), false, "hints are off unless asked for");
  await allow.check();
  for (let seat = 1; seat < 4; seat += 1) await page.selectOption(`#seat-${seat}`, "bot:rules");
  await page.click("#create");
  await page.waitForSelector("#created:not([hidden])");
  await page.click("#open-seat");
  await page.waitForSelector("body[data-version]:not([data-version=''])");

  let callHinted = false;
  let playHinted = false;
  for (let step = 0; step < 200 && !(callHinted && playHinted); step += 1) {
    if (!(await myTurn(page))) break;
    const version = await page.evaluate(() => document.body.dataset.version);
    const calls = await page.locator(".calls [data-action]").count();
    const playable = await page.locator(".hand .card.legal").count();
    if ((calls && !callHinted) || (playable >= 3 && !playHinted)) {
      const actions = await askHint(page);
      assert.equal(actions.length, 3, JSON.stringify(actions));
      assert.ok(actions[0].best && !actions[1].best, "the best is set apart");
      for (const a of actions) assert.match(a.text, /[+−]\d+\.\d\d$/, "each action with its points");
      const best = actions[0].action;
      if (calls) {
        // The best call is marked on its button.
        assert.equal(await page.locator(".calls .choice.hinted").getAttribute("data-action"), best);
        await shot(page, "hint-call");
        callHinted = true;
      } else {
        const card = await page.locator(".hand .card.hinted").getAttribute("data-card");
        assert.equal(`play ${card}`, best, "the best card is marked in the hand");
        await shot(page, "hint-play");
        playHinted = true;
      }
      await page.click(calls ? `.calls [data-action="${best}"]` : ".hand .card.hinted");
    } else if (calls) {
      await page.click(await page.locator('.calls [data-action="pass"]').count() ? '.calls [data-action="pass"]' : ".calls [data-action]");
    } else if (await page.locator('[data-action^="trump "]').count()) {
      await page.locator('[data-action^="trump "]').first().click();
    } else {
      await page.locator(".hand .card.legal").first().click();
    }
    await acted(page, version);
    // Not the person's turn: no Hint button, and no old hint shown.
    assert.ok(await page.evaluate(() => document.body.dataset.myTurn === "true" || !document.querySelector('[data-key="hint"], .hint-box')),
      "no Hint button nor hint off the person's turn");
  }
  assert.ok(callHinted, "a hint for a call");
  assert.ok(playHinted, "a hint for a card");
  assert.deepEqual(page.errors, []);
});

test("in Arabic a hint's points read with their sign first (+0.50, not 0.50+)", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", hints: true, seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    localStorage.setItem("calltrump.speed", "fast");
  });
  const [link, fragment] = created.invites.find((i) => i.seat === 0).url.split("#");
  await page.goto(`${link}?lang=ar#${fragment}`);
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  assert.ok(await myTurn(page), "Ann's turn comes");
  await page.click('[data-key="hint"]');
  await page.waitForSelector(".hint-box .hint-actions li", { timeout: 30_000 });
  const signed = (await signedNumbers(page)).filter((s) => s.where.includes("hint-points"));
  assert.equal(signed.length, 3, JSON.stringify(signed));
  assert.deepEqual(signed.filter((s) => !s.signLeft), [], "each hint's points with its sign first");
  assert.deepEqual(page.errors.filter((e) => e.startsWith("page error")), []);
});
