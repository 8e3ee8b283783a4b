// The table page's third tryout: a link to a table over, ended or unknown says so (and
// links the replay) instead of trying to connect for ever, and keeps trying only while
// the server is away; the host's panel has no "End" once the game is over; chat lines
// unread beside the table are counted; a line typed while the connection reopens is
// sent, not lost, and a closed table's chat takes none; on a phone the chat stays open
// through the player's turn until they close it, and the last trick is shown where it can be seen; the
// bid grid's symbols say what they are; a spectator without a name is not "watching:".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const PHONE = { width: 360, height: 740, isMobile: true, hasTouch: true };

/** Counts the WebSockets the page opens from now on. */
function countSockets(page) {
  const counter = { n: 0 };
  page.on("websocket", () => { counter.n += 1; });
  return counter;
}

/** Refusals the browser logs by itself for a table that is gone (the upgrade's 404). */
const gonesErrors = (errors) => errors.filter((e) => !/404|WebSocket connection/.test(e));

async function endTable(host) {
  await host.click('[data-key="end"]');
  await host.click('[data-key="end"]');
  await host.waitForSelector('body[data-status="ended"]');
}

test("a table ended, or none at the link, says so with its replay and stops trying; a server away is tried again", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  const watcher = await newPage(browser, PHONE);
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector('body[data-status="playing"]');
  // A hand dealt: there is a game to replay.
  await host.waitForFunction(() => !["", "dealing"].includes(document.body.dataset.phase), null, { timeout: 30_000 });
  await endTable(host);
  // Everyone at the table: the end, with the way to its replay and to the lobby.
  for (const page of [host, watcher]) {
    await page.waitForSelector(".summary.final");
    assert.match(await page.locator(".summary.final h2").textContent(), /The host ended the table/);
    assert.equal(await page.getAttribute('.summary.final a:text("Replay this game")', "href"), `/replay/${created.id}`);
    assert.equal(await page.getAttribute('.summary.final a:text("Back to the lobby")', "href"), "/");
    assert.equal(await page.getAttribute('#turn-line a:text("Replay this game")', "href"), `/replay/${created.id}`);
  }
  assert.ok(await noHorizontalOverflow(watcher));
  await shot(watcher, "ended-at-table-360");

  // The table's link opened later: ended, said at once, and not tried again.
  for (const size of [{ width: 1280, height: 800 }, { width: 820, height: 1180 }, PHONE]) {
    const late = await newPage(browser, size);
    const sockets = countSockets(late);
    await late.goto(created.watch_url);
    // (Just after the end the server may still welcome the page to the ended table and
    // close it: then the page tries once more, is refused, and asks why.)
    await late.waitForSelector('.gone-notice h2:text("This table has ended")', { timeout: 10_000 });
    assert.equal(await late.getAttribute('.gone-notice a:text("Replay this game")', "href"), `/replay/${created.id}`);
    assert.equal(await late.getAttribute('.gone-notice a:text("Back to the lobby")', "href"), "/");
    assert.equal(await late.getAttribute("#conn", "data-kind"), "closed");
    assert.match(await late.locator("#turn-line").textContent(), /This table has ended/);
    assert.ok(await late.locator("#chat-input").isDisabled(), "no chat at a table gone");
    const tries = sockets.n;
    assert.ok(tries <= 2, `tries: ${tries}`);
    await sleep(2500);
    assert.equal(sockets.n, tries, "no retry loop");
    assert.ok(await noHorizontalOverflow(late));
    await shot(late, `ended-link-${size.width}`);
    assert.deepEqual(gonesErrors(late.errors), []);
    await late.context().close();
  }

  // No table at all.
  const unknown = await newPage(browser, PHONE);
  await unknown.goto(`${server.url}/table/00000000000000ab`);
  await unknown.waitForSelector('.gone-notice h2:text("There is no table at this link")');
  assert.equal(await unknown.locator('.gone-notice a:text("Replay this game")').count(), 0);
  await shot(unknown, "unknown-link-360");
  await unknown.context().close();

  // While the page connects, the words fit a phone's width.
  const connecting = await newPage(browser, PHONE);
  await connecting.routeWebSocket(/\/ws\//, () => { /* never answered */ });
  await connecting.goto(created.watch_url);
  const note = connecting.locator(".center-status");
  await note.waitFor();
  assert.match(await note.textContent(), /Connecting to the table/);
  const box = await note.boundingBox();
  const felt = await connecting.locator("#felt").boundingBox();
  assert.ok(box.x >= felt.x && box.x + box.width <= felt.x + felt.width, `the words stay on the table: ${JSON.stringify(box)}`);
  const fits = await note.evaluate((n) => n.scrollWidth <= n.clientWidth);
  assert.ok(fits, "no word cut off at the right");
  await shot(connecting, "connecting-360");
  await connecting.context().close();

  // A server that goes away: the page says so and keeps trying.
  const other = await startServer();
  const table = await createTable(other.url, { game: "kaibosh", seats: ["bot:rules", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await newPage(browser, PHONE);
  await page.goto(table.watch_url);
  await page.waitForSelector('body[data-status="playing"]');
  const sockets = countSockets(page);
  await other.stop();
  await page.waitForSelector('#conn[data-kind="connecting"]');
  await page.waitForSelector('#turn-line:has-text("The server is not answering: trying again")');
  await sleep(3000);
  assert.ok(sockets.n >= 2, `tried again: ${sockets.n}`);
  assert.equal(await page.getAttribute("#conn", "data-kind"), "connecting");
  assert.equal(await page.locator(".gone-notice").count(), 0);
  assert.ok(!(await page.locator("#chat-input").isDisabled()), "the chat waits for the server");
  await page.context().close();
  assert.deepEqual(host.errors, []);
  assert.deepEqual(gonesErrors(watcher.errors), []);
  await watcher.context().close();
  await host.context().close();
});

test("beside the table, chat lines said below the fold are counted until the chat is seen", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann", width: 1280, height: 800 });
  const watcher = await newPage(browser);
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector('body[data-status="playing"]');
  // The host's side column: the game, the host's controls, then the chat below the fold.
  await host.evaluate(() => { document.getElementById("side").scrollTop = 0; window.scrollTo(0, 0); });
  const form = await host.locator("#chat-form").boundingBox();
  assert.ok(form.y + form.height > 800, `the chat is below the fold: ${JSON.stringify(form)}`);
  assert.equal(await host.locator("#side-unread").isVisible(), false);
  for (const text of ["gg!", "nice trick"]) {
    await watcher.fill("#chat-input", text);
    await watcher.press("#chat-input", "Enter");
    await host.waitForSelector(`#log .chat-line:has-text("${text}")`);
    await sleep(600);
  }
  // A spectator without a name is a spectator, not "watching:".
  assert.equal(await host.locator("#log .chat-line").first().textContent(), "a spectator (watching): gg!");
  await host.locator("#side-unread", { hasText: "2 new" }).waitFor();
  assert.ok(await host.locator("#side-unread").isVisible());
  assert.match(await host.title(), /^\(2\) /);
  assert.match(await host.locator("#chat-h").textContent(), /2 new/);
  await shot(host, "chat-unread-1280");
  // The badge takes the player to the chat: seen, the count goes.
  await host.click("#side-unread");
  await host.waitForFunction(() => !/^\(/.test(document.title));
  assert.equal(await host.locator("#side-unread").isVisible(), false);
  const seen = await host.locator("#chat-form").boundingBox();
  assert.ok(seen.y + seen.height <= 800, "the chat is in view");
  // In view, a new line is not counted.
  await watcher.fill("#chat-input", "third");
  await watcher.press("#chat-input", "Enter");
  await host.waitForSelector('#log .chat-line:has-text("third")');
  await sleep(300);
  assert.doesNotMatch(await host.title(), /^\(/);
  assert.deepEqual(host.errors, []);
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
  await host.context().close();
});

test("a line typed as the name is set is sent, not lost; a closed table's chat takes none", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  const watcher = await newPage(browser);
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector('body[data-status="playing"]');
  await watcher.fill("#watch-name", "Zoe");
  await watcher.click(".watch-name button");
  // At once, while the connection reopens with the name.
  await watcher.fill("#chat-input", "hello from Zoe");
  await watcher.press("#chat-input", "Enter");
  await host.waitForSelector('#log .chat-line:has-text("hello from Zoe")', { timeout: 10_000 });
  assert.equal(await host.locator('#log .chat-line:has-text("hello from Zoe")').textContent(), "Zoe (watching): hello from Zoe");
  await watcher.waitForSelector('#log .chat-line:has-text("hello from Zoe"):not(.pending)');
  assert.equal(await watcher.locator("#log .chat-line.pending").count(), 0);

  // The host ends the table: the chat box says it is closed and takes nothing.
  await endTable(host);
  await watcher.waitForSelector('body[data-status="ended"]');
  await watcher.waitForSelector("#chat-input:disabled");
  assert.match(await watcher.locator("#chat-note").textContent(), /the table is closed/);
  assert.ok(await watcher.locator('#chat-form button[type="submit"]').isDisabled());
  assert.ok(await host.locator("#chat-input").isDisabled());
  await shot(watcher, "chat-closed-1280");
  assert.deepEqual(host.errors, []);
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
  await host.context().close();
});

test("once the game is over the host is offered no End", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", options: { deals: 1 }, seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  assert.ok(await host.locator('[data-key="end"]').isVisible(), "End while the game is on");
  await playSeat(host);
  await host.waitForSelector('body[data-status="over"]');
  assert.equal(await host.locator('[data-key="end"]').isVisible(), false);
  assert.equal(await host.locator("#host").isVisible(), false);
  assert.equal(await host.getAttribute('.summary.final a:text("Replay this game")', "href"), `/replay/${created.id}`);
  assert.deepEqual(host.errors, []);
  await host.context().close();
});

test("on a phone the chat stays open when the player's turn comes, until they close it", { timeout: 90_000 }, async () => {
  const slow = await startServer({ botDelayMs: 700 });
  try {
    const created = await createTable(slow.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
    const phone = await openSeat(browser, created, 0, { name: "Ann", ...PHONE });
    // Not this seat's turn (acting once if it is), then the chat opens and a line is typed.
    const mine = () => phone.evaluate(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true");
    const one = new Error("one");
    for (let i = 0; i < 5 && (await mine()); i += 1) {
      await playSeat(phone, { onStep: () => { throw one; } }).catch((e) => { if (e !== one) throw e; });
    }
    await phone.waitForFunction(() => document.body.dataset.myTurn === "false" && document.body.dataset.cut === "false");
    await phone.click("#chat-toggle");
    await phone.fill("#chat-input", "half a thought");
    assert.ok(await phone.locator("#chat-panel").isVisible());
    await phone.waitForFunction(() => document.body.dataset.myTurn === "true" || document.body.dataset.cut === "true", null, { timeout: 30_000 });
    // The turn is said on the chat's way back, and the chat stays: what was typed, the focus.
    await phone.waitForSelector("#chat-close.your-turn");
    assert.equal(await phone.locator("#chat-close").textContent(), "✕ Your turn: back to the table");
    assert.match(await phone.locator("#announce").textContent(), /The chat stays open/);
    assert.ok(await phone.locator("#chat-panel").isVisible(), "the chat is still open on the turn");
    assert.ok(await phone.evaluate(() => document.body.classList.contains("chat-open")));
    assert.equal(await phone.inputValue("#chat-input"), "half a thought");
    await shot(phone, "turn-keeps-chat-360");
    // The player closes it: the table and the choices are there.
    await phone.click("#chat-close");
    assert.equal(await phone.locator("#chat-panel").isVisible(), false);
    const line = await phone.locator("#turn-line").boundingBox();
    assert.ok(line.y >= 0 && line.y + line.height <= 740, "the turn line shows");
    const choices = phone.locator("#hand .card.legal, #controls [data-action]").first();
    assert.ok(await choices.isVisible(), "something to play or call shows");
    await phone.click("#chat-toggle");
    assert.equal(await phone.inputValue("#chat-input"), "half a thought");
    assert.deepEqual(phone.errors, []);
    await phone.context().close();
  } finally {
    await slow.stop();
  }
});

test("on a phone the last trick shows on the table, in view", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const phone = await openSeat(browser, created, 0, { name: "Ann", ...PHONE });
  // Play until a trick is taken and this seat is to play in the next.
  const first = new Error("first");
  for (let i = 0; i < 80; i += 1) {
    const d = await phone.evaluate(() => ({ ...document.body.dataset }));
    if (d.phase === "play" && Number(d.tricks) > 0 && d.myTurn === "true") break;
    if (d.myTurn === "true" || d.cut === "true") await playSeat(phone, { onStep: () => { throw first; } }).catch((e) => { if (e !== first) throw e; });
    await sleep(50);
  }
  const toggle = phone.locator('[data-key="last-trick"]');
  await toggle.scrollIntoViewIfNeeded();
  const before = await phone.locator("#felt").boundingBox();
  assert.ok(before.y + before.height < 0 || before.y > 740 || before.y < 0, "the table is out of view, far above the button");
  await toggle.click();
  await phone.waitForSelector(".center .played.winner");
  const felt = await phone.locator("#felt").boundingBox();
  assert.ok(felt.y >= -1 && felt.y + felt.height <= 741, `the table is in view: ${JSON.stringify(felt)}`);
  for (const card of await phone.locator(".center .played").all()) {
    const box = await card.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 740, "each card of the trick is in view");
  }
  await shot(phone, "last-trick-360");
  // Hidden again from the table itself.
  await phone.click('[data-key="hide-last"]');
  assert.equal(await phone.locator(".center .played.winner").count(), 0);
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});

test("the bid grid's symbols and loners say what they are; on a phone no call looks chosen", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  for (const size of [{ width: 1280, height: 800 }, { width: 820, height: 1180 }, PHONE]) {
    const page = await openSeat(browser, created, 0, { name: "Ann", ...size });
    const one = new Error("one");
    for (let i = 0; i < 200; i += 1) {
      const d = await page.evaluate(() => ({ ...document.body.dataset }));
      if (d.myTurn === "true" && d.phase === "auction") break;
      if (d.myTurn === "true" || d.cut === "true") await playSeat(page, { onStep: () => { throw one; } }).catch((e) => { if (e !== one) throw e; });
      await sleep(50);
    }
    // On a phone no call looks chosen where a tap landed: the pointer does not hover.
    // (Its bids come as a picker, tested in phone.test.js.)
    if (size.isMobile) {
      await page.click(".picker-levels button >> nth=1");
      const bid = await page.locator(".picker-strains button").first().boundingBox();
      await page.mouse.move(bid.x + bid.width / 2, bid.y + bid.height / 2);
      const shades = await page.locator(".calls [data-action]").evaluateAll((bs) => [...new Set(bs.map((b) => getComputedStyle(b).backgroundColor))]);
      assert.deepEqual(shades, ["rgb(255, 255, 255)"], "every call looks alike");
      await shot(page, `bid-picker-${size.width}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
      continue;
    }
    const buttons = await page.locator(".bid-grid button").evaluateAll((bs) => bs.map((b) => [b.title, b.getAttribute("aria-label")]));
    assert.ok(buttons.length > 10);
    for (const [title, label] of buttons) assert.equal(title, label.replace(/, the hint's best$/, ""));
    assert.ok(buttons.some(([title]) => title === "call 2 alone in ♠ spades"), buttons.map((b) => b[0]).join(", "));
    assert.match(await page.getAttribute('.bid-grid th:has-text("Call 2")', "title"), /partner gives you 2 cards/);
    assert.match(await page.getAttribute('.bid-grid th:has-text("Call 1")', "title"), /partner gives you 1 card/);
    assert.match(await page.getAttribute('.bid-grid th:has-text("Moon")', "title"), /alone/);
    await shot(page, `bid-grid-${size.width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("the trump mark stays clear of the top card's name, live and in the replay", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", options: { deals: 1 }, seats: ["bot:rules", "bot:rules", "bot:rules", "bot:rules"] });
  const clear = (page) => page.evaluate(() => {
    const mark = document.querySelector(".trump-mark");
    const center = document.querySelector(".center").getBoundingClientRect();
    // A name under a top card is at most 6.5rem wide, centred on the table's middle.
    const tag = 6.5 * parseFloat(getComputedStyle(document.documentElement).fontSize);
    return mark && mark.getBoundingClientRect().right <= center.left + center.width / 2 - tag / 2;
  });
  const live = await newPage(browser, { width: 820, height: 1180 });
  await live.addInitScript(() => localStorage.setItem("calltrump.speed", "slow"));
  await live.goto(created.watch_url);
  await live.waitForSelector(".center .played.at-2 .by", { timeout: 60_000 });
  await live.waitForSelector(".trump-mark");
  assert.ok(await clear(live), "live: the trump mark is clear of the top card's name");
  await shot(live, "trump-mark-820");
  await live.waitForSelector('body[data-status="over"]', { timeout: 60_000 });
  const replay = await newPage(browser, { width: 820, height: 1180 });
  await replay.goto(`${server.url}/replay/${created.id}#step=12`);
  await replay.waitForSelector(".trump-mark");
  assert.ok(await clear(replay), "replay: the trump mark is clear of the top card's name");
  await shot(replay, "trump-mark-replay-820");
  assert.deepEqual(live.errors, []);
  assert.deepEqual(replay.errors, []);
  await replay.context().close();
  await live.context().close();
});
