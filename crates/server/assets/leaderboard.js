// A game family's leaderboard: the best rated players (with enough rated games), each
// with the bot level they play like, and the bots' own ratings.

import { $, bandTitle, el, GAMES, gameTitle } from "./common.js";
import { LANG, languageSwitch, num, t, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";

translatePage();
$("bar-nav").append(languageSwitch());
$("rules-nav").href = `/rules?lang=${LANG}`;
showAccount($("bar-nav"));

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
/** A rating as shown: mean ± uncertainty. */
const shown = (mu, sigma) => `${num(mu.toFixed(1))} ± ${sigma.toFixed(1)}`;

async function show() {
  $("board-title").textContent = t("board-title", { game: gameTitle(game) });
  $("board-games").replaceChildren(...GAMES.map(({ id }) =>
    el("a", { className: id === game ? "button primary" : "button", href: `/leaderboard/${id}${location.search}`, textContent: gameTitle(id) })));
  const least = new URLSearchParams(location.search).get("min_games");
  const query = least ? `?min_games=${encodeURIComponent(least)}` : "";
  const response = await fetch(`/api/leaderboard/${encodeURIComponent(game)}${query}`);
  const board = await response.json();
  if (!response.ok) {
    $("board-error").hidden = false;
    $("board-error").textContent = board.error ?? String(response.status);
    return;
  }
  $("board-min").textContent = t("board-min", { games: board.min_games });
  $("board-empty").hidden = board.players.length > 0;
  $("board").hidden = board.players.length === 0;
  $("board").tBodies[0].replaceChildren(...board.players.map((p, i) => el("tr", {},
    el("td", { textContent: String(i + 1) }),
    el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(p.name)}`, textContent: p.name })),
    el("td", { textContent: shown(p.mu, p.sigma) }),
    el("td", { textContent: String(p.games) }),
    el("td", { textContent: p.level ? bandTitle(p.level) : t("board-level-none") }))));
  $("bots").tBodies[0].replaceChildren(...board.bots.map((b) => el("tr", {},
    el("th", { scope: "row", textContent: t(`level-${b.level}`) }),
    el("td", { textContent: shown(b.mu, b.sigma) }))));
}

await show();
document.body.dataset.ready = "true";
