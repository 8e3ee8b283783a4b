// The hand's order and the cards' names (assets/cards.js), without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cardName, sortHand } from "../../crates/server/assets/cards.js";

test("cards are named as a screen reader should say them", () => {
  assert.equal(cardName("JH"), "jack of hearts");
  assert.equal(cardName("TS"), "ten of spades");
  assert.equal(cardName("2C"), "two of clubs");
  assert.equal(cardName("RJ"), "colour joker");
  assert.equal(cardName("BJ"), "black-and-white joker");
});

test("a hand is sorted trumps first, bowers and jokers on top, colours alternating", () => {
  const hand = ["9C", "AS", "JD", "KH", "JH", "QD", "TH", "AC"];
  // Hearts trump: the right bower JH, the left bower JD, then A K Q 10 9 of hearts.
  assert.deepEqual(sortHand(hand, "bowers", "H"), ["JH", "JD", "KH", "TH", "AC", "9C", "QD", "AS"]);
  // No trump yet: suits alternate black and red, each from its highest card.
  assert.deepEqual(sortHand(hand, "bowers", null), ["AS", "KH", "JH", "TH", "AC", "9C", "QD", "JD"]);
  // No trump: jacks are plain jacks.
  assert.deepEqual(sortHand(hand, "bowers", "NT"), ["AS", "KH", "JH", "TH", "AC", "9C", "QD", "JD"]);
  // Kout Bo: the colour joker, the trump ace, the black-and-white joker, then trump down.
  assert.deepEqual(sortHand(["KS", "BJ", "2S", "AS", "RJ", "AH", "JS"], "jokers", "S"), ["RJ", "AS", "BJ", "KS", "JS", "2S", "AH"]);
  // Bid Euchre's two copies stay side by side.
  assert.deepEqual(sortHand(["JS", "AH", "JS", "JC"], "bowers", "S"), ["JS", "JS", "JC", "AH"]);
});
