// The alexa Bid Euchre night in the browser: started from the lobby with one person and
// three bots, the person's own link leads to their seat, they play the set through the
// table page, and the night's page shows the score sheets and the winner.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot, playSeat, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a night started from the lobby leads Ann to her seat and keeps the score sheets", { timeout: 240_000 }, async () => {
  const host = await newPage(browser, { width: 1280, height: 900 });
  await host.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    localStorage.setItem("calltrump.speed", "fast");
  });
  await host.goto(`${server.url}/`);
  await host.click("#start-night");
  await host.waitForSelector("#player-list li");
  // Ann and three bots; the form starts with five players.
  const rows = host.locator("#player-list li");
  await rows.nth(4).locator("button").click();
  assert.equal(await rows.count(), 4);
  assert.equal(await rows.nth(0).locator(".player-name").inputValue(), "Ann");
  for (const i of [1, 2, 3]) await rows.nth(i).locator(".player-sitter").selectOption("bot:random");
  await host.fill("#sets", "1");
  await host.click("#create-night");
  await host.waitForSelector("#night-created:not([hidden])");
  const links = await host.locator("#player-links input").evaluateAll((inputs) => inputs.map((i) => i.value));
  assert.equal(links.length, 1, "a link for each person only");
  assert.match(links[0], /\/night\/[0-9a-f]{16}#player=[0-9a-f]{32}$/);

  // Ann's link: the night's page says where she plays, and leads there.
  const ann = await newPage(browser, { width: 1280, height: 900 });
  await ann.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    localStorage.setItem("calltrump.speed", "fast");
  });
  await ann.goto(links[0]);
  await ann.waitForSelector("#you a");
  assert.match(await ann.locator("#night-status").textContent(), /^Set 1 of 1\.$/);
  assert.match(await ann.locator("#you").textContent(), /^Ann: you play this set with \w+\./);
  assert.equal(await ann.locator("#sheet tbody tr").count(), 4);
  await shot(ann, "night-start-1280");
  await ann.click("#you a");
  await ann.waitForSelector("body[data-version]:not([data-version=''])");
  const played = await playSeat(ann, { timeout: 90_000 });
  assert.ok(played.plays > 0, "Ann played cards");

  // Back to the night: the set is recorded and the night is over.
  await ann.goto(links[0]);
  await ann.waitForFunction(() => /^The night is over/.test(document.querySelector("#night-status")?.textContent ?? ""), null, { timeout: 30_000 });
  const status = await ann.locator("#night-status").textContent();
  assert.match(status, /^The night is over after 1 set\. (\w+ wins|Shared win: .+)\.$/);
  const totals = await ann.locator("#sheet tbody tr td.score").allTextContents();
  assert.equal(totals.length, 4);
  for (const total of totals) assert.match(total, /^-?\d+$/);
  assert.ok(await ann.locator("#sheet tbody tr.winner th").first().textContent().then((t) => t.startsWith("★ ")),
    "the winner is marked with a star, not by colour alone");
  assert.equal(await ann.locator("#you").isHidden(), true, "nowhere to go after the night");
  await shot(ann, "night-over-1280");
  await ann.setViewportSize({ width: 360, height: 740 });
  assert.ok(await noHorizontalOverflow(ann), "the night's page fits a phone");
  await shot(ann, "night-over-360");
  assert.deepEqual([...host.errors, ...ann.errors], []);
});
