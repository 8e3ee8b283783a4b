// A player's page: their games played to the end, counted per game and variant, each
// with its replay and analysis; to the player signed in, their tables in play too.

import { $, bandTitle, el, gameTitle, NEW_PLAYER_RATING, withHostToken } from "./common.js";
import { LANG, languageSwitch, num, t, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";
import { ratingChart } from "./chart.js";

translatePage();
$("bar-nav").append(languageSwitch());
$("rules-nav").href = `/rules?lang=${LANG}`;
showAccount($("bar-nav"));

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const date = (seconds) => new Date(seconds * 1000).toLocaleDateString(LANG === "ar" ? "ar" : "en");

/** A table's line: what was played, when, and `actions` (links) at its end. */
function tableRow(held, words, actions) {
  // Whether the game was rated, and the night it was a set of (with its page).
  const kind = [held.rated ? el("span", { className: "tag rated", textContent: t("player-game-rated") }) : null,
    held.night ? el("a", { className: "tag night", href: `/night/${encodeURIComponent(held.night)}`, textContent: t("player-game-night") }) : null]
    .filter(Boolean).flatMap((tag) => ["\u00a0· ", tag]);
  return el("li", { className: "table-row" },
    el("span", { className: "table-what" },
      el("strong", { textContent: gameTitle(held.game, held.variant) }),
      el("span", { className: "hint" }, `\u00a0· ${date(held.created_at)}\u00a0· ${words}`, ...kind)),
    el("span", { className: "actions" }, ...actions));
}

/** A game family's rating: its figure, the level it plays like, and its history's chart. */
function ratingBlock(rating, history) {
  const points = history.filter((p) => p.family === rating.family);
  const game = t(`game-${rating.family}`);
  // Each bot level's line says its rating, so that a player can place their own.
  const bots = rating.bots.map((b) => ({ mu: b.mu, name: `${t(`level-${b.level}`)} ${num(b.mu.toFixed(1))}` }));
  const nearest = [...rating.bots].sort((a, b) => Math.abs(a.mu - rating.mu) - Math.abs(b.mu - rating.mu))[0];
  // The last game's move: from the point before it, or from a new player's 25.
  const last = points.at(-1);
  const before = points.length > 1 ? points.at(-2).mu : NEW_PLAYER_RATING;
  const delta = last ? last.mu - before : 0;
  const block = el("div", { className: "rating" },
    el("h3", {}, el("a", { href: `/leaderboard/${rating.family}`, textContent: game })),
    el("p", { className: "rating-figure", textContent: t(rating.level ? "player-rating" : "player-rating-unplaced", {
      rating: rating.mu.toFixed(1), uncertainty: rating.sigma.toFixed(1), games: rating.games,
      level: rating.level ? bandTitle(rating.level) : "",
      // Not yet placed surely: the bot level nearest for now, said as such.
      nearest: nearest ? t(`level-${nearest.level}`) : "", nearest_rating: nearest ? nearest.mu.toFixed(1) : "",
    }) }),
    last ? el("p", { className: "rating-last", textContent: t("player-last-change", {
      before: before.toFixed(1), after: last.mu.toFixed(1),
      delta: `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)}` }) }) : null,
    rating.level ? null : el("p", { className: "hint rating-level-hint",
      textContent: t("player-level-hint", { games: rating.games_to_compare }) }),
    ratingChart(points, bots, t("player-rating-chart", { game })),
    el("p", { className: "hint chart-legend", textContent: t("player-chart-legend") }));
  block.dataset.family = rating.family;
  return block;
}

async function show() {
  const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
  if (!response.ok) {
    $("player-name").textContent = name;
    $("player-error").hidden = false;
    $("player-error").textContent = response.status === 404 ? t("player-none") : t("account-refused", { error: String(response.status) });
    return;
  }
  const player = await response.json();
  document.title = `calltrump · ${player.name}`;
  $("player-name").textContent = t("player-title", { name: player.name });
  $("player-since").textContent = t("player-since", { date: date(player.since) });
  $("ratings-panel").hidden = player.ratings.length === 0;
  $("ratings").replaceChildren(...player.ratings.map((r) => ratingBlock(r, player.rating_history)));
  if (player.unfinished) {
    $("unfinished-panel").hidden = player.unfinished.length === 0;
    $("unfinished").replaceChildren(...player.unfinished.map((held) => tableRow(held,
      t(held.status === "open" ? "lobby-waiting" : "lobby-playing"),
      // The lobby's wording for the same seat: an invitation not yet taken is "Sit down".
      [el("a", { className: "button primary", href: withHostToken(held.link, held.table), textContent: t(held.invited_by ? "my-table-sit-down" : "my-table-open") })])));
  }
  $("tallies-panel").hidden = false;
  $("no-games").hidden = player.tallies.length > 0;
  $("tallies").hidden = player.tallies.length === 0;
  $("tallies").tBodies[0].replaceChildren(...player.tallies.map((tally) => el("tr", {},
    el("th", { scope: "row", textContent: gameTitle(tally.game, tally.variant) }),
    ...[tally.played, tally.won, tally.lost, tally.drawn].map((n) => el("td", { textContent: String(n) })))));
  $("games-panel").hidden = player.games.length === 0;
  $("games").replaceChildren(...player.games.map((game) => tableRow(game,
    `${t("seat-number", { seat: game.seat })}\u00a0· ${t(`player-result-${game.result}`)}`,
    [el("a", { className: "button", href: game.replay, textContent: t("player-replay") }),
      el("a", { className: "button", href: game.analysis, textContent: t("player-analysis") })])));
}

await show();
document.body.dataset.ready = "true";
