// Ratings in Chromium: "Alice Smith" (a name with a space, as the form says a name may
// hold) signs up, makes a rated table with three bots from the lobby's form, comes back
// to it through My tables as its host, plays it to its end; her page then shows her rating,
// that one game is too few to compare with the bots (and after about how many games a level
// is named), the chart of her rating (drawn by the page as SVG, with the bots' levels across it), and the
// leaderboard lists her. Screenshots of both pages at 1280x800 and 390x844.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, playSeat, shot, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a rated game with bots moves the player's rating, shown on her page and the leaderboard", { timeout: 180_000 }, async () => {
  const page = await newPage(browser);
  await page.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  assert.match(await page.textContent("[data-i18n=sign-up-about]"), /spaces/);
  await page.fill("#sign-up-name", "Alice Smith");
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("body[data-ready=true]");

  // The lobby's form: one deal, Alice at seat 0 and bots elsewhere (its default), rated.
  await page.fill('#options [name="deals"]', "1");
  await page.check("#rated");
  await page.locator("#create").click();
  await page.waitForSelector("#created:not([hidden])");
  await page.locator("#open-seat").click();
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  // Back to the lobby and in again through My tables: still the host (the tryout's bug).
  await page.goto(`${server.url}/`);
  await page.waitForSelector("#my-tables .table-row");
  assert.match(await page.getAttribute("#my-tables a.button", "href"), /#seat=0&host=[0-9a-f]+$/);
  await page.locator("#my-tables a.button").click();
  await page.waitForSelector("#host:not([hidden])");
  await page.waitForSelector("body[data-version]:not([data-version=''])");
  // The game has started: the host's panel offers no handing on of Alice's seat (the
  // server refuses it), only of the bots'.
  await page.waitForSelector('#host .rated-seat:has-text("stays this player\'s")');
  assert.equal(await page.locator("#host-seat-0").count(), 0, "no control for a person's rated seat");
  assert.equal(await page.locator("#host-seat-1").count(), 1, "a bot's seat keeps its control");
  // Nor is there a way to end the rated game under way (the server refuses it too).
  await page.waitForSelector("#host .rated-no-end");
  assert.equal(await page.locator('#host button[data-key="end"]').count(), 0, "no end button while a rated game is played");
  await playSeat(page);
  await page.waitForSelector('body[data-phase="game-over"]');
  // The end says who won, her rating's move and where to see more.
  assert.match(await page.textContent(".summary.final h2"), /^Game over: you (win|lose)/);
  await page.waitForSelector(".rating-changes li");
  assert.equal(await page.locator(".rating-changes li").count(), 1, "one person rated");
  assert.match(await page.textContent(".rating-changes li"), /^Alice Smith 25\.0 → \d+\.\d \([+−]\d+\.\d\)$/);
  assert.equal(await page.getAttribute(".rating-changes li a", "href"), "/players/Alice%20Smith");
  assert.equal(await page.getAttribute(".rating-changes a.leaderboard-link", "href"), "/leaderboard/kaibosh");
  // The ways on (replay, record, lobby) show without scrolling the box (the tryout's).
  const box = await page.locator(".summary.final").boundingBox();
  for (const link of await page.locator(".summary.final .exit-links .button").all()) {
    const at = await link.boundingBox();
    assert.ok(at.y >= box.y && at.y + at.height <= box.y + box.height, `${await link.textContent()} inside the end's box`);
  }

  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844, isMobile: true, hasTouch: true }]) {
    const viewer = size.width === 1280 ? page : await newPage(browser, size);
    await viewer.goto(`${server.url}/players/Alice%20Smith`);
    await viewer.waitForSelector("body[data-ready=true]");
    const figure = await viewer.textContent('.rating[data-family="kaibosh"] .rating-figure');
    assert.match(figure, /^Rating (\d+\.\d) ± \d+\.\d \(rated games: 1\): nearest to (easy|medium|hard|expert) \((\d+\.\d)\) for now, but not yet measured surely enough to say which bot level it plays like\.$/);
    const [, mine, , nearestRating] = figure.match(/^Rating (\d+\.\d) ± \d+\.\d \(rated games: 1\): nearest to (\w+) \((\d+\.\d)\)/).map(Number);
    assert.match(await viewer.textContent('.rating[data-family="kaibosh"] .rating-level-hint'), /usually within about \d+ rated games\.$/);
    assert.equal(await viewer.locator(".rating-chart .point").count(), 1, "one point: one rated game");
    // Her game's row says it was rated (and, not a night's set, names no night).
    assert.equal(await viewer.locator("#games .table-row .tag.rated").count(), 1);
    assert.equal(await viewer.locator("#games .table-row .tag.night").count(), 0);
    assert.equal(await viewer.locator(".rating-chart .bot-level").count(), 4, "the four levels across the chart");
    // The page says how the last game moved the rating (from a new player's 25), and
    // each bot level's line its rating.
    assert.match(await viewer.textContent('.rating[data-family="kaibosh"] .rating-last'), /^Last rated game: 25\.0 → \d+\.\d \([+−]\d+\.\d\)\.$/);
    for (const label of await viewer.locator(".rating-chart .bot-level-name").allTextContents()) {
      assert.match(label, /^(easy|medium|hard|expert) \d+\.\d$/);
      // The level named "nearest for now" is: no bot's rating is nearer hers (to the
      // rounding of the figures shown).
      const level = Number(label.split(" ").pop());
      assert.ok(Math.abs(level - mine) >= Math.abs(nearestRating - mine) - 0.1, `${label} nearer ${mine} than ${nearestRating}`);
    }
    assert.ok(await noHorizontalOverflow(viewer), `the player's page fits ${size.width}`);
    await shot(viewer, `rating-player-${size.width}`);

    await viewer.goto(`${server.url}/leaderboard/kaibosh?min_games=1`);
    await viewer.waitForSelector("body[data-ready=true]");
    assert.equal(await viewer.locator("#board tbody tr").count(), 1);
    assert.equal(await viewer.textContent("#board tbody th a"), "Alice Smith");
    assert.equal(await viewer.textContent("#board tbody td:last-child"), "not yet (too few rated games)");
    assert.equal(await viewer.locator("#bots tbody tr").count(), 4);
    assert.ok(await noHorizontalOverflow(viewer), `the leaderboard fits ${size.width}`);
    await shot(viewer, `rating-leaderboard-${size.width}`);
    // With the server's own minimum of games, nobody is on it yet.
    await viewer.goto(`${server.url}/leaderboard/kaibosh`);
    await viewer.waitForSelector("body[data-ready=true]");
    assert.equal(await viewer.isVisible("#board-empty"), true);
    assert.deepEqual(viewer.errors, []);
  }

  // In Arabic, the leaderboard's words are Arabic.
  await page.goto(`${server.url}/leaderboard/kaibosh?lang=ar`);
  await page.waitForSelector("body[data-ready=true]");
  assert.match(await page.textContent("#players-h"), /اللاعبون المصنّفون/);
});

/** A new page signed up as `name` (a fresh browser context: its own session). */
async function signUp(name, size) {
  const page = await newPage(browser, size);
  await page.addInitScript(() => localStorage.setItem("calltrump.speed", "fast"));
  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", name);
  await page.fill("#sign-up-password", "correct horse");
  await page.locator("#sign-up button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("body[data-ready=true]");
  return page;
}

// Issue 28: at a rated game's end with two people, the second rating line was cut in half
// at the bottom of the end's box. Each line now shows whole, inside the box and the window.
test("a rated game of two people and two bots: at its end both rating lines show whole, at 1280x800 and 390x844", { timeout: 240_000 }, async () => {
  const carol = await signUp("Carol Jones", { width: 1280, height: 800 });
  const dave = await signUp("Dave Brown", { width: 390, height: 844, isMobile: true, hasTouch: true });
  await carol.fill('#options [name="deals"]', "1");
  await carol.selectOption("#seat-2", "open");
  await carol.check("#rated");
  await carol.locator("#create").click();
  await carol.waitForSelector("#created:not([hidden])");
  await carol.fill("#invite-name", "Dave Brown");
  await carol.locator("#invite-send").click();
  await carol.locator("#open-seat").click();
  await carol.waitForSelector("body[data-version]:not([data-version=''])");
  await dave.locator("#invitations a").first().click();
  await dave.waitForSelector("body[data-version]:not([data-version=''])");
  await Promise.all([playSeat(carol), playSeat(dave)]);
  for (const [page, size] of [[carol, { width: 1280, height: 800 }], [dave, { width: 390, height: 844 }]]) {
    await page.waitForSelector('body[data-phase="game-over"]');
    await page.waitForFunction(() => document.querySelectorAll(".rating-changes li").length === 2);
    await page.locator(".summary.final").scrollIntoViewIfNeeded();
    // Nothing hidden inside the box (a line half shown at its edge is not read) ...
    const hidden = await page.locator(".summary.final").evaluate((e) => e.scrollHeight - e.clientHeight);
    assert.ok(hidden <= 1, `the end's box shows all it holds at ${size.width}x${size.height}: ${hidden} px hidden`);
    // ... and each rating line and each way on is inside it and the window.
    const box = await page.locator(".summary.final").boundingBox();
    for (const item of [...await page.locator(".rating-changes li").all(), ...await page.locator(".summary.final .exit-links .button").all()]) {
      const at = await item.boundingBox();
      const what = `${await item.textContent()} at ${size.width}x${size.height}: ${JSON.stringify(at)} in ${JSON.stringify(box)}`;
      assert.ok(at.y >= box.y - 0.5 && at.y + at.height <= box.y + box.height + 0.5, `inside the end's box: ${what}`);
      assert.ok(at.y >= -0.5 && at.y + at.height <= size.height + 0.5, `inside the window: ${what}`);
    }
    assert.ok(await noHorizontalOverflow(page), `the table fits ${size.width}`);
    await shot(page, `rating-end-two-people-${size.width}`);
    assert.deepEqual(page.errors, []);
  }
});
