// The alexa Bid Euchre night: start one (players, people or bots, and the sets), then
// follow it: each player's link leads to their seat at the set being played, or to
// watch it when they sit out, and everyone sees the score sheets set by set.

import { $, el, levelTitle, linkRow, LEVELS } from "/assets/common.js";
import { languageSwitch, num, t, translatePage } from "/assets/i18n.js";
import { showAccount, whoAmI } from "/assets/account.js";

// The page's words in the page's language, and the language switch.
translatePage();
document.querySelector(".bar nav").append(languageSwitch());
showAccount(document.querySelector(".bar nav"));

const POLL_MS = 2000;
const nightId = location.pathname.split("/")[2] ?? "";

/** A set's table link that names this night, so the table leads back to it (and on to the next set). */
function withNight(link) {
  return `${link}${link.includes("#") ? "&" : "#"}night=${encodeURIComponent(nightId)}`;
}

/** The player's token: from the link's fragment, remembered for this night. */
function playerToken() {
  const key = `calltrump.night.${nightId}`;
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("player");
  if (fromLink) localStorage.setItem(key, fromLink);
  return fromLink ?? localStorage.getItem(key);
}

function playerRow(name = "", sitter = "person") {
  const nameInput = el("input", { value: name, maxLength: 40, required: true, className: "player-name" });
  const who = el("select", { className: "player-sitter" },
    el("option", { value: "person", className: "person" }),
    ...LEVELS.map((l) => el("option", { value: `bot:${l.id}`, textContent: t("sitter-bot", { level: levelTitle(l.id) }) })));
  who.value = sitter;
  who.setAttribute("aria-label", t("night-played-by"));
  // A row turned to a bot keeps the name typed in it (the tables mark a bot as one) or,
  // left empty, takes a bot's name; turned back to a person, a bot's name is cleared.
  who.addEventListener("change", () => {
    const bot = who.value.startsWith("bot:");
    if (bot && !nameInput.value.trim()) nameInput.value = freeBotName();
    else if (!bot && isBotName(nameInput.value)) nameInput.value = "";
  });
  // A name typed into a bot's row is a person's: the row turns to a person, so that
  // "Bob" typed over "Bot 1" is Bob, not a bot named Bob.
  nameInput.addEventListener("input", () => {
    const name = nameInput.value.trim();
    if (who.value.startsWith("bot:") && name && !isBotName(name)) who.value = "person";
  });
  const row = el("li", { className: "row" }, nameInput, who, removeButton());
  fitRated(row, $("rated").checked);
  return row;
}

/** Whether a row's name is a bot's as this form names them ("Bot 2"). */
function isBotName(name) {
  const n = name.trim().match(/^\D*(\d+)$/)?.[1];
  return n != null && name.trim() === t("night-bot-name", { n: Number(n) });
}

/** The first bot's name ("Bot 1", "Bot 2", ...) no row has yet. */
function freeBotName() {
  const taken = new Set([...document.querySelectorAll("#player-list .player-name")].map((input) => input.value.trim()));
  for (let n = 1; ; n += 1) if (!taken.has(t("night-bot-name", { n }))) return t("night-bot-name", { n });
}

/** A row's "Remove" button. */
function removeButton() {
  const remove = el("button", { type: "button", textContent: t("night-remove") });
  remove.setAttribute("aria-label", t("night-remove-label"));
  remove.addEventListener("click", () => remove.closest("li").remove());
  return remove;
}

/**
 * The signed-in host's own row: their account's name, said to be theirs, not a box to
 * retype it in (a rated night finds them by it).
 */
function ownRow(name) {
  const row = el("li", { className: "row own-player" },
    el("span", { className: "own-name" }, el("bdi", { textContent: name })),
    el("span", { className: "own-note", textContent: t("night-you-account") }),
    removeButton());
  row.dataset.name = name;
  return row;
}

/** The bot levels a rated night takes: those with a measured rating. */
const RATED_LEVELS = ["easy", "medium", "hard", "expert"];

/**
 * A row as a rated night or not asks it: rated, a person is named by their account's
 * name (each person plays as their account) and a bot is of a level with a rating;
 * else any name for the score sheet, any bot.
 */
function fitRated(row, rated) {
  const input = row.querySelector("input.player-name");
  if (!input) return;
  input.setAttribute("aria-label", t(rated ? "night-account-name" : "night-player-name"));
  input.placeholder = rated ? t("night-account-name") : "";
  row.querySelector("option.person").textContent = t(rated ? "night-person-account" : "night-person");
  for (const option of row.querySelectorAll("option[value^='bot:']")) {
    option.disabled = rated && !RATED_LEVELS.includes(option.value.slice(4));
  }
}

/** A row's player as `POST /api/nights` takes it. */
function rowPlayer(row) {
  if (row.dataset.name) return { name: row.dataset.name, sitter: "person" };
  return { name: row.querySelector(".player-name").value.trim(), sitter: row.querySelector(".player-sitter").value };
}

async function showForm() {
  $("new-night").hidden = false;
  // A rated night is a signed-in host's: the box shows once the page knows who that is.
  const account = await whoAmI();
  $("rated-box").hidden = !account;
  // The rule shows before the box is ticked, where the players are named.
  $("rated-rule").hidden = !account;
  const me = account?.name ?? localStorage.getItem("calltrump.name") ?? "";
  // Sit-outs go down the list from the top: the first player sits out the first set.
  // The bots are named as bots ("Bot 1"), so that none passes for a person online.
  const bot = (n) => playerRow(t("night-bot-name", { n }), "bot:hard");
  // A signed-in host comes first, as their account, with three bots: a table of four,
  // where nobody sits out until more players are added. A guest types a name, after
  // four bots (the first of them sits out the first set).
  const start = account ? [ownRow(account.name), ...[1, 2, 3].map(bot)] : [...[1, 2, 3, 4].map(bot), playerRow(me || "Ann")];
  $("player-list").append(...start);
  $("rated").addEventListener("change", () => {
    for (const row of $("player-list").children) fitRated(row, $("rated").checked);
  });
  $("add-player").addEventListener("click", () => $("player-list").append(playerRow()));
  // The sets' turn clock, offered as the lobby offers a table's.
  $("turn-clock").append(el("option", { value: "", textContent: t("lobby-clock-off") }), ...[15, 30, 60, 120].map((s) => el("option", { value: String(s), textContent: t("lobby-clock-secs", { s }) })));
  $("clock-level").append(...LEVELS.map((level) => el("option", { value: level.id, textContent: level.title })));
  $("clock-level").value = "medium";
  // The lobby's clock choice, when the night was started from there.
  const asked = new URLSearchParams(location.search);
  const pick = (select, value) => { if ([...select.options].some((o) => o.value === value)) select.value = value; };
  pick($("turn-clock"), asked.get("clock"));
  pick($("clock-level"), asked.get("level"));
  $("night-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("night-error").textContent = "";
    const rows = [...$("player-list").children];
    const players = rows.map(rowPlayer);
    const response = await fetch("/api/nights", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        players, sets: Number($("sets").value), unattended: $("unattended").checked,
        rated: $("rated").checked || undefined,
        turn_clock: $("turn-clock").value ? { seconds: Number($("turn-clock").value), level: $("clock-level").value } : undefined,
      }),
    });
    const body = await response.json();
    if (!response.ok) {
      $("night-error").textContent = body.error ?? t("night-could-not-start");
      return;
    }
    $("night-form").hidden = true;
    $("night-created").hidden = false;
    players.forEach((p, i) => {
      if (p.sitter === "person") $("player-links").append(linkRow(p.name, body.players[i].url));
    });
    // The one who started the night follows it from here (their own link).
    const own = rows.findIndex((row) => row.classList.contains("own-player"));
    const mine = own >= 0 ? own : players.findIndex((p) => p.sitter === "person" && p.name === me);
    const follow = mine >= 0 ? mine : players.findIndex((p) => p.sitter === "person");
    if (follow >= 0) {
      $("night-created").append(el("a", { className: "button primary", id: "follow-night", href: body.players[follow].url,
        textContent: t("night-follow-as", { name: players[follow].name }) }));
    }
  });
}

/** Per set's table: the signed-in account's seat there, as "My tables" has it (or null). */
const accountSeats = new Map();

/**
 * The seat at `table` bound to the signed-in account, or null: a rated night's player
 * who came without their `#player=` link (from the lobby, say) still finds their seat.
 */
async function accountSeat(table) {
  if (accountSeats.has(table)) return accountSeats.get(table);
  if (!(await whoAmI())) return null;
  try {
    const response = await fetch("/api/me/tables");
    if (!response.ok) return null;
    // A rated night's seats are kept for their accounts as invitations (from the night's
    // creator, the player themselves included) until they sit down: theirs either way.
    const held = (await response.json()).tables.find((h) => h.table === table) ?? null;
    accountSeats.set(table, held);
    return held;
  } catch {
    return null;
  }
}

/** The night as `body`, with `own`: the signed-in account's seat at the set (or null). */
function render(night, own = null) {
  const done = night.status !== "playing";
  const winners = night.sheet.winners;
  const winWords = winners.length > 1 ? t("night-shared-win", { names: winners.join(t("list-comma")) }) : t("night-wins", { name: winners[0] });
  $("night-status").textContent = night.status === "over"
    ? `${t(night.sets === 1 ? "night-over-one" : "night-over", { n: night.sets })} ${winWords}`
    : night.status === "ended" ? t("night-stopped", { done: night.sheet.sets_recorded, sets: night.sets })
    : t("night-set-of", { set: night.set + 1, sets: night.sets });
  // Without a player's token, a signed-in player of this set is still told their seat.
  const you = night.you ?? (own && night.seating
    ? { name: night.seating.seats[own.seat], seat: own.seat, link: own.link } : null);
  const line = $("you");
  line.replaceChildren();
  if (you && !done) {
    const seating = night.seating;
    const partner = you.seat != null ? seating.seats[(you.seat + 2) % 4] : null;
    line.append(you.seat != null
      ? `${t("night-you-play", { name: you.name, partner })} `
      : `${t("night-you-sit-out", { name: you.name })} `);
    if (you.link) line.append(el("a", { href: withNight(you.link), className: "button primary", textContent: t(you.seat != null ? "night-go-to-seat" : "lobby-watch-set") }));
  }
  line.hidden = line.childNodes.length === 0;
  const seating = night.seating;
  $("seating").replaceChildren(...(seating ? [
    el("p", {}, t("night-this-set", { a: seating.seats[0], c: seating.seats[2], b: seating.seats[1], d: seating.seats[3] }),
      seating.sitting_out.length ? ` ${t("night-sitting-out", { names: seating.sitting_out.join(t("list-comma")) })}` : ""),
    el("a", { href: withNight(`/table/${seating.table}`), textContent: t("night-watch-this-set") }),
  ] : []));
  const sets = Array.from({ length: night.sets }, (_, i) => i);
  const head = el("tr", {}, el("th", { scope: "col", textContent: t("night-player") }),
    ...sets.map((s) => el("th", { scope: "col", textContent: t("night-set-n", { n: s + 1 }) })),
    el("th", { scope: "col", textContent: t("night-total") }));
  const rows = night.sheet.players.map((p) => {
    const won = winners.includes(p.name);
    return el("tr", { className: won ? "winner" : "" },
      el("th", { scope: "row", textContent: won ? `★ ${p.name}` : p.name }),
      ...p.rows.map((r) => el("td", {
        textContent: r.points == null ? "" : r.seat == null ? t("night-points-out", { points: r.points }) : `${num(String(r.points))} (${r.partner})`,
      })),
      el("td", { className: "score", textContent: num(String(p.total)) }));
  });
  $("sheet").replaceChildren($("sheet").querySelector("caption") ?? "", el("thead", {}, head), el("tbody", {}, ...rows));
  return done;
}

async function follow() {
  $("night").hidden = false;
  const token = playerToken();
  const query = token ? `?player=${encodeURIComponent(token)}` : "";
  for (;;) {
    try {
      const response = await fetch(`/api/nights/${nightId}${query}`);
      const body = await response.json();
      if (!response.ok) {
        $("load-error").textContent = body.error ?? t("night-cannot-show");
        return;
      }
      $("load-error").textContent = "";
      const own = !body.you && body.seating && body.status === "playing" ? await accountSeat(body.seating.table) : null;
      if (render(body, own)) return;
    } catch {
      $("load-error").textContent = t("server-away");
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

if (nightId) follow(); else showForm();
