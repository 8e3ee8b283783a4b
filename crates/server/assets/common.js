// What the pages share: the games with their variants and options (the engine's
// catalogue), bot levels, teams, the tables this browser holds seats at, and building
// the page (an element by id, a new element, a link with a copy button), and a seated
// player's way out of a table still waiting for players.

import { hasString, t } from "./i18n.js";

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
  input.setAttribute("aria-label", t("link-label", { label }));
  const copy = el("button", { type: "button", textContent: t("copy") });
  copy.setAttribute("aria-label", t("copy-link", { label }));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard access needs a secure page: select the text for copying by hand.
      input.select();
      document.execCommand("copy");
    }
    copy.textContent = t("copied");
    setTimeout(() => { copy.textContent = t("copy"); }, 1500);
  });
  return el("li", {}, el("span", { className: "link-label", textContent: label }), input, copy);
}

/**
 * The games with their variants, each with its facts (seats, direction of play, how a
 * hand is sorted, ...) and options: the engine's catalogue, `GET /api/games`. The pages
 * keep no list of their own.
 */
export const GAMES = await loadGames();

async function loadGames() {
  const response = await fetch("/api/games");
  if (!response.ok) throw new Error(`GET /api/games answered ${response.status}`);
  return (await response.json()).games;
}

/** The catalogue's entry of `variant` of `game` (the game's first without one), or null. */
export function variantFacts(game, variant) {
  const found = GAMES.find((g) => g.id === game);
  return found?.variants.find((v) => v.id === variant) ?? (variant ? null : found?.variants[0] ?? null);
}

export const LEVELS = ["easy", "medium", "hard", "expert", "rules", "random"].map((id) => ({ id, title: levelTitle(id) }));

/** A bot level in words: "rules of thumb". */
export function levelTitle(level) {
  return hasString(`level-${level}`) ? t(`level-${level}`) : level;
}

/** A rating's band of bot levels (`{from, to}`) in words: "hard", "between hard and expert". */
export function bandTitle(band) {
  return band.from === band.to ? levelTitle(band.from)
    : t("level-between", { from: levelTitle(band.from), to: levelTitle(band.to) });
}

/**
 * "Kout Bo · 6 players": the catalogue's titles, or their translations where the
 * strings have them (`game-kout`, `variant-kout6`).
 */
export function gameTitle(game, variant) {
  const found = GAMES.find((g) => g.id === game);
  if (!found) return game;
  const v = found.variants.find((x) => x.id === variant);
  const title = hasString(`game-${game}`) ? t(`game-${game}`) : found.title;
  if (found.variants.length < 2 || !v) return title;
  return `${title} · ${hasString(`variant-${variant}`) ? t(`variant-${variant}`) : v.short ?? v.title}`;
}

/** Seats alternate between the two teams: A (0, 2, 4) and B (1, 3, 5). */
export function teamLetter(seat) {
  return seat % 2 === 0 ? "A" : "B";
}

/** The rating of a player before their first rated game (Weng-Lin's new player). */
export const NEW_PLAYER_RATING = 25;

const KEY = "calltrump.tables";

/** Tables this browser created or sat at, newest first: `{id, seat, url, invites, ...}`. */
export function myTables() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]");
  } catch {
    return [];
  }
}

/**
 * "My tables"' `link` to table `id`, with the host's token if this browser created the
 * table (remembered with it), so that the host comes back with the host's panel.
 */
export function withHostToken(link, id) {
  const url = myTables().find((t) => t.id === id)?.url ?? "";
  const host = new URLSearchParams(url.split("#")[1] ?? "").get("host");
  return host ? `${link}&host=${encodeURIComponent(host)}` : link;
}

export function rememberTable(entry) {
  const rest = myTables().filter((t) => t.id !== entry.id);
  localStorage.setItem(KEY, JSON.stringify([{ ...entry, at: Date.now() }, ...rest].slice(0, 30)));
}

// A seated player's way out of a table still waiting for players, on the table's own
// page as on the lobby's "My tables": `POST /api/tables/{id}/leave` (a seat kept for a
// signed-in account; the host hears of it and the seat waits for someone else). Asked
// first: one click does not give a seat away.

let asking = false;
let refused = null;

/**
 * The "Leave" button (or its question, or why the server refused) for `seat` at table
 * `tableId`; `rerender` draws the page again after a click, `afterLeaving` runs once
 * the seat is given up.
 */
export function leaveSeatBlock(tableId, seat, rerender, afterLeaving) {
  const box = el("div", { className: "leave-seat-box" });
  if (!asking) {
    const button = el("button", { type: "button", className: "leave-seat", textContent: t("table-leave"), title: t("my-table-leave-about") });
    button.addEventListener("click", () => { asking = true; refused = null; rerender(); });
    box.append(button);
  } else {
    const yes = el("button", { type: "button", className: "danger leave-yes", textContent: t("table-leave-yes") });
    const no = el("button", { type: "button", className: "leave-no", textContent: t("host-confirm-no") });
    no.addEventListener("click", () => { asking = false; rerender(); });
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/leave`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      asking = false;
      if (response.ok) return afterLeaving();
      const why = await response.json().catch(() => ({}));
      refused = why.error ?? String(response.status);
      rerender();
    });
    box.append(el("p", { className: "leave-question", textContent: t("table-leave-confirm", { seat }) }), yes, no);
  }
  if (refused) box.append(el("p", { className: "error", role: "alert", textContent: t("my-table-refused", { error: refused }) }));
  return box;
}
