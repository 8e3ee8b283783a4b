// The alexa Bid Euchre night: start one (players, people or bots, and the sets), then
// follow it: each player's link leads to their seat at the set being played, or to
// watch it when they sit out, and everyone sees the score sheets set by set.

import { $, el, linkRow, LEVELS } from "/assets/common.js";

const POLL_MS = 2000;
const nightId = location.pathname.split("/")[2] ?? "";

/** The player's token: from the link's fragment, remembered for this night. */
function playerToken() {
  const key = `calltrump.night.${nightId}`;
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("player");
  if (fromLink) localStorage.setItem(key, fromLink);
  return fromLink ?? localStorage.getItem(key);
}

function playerRow(name = "", sitter = "person") {
  const nameInput = el("input", { value: name, maxLength: 40, required: true, className: "player-name" });
  nameInput.setAttribute("aria-label", "Player's name");
  const who = el("select", { className: "player-sitter" },
    el("option", { value: "person", textContent: "a person" }),
    ...LEVELS.map((l) => el("option", { value: `bot:${l.id}`, textContent: `a bot (${l.title})` })));
  who.value = sitter;
  who.setAttribute("aria-label", "Played by");
  const remove = el("button", { type: "button", textContent: "Remove" });
  remove.setAttribute("aria-label", "Remove this player");
  const row = el("li", { className: "row" }, nameInput, who, remove);
  remove.addEventListener("click", () => row.remove());
  return row;
}

function showForm() {
  $("new-night").hidden = false;
  const me = localStorage.getItem("calltrump.name") ?? "";
  // Sit-outs go down the list from the top: the first player sits out the first set.
  const start = [["Bob", "bot:hard"], ["Cy", "bot:hard"], ["Di", "bot:hard"], ["Ed", "bot:hard"], [me || "Ann", "person"]];
  for (const [name, sitter] of start) $("player-list").append(playerRow(name, sitter));
  $("add-player").addEventListener("click", () => $("player-list").append(playerRow()));
  $("night-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("night-error").textContent = "";
    const players = [...$("player-list").children].map((row) => ({
      name: row.querySelector(".player-name").value.trim(),
      sitter: row.querySelector(".player-sitter").value,
    }));
    const response = await fetch("/api/nights", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ players, sets: Number($("sets").value) }),
    });
    const body = await response.json();
    if (!response.ok) {
      $("night-error").textContent = body.error ?? "The night could not start.";
      return;
    }
    $("night-form").hidden = true;
    $("night-created").hidden = false;
    players.forEach((p, i) => {
      if (p.sitter === "person") $("player-links").append(linkRow(p.name, body.players[i].url));
    });
    // The one who started the night follows it from here (their own link).
    const mine = players.findIndex((p) => p.sitter === "person" && p.name === me);
    const own = mine >= 0 ? mine : players.findIndex((p) => p.sitter === "person");
    if (own >= 0) {
      $("night-created").append(el("a", { className: "button primary", id: "follow-night", href: body.players[own].url,
        textContent: `Follow the night as ${players[own].name}` }));
    }
  });
}

function render(night) {
  const done = night.status !== "playing";
  const winners = night.sheet.winners;
  $("night-status").textContent = night.status === "over"
    ? `The night is over after ${night.sets} ${night.sets === 1 ? "set" : "sets"}. ${winners.length > 1 ? `Shared win: ${winners.join(", ")}` : `${winners[0]} wins`}.`
    : night.status === "ended" ? `The night was stopped after ${night.sheet.sets_recorded} of ${night.sets} sets.`
    : `Set ${night.set + 1} of ${night.sets}.`;
  const you = night.you;
  const line = $("you");
  line.replaceChildren();
  if (you && !done) {
    const seating = night.seating;
    const partner = you.seat != null ? seating.seats[(you.seat + 2) % 4] : null;
    line.append(you.seat != null
      ? `${you.name}: you play this set with ${partner}. `
      : `${you.name}: you sit this set out (30 points). `);
    if (you.link) line.append(el("a", { href: you.link, className: "button primary", textContent: you.seat != null ? "Go to your seat" : "Watch the set" }));
  }
  line.hidden = line.childNodes.length === 0;
  const seating = night.seating;
  $("seating").replaceChildren(...(seating ? [
    el("p", {}, `This set: ${seating.seats[0]} and ${seating.seats[2]} against ${seating.seats[1]} and ${seating.seats[3]}; ${seating.seats[0]} deals first.`,
      seating.sitting_out.length ? ` Sitting out: ${seating.sitting_out.join(", ")}.` : ""),
    el("a", { href: `/table/${seating.table}`, textContent: "Watch this set" }),
  ] : []));
  const sets = Array.from({ length: night.sets }, (_, i) => i);
  const head = el("tr", {}, el("th", { scope: "col", textContent: "Player" }),
    ...sets.map((s) => el("th", { scope: "col", textContent: `Set ${s + 1}` })),
    el("th", { scope: "col", textContent: "Total" }));
  const rows = night.sheet.players.map((p) => {
    const won = winners.includes(p.name);
    return el("tr", { className: won ? "winner" : "" },
      el("th", { scope: "row", textContent: won ? `★ ${p.name}` : p.name }),
      ...p.rows.map((r) => el("td", {
        textContent: r.points == null ? "" : r.seat == null ? `${r.points} (out)` : `${r.points} (${r.partner})`,
      })),
      el("td", { className: "score", textContent: String(p.total) }));
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
        $("load-error").textContent = body.error ?? "This night cannot be shown.";
        return;
      }
      $("load-error").textContent = "";
      if (render(body)) return;
    } catch {
      $("load-error").textContent = "The server cannot be reached; trying again…";
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

if (nightId) follow(); else showForm();
