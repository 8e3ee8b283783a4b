// The cards' names (assets/cards.js), without a browser. The hand's order is the
// engine's (the view's `sorted_hand`), tested there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// cards.js names cards through i18n.js: the English strings, from disk.
const strings = readFileSync(new URL("../../crates/server/assets/en.ftl", import.meta.url), "utf8");
globalThis.fetch = async () => ({ ok: true, text: async () => strings });
const { cardName } = await import("../../crates/server/assets/cards.js");

test("cards are named as a screen reader should say them", () => {
  assert.equal(cardName("JH"), "jack of hearts");
  assert.equal(cardName("TS"), "ten of spades");
  assert.equal(cardName("2C"), "two of clubs");
  assert.equal(cardName("RJ"), "colour joker");
  assert.equal(cardName("BJ"), "black-and-white joker");
});
