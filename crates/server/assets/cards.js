// Cards: their names, their faces (drawn with CSS, the suit shown by its symbol and its
// letter, never by colour alone) and the order of a hand, trumps first.

export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_VALUES = { T: 10, J: 11, Q: 12, K: 13, A: 14 };
const SAME_COLOUR = { S: "C", C: "S", H: "D", D: "H" };
const JOKERS = { RJ: "colour joker", BJ: "black-and-white joker" };

/** `{rank, suit}` of a card in the notation (`JH`, `TS`); jokers have no suit. */
export function parse(code) {
  if (code in JOKERS) return { rank: code, suit: null, joker: true };
  return { rank: code[0], suit: code[1], joker: false };
}

function rankValue(rank) {
  return RANK_VALUES[rank] ?? Number(rank);
}

/** What a screen reader says: "jack of hearts", "colour joker". */
export function cardName(code) {
  if (code in JOKERS) return JOKERS[code];
  const { rank, suit } = parse(code);
  return `${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`;
}

/** The short printed form: `J♥`, `10♠`, `Joker`. */
export function cardText(code) {
  if (code in JOKERS) return code === "RJ" ? "colour joker" : "b&w joker";
  const { rank, suit } = parse(code);
  return `${rank === "T" ? "10" : rank}${SUIT_SYMBOLS[suit]}`;
}

/** A strain as words: "hearts ♥", "no trump". */
export function strainText(strain) {
  if (strain === "NT") return "no trump";
  return `${SUIT_NAMES[strain]} ${SUIT_SYMBOLS[strain]}`;
}

/** An element showing a card's face; `tag` is `button` for a card that may be chosen. */
export function cardFace(code, tag = "div") {
  const card = document.createElement(tag);
  const { rank, suit, joker } = parse(code);
  card.className = joker ? `card face joker ${code === "RJ" ? "colour" : "bw"}` : `card face suit-${suit}`;
  card.dataset.card = code;
  card.setAttribute("aria-label", cardName(code));
  if (tag === "button") card.type = "button";
  else card.setAttribute("role", "img");
  const index = (top, bottom) => {
    const corner = document.createElement("span");
    corner.className = "index";
    corner.setAttribute("aria-hidden", "true");
    const r = document.createElement("b");
    r.textContent = top;
    const s = document.createElement("i");
    s.textContent = bottom;
    corner.append(r, s);
    return corner;
  };
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  const letter = document.createElement("span");
  letter.className = "letter";
  letter.setAttribute("aria-hidden", "true");
  if (joker) {
    card.append(index("★", code === "RJ" ? "C" : "BW"));
    pip.textContent = "★";
    letter.textContent = code === "RJ" ? "COLOUR JOKER" : "B&W JOKER";
  } else {
    card.append(index(rank === "T" ? "10" : rank, SUIT_SYMBOLS[suit]));
    pip.textContent = SUIT_SYMBOLS[suit];
    letter.textContent = suit;
  }
  card.append(pip, letter);
  return card;
}

/**
 * Sorts a hand for showing: trumps first (highest first), then the other suits with
 * colours alternating, each from its highest card. `trump` is a suit letter, `NT` or
 * null (not named yet); `handOrder` is the variant's `hand_order` in the catalogue:
 * "bowers" (the jacks of trump's colour on top) or "jokers" (the jokers and the trump ace).
 */
export function sortHand(cards, handOrder, trump) {
  const suitTrump = trump && trump !== "NT" ? trump : null;
  const bowers = handOrder === "bowers" && suitTrump;
  // The suit a card belongs to in this hand: the left bower and the jokers are trumps.
  const effectiveSuit = (code) => {
    const { rank, suit, joker } = parse(code);
    if (joker) return suitTrump ?? "*";
    if (bowers && rank === "J" && suit === SAME_COLOUR[suitTrump]) return suitTrump;
    return suit;
  };
  // Higher is better within the card's suit.
  const power = (code) => {
    const { rank, suit, joker } = parse(code);
    if (joker) return code === "RJ" ? 100 : 98;
    if (handOrder === "jokers" && suit === suitTrump && rank === "A") return 99;
    if (bowers && rank === "J") {
      if (suit === suitTrump) return 60;
      if (suit === SAME_COLOUR[suitTrump]) return 59;
    }
    return rankValue(rank);
  };
  const order = ["S", "H", "C", "D"];
  const first = suitTrump ? order.indexOf(suitTrump) : 0;
  const suitRank = (suit) => {
    if (suit === "*") return -1;
    return (order.indexOf(suit) - first + 4) % 4;
  };
  return [...cards].sort((a, b) =>
    suitRank(effectiveSuit(a)) - suitRank(effectiveSuit(b)) || power(b) - power(a) || (a < b ? -1 : 1));
}
