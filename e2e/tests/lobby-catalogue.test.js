// The lobby's choices are the engine's catalogue (`GET /api/games`): every game, each of
// its variants, each variant's options with their values and defaults, and its seats.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("the lobby offers exactly the games, variants and options of /api/games", { timeout: 60_000 }, async () => {
  const { games } = await (await fetch(`${server.url}/api/games`)).json();
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready]");
  // No tables yet: nothing more to show (a button's own display once showed it anyway).
  assert.equal(await page.locator("#tables-more").isVisible(), false);
  const values = (selector) => page.locator(`${selector} option`).evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(await values("#game"), games.map((g) => g.id));
  for (const game of games) {
    await page.selectOption("#game", game.id);
    assert.deepEqual(await values("#variant"), game.variants.map((v) => v.id), game.id);
    // The catalogue's rules page, in the page's language.
    assert.equal(await page.getAttribute("#rules-link", "href"), `${game.rules}?lang=en`);
    for (const variant of game.variants) {
      await page.selectOption("#variant", variant.id);
      const fields = await page.locator("#options [name]").evaluateAll((inputs) =>
        inputs.map((i) => ({ key: i.name, value: i.value, choices: i.tagName === "SELECT" ? [...i.options].map((o) => o.value) : [] })));
      assert.deepEqual(fields, variant.options.map((o) => ({
        key: o.key, value: o.default == null ? "" : String(o.default), choices: o.choices.map((c) => c.value),
      })), `${game.id} ${variant.id}`);
      assert.equal(await page.locator("#seat-list select").count(), variant.seats, `${game.id} ${variant.id}`);
    }
  }
  assert.deepEqual(page.errors, []);
});
