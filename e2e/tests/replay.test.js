// The replay viewer (/replay): a Bid Euchre record with a loner hand uploaded from a
// file, stepped forward and back with the keyboard, seen face up and from one seat (the
// cards passed face down stay hidden), with the marks of its `analyze --json` output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, launchBrowser, newPage, createTable, openSeat, playSeat, shot, noHorizontalOverflow } from "../lib.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const RECORD = path.join(FIXTURES, "bid-euchre-loner.json");
const ANALYSIS = path.join(FIXTURES, "bid-euchre-loner.analysis.json");
// Hand 7 (index 6): seat 0 calls 2 alone, its partner seat 2 gives two cards face down,
// seat 0 discards two.
const LONER_HAND = 6;

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const stepShown = (page) => page.evaluate(() => Number(document.body.dataset.step));
const faces = (page, selector) => page.locator(`${selector} .card.face`).count();

test("a record is uploaded, stepped through with the keys and seen from one seat", { timeout: 120_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles("#record-file", RECORD);
  await page.waitForSelector("body[data-step='0']");
  assert.equal(await page.locator("#step-count").textContent(), "Step 1 of 290");
  // Every hand face up after the deal: 4 seats of 8 cards, and nothing on the table.
  assert.equal(await faces(page, ".seat .mini-hand"), 32);
  assert.equal(await faces(page, "#center"), 0);

  // Forward with the arrow key through the auction and the first card.
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowRight");
  assert.equal(await stepShown(page), 6);
  assert.match(await page.locator("#turn-line").textContent(), /Hand 1, action 6/);
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await stepShown(page), 4);
  assert.match(await page.locator("#turn-line").textContent(), /Hand 1, action 4/);
  // The contract and trump are shown once named; End goes to the hand's last step.
  await page.keyboard.press("End");
  const hand1End = await stepShown(page);
  assert.ok(hand1End > 30, `hand 1 ends at step ${hand1End}`);
  assert.match(await page.locator("#info").textContent(), /Contract.*Seat \d: bid/);
  assert.match(await page.locator("#center").textContent(), /Hand over/);
  await page.keyboard.press("ArrowRight");
  assert.match(await page.locator("#turn-line").textContent(), /Hand 2: Seat \d deals/);

  // The analysis: its marks come onto the steps.
  await page.setInputFiles("#analysis-file", ANALYSIS);
  await page.waitForSelector("#load-status:has-text('decisions judged')");
  await page.selectOption("#hand-select", "0");
  assert.equal(await stepShown(page), 0);
  const marked = await page.locator("#steps .mark").count();
  assert.ok(marked > 0, "hand 1 has marks");

  // The loner hand, after the partner's give and the loner's discard: face up, both open.
  await page.selectOption("#hand-select", String(LONER_HAND));
  const start = await stepShown(page);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowRight");
  assert.equal(await stepShown(page), start + 6);
  assert.match(await page.locator("#turn-line").textContent(), /Seat 0 — discard queen of spades and king of clubs/);
  assert.match(await page.locator("#info").textContent(), /Seat 2: give ace of hearts and jack of diamonds/);
  // The partner sits out with the 6 cards it kept; the loner holds 8 again.
  assert.equal(await faces(page, ".seat[data-seat='2'] .mini-hand"), 6);
  assert.equal(await faces(page, ".seat[data-seat='0'] .mini-hand"), 8);

  // Seat 1's view: its own 8 cards face up, the others face down, the give and the
  // discard hidden.
  await page.selectOption("#seat-select", "1");
  await page.waitForSelector("body[data-viewer='1']");
  assert.equal(await stepShown(page), start + 6, "the step stays put");
  assert.equal(await faces(page, ".seat[data-seat='1'] .mini-hand"), 8);
  for (const seat of [0, 2, 3]) assert.equal(await faces(page, `.seat[data-seat='${seat}'] .mini-hand`), 0);
  assert.equal(await page.locator(".seat[data-seat='0'] .mini-hand .card.back").count(), 8);
  assert.match(await page.locator("#turn-line").textContent(), /discard a hidden card and a hidden card/);
  assert.match(await page.locator("#info").textContent(), /Seat 2: give a hidden card and a hidden card/);
  // Seat 1 sits at the bottom of its own view.
  assert.match(await page.locator(".seat[data-seat='1']").getAttribute("class"), /pos-0/);
  // A few cards on: the trick in the middle, seen by seat 1 too.
  for (let i = 0; i < 3; i += 1) await page.keyboard.press("ArrowRight");
  assert.equal(await faces(page, "#center"), 3);
  await shot(page, "replay-seat-view-1280");

  // The loner's own view: its discard is its own, open.
  await page.selectOption("#seat-select", "0");
  await page.waitForSelector("body[data-viewer='0']");
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 3; i += 1) await page.keyboard.press("ArrowLeft");
  assert.match(await page.locator("#turn-line").textContent(), /You \(Seat 0\) — discard queen of spades and king of clubs/);

  // Every hand face up again, at the game's last step: game over.
  await page.selectOption("#seat-select", "all");
  await page.waitForSelector("body[data-viewer='all']");
  await page.locator("#forward").focus();
  await page.keyboard.press("PageDown");
  await page.keyboard.press("PageDown");
  await page.locator("#last").click();
  assert.equal(await stepShown(page), 289);
  assert.match(await page.locator("#center").textContent(), /Game over: Team A \(Seat 0, Seat 2\) wins, 20 to 6/);
  await shot(page, "replay-game-over-1280");
  assert.deepEqual(page.errors, []);
});

test("an analyze --json file alone opens its game with the marks", { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles("#analysis-file", ANALYSIS);
  await page.waitForSelector("body[data-step='0']");
  await page.waitForSelector("#load-status:has-text('decisions judged')");
  assert.equal(await page.locator("#step-count").textContent(), "Step 1 of 290");
  // Hand 1's opening bid is marked; its step says so and what was best.
  assert.ok(await page.locator("#steps .mark").count() > 0);
  await page.locator("#forward").click();
  assert.match(await page.locator("#info").textContent(), /Lost \d+\.\d\d points\. Best: /);
  // On a phone: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), "no sideways scrolling at 360 px");
  await shot(page, "replay-analysis-360");
  await page.setViewportSize({ width: 1280, height: 800 });
  // A record of another game with this analysis: the marks are dropped, and it says so.
  const other = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(RECORD, "utf8")));
  other.hands = other.hands.slice(0, 1);
  other.hands[0].actions = [];
  await page.setInputFiles("#record-file", { name: "other.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(other)) });
  await page.waitForSelector("#step-count:has-text('of 1')");
  assert.match(await page.locator("#load-error").textContent(), /another game/);
  assert.equal(await page.locator("#steps .mark").count(), 0);
  assert.deepEqual(page.errors, []);
});

test("a finished table's game-over panel opens its replay; a table not started has none", { timeout: 120_000 }, async () => {
  const created = await createTable(server.url, {
    game: "kaibosh", options: { deals: 1 }, seats: ["open", "bot:rules", "bot:rules", "bot:rules"],
  });
  // Before its first deal there is nothing to replay: refused.
  const early = await fetch(`${server.url}/api/tables/${created.id}/replay`);
  assert.equal(early.status, 409);
  const page = await openSeat(browser, created, 0);
  await playSeat(page, { timeout: 60_000 });
  // Hands count from 1: the one hand of the game is "hand 1 of 1".
  assert.match(await page.locator(".scores caption").textContent(), /hand 1 of 1/);
  const link = page.locator(".summary.final a", { hasText: "Replay this game" });
  await link.click();
  await page.waitForURL(`**/replay/${created.id}`);
  await page.waitForSelector("body[data-step='0']");
  // The server's analysis of the game: its marks on the steps, no file needed.
  await page.waitForSelector("#load-status:has-text('decisions judged')", { timeout: 30_000 });
  const analysis = await (await fetch(`${server.url}/api/tables/${created.id}/analysis`)).json();
  const marked = analysis.hands.flatMap((h) => h.decisions).filter((d) => d.mark).length;
  assert.match(await page.locator("#load-status").textContent(), new RegExp(`${marked} marked`));
  assert.match(await page.locator("#step-count").textContent(), /^Step 1 of \d+$/);
  assert.equal(await faces(page, ".seat .mini-hand"), 24);
  await page.locator("#last").click();
  await page.locator("#last").click();
  assert.match(await page.locator("#center").textContent(), /Game over/);
  // The address says the step and the view: a link opens the game there.
  await page.selectOption("#seat-select", "2");
  await page.waitForSelector("body[data-viewer='2']");
  await page.keyboard.press("Home");
  const at = await stepShown(page);
  const url = page.url();
  assert.match(url, new RegExp(`#step=${at + 1}&view=2$`));
  const again = await newPage(browser);
  await again.goto(url);
  await again.waitForSelector(`body[data-step='${at}'][data-viewer='2']`);
  assert.equal(await again.locator("#seat-select").inputValue(), "2");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
});

test("a record dropped on the page opens", { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/replay`);
  // A drop before the page listens for it would be lost.
  await page.waitForSelector("body[data-ready='true']", { state: "attached" });
  const text = await import("node:fs").then((fs) => fs.readFileSync(RECORD, "utf8"));
  await page.evaluate((content) => {
    const data = new DataTransfer();
    data.items.add(new File([content], "dropped.json", { type: "application/json" }));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, text);
  await page.waitForSelector("body[data-step='0']");
  assert.equal(await page.locator("#step-count").textContent(), "Step 1 of 290");
  assert.deepEqual(page.errors, []);
});

test("a bad record gets the engine's one line; an unknown table is said so", { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles("#record-file", {
    name: "bad.json", mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ game: "kaibosh", hands: [{ deal: [["AS"]] }] })),
  });
  await page.waitForSelector("#load-error:has-text('hand 0: the deal has 1 hands, not 4')");
  assert.equal(await page.locator("#viewer").isHidden(), true);
  const other = await newPage(browser);
  await other.goto(`${server.url}/replay/0123456789abcdef`);
  await other.waitForSelector("#load-error:has-text('0123456789abcdef')");
});

test("on a phone, either way up, the replay's board and step buttons stay on screen as it steps", { timeout: 90_000 }, async () => {
  for (const [width, height] of [[390, 844], [844, 390]]) {
    const page = await newPage(browser, { width, height, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/replay`);
    await page.setInputFiles("#record-file", RECORD);
    await page.waitForSelector("body[data-step='0']");
    for (let i = 1; i <= 12; i += 1) {
      await page.click("#forward");
      await page.waitForFunction((n) => document.body.dataset.step === String(n), i);
      const { scrollY, forward, felt, inner } = await page.evaluate(() => {
        const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
        return { scrollY: window.scrollY, forward: box("forward"), felt: box("felt"), inner: window.innerHeight };
      });
      const at = `${width}x${height}, step ${i}`;
      assert.equal(scrollY, 0, `${at}: the page did not scroll`);
      assert.ok(forward.top >= 0 && forward.bottom <= inner, `${at}: the step button at ${forward.top}..${forward.bottom}`);
      assert.ok(felt.top >= 0 && felt.top < inner, `${at}: the board starts at ${felt.top}`);
      // Held landscape the whole board fits beside the steps: nothing of it below the screen.
      if (width > height) assert.ok(felt.bottom <= inner, `${at}: the board ends at ${felt.bottom}, below ${inner}`);
    }
    assert.ok(await noHorizontalOverflow(page), `${width}x${height}: nothing to scroll sideways`);
    await shot(page, `replay-phone-${width}x${height}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
