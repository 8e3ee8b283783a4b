// What the table and the replay viewer draw alike: seats' names, actions in words, a
// call's bubble, where a seat sits on screen, a seat's facts, a card played to the trick
// and the trump mark. Each page adds only what is its own (the table's presence and
// controls, the replay's open hands and marks).

import { cardFace, cardName, strainText, SUIT_SYMBOLS } from "./cards.js";
import { el } from "./common.js";

/**
 * How the pages name a seat. `player` is who sits there, `{name, bot}`: a person by their
 * name ("Ann", "Seat 2" without one), a bot by its own name marked ("Cy (bot)", "Bot 2"
 * without one); the viewer's own seat (`viewer`) says so: "You (Ann)".
 */
export function seatName(seat, { name = null, bot = false } = {}, viewer = null) {
  const base = bot ? (name ? `${name} (bot)` : `Bot ${seat}`) : name || `Seat ${seat}`;
  return seat === viewer ? `You (${base})` : base;
}

/** A seat as the subject of a sentence whose verb agrees with it: "You" for the viewer. */
export function seatSubject(seat, player, viewer) {
  return seat === viewer ? "You" : seatName(seat, player);
}

/** A seat inside a sentence: "you" for the viewer. */
export function seatLabel(seat, player, viewer) {
  return seat === viewer ? "you" : seatName(seat, player);
}

/** The seat to move, or null at a deal or once the game is over. */
export function turnSeat(v) {
  return v?.turn && typeof v.turn === "object" ? v.turn.seat : null;
}

/** `seat`'s last call of this hand's auction, or null. */
export function lastCall(v, seat) {
  const calls = (v?.auction ?? []).filter(([s]) => s === seat);
  return calls.length ? calls[calls.length - 1][1] : null;
}

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
 * What a seat box shows of the hand under its name: the contract's bubble at the
 * declarer, else its call during the auction, and the tricks it took once play begins.
 */
export function seatFacts(v, seat) {
  const facts = el("div", { className: "facts" });
  const call = lastCall(v, seat);
  if (v?.contract?.declarer === seat) facts.append(el("span", { className: "bubble contract", textContent: contractBubble(v) }));
  else if (call && v?.phase === "auction") facts.append(el("span", { className: "bubble", textContent: callBubble(call, v.call_names) }));
  if (v && ["play", "hand-over", "game-over", "exchange"].includes(v.phase)) {
    facts.append(el("span", { className: "tricks", textContent: `tricks ${v.tricks_by_seat[seat] ?? 0}` }));
  }
  return facts;
}

/** The trump mark in the middle of the table: "♥ trump: hearts", "NT no trump". */
export function trumpMark(trump) {
  return el("div", { className: `trump-mark ${trump === "NT" ? "" : `suit-${trump}`}` },
    el("span", { className: "sym", textContent: trump === "NT" ? "NT" : SUIT_SYMBOLS[trump] }),
    el("span", { textContent: trump === "NT" ? "no trump" : `trump: ${strainText(trump).split(" ")[0]}` }));
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
