// What the table and the replay viewer share to draw a game: actions in words, a call's
// bubble, where a seat sits on screen and a card played to the trick.

import { cardFace, cardName, strainText, SUIT_SYMBOLS } from "./cards.js";

/**
 * The name a call goes by in this game, from the view's `call_names` (Kout Bo's "Bab" and
 * "Bawan"), or null.
 */
export function callName(action, names = []) {
  return names.find(([call]) => call === action)?.[1] ?? null;
}

/**
 * An action in words for buttons, the log and screen readers; `names` is the view's
 * `call_names` ("bid 5 (Bab)").
 */
export function actionText(action, names = []) {
  const name = callName(action, names);
  if (name) return `${actionText(action)} (${name})`;
  const [word, ...rest] = action.split(" ");
  const strain = (s) => (s === "NT" ? "no trump" : `${SUIT_SYMBOLS[s]} ${strainText(s).split(" ")[0]}`);
  const cards = (list) => list.map((c) => (c === "??" ? "a hidden card" : cardName(c))).join(" and ");
  switch (word) {
    case "pass": return "pass";
    case "bid": return rest.length === 2 ? `bid ${rest[0]} ${strain(rest[1])}` : `bid ${rest[0]}`;
    case "kaibosh": return "kaibosh (every trick, alone)";
    case "misdeal": return "misdeal";
    case "call2": return `call 2 alone in ${strain(rest[0])}`;
    case "call1": return `call 1 alone in ${strain(rest[0])}`;
    case "moon": return `shoot the moon (alone) in ${strain(rest[0])}`;
    case "trump": return `trump ${strain(rest[0])}`;
    case "give": return `give ${cards(rest)}`;
    case "discard": return `discard ${cards(rest)}`;
    case "play": return `play the ${cardName(rest[0])}`;
    default: return action;
  }
}

/** A call as a seat's bubble shows it: "Pass", "4 ♥", "Kaibosh!", "Bab (5)". */
export function callBubble(action, names = []) {
  const [word, ...rest] = action.split(" ");
  const name = callName(action, names);
  if (name) return `${name} (${rest[0]})`;
  const strain = (s) => (s === "NT" ? "NT" : SUIT_SYMBOLS[s]);
  switch (word) {
    case "pass": return "Pass";
    case "bid": return rest.length === 2 ? `${rest[0]} ${strain(rest[1])}` : `Bid ${rest[0]}`;
    case "kaibosh": return "Kaibosh!";
    case "misdeal": return "Misdeal";
    case "call2": return `Call 2 ${strain(rest[0])}`;
    case "call1": return `Call 1 ${strain(rest[0])}`;
    case "moon": return `Moon ${strain(rest[0])}`;
    default: return action;
  }
}

/** The contract as the declarer's bubble shows it: "4 ♥ · alone", "Malzom (5)". */
export function contractBubble(v) {
  const bid = v.malzom ? "Malzom (5)" : callBubble(v.contract.bid, v.call_names);
  return `${bid}${v.contract.alone ? " · alone" : ""}`;
}

/** The contract in words: "bid 5 (Malzom, the dealer's forced bid)", "call 1 alone in ♥ hearts". */
export function contractText(v) {
  const bid = v.malzom ? `${actionText(v.contract.bid)} (Malzom, the dealer's forced bid)` : actionText(v.contract.bid, v.call_names);
  return `${bid}${v.contract.alone && !/alone|moon/.test(bid) ? ", alone" : ""}`;
}

/**
 * Where `seat` sits on screen among `n`: 0 at the bottom (the seat `base`, whose view it
 * is), then round the table in the order of play (`direction`, the catalogue's fact).
 */
export function seatPosition(seat, n, base, direction) {
  const k = (seat - (base ?? 0) + n) % n;
  // Counter-clockwise play (Kout Bo): the next seat sits on the right.
  return direction === "counter-clockwise" ? (n - k) % n : k;
}

/**
 * A card on the table, towards the screen position `at` of the seat that played it,
 * with who played it written under it (`by`; the label says it to screen readers).
 */
export function playedFace(card, at, label, winner = false, by = null) {
  const face = cardFace(card);
  face.classList.add("played", `at-${at}`);
  face.setAttribute("aria-label", label);
  if (winner) face.classList.add("winner");
  if (by) face.append(Object.assign(document.createElement("span"), { className: "by", textContent: by, ariaHidden: "true" }));
  return face;
}
