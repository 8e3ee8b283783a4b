// The table page's second tryout: a seat is taken when its person sits down (name given),
// not when the link opens; on a phone the chat is a button away, over the table; the
// talk a late spectator (or a reload) reads stands where it was said among the game's
// lines; the phone's bar is one line, no empty panel shows, the lobby's list starts no
// line with "·", and the pace, which spectators keep, applies to the trick on the table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot, noHorizontalOverflow } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function tableStatus(id) {
  const { tables } = await (await fetch(`${server.url}/api/tables`)).json();
  return tables.find((t) => t.id === id);
}

test("the last friend's seat is taken when they sit down, not when the link opens", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  const friend = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await friend.goto(created.invites.find((i) => i.seat === 1).url);
  await friend.waitForSelector("#name-dialog[open]");
  assert.match(await friend.locator("#name-what").textContent(), /you sit at seat 1, team B/);
  // The friend reads the dialog: the table waits, the seat still open to everyone.
  await sleep(1500);
  assert.equal(await host.getAttribute("body", "data-status"), "open");
  assert.equal((await tableStatus(created.id)).status, "open");
  assert.equal((await tableStatus(created.id)).seats[1].sitter, "open");
  await host.waitForSelector('.seat[data-seat="1"] .badge.open');
  assert.match(await host.locator("#turn-line").textContent(), /Waiting for 1 more player/);
  // Escape does not leave the dialog: the seat is taken by sitting down.
  await friend.keyboard.press("Escape");
  assert.equal(await friend.locator("#name-dialog[open]").count(), 1);
  await shot(friend, "seat-dialog-360");
  await friend.fill("#name-input", "Bo");
  await friend.press("#name-input", "Enter");
  await host.waitForSelector('body[data-status="playing"]');
  await host.waitForSelector('.seat[data-seat="1"] .who:has-text("Bo")');
  await friend.waitForSelector('body[data-status="playing"]');
  // The friend plays seat 1: their own cards come once the hand is dealt.
  await friend.waitForFunction(() => document.body.dataset.cut === "true" || document.querySelectorAll("#hand .card").length > 0, null, { timeout: 30_000 });
  assert.equal(await friend.locator(".seat.me").getAttribute("data-seat"), "1");
  assert.deepEqual(host.errors, []);
  assert.deepEqual(friend.errors, []);
  await friend.context().close();
  await host.context().close();
});

const ONE_STEP = new Error("one step");

/**
 * Plays (and cuts) until this seat's turn in one of `phases`, then says `text` in the
 * chat: the table waits for the seat, so the line is said at a known place in the game.
 */
async function sayAtMyTurn(page, text, phases) {
  for (let i = 0; ; i += 1) {
    assert.ok(i < 600, `no turn of this seat in ${phases}`);
    const d = await page.evaluate(() => ({ ...document.body.dataset }));
    if (d.myTurn === "true" && phases.includes(d.phase)) break;
    if (d.myTurn === "true" || d.cut === "true") {
      await playSeat(page, { onStep: () => { throw ONE_STEP; } }).catch((e) => { if (e !== ONE_STEP) throw e; });
    }
    await sleep(50);
  }
  await sleep(600); // one chat line every half second
  await page.fill("#chat-input", text);
  await page.press("#chat-input", "Enter");
  await page.waitForSelector(`#log .chat-line:has-text("${text}")`);
}

/** For each chat line of the log: how many hands were dealt and actions made before it. */
function talkPlaces(page) {
  return page.locator("#log li").evaluateAll((items) => {
    const places = {};
    let hands = 0;
    let actions = 0;
    for (const li of items) {
      if (li.classList.contains("action")) actions += 1;
      else if (/^New hand/.test(li.textContent)) hands += 1;
      else if (li.classList.contains("chat-line")) places[li.querySelector("span").textContent] = [hands, actions];
    }
    return places;
  });
}

test("a late spectator and a reload read the talk where it was said", { timeout: 150_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const ann = await openSeat(browser, created, 0, { name: "Ann" });
  await sayAtMyTurn(ann, "good luck all", ["auction"]);
  await sayAtMyTurn(ann, "my lead now", ["play"]);
  await playSeat(ann, { until: "hand" });
  await sayAtMyTurn(ann, "second hand, here we go", ["auction", "play", "trump-naming"]);
  await playSeat(ann, { until: "hand" });
  await sayAtMyTurn(ann, "third hand", ["auction", "play", "trump-naming"]);
  const live = await talkPlaces(ann);
  assert.equal(Object.keys(live).length, 4);

  const late = await newPage(browser);
  await late.goto(created.watch_url);
  await late.waitForSelector("#log .history-head");
  await late.waitForSelector('#log .chat-line:has-text("third hand")');
  assert.deepEqual(await talkPlaces(late), live, "the spectator's log has each line where it was said");
  // The lines in the order they were said.
  const said = await late.locator("#log .chat-line span").allTextContents();
  assert.deepEqual(said, ["good luck all", "my lead now", "second hand, here we go", "third hand"]);
  await shot(late, "late-spectator-talk-1280");

  await ann.reload();
  await ann.waitForSelector("#log .history-head");
  await ann.waitForSelector('#log .chat-line:has-text("third hand")');
  assert.deepEqual(await talkPlaces(ann), live, "after a reload too");
  // A line said now comes after all of it.
  await ann.fill("#chat-input", "back again");
  await ann.press("#chat-input", "Enter");
  await late.waitForSelector('#log .chat-line:has-text("back again")');
  assert.equal(await late.locator("#log li").last().textContent(), "Ann: back again");
  assert.deepEqual(ann.errors, []);
  assert.deepEqual(late.errors, []);
  await late.context().close();
  await ann.context().close();
});

test("on a phone the chat is a button away, over the table, with the lines unread", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann", width: 1280, height: 800 });
  const phone = await openSeat(browser, created, 1, { name: "Bo", width: 360, height: 740, isMobile: true, hasTouch: true });
  await host.waitForSelector('body[data-status="playing"]');
  await phone.waitForSelector('body[data-status="playing"]');

  // Desktop: the side column beside the table, the chat in it, no chat button.
  assert.equal(await host.locator("#chat-toggle").isVisible(), false);
  assert.ok(await host.locator("#chat-panel").isVisible());
  const table = await host.locator("#table").boundingBox();
  const side = await host.locator("#side").boundingBox();
  assert.ok(side.x >= table.x + table.width, "the side column is beside the table");
  await shot(host, "chat-desktop-1280");

  // Phone: the chat is out of the way, behind a button in the bar.
  assert.ok(await phone.locator("#chat-toggle").isVisible());
  assert.equal(await phone.locator("#chat-panel").isVisible(), false);
  assert.equal(await phone.locator("#chat-unread").isVisible(), false);
  for (const text of ["hi Bo", "your deal?"]) {
    await host.fill("#chat-input", text);
    await host.press("#chat-input", "Enter");
    await host.waitForSelector(`#log .chat-line:has-text("${text}")`);
    await sleep(600);
  }
  await phone.locator("#chat-unread", { hasText: "2" }).waitFor();
  assert.match(await phone.getAttribute("#chat-toggle", "aria-label"), /2 new lines/);
  await shot(phone, "chat-unread-360");
  await phone.click("#chat-toggle");
  const panel = await phone.locator("#chat-panel").boundingBox();
  assert.ok(panel.y > 150 && panel.y + panel.height <= 740.5, `the panel is in the window, the table's top above it: ${JSON.stringify(panel)}`);
  // Still in view above it: the turn line and the top of the felt.
  const felt = await phone.locator("#felt").boundingBox();
  assert.ok(felt.y < panel.y, "the table shows above the chat");
  assert.ok(await phone.locator('#chat-panel .chat-line:has-text("your deal?")').isVisible());
  assert.equal(await phone.locator("#chat-unread").isVisible(), false);
  assert.equal(await phone.getAttribute("#chat-toggle", "aria-expanded"), "true");
  await phone.fill("#chat-input", "hello from the phone");
  await phone.press("#chat-input", "Enter");
  await host.waitForSelector('#log .chat-line:has-text("hello from the phone")');
  assert.ok(await noHorizontalOverflow(phone));
  await shot(phone, "chat-open-360");
  // Closed again (the button in the panel, or Escape): the table is whole.
  await phone.click("#chat-close");
  assert.equal(await phone.locator("#chat-panel").isVisible(), false);
  await phone.click("#chat-toggle");
  await phone.keyboard.press("Escape");
  assert.equal(await phone.locator("#chat-panel").isVisible(), false);
  assert.deepEqual(host.errors, []);
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
  await host.context().close();
});

test("the phone's bar is one line; no empty panel; the lobby's list starts no line with a separator", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", seats: ["open", "open", "open", "bot:rules"] });
  const phone = await openSeat(browser, created, 0, { name: "Ann", width: 360, height: 740, isMobile: true, hasTouch: true });
  const watcher = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector("body[data-version]:not([data-version=''])");
  for (const page of [phone, watcher]) {
    const bar = await page.locator("header.bar").boundingBox();
    assert.ok(bar.height <= 56, `the bar is one line: ${bar.height} px high`);
    assert.ok(await noHorizontalOverflow(page));
    // Rules, Record and Pace behind the menu button.
    await page.click("#menu-toggle");
    assert.ok(await page.locator("#record-link").isVisible());
    assert.ok(await page.locator("#speed").isVisible());
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#speed").isVisible(), false);
  }
  await shot(watcher, "table-watching-360");

  // The replay viewer before a game is opened, on a laptop and a phone: no empty box.
  for (const [width, height] of [[1280, 800], [360, 740]]) {
    const replay = await newPage(browser, { width, height });
    await replay.goto(`${server.url}/replay`);
    const empty = await replay.locator(".panel").evaluateAll((panels) =>
      panels.filter((p) => p.getClientRects().length > 0 && p.textContent.trim() === "").length);
    assert.equal(empty, 0, `${width} px: no empty panel`);
    await shot(replay, `replay-empty-${width}`);
    await replay.context().close();
  }

  // The lobby's tables at 360 px: a row wraps, and no line starts with "·".
  const lobby = await newPage(browser, { width: 360, height: 740 });
  await lobby.goto(server.url);
  await lobby.waitForSelector(".table-row");
  const starts = await lobby.locator(".table-row").evaluateAll((rows) => {
    const found = [];
    for (const row of rows) {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      let lastTop = null;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.data.length; i += 1) {
          if (/\s/.test(node.data[i])) continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (node.data[i] === "·" && (lastTop == null || rect.top > lastTop + 2)) found.push(row.textContent);
          lastTop = rect.top;
        }
      }
    }
    return found;
  });
  assert.deepEqual(starts, [], "no line of a table row starts with ·");
  assert.ok(await noHorizontalOverflow(lobby));
  await shot(lobby, "lobby-tables-360");
  for (const page of [phone, watcher, lobby]) assert.deepEqual(page.errors, []);
  await lobby.context().close();
  await watcher.context().close();
  await phone.context().close();
});

test("a spectator's pace applies to the trick on the table", { timeout: 90_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const ann = await openSeat(browser, created, 0, { name: "Ann", speed: "slow" });
  const watcher = await newPage(browser, { width: 360, height: 740, isMobile: true, hasTouch: true });
  await watcher.addInitScript(() => localStorage.setItem("calltrump.speed", "slow"));
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector('body[data-status="playing"]');
  // How long each won trick shows on the spectator's table.
  await watcher.evaluate(() => {
    window.__holds = [];
    let since = null;
    new MutationObserver(() => {
      const shown = document.querySelector(".center .played.winner") != null;
      if (shown && since == null) since = performance.now();
      if (!shown && since != null) { window.__holds.push(performance.now() - since); since = null; }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const playing = playSeat(ann, { until: "hand", timeout: 60_000 });
  // Slow: a won trick stays over two seconds. Switched to fast while one shows, it goes.
  await watcher.waitForSelector(".center .played.winner", { timeout: 60_000 });
  await sleep(300);
  await watcher.click("#menu-toggle");
  const switched = Date.now();
  await watcher.selectOption("#speed", "fast");
  await watcher.waitForSelector(".center .played.winner", { state: "detached", timeout: 5000 });
  const left = Date.now() - switched;
  assert.ok(left < 1000, `the trick left ${left} ms after the pace became fast (slow holds it 2.4 s)`);
  assert.equal(await watcher.evaluate(() => localStorage.getItem("calltrump.speed")), "fast");
  await playing;
  const holds = await watcher.evaluate(() => window.__holds);
  // After the switch, each trick shows a moment (the hand's last stays under its summary).
  assert.ok(holds.length >= 3, `tricks seen: ${holds.length}`);
  assert.ok(holds.slice(1, -1).every((ms) => ms < 1200), `fast holds: ${holds.map(Math.round).join(", ")}`);
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
  await ann.context().close();
});
