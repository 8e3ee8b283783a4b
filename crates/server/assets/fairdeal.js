// Fair deals (docs/fair-deals.md), checked in the browser: once a hand's seed is
// revealed, the seed must give the commitment announced before the cut, and the seed
// with the cut must deal this seat exactly the cards it was dealt.

const encoder = new TextEncoder();
const COMMIT_LABEL = encoder.encode("calltrump fair deal v1 commit");
const SHUFFLE_LABEL = encoder.encode("calltrump fair deal v1 shuffle");
const SUITS = ["S", "H", "D", "C"];
const RANKS = "23456789TJQKA";

/** The game's deck in its fixed order: suits S H D C from the lowest rank, then the jokers. */
export function deck(game, variant, options = {}) {
  const suitRanks = (ranks, copies = 1) =>
    SUITS.flatMap((s) => [...ranks].flatMap((r) => Array(copies).fill(r + s)));
  switch (game) {
    case "kaibosh":
      return suitRanks("9TJQKA");
    case "bid-euchre":
      return suitRanks("JQKA", 2);
    case "kout": {
      if (variant === "kout4") {
        const cards = suitRanks("6789TJQKA");
        const full = options.deck === "two-undealt";
        return [...cards.filter((c) => full || (c !== "6S" && c !== "6C")), "BJ", "RJ"];
      }
      return [...suitRanks(RANKS), "BJ", "RJ"];
    }
    default:
      throw new Error(`unknown game ${game}`);
  }
}

/** Cards dealt to each seat. */
export function handSize(game) {
  return { kaibosh: 6, "bid-euchre": 8, kout: 9 }[game];
}

function hexBytes(hex) {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error("a seed or commitment is 64 hex digits");
  return Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function u64be(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Whether this page may use Web Crypto (only secure contexts: https or localhost). */
export function canCheck() {
  return Boolean(globalThis.crypto?.subtle);
}

/** The commitment to `seedHex` for hand `hand` of table `table`, as 64 hex digits. */
export async function commitment(seedHex, table, hand) {
  const data = concat(COMMIT_LABEL, hexBytes(seedHex), u64be(hand), encoder.encode(table));
  return toHex(await crypto.subtle.digest("SHA-256", data));
}

/** The seed's 32-bit words, block by block (HMAC-SHA256 over a counter). */
async function* words(seedHex) {
  const key = await crypto.subtle.importKey(
    "raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  for (let block = 0; ; block += 1) {
    const mac = await crypto.subtle.sign("HMAC", key, concat(SHUFFLE_LABEL, u64be(block)));
    const view = new DataView(mac);
    for (let i = 0; i < 8; i += 1) yield view.getUint32(i * 4);
  }
}

/** The deck shuffled from the seed (Fisher-Yates with unbiased draws). */
export async function shuffled(cards, seedHex) {
  const out = [...cards];
  const stream = words(seedHex);
  const draw = async (bound) => {
    const limit = 2 ** 32 - (2 ** 32 % bound);
    for (;;) {
      const { value } = await stream.next();
      if (value < limit) return value % bound;
    }
  };
  for (let i = out.length - 1; i >= 1; i -= 1) {
    const j = await draw(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Every seat's hand: the shuffled deck cut at `cut`, dealt one card at a time from the dealer's next seat. */
export async function dealHands({ game, variant, options, seats, dealer, seed, cut }) {
  const cards = deck(game, variant, options);
  const mixed = await shuffled(cards, seed);
  const top = [...mixed.slice(cut), ...mixed.slice(0, cut)];
  const hands = Array.from({ length: seats }, () => []);
  const size = handSize(game);
  for (let i = 0; i < size * seats; i += 1) hands[(dealer + 1 + i) % seats].push(top[i]);
  return hands;
}

/**
 * Checks a revealed hand: `{commitment, cut, seed}` against the table id, the hand's
 * index, its dealer and the cards this seat was dealt (none for a spectator).
 * Resolves to `{ok, reason, code}`: `code` names the reason for the pages' strings
 * (`commitment-wrong`, `commitment`, `dealt`, `not-dealt`).
 */
export async function checkHand({ rules, seats, table, hand, dealer, check, dealt, seat }) {
  if (await commitment(check.seed, table, hand) !== check.commitment) {
    return { ok: false, code: "commitment-wrong", reason: "the seed does not give the commitment announced before the cut" };
  }
  if (seat == null || !dealt) return { ok: true, code: "commitment", reason: "the seed gives the commitment" };
  const hands = await dealHands({
    game: rules.game, variant: rules.variant, options: rules.options ?? {},
    seats, dealer, seed: check.seed, cut: check.cut,
  });
  const same = [...hands[seat]].sort().join(" ") === [...dealt].sort().join(" ");
  return same
    ? { ok: true, code: "dealt", reason: "the seed gives the commitment and the cut deals your cards" }
    : { ok: false, code: "not-dealt", reason: "the seed and cut do not deal the cards you were dealt" };
}
