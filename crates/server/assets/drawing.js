// What the table and the replay viewer draw alike: seats' names, actions in words, a
// call's bubble, where a seat sits on screen, a seat's facts, a card played to the trick
// and the trump mark. Each page adds only what is its own (the table's presence and
// controls, the replay's open hands and marks).

import { cardFace, cardName, suitName, SUIT_SYMBOLS } from "./cards.js";
import { el } from "./common.js";
import { hasString, t } from "./i18n.js";

/** What the server names the seat of a deleted account. */
export const FORMER_PLAYER = "a former player";

/**
 * How the pages name a seat. `player` is who sits there, `{name, bot}`: a person by their
 * name ("Ann", "Seat 2" without one), a bot by its own name marked ("Cy (bot)", "Bot 2"
 * without one); the viewer's own seat (`viewer`) says so: "You (Ann)".
 */
export function seatName(seat, { name = null, bot = false } = {}, viewer = null) {
  // A deleted account's seat: the server's words for it, in the page's language.
  if (name === FORMER_PLAYER) name = t("former-player");
  const base = bot ? botName(seat, name) : name || t("seat-number", { seat });
  return seat === viewer ? t("seat-you-named", { name: base }) : base;
}

/**
 * A bot as every page names it: "Bot 2" (its seat's number) or its own name, marked as a
 * bot's ("Cy (bot)") unless the name already says so (a night's "Bot 1", in English or
 * in the page's words), never "Bot 1 (bot)". With its level where that matters:
 * `t("bot-with-level", { name: botName(...), level })`, "Bot 2 (medium)".
 */
export function botName(seat, name) {
  if (!name) return t("seat-bot", { seat });
  return saysBot(name) ? name : t("seat-bot-named", { name });
}

/** Whether a name already reads as a bot's: "Bot 3", or the page's own words for it. */
function saysBot(name) {
  const n = name.match(/^\D*(\d+)$/)?.[1];
  return n != null && (name === `Bot ${n}` || name === t("seat-bot", { seat: Number(n) }));
}

/**
 * The message `key` as nodes, each argument in `nodes` (a node or a list of them) put in
 * its place: the page's words around a name kept in its own element.
 */
export function messageNodes(key, args, nodes) {
  const marks = Object.fromEntries(Object.keys(nodes).map((name) => [name, `\u0001${name}\u0001`]));
  return t(key, { ...args, ...marks }).split("\u0001").flatMap((part, i) => (i % 2 ? nodes[part] : part ? [part] : []));
}

/**
 * A name in its own direction (`<bdi>`): "Ann" keeps its place and its parentheses in an
 * Arabic sentence ("أنت (Ann)"), as an Arabic name does in an English one.
 */
export function isolated(...children) {
  return el("bdi", {}, ...children);
}

/**
 * [`seatName`] as nodes, the name isolated: for a seat's box, where names are shown. The
 * words around the name are each a `<span>` and the name a `<bdi class="nm">`, so a box
 * laid out as a row (`.who`) cuts a long name at its own end, in its own direction, and
 * keeps "You (" and ")" whole: a right-to-left line's ellipsis would fall on the start
 * of a Latin name. `badged`: the box marks a bot with a badge, so a named bot's name
 * goes unmarked.
 */
export function seatNameNodes(seat, { name = null, bot = false } = {}, viewer = null, badged = false) {
  if (name === FORMER_PLAYER) name = t("former-player");
  const words = (nodes) => nodes.map((n) => (typeof n === "string" ? el("span", { textContent: n }) : n));
  // The name's own direction set on its box (a `<bdi>`'s automatic one does not turn
  // the box around): its end, where the ellipsis goes, is then the name's end.
  const cut = (...children) => Object.assign(isolated(...children), { className: "nm", ...(name ? { dir: nameDirection(name) } : {}) });
  const own = seat === viewer;
  // A box whose badge says "bot · easy" names a bot by its name alone ("Botty"), as it
  // does "Bot 2": not "Botty (bot)" beside its badge.
  const base = bot ? (!name ? [t("seat-bot", { seat })] : saysBot(name) || badged ? [own ? isolated(name) : cut(name)] : messageNodes("seat-bot-named", {}, { name: own ? isolated(name) : cut(name) }))
    : name ? [own ? isolated(name) : cut(name)] : [t("seat-number", { seat })];
  return words(own ? messageNodes("seat-you-named", {}, { name: cut(...base) }) : base);
}

/** "rtl" for a name whose first letter is of a right-to-left script, else "ltr". */
function nameDirection(name) {
  const letter = name.match(/\p{L}/u)?.[0] ?? "";
  return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u.test(letter) ? "rtl" : "ltr";
}

/** A seat as the subject of a sentence whose verb agrees with it: "You" for the viewer. */
export function seatSubject(seat, player, viewer) {
  return seat === viewer ? t("seat-you") : seatName(seat, player);
}

/** A seat inside a sentence: "you" for the viewer. */
export function seatLabel(seat, player, viewer) {
  return seat === viewer ? t("seat-you-inside") : seatName(seat, player);
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
 * A call's name in the page's language: the catalogue's (English) name, or its
 * translation where the strings have one (`call-name-bid-5` is Bab in Arabic).
 */
function localName(action, name) {
  const call = action.replace(/ /g, "-");
  return hasString(`call-name-${call}`) ? t(`call-name-${call}`) : name;
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
  if (name) return t("action-named", { action: actionText(action), name: localName(action, name) });
  const [word, ...rest] = action.split(" ");
  const strain = (s) => (s === "NT" ? t("no-trump") : `${SUIT_SYMBOLS[s]} ${suitName(s)}`);
  const cards = (list) => list.map((c) => (c === "??" ? t("card-hidden") : cardName(c))).join(t("and"));
  switch (word) {
    case "pass": return t("action-pass");
    case "bid": return rest.length === 2 ? t("action-bid-strain", { n: rest[0], strain: strain(rest[1]) }) : t("action-bid", { n: rest[0] });
    case "kaibosh": return t("action-kaibosh");
    case "misdeal": return t("action-misdeal");
    case "call2": return t("action-call2", { strain: strain(rest[0]) });
    case "call1": return t("action-call1", { strain: strain(rest[0]) });
    case "moon": return t("action-moon", { strain: strain(rest[0]) });
    case "trump": return t("action-trump", { strain: strain(rest[0]) });
    case "give": return t("action-give", { cards: cards(rest) });
    case "discard": return t("action-discard", { cards: cards(rest) });
    case "play": return t("action-play", { card: cardName(rest[0]) });
    default: return action;
  }
}

/** A call as a seat's bubble shows it: "Pass", "4 ♥", "Kaibosh!", "Bab (5)". */
export function callBubble(action, names = []) {
  const [word, ...rest] = action.split(" ");
  const name = callName(action, names);
  if (name) return t("bubble-named", { name: localName(action, name), n: rest[0] });
  const strain = (s) => (s === "NT" ? t("nt") : SUIT_SYMBOLS[s]);
  switch (word) {
    case "pass": return t("bubble-pass");
    case "bid": return rest.length === 2 ? `${rest[0]} ${strain(rest[1])}` : t("bubble-bid", { n: rest[0] });
    case "kaibosh": return t("bubble-kaibosh");
    case "misdeal": return t("bubble-misdeal");
    case "call2": return t("bubble-call2", { strain: strain(rest[0]) });
    case "call1": return t("bubble-call1", { strain: strain(rest[0]) });
    case "moon": return t("bubble-moon", { strain: strain(rest[0]) });
    default: return action;
  }
}

/** The contract as the declarer's bubble shows it: "4 ♥ · alone", "Malzom (5)". */
export function contractBubble(v) {
  const bid = v.malzom ? t("bubble-malzom") : callBubble(v.contract.bid, v.call_names);
  return v.contract.alone ? t("bubble-alone", { bid }) : bid;
}

/** The contract in words: "bid 5 (Malzom, the dealer's forced bid)", "call 1 alone in ♥ hearts". */
export function contractText(v) {
  const bid = v.malzom ? t("contract-malzom", { action: actionText(v.contract.bid) }) : actionText(v.contract.bid, v.call_names);
  // A loner's words say "alone" already.
  const loner = v.contract.bid === "kaibosh" || /^(call[12]|moon) /.test(v.contract.bid);
  return v.contract.alone && !loner ? t("contract-alone", { bid }) : bid;
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
    facts.append(el("span", { className: "tricks", textContent: t("seat-tricks", { n: v.tricks_by_seat[seat] ?? 0 }) }));
  }
  return facts;
}

/**
 * The trump mark in the middle of the table: "♥ trump: hearts", "NT no trump" (in a
 * language whose short form is the words themselves, said once).
 */
export function trumpMark(trump) {
  const words = trump === "NT" ? t("no-trump") : t("trump-mark", { suit: suitName(trump) });
  const sym = trump === "NT" ? t("nt") : SUIT_SYMBOLS[trump];
  return el("div", { className: `trump-mark ${trump === "NT" ? "" : `suit-${trump}`}` },
    el("span", { className: "sym", textContent: sym }),
    sym === words ? null : el("span", { textContent: words }));
}

/**
 * A card on the table, towards the screen position `at` of the seat that played it,
 * with who played it written under it (`by`; the label says it to screen readers).
 */
export function playedFace(card, at, label, winner = false, by = null) {
  const face = cardFace(card);
  face.classList.add("played", `at-${at}`);
  face.setAttribute("aria-label", label);
  if (winner) {
    face.classList.add("winner");
    // The mark above the card (drawn by the style sheet) in the page's language.
    face.dataset.win = t("won-badge");
  }
  if (by) face.append(Object.assign(document.createElement("span"), { className: "by", textContent: by, ariaHidden: "true" }));
  return face;
}
