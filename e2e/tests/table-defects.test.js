// What friends stumbled on at the table (issue 29), each seen in the browser: the
// focus stays on the hand or the choices after a move; a stale move, a refused chat
// line, a random cut, a seat given to a bot, a late friend's old link, a link cut
// short and a tap while the server is away are each said in words, and nothing is lost.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, shot } from "../lib.js";

let server, browser;
// A short time to cut, so that the server's random cut comes within the test.
before(async () => { server = await startServer({ cutWaitMs: 1500 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Waits for the page's own turn (a move or a cut); answers which. */
async function myTurn(page) {
  return (await page.waitForFunction(() => {
    const d = document.body.dataset;
    return d.cut === "true" ? "cut" : d.myTurn === "true" ? "turn" : false;
  }, null, { timeout: 30_000, polling: 50 })).jsonValue();
}

/** The first choice the page offers: a call, a trump, or a playable card. */
function firstChoice(page) {
  return page.locator('#controls .choices [data-action], #hand .card.legal').first();
}

test("a random cut is the server's, and the focus stays on the hand or the choices after every move", { timeout: 90_000 }, async () => {
  // Seat 1 deals first: seat 0, on its right, cuts the first deck.
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"], first_dealer: 1 });
  const page = await openSeat(browser, created, 0);
  assert.equal(await myTurn(page), "cut", "seat 0 cuts the first deck");
  // Nothing typed: the server cuts at random once the time runs out.
  await page.waitForSelector('#log li:has-text("The server cut")', { timeout: 10_000 });
  const log = await page.locator("#log").textContent();
  assert.match(log, /The server cut \d+ cards for you: your time to cut ran out\./);
  assert.doesNotMatch(log, /You cut \d+ cards|Your cut the deck/);

  // Moves made with the keyboard: after each, the focus is in the hand or the choices.
  for (let moves = 0; moves < 4; moves += 1) {
    if (await myTurn(page) === "cut") {
      await page.focus('[data-action="cut"]');
    } else {
      await firstChoice(page).focus();
    }
    const version = await page.evaluate(() => document.body.dataset.version);
    await page.keyboard.press("Enter");
    await page.waitForFunction((v) => document.body.dataset.version !== v, version, { timeout: 30_000 });
    const where = await page.evaluate(() => {
      const active = document.activeElement;
      return active?.closest("#hand, #controls") ? "kept" : `${active?.tagName}#${active?.id}`;
    });
    assert.equal(where, "kept", `after move ${moves + 1} the focus is on the hand or the choices`);
    if (await page.evaluate(() => document.body.dataset.phase === "hand-over")) break;
  }
  assert.deepEqual(page.errors, []);
});

test("a stale move and a chat line sent too soon are said in words, and the line is kept", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await newPage(browser);
  // The page's socket, to send what a slow network would: a move at an old version.
  await page.addInitScript(() => {
    localStorage.setItem("calltrump.name", "Ann");
    const Native = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Native {
      constructor(...args) { super(...args); window.__sockets.push(this); }
    };
  });
  await page.goto(created.invites[0].url);
  if (await myTurn(page) === "cut") await page.click('[data-action="cut"]');
  await page.waitForFunction(() => document.body.dataset.myTurn === "true", null, { timeout: 30_000 });
  const action = await firstChoice(page).getAttribute("data-action")
    ?? `play ${await firstChoice(page).getAttribute("data-key").then((k) => k.split(":")[2])}`;
  await page.evaluate((act) => {
    const socket = window.__sockets.at(-1);
    socket.send(JSON.stringify({ type: "act", version: Number(document.body.dataset.version) - 1, action: act }));
  }, action);
  await page.waitForSelector("#toast:not([hidden])");
  const said = await page.textContent("#toast");
  assert.match(said, /^The table moved on before your move arrived/);
  assert.doesNotMatch(said, /stale version|version \d/);

  // Two lines within half a second: the second is refused, and goes back into the box.
  await page.fill("#chat-input", "good luck all");
  await page.press("#chat-input", "Enter");
  await page.fill("#chat-input", "and have fun");
  await page.press("#chat-input", "Enter");
  await page.waitForFunction(() => document.querySelector("#chat-input").value !== "", null, { timeout: 5000 });
  assert.equal(await page.inputValue("#chat-input"), "and have fun");
  assert.match(await page.textContent("#toast"), /slow down: one chat line every half second/);
  await page.waitForSelector('#log :text("good luck all")');
  assert.deepEqual(page.errors, []);
});

test("a seat given to a bot shows no live choices, and the host hears of the old link tried", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  // The host without a seat, watching.
  const host = await newPage(browser);
  await host.goto(`${server.url}/table/${created.id}#host=${created.host_token}`);
  await host.waitForSelector("#host-seat-0");
  const bo = await openSeat(browser, created, 0, { name: "Bo", width: 390, height: 844, isMobile: true, hasTouch: true });
  if (await myTurn(bo) === "cut") await bo.click('[data-action="cut"]');
  await bo.waitForFunction(() => document.body.dataset.myTurn === "true", null, { timeout: 30_000 });
  assert.ok(await firstChoice(bo).count() > 0, "Bo has choices on his turn");

  await host.selectOption("#host-seat-0", "bot:random");
  await host.click(".seat-confirm button.danger");
  await bo.waitForSelector('#turn-line:has-text("the host gave seat 0 to a bot")');
  assert.equal(await bo.locator("#controls button, #controls input").count(), 0, "no live buttons");
  assert.equal(await bo.locator("#hand .card.legal").count(), 0, "no playable card");
  assert.equal(await bo.evaluate(() => document.body.dataset.myTurn), "false");
  await shot(bo, "seat-given-to-bot-390");

  // Bo tries his link again: he is told why, and the host is told he tried.
  await bo.reload();
  await bo.waitForSelector('#conn[data-kind="closed"]');
  await host.waitForSelector('#log li:has-text("Someone tried seat 0\'s old link")', { timeout: 10_000 });
  assert.match(await host.textContent("#log"), /Someone tried seat 0's old link, but a bot plays that seat now/);
  assert.deepEqual([...host.errors, ...bo.errors], []);
});

test("a seat link cut short says what is wrong and where to go", { timeout: 30_000 }, async () => {
  const created = await createTable(server.url, { game: "kout", variant: "kout6", seats: ["open", "bot:rules", "bot:rules", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await page.addInitScript(() => localStorage.setItem("calltrump.name", "Cy"));
  // The link as a chat app might cut it: the token's last characters lost.
  await page.goto(created.invites[0].url.slice(0, -6));
  await page.waitForSelector("#center .gone-notice h2");
  assert.equal(await page.textContent("#center .gone-notice h2"), "This seat link does not work");
  const line = await page.textContent("#turn-line");
  assert.match(line, /cut short when copied/);
  assert.doesNotMatch(`${line} ${await page.textContent("#center")}`, /unknown token/);
  assert.equal(await page.getAttribute('#center a:text("Watch instead")', "href"), `/table/${created.id}`);
  assert.equal(await page.getAttribute("#conn", "data-kind"), "closed");
  await shot(page, "link-cut-short-360");
  // The refusal's own line in the console is the browser's, not the page's.
  assert.deepEqual(page.errors.filter((e) => !/WebSocket/.test(e)), []);
});

// Last: this test stops the file's server.
test("a tap on a card while the server is away is answered at once", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0, { width: 390, height: 844, isMobile: true, hasTouch: true });
  // Play on until a card is to be played.
  for (let step = 0; step < 40; step += 1) {
    if (await myTurn(page) === "cut") {
      await page.click('[data-action="cut"]');
    } else if (await page.locator("#hand .card.legal").count()) {
      break;
    } else {
      const version = await page.evaluate(() => document.body.dataset.version);
      const pass = page.locator('#controls [data-action="pass"]');
      await ((await pass.count()) ? pass : firstChoice(page)).click();
      await page.waitForFunction((v) => document.body.dataset.version !== v, version, { timeout: 30_000 });
      continue;
    }
    await page.waitForFunction(() => document.body.dataset.cut !== "true", null, { timeout: 30_000 });
  }
  const card = page.locator("#hand .card.legal").first();
  assert.equal(await card.count(), 1, "a card to play");
  const version = await page.evaluate(() => document.body.dataset.version);
  await server.stop();
  await page.waitForSelector('#conn[data-kind="connecting"]');
  await card.tap();
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /The server is not answering: your move was not sent/);
  assert.equal(await page.evaluate(() => document.querySelector("#hand").classList.contains("refused")), true, "the hand shows the tap was refused");
  assert.equal(await page.evaluate(() => document.body.dataset.version), version, "nothing moved");
  await shot(page, "tap-while-away-390");
  assert.deepEqual(page.errors.filter((e) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(e)), []);
});
