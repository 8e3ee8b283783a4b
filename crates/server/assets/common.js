// What the pages share: the games with their variants and options (the rules'
// defaults), bot levels, teams, the tables this browser holds seats at, and building
// the page (an element by id, a new element, a link with a copy button).

/** The element with `id`. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element with `props` and `children` (null children left out). */
export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c != null));
  return node;
}

/** A list item: a label, the link in a read-only box, and a button that copies it. */
export function linkRow(label, url) {
  const input = el("input", { value: url, readOnly: true, className: "link" });
  input.setAttribute("aria-label", `${label} link`);
  const copy = el("button", { type: "button", textContent: "Copy" });
  copy.setAttribute("aria-label", `Copy the ${label} link`);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard access needs a secure page: select the text for copying by hand.
      input.select();
      document.execCommand("copy");
    }
    copy.textContent = "Copied";
    setTimeout(() => { copy.textContent = "Copy"; }, 1500);
  });
  return el("li", {}, el("span", { className: "link-label", textContent: label }), input, copy);
}

const ALL_PASS = { key: "all_pass", label: "When everyone passes", default: "redeal",
  choices: [["redeal", "deal again"], ["dealer-must-bid", "the dealer must bid"]] };
const JOKER_LEAD = { key: "joker_lead", label: "Leading a joker", default: "standard",
  choices: [["standard", "standard"], ["contract-only", "contract only"],
    ["all-trumps-played", "once all top trumps are out"], ["trump-ace-played", "once the trump ace is out"]] };

const CUT_RIGHT = { key: "cut", label: "Who cuts", default: "right",
  choices: [["right", "the dealer's right"], ["left", "the dealer's left"]] };
const CUT_LEFT = { ...CUT_RIGHT, default: "left" };
// Every option of the engine's games (`calltrump help play`), at the rules' defaults. A
// number with no default (`optional`) is left out when empty.
const DEALS_8 = { key: "deals", label: "Deals", default: "8", max: 200 };

export const GAMES = {
  kaibosh: { title: "Kaibosh", variants: [
    { id: "standard", title: "Standard", seats: 4, options: [
      { key: "target", label: "Points to win", default: "50", max: 500 },
      { key: "deals", label: "Deals (a short game; alone it ends the game, not the points)", default: "", optional: true, max: 200 },
      ALL_PASS, CUT_RIGHT] },
  ] },
  "bid-euchre": { title: "Bid Euchre", variants: [
    { id: "alexa", title: "Alexa", seats: 4, options: [DEALS_8, ALL_PASS, CUT_RIGHT] },
    { id: "simplified", title: "Simplified", seats: 4, options: [DEALS_8, ALL_PASS, CUT_RIGHT] },
  ] },
  kout: { title: "Kout Bo", variants: [
    { id: "kout6", title: "Six players (54 cards)", short: "6 players", seats: 6, options: [JOKER_LEAD, CUT_LEFT] },
    { id: "kout4", title: "Four players (36 cards)", short: "4 players", seats: 4, options: [JOKER_LEAD,
      { key: "deck", label: "Deck", default: "no-black-sixes",
        choices: [["no-black-sixes", "36 cards: no black sixes"], ["two-undealt", "38 cards: two left undealt"]] }, CUT_LEFT] },
  ] },
};

export const LEVELS = [
  { id: "easy", title: "easy" }, { id: "medium", title: "medium" }, { id: "hard", title: "hard" },
  { id: "expert", title: "expert" }, { id: "rules", title: "rules of thumb" }, { id: "random", title: "random" },
];

export function gameTitle(game, variant) {
  const found = GAMES[game];
  if (!found) return game;
  const v = found.variants.find((x) => x.id === variant);
  return found.variants.length > 1 && v ? `${found.title} · ${v.short ?? v.title}` : found.title;
}

/** Seats alternate between the two teams: A (0, 2, 4) and B (1, 3, 5). */
export function teamLetter(seat) {
  return seat % 2 === 0 ? "A" : "B";
}

const KEY = "calltrump.tables";

/** Tables this browser created or sat at, newest first: `{id, seat, url, invites, ...}`. */
export function myTables() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]");
  } catch {
    return [];
  }
}

export function rememberTable(entry) {
  const rest = myTables().filter((t) => t.id !== entry.id);
  localStorage.setItem(KEY, JSON.stringify([{ ...entry, at: Date.now() }, ...rest].slice(0, 30)));
}
