// What the table and the replay pages draw alike (assets/drawing.js), without a browser:
// the one rule naming seats, and calls by the names the view gives them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// drawing.js reads the games' catalogue through common.js when loaded (none is needed
// here) and its strings through i18n.js (the English file, from disk).
const strings = readFileSync(new URL("../../crates/server/assets/en.ftl", import.meta.url), "utf8");
globalThis.fetch = async (url) => ({ ok: true, json: async () => ({ games: [] }), text: async () => (String(url).endsWith(".ftl") ? strings : "") });
const { actionText, callBubble, contractBubble, contractText, seatLabel, seatName, seatSubject } =
  await import("../../crates/server/assets/drawing.js");

test("a seat is named by one rule: a person, a bot with or without its own name, the viewer", () => {
  assert.equal(seatName(1, { name: "Ann" }), "Ann");
  assert.equal(seatName(3), "Seat 3");
  assert.equal(seatName(2, { bot: true }), "Bot 2");
  assert.equal(seatName(2, { name: "Cy", bot: true }), "Cy (bot)");
  // A bot whose name says it is one (a night's "Bot 1") is not marked twice.
  assert.equal(seatName(2, { name: "Bot 1", bot: true }), "Bot 1");
  assert.equal(seatName(2, { name: "Bot 1", bot: true }, 0), "Bot 1");
  assert.equal(seatName(2, { name: "Robot 1" }), "Robot 1");
  assert.equal(seatName(0, { name: "Ann" }, 0), "You (Ann)");
  assert.equal(seatName(0, {}, 0), "You (Seat 0)");
  assert.equal(seatName(1, { name: "Bo" }, 0), "Bo");
  // In sentences: "You take the trick", "waiting for you".
  assert.equal(seatSubject(0, { name: "Ann" }, 0), "You");
  assert.equal(seatSubject(2, { bot: true }, 0), "Bot 2");
  assert.equal(seatLabel(0, { name: "Ann" }, 0), "you");
  assert.equal(seatLabel(1, { name: "Cy", bot: true }, 0), "Cy (bot)");
});

test("calls go by the names the view gives them, and Malzom by the view's word", () => {
  const names = [["bid 5", "Bab"], ["bid 9", "Bawan"]];
  assert.equal(callBubble("bid 5", names), "Bab (5)");
  assert.equal(callBubble("bid 6", names), "Bid 6");
  assert.equal(callBubble("bid 9", names), "Bawan (9)");
  assert.equal(actionText("bid 9", names), "bid 9 (Bawan)");
  // Every Kout Bo bid has its name (the strings' own, in the page's language); a name
  // the strings do not know is shown as the view gives it.
  assert.equal(callBubble("bid 7", [["bid 7", "Seven"]]), "Seven (7)");
  assert.equal(callBubble("bid 4", [["bid 4", "Four"]]), "Four (4)");
  // Without names (the other games) nothing is renamed.
  assert.equal(callBubble("bid 5"), "Bid 5");
  const kout = { contract: { declarer: 3, bid: "bid 5", alone: false }, call_names: names };
  assert.equal(contractBubble({ ...kout, malzom: false }), "Bab (5)");
  assert.equal(contractBubble({ ...kout, malzom: true }), "Malzom (5)");
  assert.equal(contractText({ ...kout, malzom: true }), "bid 5 (Malzom, the dealer's forced bid)");
  const loner = { contract: { declarer: 1, bid: "call1 H", alone: true }, call_names: [], malzom: false };
  assert.equal(contractText(loner), "call 1 alone in ♥ hearts");
  assert.equal(contractBubble(loner), "Call 1 ♥ · alone");
});
