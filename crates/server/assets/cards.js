// Cards: their names and their faces (drawn with CSS, the suit shown by its symbol and
// its letter, never by colour alone). A hand comes sorted from the engine (`sorted_hand`).

import { t } from "./i18n.js";

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// The suit's letter in a card's corner, in the page's language (S, or س for سبيت).
const SUIT_LETTERS = { S: () => t("letter-spades"), H: () => t("letter-hearts"), D: () => t("letter-diamonds"), C: () => t("letter-clubs") };
const JOKERS = ["RJ", "BJ"];

/** A suit's name in words: "hearts". */
export function suitName(suit) {
  return t(`suit-${suit}`);
}

/** `{rank, suit}` of a card in the notation (`JH`, `TS`); jokers have no suit. */
export function parse(code) {
  if (JOKERS.includes(code)) return { rank: code, suit: null, joker: true };
  return { rank: code[0], suit: code[1], joker: false };
}

/** What a screen reader says: "jack of hearts", "colour joker". */
export function cardName(code) {
  if (JOKERS.includes(code)) return t(`card-${code}`);
  const { rank, suit } = parse(code);
  return t("card-name", { rank: t(`rank-${rank}`), suit: suitName(suit) });
}

/** The short printed form: `J♥`, `10♠`, `Joker`. */
export function cardText(code) {
  if (JOKERS.includes(code)) return t(`card-${code}-short`);
  const { rank, suit } = parse(code);
  return `${rank === "T" ? "10" : rank}${SUIT_SYMBOLS[suit]}`;
}

/** A strain as words: "hearts ♥", "no trump". */
export function strainText(strain) {
  if (strain === "NT") return t("no-trump");
  return `${suitName(strain)} ${SUIT_SYMBOLS[strain]}`;
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
    card.append(index("★", code === "RJ" ? t("joker-index-colour") : t("joker-index-bw")));
    pip.textContent = "★";
    letter.textContent = t(`card-${code}-face`);
  } else {
    card.append(index(rank === "T" ? "10" : rank, SUIT_SYMBOLS[suit]));
    pip.textContent = SUIT_SYMBOLS[suit];
    letter.textContent = SUIT_LETTERS[suit]();
  }
  card.append(pip, letter);
  return card;
}
