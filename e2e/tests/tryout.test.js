// What a new player's tryout of the table found (issue 17): the cut's countdown sends the
// number typed before the server cuts at random; a reload rebuilds the log; the card
// winning the trick in play is marked; an ended table (and a record taken mid-game)
// replays with a note; no away badge stays on a closed table; the seat dialog says where
// one sits; a spectator names themself; the lobby offers every option.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot, watchFor } from "../lib.js";

let server, browser;
before(async () => { server = await startServer({ graceSecs: 30 }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Plays whole hands until this seat is the one to cut (it cuts one hand in four). */
async function untilMyCut(page) {
  for (let hand = 0; hand < 6; hand += 1) {
    const what = await (await page.waitForFunction(() => {
      const d = document.body.dataset;
      if (d.cut === "true") return "cut";
      if (d.phase === "game-over") return "over";
      if (["auction", "play", "trump-naming"].includes(d.phase)) return "hand";
      return false;
    }, null, { timeout: 30_000, polling: 50 })).jsonValue();
    if (what === "cut") return;
    assert.notEqual(what, "over", "the game ended before this seat cut");
    // Bidding whenever allowed: every hand is played (none thrown in, whose cut
    // `playSeat` would make).
    await playSeat(page, { until: "hand", call: (calls) => calls.find((c) => c.startsWith("bid ")) ?? calls[0] });
  }
  throw new Error("this seat never had to cut");
}

test("the cut counts down and sends the number typed; the log survives a reload; the winning card is marked", { timeout: 150_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0, { name: "Ann" });
  const seen = await watchFor(page, [".center .played.leading", ".center .played .by"]);
  await untilMyCut(page);
  assert.match(await page.locator("#cut-countdown").textContent(), /^\d+ s left, then a random cut$/);
  // The side panel and the felt speak of the next hand, not the last one's contract.
  assert.match(await page.locator("#info").textContent(), /Hand\s*\d+: waiting for you to cut/);
  assert.doesNotMatch(await page.locator("#info").textContent(), /Contract/);
  await page.fill("#cut-input", "7");
  await page.locator("#cut-countdown", { hasText: /^\d+ s left: 7 will be cut then$/ }).waitFor();
  await shot(page, "cut-countdown-1280");
  // No click: the page sends the 7 itself before the server's wait runs out.
  await page.waitForSelector('#log li:has-text("You cut 7 cards.")', { timeout: 20_000 });
  const cuts = (await page.locator("#log li").allTextContents()).filter((t) => /^You cut \d+ cards\.$/.test(t));
  assert.deepEqual(cuts, ["You cut 7 cards."]);

  // A few cards, then a reload: the log of the game so far is back.
  await page.waitForFunction(() => document.body.dataset.myTurn === "true", null, { timeout: 30_000, polling: 50 });
  await playSeat(page, { until: "hand" });
  const flags = await seen();
  assert.ok(flags[".center .played.leading"], "the card winning the trick in play is marked");
  assert.ok(flags[".center .played .by"], "each trick card says who played it");
  const before = await page.locator("#log li.action").allTextContents();
  assert.ok(before.length > 10, `the log has the hands played: ${before.length}`);
  await page.reload();
  await page.waitForSelector("#log .history-head");
  const after = await page.locator("#log li.action").allTextContents();
  // Every line comes back, the seats named as before ("Bot 2", never "Seat 2").
  for (const line of before) assert.ok(after.includes(line), `"${line}" is in the log after the reload`);
  assert.ok(await page.locator('#log li.history:has-text("New hand")').count() >= 2);
  // A spectator who comes late sees the log too.
  const late = await newPage(browser);
  await late.goto(created.watch_url);
  await late.waitForSelector("#log .history-head");
  const watched = await late.locator("#log li.action").allTextContents();
  assert.ok(watched.length >= 10);
  assert.ok(watched.every((line) => !/^Seat \d/.test(line)), watched.join(" | "));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(late.errors, []);
  await late.context().close();
  await page.context().close();
});

test("an ended table replays with a note, a mid-game record opens, no away badge stays", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, { game: "kaibosh", seats: ["open", "open", "bot:rules", "bot:rules"] });
  const host = await openSeat(browser, created, 0, { host: true, name: "Ann" });
  // The friend's link asks for a name, and says which game, seat and partner it is.
  const friend = await newPage(browser, { width: 360, height: 740 });
  await friend.goto(created.invites.find((i) => i.seat === 1).url);
  await friend.waitForSelector("#name-dialog[open]");
  const what = await friend.locator("#name-what").textContent();
  assert.match(what, /^Kaibosh: you sit at seat 1, team B; your partner is seat 3, Bot 3 \(rules\)\.$/);
  await friend.fill("#name-input", "Bo");
  await friend.press("#name-input", "Enter");
  await host.waitForSelector('.seat[data-seat="1"] .who:has-text("Bo")');
  await host.waitForSelector('body[data-status="playing"]');
  // The first deal: whichever person is to cut, cuts.
  for (let i = 0; i < 200; i += 1) {
    if (await host.evaluate(() => ["auction", "play"].includes(document.body.dataset.phase))) break;
    for (const page of [host, friend]) {
      if (await page.evaluate(() => document.body.dataset.cut === "true")) await page.click('[data-action="cut"]');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Mid-game: the public record opens in the viewer, the hand in progress as its actions.
  await host.waitForFunction(() => ["auction", "play"].includes(document.body.dataset.phase), null, { timeout: 30_000 });
  const record = await (await fetch(`${server.url}/api/tables/${created.id}/record`)).text();
  const viewer = await newPage(browser);
  await viewer.goto(`${server.url}/replay`);
  await viewer.setInputFiles("#record-file", { name: "mid-game.json", mimeType: "application/json", buffer: Buffer.from(record) });
  await viewer.waitForSelector("#replay-note:not([hidden])");
  assert.match(await viewer.locator("#replay-note").textContent(), /in progress/);
  await viewer.waitForSelector(".steps .in-progress-head");

  // The friend leaves: away, counting down; the host ends the table: no badge left.
  await friend.context().close();
  await host.waitForSelector('.seat[data-seat="1"] .badge.away');
  await host.click('[data-key="end"]');
  await host.click('[data-key="end"]');
  await host.waitForSelector('body[data-status="ended"]');
  assert.equal(await host.locator(".seat .badge.away").count(), 0);
  const replay = await fetch(`${server.url}/api/tables/${created.id}/replay`);
  assert.equal(replay.status, 200);
  assert.match((await replay.json()).note, /stops before its end/);
  await viewer.goto(`${server.url}/replay/${created.id}`);
  await viewer.waitForSelector("body[data-step]");
  assert.match(await viewer.locator("#replay-note").textContent(), /stops before its end/);
  // Names and words, not seat numbers and notation.
  const steps = await viewer.locator("#steps li").allTextContents();
  assert.ok(steps.every((t) => !/^seat \d: |^deal \(seat/.test(t)), steps.join(" | "));
  // The table's names: Ann, Bo and the bots as the table page calls them.
  assert.ok(steps.some((t) => /^Deal: (Ann|Bo|Bot [23]) deals$/.test(t)), steps.join(" | "));
  assert.ok(steps.every((t) => !/Seat \d/.test(t)), steps.join(" | "));
  assert.ok(steps.every((t) => !/: (bid \d|play) [2-9TJQKA][SHDC]?\b/.test(t)), "no raw notation");
  // The whole felt fits a laptop's window.
  const box = await viewer.locator("#felt").boundingBox();
  assert.ok(box.y + box.height <= 800, `the felt ends at ${box.y + box.height}`);
  await shot(viewer, "replay-ended-1280");
  assert.deepEqual(host.errors, []);
  assert.deepEqual(viewer.errors, []);
  await viewer.context().close();
  await host.context().close();
});

test("a spectator sends a name; the lobby offers every option and keeps the host's seat", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "kout", variant: "kout4", seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const watcher = await newPage(browser);
  const hellos = [];
  watcher.on("websocket", (ws) => ws.on("framesent", (f) => { if (String(f.payload).includes('"hello"')) hellos.push(JSON.parse(f.payload)); }));
  await watcher.goto(created.watch_url);
  await watcher.waitForSelector('#conn[data-kind="ok"]');
  await watcher.fill("#watch-name", "Zed");
  await watcher.press("#watch-name", "Enter");
  await watcher.waitForFunction(() => localStorage.getItem("calltrump.name") === "Zed");
  // The page says hello again, with the name.
  for (let i = 0; i < 100 && hellos.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  await watcher.waitForFunction(() => document.querySelector("#conn").dataset.kind === "ok");
  assert.equal(hellos.at(-1)?.name, "Zed", JSON.stringify(hellos));
  assert.equal(hellos.at(-1)?.token, undefined);
  // Its chat lines carry the name.
  await watcher.fill("#chat-input", "hello from the rail");
  await watcher.press("#chat-input", "Enter");
  await watcher.waitForSelector('#log .chat-line:has-text("Zed (watching): hello from the rail")');
  assert.deepEqual(watcher.errors, []);

  const lobby = await newPage(browser);
  await lobby.goto(server.url);
  await lobby.selectOption("#game", "kout");
  await lobby.selectOption("#variant", "kout4");
  for (const key of ["joker_lead", "deck", "cut"]) assert.equal(await lobby.locator(`#options [name="${key}"]`).count(), 1, key);
  assert.equal(await lobby.inputValue('#options [name="cut"]'), "left");
  await lobby.selectOption("#game", "kaibosh");
  for (const key of ["target", "deals", "all_pass", "cut"]) assert.equal(await lobby.locator(`#options [name="${key}"]`).count(), 1, key);
  assert.equal(await lobby.inputValue('#options [name="cut"]'), "right");
  // A short Kaibosh game: two deals, the host's own seat reserved in the list.
  await lobby.fill('#options [name="deals"]', "2");
  await lobby.selectOption("#seat-1", "open");
  await lobby.click("#create");
  await lobby.waitForSelector("#created:not([hidden])");
  await lobby.waitForSelector('.table-row:has-text("your seat (reserved)")');
  await lobby.click("#open-seat");
  await lobby.waitForSelector("body[data-version]:not([data-version=''])");
  const goal = await lobby.locator(".scores caption").textContent();
  assert.match(goal, /hand 1 of 2/);
  assert.deepEqual(lobby.errors, []);
  await lobby.context().close();
  await watcher.context().close();
});

test("Bid Euchre at 1280x800: the bid grid, the hint and the hand all in the window, the hint in suit symbols", { timeout: 60_000 }, async () => {
  const created = await createTable(server.url, { game: "bid-euchre", variant: "alexa", hints: true, seats: ["open", "bot:rules", "bot:rules", "bot:rules"] });
  const page = await openSeat(browser, created, 0, { height: 800 });
  await page.waitForFunction(() => document.body.dataset.myTurn === "true" && document.querySelector(".calls .bid-grid"), null, { timeout: 30_000, polling: 50 });
  await page.click('[data-key="hint"]');
  await page.waitForSelector(".hint-box", { timeout: 30_000 });
  await shot(page, "bid-euchre-hint-1280");
  for (const selector of [".hint-box", "#hand", ".bid-grid"]) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(box.y + box.height <= 800, `${selector} ends at ${box.y + box.height}`);
  }
  // Calls and cards in the hint read as the page writes them: "bid 6 ♣ clubs", never "bid 6 C".
  const text = await page.locator(".hint-box").textContent();
  assert.doesNotMatch(text, /\b(bid \d|call[12]|moon|trump) ([SHDC]|NT)\b|\bP\d \(seat/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
