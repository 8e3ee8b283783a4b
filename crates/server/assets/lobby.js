// The lobby: the player's name, a new table (game, variant, options, who sits where),
// its invite links, and the tables open now.

import { $, el, GAMES, LEVELS, gameTitle, linkRow, rememberTable, myTables, teamLetter } from "./common.js";

// The name is remembered in this browser and sent when taking a seat.
const nameInput = $("name");
nameInput.value = localStorage.getItem("calltrump.name") ?? "";
nameInput.addEventListener("input", () => localStorage.setItem("calltrump.name", nameInput.value.trim()));

const gameSelect = $("game");
const variantSelect = $("variant");
for (const game of GAMES) gameSelect.append(el("option", { value: game.id, textContent: game.title }));

function currentGame() {
  return GAMES.find((game) => game.id === gameSelect.value);
}

function currentVariant() {
  return currentGame().variants.find((v) => v.id === variantSelect.value);
}

function fillVariants() {
  variantSelect.replaceChildren(...currentGame().variants.map((v) => el("option", { value: v.id, textContent: v.title })));
  $("rules-link").href = currentGame().rules;
  fillOptionsAndSeats();
}

/** The options form for the chosen variant, each at the rules' default. */
function fillOptionsAndSeats() {
  const variant = currentVariant();
  const fields = variant.options.map((option) => {
    const fallback = option.default == null ? "" : String(option.default);
    let input;
    if (option.kind === "choice") {
      input = el("select", { name: option.key });
      for (const { value, label } of option.choices) input.append(el("option", { value, textContent: label }));
      input.value = fallback;
    } else {
      input = el("input", { type: "number", name: option.key, min: 1, value: fallback, required: option.default != null });
      if (option.default == null) input.placeholder = "none";
    }
    input.dataset.default = fallback;
    input.dataset.kind = option.kind;
    input.title = option.meaning;
    return el("label", { className: "field" }, option.label + " ", input);
  });
  // A variant whose length no option sets: say how long its game is.
  const note = variant.options.some((option) => option.kind === "count")
    ? []
    : [el("p", { className: "hint", textContent: `${currentGame().title} is played ${variant.length}; the rules have no shorter game yet.` })];
  $("options").replaceChildren(el("legend", { textContent: "Options (the rules' defaults)" }), ...fields, ...note);

  const seats = variant.seats;
  const list = $("seat-list");
  const previous = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren();
  for (let seat = 0; seat < seats; seat += 1) {
    const select = el("select", { name: `seat-${seat}`, id: `seat-${seat}` });
    select.append(el("option", { value: "me", textContent: "Me" }), el("option", { value: "open", textContent: "A friend (invite link)" }));
    for (const level of LEVELS) select.append(el("option", { value: `bot:${level.id}`, textContent: `Bot: ${level.title}` }));
    select.value = previous[seat] ?? (seat === 0 ? "me" : "bot:medium");
    const label = el("label", { htmlFor: `seat-${seat}`, textContent: `Seat ${seat} · team ${teamLetter(seat)}` });
    list.append(el("li", {}, label, select));
  }
}

gameSelect.addEventListener("change", fillVariants);
variantSelect.addEventListener("change", fillOptionsAndSeats);
// Only one seat can be "me".
$("seat-list").addEventListener("change", (event) => {
  if (event.target.value !== "me") return;
  for (const select of $("seat-list").querySelectorAll("select")) {
    if (select !== event.target && select.value === "me") select.value = "open";
  }
});
fillVariants();

$("new-table").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("create-error").textContent = "";
  const options = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    if (input.value === input.dataset.default || input.value === "") continue;
    options[input.name] = input.dataset.kind === "count" ? Number(input.value) : input.value;
  }
  const choices = [...$("seat-list").querySelectorAll("select")].map((s) => s.value);
  const mySeat = choices.indexOf("me");
  const body = {
    game: gameSelect.value,
    variant: variantSelect.value,
    options,
    seats: choices.map((c) => (c === "me" ? "open" : c)),
    // The host's seat carries the host's name at once, so that other browsers see it
    // taken before the host sits down.
    names: choices.map((c) => (c === "me" ? ($("name").value.trim() || "the host") : "")),
    undo: $("undo").checked,
    hints: $("hints").checked,
  };
  $("create").disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    showCreated(answer, body, mySeat);
  } catch (error) {
    $("create-error").textContent = `The table could not be created: ${error.message}`;
  } finally {
    $("create").disabled = false;
  }
});

/** The new table's links: the player's own seat, one invite per friend, the watch link. */
function showCreated(answer, body, mySeat) {
  const mine = answer.invites.find((invite) => invite.seat === mySeat);
  const friends = answer.invites.filter((invite) => invite.seat !== mySeat);
  const own = mine
    ? `${location.origin}/table/${answer.id}#token=${mine.token}&host=${answer.host_token}`
    : answer.host_url;
  rememberTable({
    id: answer.id, game: body.game, variant: body.variant, seat: mine ? mySeat : null,
    url: own, invites: friends.map((f) => ({ seat: f.seat, url: f.url })), watch: answer.watch_url,
  });
  $("created-what").textContent = `${gameTitle(body.game, body.variant)} · ` +
    (friends.length ? "send each friend their link; the game starts when everyone has sat down." : "the game starts when you sit down.");
  const links = friends.map((f) => linkRow(`Seat ${f.seat} (team ${teamLetter(f.seat)})`, f.url));
  links.push(linkRow("Spectators", answer.watch_url));
  $("invites").replaceChildren(...links);
  $("open-seat").href = own;
  $("open-seat").textContent = mine ? `Sit down at seat ${mySeat}` : "Open the table as host";
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "nearest" });
  refreshTables();
}

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("join-link").value.trim();
  try {
    const url = new URL(text, location.origin);
    if (!url.pathname.startsWith("/table/")) throw new Error("not a table link");
    location.href = url.pathname + url.hash;
  } catch {
    $("join-link").setCustomValidity("Paste a table link: …/table/ID#token=…");
    $("join-link").reportValidity();
  }
});
$("join-link").addEventListener("input", () => $("join-link").setCustomValidity(""));

/** The open and running tables, with the seats this browser holds. */
async function refreshTables() {
  let tables;
  try {
    tables = (await (await fetch("/api/tables")).json()).tables;
  } catch {
    return;
  }
  const mine = myTables();
  $("tables-empty").hidden = tables.length > 0;
  $("tables").replaceChildren(...tables.map((table) => {
    const own = mine.find((t) => t.id === table.id);
    const seats = table.seats.map((s) => {
      // This browser's own seat at a table it made: kept for it, not open to others.
      if (s.sitter === "open" && own?.seat === s.seat) return "your seat (reserved)";
      if (s.sitter === "open" && own?.invites?.some((i) => i.seat === s.seat)) return "invited friend (not yet here)";
      if (s.sitter === "open" && s.name) return `reserved for ${s.name}`;
      if (s.sitter === "open") return "open seat";
      if (s.sitter.startsWith("bot:")) return `bot (${s.sitter.slice(4)})`;
      return `${s.name ?? "someone"}${s.connected ? "" : " (away)"}`;
    });
    const status = table.status === "open" ? "waiting for players" : "playing";
    // One run of text: where it wraps, no line starts with a separator (each "·" is
    // held to the word before it).
    const item = el("li", { className: "table-row" },
      el("span", { className: "table-what" },
        el("strong", { textContent: gameTitle(table.game, table.variant) }),
        el("span", { className: "hint", textContent: `\u00a0· ${status}\u00a0· ${seats.join(", ")}` })));
    const actions = el("span", { className: "actions" });
    if (own) actions.append(el("a", { className: "button primary", href: own.url, textContent: own.seat != null ? "Back to my seat" : "Open as host" }));
    actions.append(el("a", { className: "button", href: `/table/${table.id}`, textContent: "Watch" }));
    item.append(actions);
    return item;
  }));
}
refreshTables();
setInterval(refreshTables, 5000);
