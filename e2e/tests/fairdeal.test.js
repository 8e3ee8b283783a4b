// The browser's fair-deal check (assets/fairdeal.js) against the engine's test vectors:
// the same commitment, shuffle, cut and hands as calltrump's Rust and Python checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { commitment, deck, shuffled, dealHands, checkHand } from "../../crates/server/assets/fairdeal.js";

const vectors = JSON.parse(readFileSync(new URL("../../tests/data/fair-deal/vectors.json", import.meta.url)));

test("every test vector: deck, commitment, shuffle and hands", async () => {
  for (const v of vectors) {
    const name = `${v.game} ${v.variant} cut ${v.cut}`;
    assert.deepEqual(deck(v.game, v.variant, v.options), v.deck, name);
    assert.equal(await commitment(v.seed, v.table, v.hand), v.commitment, name);
    assert.deepEqual(await shuffled(v.deck, v.seed), v.shuffled, name);
    const hands = await dealHands({ game: v.game, variant: v.variant, options: v.options,
      seats: v.hands.length, dealer: v.dealer, seed: v.seed, cut: v.cut });
    assert.deepEqual(hands.map((h) => [...h].sort()), v.hands.map((h) => [...h].sort()), name);
  }
});

test("a changed card or seed is caught", async () => {
  const v = vectors[0];
  const args = { rules: { game: v.game, variant: v.variant, options: v.options }, seats: 4,
    table: v.table, hand: v.hand, dealer: v.dealer, seat: 1,
    check: { commitment: v.commitment, cut: v.cut, seed: v.seed } };
  assert.equal((await checkHand({ ...args, dealt: v.hands[1] })).ok, true);
  const swapped = [...v.hands[1].slice(1), v.hands[2][0]];
  assert.equal((await checkHand({ ...args, dealt: swapped })).ok, false);
  const otherSeed = v.seed.replace(/^./, v.seed[0] === "0" ? "1" : "0");
  assert.match((await checkHand({ ...args, check: { ...args.check, seed: otherSeed }, dealt: v.hands[1] })).reason, /commitment/);
});
