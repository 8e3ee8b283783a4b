// The pages' strings (assets/en.ftl and assets/ar.ftl), without a browser: both files
// read as Fluent by the pages' own reader, the same keys in each with the same
// variables, and every key the pages use is in them. A failure lists the keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFtl, variables } from "../../crates/server/assets/fluent.js";

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "crates", "server", "assets");
const read = (file) => readFileSync(path.join(ASSETS, file), "utf8");
const FILES = { en: parseFtl(read("en.ftl")), ar: parseFtl(read("ar.ftl")) };

// Keys the pages build from a value: each family's prefix with the values it takes.
const PHASES = ["auction", "trump-naming", "exchange", "play"];
const ERROR_CODES = ["malformed", "too_fast", "hello", "bad_token", "seat_taken", "not_seated", "not_host", "status", "version", "illegal", "bad_seat", "no_hint", "chat", "not_saved", "other"];
const CLOSE_KINDS = ["retry", "idle", "seat_gone", "table_gone", "bad_token", "too_big", "other"];
const FAMILIES = {
  "closing-": CLOSE_KINDS,
  "error-": ERROR_CODES,
  "card-": ["RJ", "BJ", "RJ-short", "BJ-short", "RJ-face", "BJ-face"],
  "badge-level-": ["easy", "medium", "hard", "expert", "rules", "random"],
  "call-name-": ["bid-5", "bid-6", "bid-7", "bid-8", "bid-9"],
  "check-": ["commitment-wrong", "commitment", "dealt", "not-dealt"],
  "game-": ["kaibosh", "bid-euchre", "kout"],
  "gone-": ["over", "ended", "unknown", "damaged"],
  "gone-heading-": ["over", "ended", "unknown", "damaged"],
  "level-": ["easy", "medium", "hard", "expert", "rules", "random", "call2", "call1", "moon"],
  "loner-": ["call2", "call1", "moon"],
  "loner-short-": ["call2", "call1", "moon"],
  "mark-": ["inaccuracy", "mistake", "blunder"],
  "my-turn-": ["auction", "trump-naming", "play"],
  "option-": ["all_pass", "target", "deals", "rounds", "joker_lead", "deck", "cut"],
  "option-choice-": ["redeal", "dealer-must-bid", "standard", "contract-only", "all-trumps-played", "trump-ace-played", "no-black-sixes", "two-undealt", "right", "left"],
  "player-result-": ["won", "lost", "drawn", "ended"],
  "option-meaning-": ["kaibosh-all_pass", "bid-euchre-all_pass", "kaibosh-target", "kaibosh-deals", "bid-euchre-deals", "bid-euchre-rounds", "kout-joker_lead", "kout-deck", "kaibosh-cut", "bid-euchre-cut", "kout-cut"],
  "rank-": ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
  "seat-turn-": [...PHASES, "next"],
  "status-": ["open", "playing", "over", "ended"],
  "suit-": ["S", "H", "D", "C"],
  "tab-gone-": ["over", "ended", "unknown", "damaged"],
  "turn-signal-": ["sound", "vibrate", "notify"],
  "turn-word-": [...PHASES, "next"],
  "variant-": ["standard", "alexa", "simplified", "kout6", "kout4"],
  "length-": ["kout6", "kout4"],
  "waiting-more": ["", "-host"],
  "waiting-one": ["", "-host"],
  "waiting-players": ["", "-host"],
};

/** The first argument of every `t(...)` call in `source` (and `messageNodes(...)`, a message as nodes). */
function firstArguments(source) {
  const found = [];
  for (const match of source.matchAll(/(?<![\w.$])(?:t|messageNodes)\(/g)) {
    let depth = 0;
    let end = match.index + match[0].length;
    for (; end < source.length; end += 1) {
      const c = source[end];
      if ("([{".includes(c)) depth += 1;
      else if (")]}".includes(c)) {
        if (depth === 0) break;
        depth -= 1;
      } else if (c === "," && depth === 0) break;
    }
    found.push(source.slice(match.index + match[0].length, end));
  }
  return found;
}

/** The keys the pages use: `t("key")` (or a key in a branch of its first argument), `data-i18n`. */
function usedKeys() {
  const keys = new Set();
  const templates = new Set();
  for (const file of readdirSync(ASSETS)) {
    const source = read(file);
    if (file.endsWith(".js")) {
      for (const argument of firstArguments(source)) {
        // A literal as the argument or a branch of it (`a ? "x" : "y"`), not one compared.
        for (const [, key] of argument.matchAll(/(?:^|[?:]\s*)"([a-z][a-z0-9-]*)"\s*(?=$|:)/g)) keys.add(key);
        for (const [, prefix] of argument.matchAll(/`([a-z][a-z0-9-]*)\$\{/g)) templates.add(prefix);
      }
      // Keys looked up before use: `hasString(...)` beside `t(...)` of the same key.
      for (const [, prefix] of source.matchAll(/`([a-z][a-z0-9-]*-)\$\{/g)) if (source.includes(`hasString(\`${prefix}`)) templates.add(prefix);
    }
    if (file.endsWith(".html")) {
      for (const [, key] of source.matchAll(/data-i18n="([^"]+)"/g)) keys.add(key);
      for (const [, pairs] of source.matchAll(/data-i18n-attr="([^"]+)"/g)) for (const pair of pairs.split(" ")) keys.add(pair.split(":")[1]);
    }
  }
  return { keys, templates };
}

test("English and Arabic have the same keys, each with the same variables", () => {
  const onlyEnglish = [...FILES.en.keys()].filter((k) => !FILES.ar.has(k));
  const onlyArabic = [...FILES.ar.keys()].filter((k) => !FILES.en.has(k));
  assert.deepEqual(onlyEnglish, [], `in en.ftl only: ${onlyEnglish.join(", ")}`);
  assert.deepEqual(onlyArabic, [], `in ar.ftl only: ${onlyArabic.join(", ")}`);
  const differ = [...FILES.en.keys()].filter((k) => variables(FILES.en.get(k)).sort().join() !== variables(FILES.ar.get(k)).sort().join());
  assert.deepEqual(differ, [], `variables differ: ${differ.join(", ")}`);
  assert.ok(FILES.en.size > 200, `${FILES.en.size} strings`);
});

test("every key the pages use is in both files, and every key is used", () => {
  const { keys, templates } = usedKeys();
  const unknownFamilies = [...templates].filter((p) => !(p in FAMILIES));
  assert.deepEqual(unknownFamilies, [], `keys built from a value this test does not list: ${unknownFamilies.join(", ")}`);
  for (const prefix of templates) for (const value of FAMILIES[prefix]) keys.add(prefix + value);
  for (const lang of ["en", "ar"]) {
    const missing = [...keys].filter((k) => !FILES[lang].has(k));
    assert.deepEqual(missing, [], `missing from ${lang}.ftl: ${missing.join(", ")}`);
  }
  const unused = [...FILES.en.keys()].filter((k) => !keys.has(k));
  assert.deepEqual(unused, [], `in the files but used by no page: ${unused.join(", ")}`);
});

test("the reader refuses what it cannot read, and fills placeables", async () => {
  const { formatPattern } = await import("../../crates/server/assets/fluent.js");
  assert.throws(() => parseFtl("a = 1\na = 2"), /line 2: a is given twice/);
  assert.throws(() => parseFtl("not a message"), /line 1: not a message/);
  assert.equal(formatPattern(FILES.en.get("card-name"), { rank: "jack", suit: "hearts" }), "jack of hearts");
  assert.equal(formatPattern(FILES.en.get("and")), " and ");
});
