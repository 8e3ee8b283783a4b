// The lobby: the player's name, a new table (game, variant, options, who sits where),
// its invite links, and the tables open now.

import { $, el, GAMES, LEVELS, gameTitle, levelTitle, linkRow, rememberTable, myTables, teamLetter, withHostToken } from "./common.js";
import { hasString, LANG, languageSwitch, t, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";
import { seatName, botName } from "./drawing.js";

translatePage();
$("bar-nav").append(languageSwitch());
// Signed in: "My tables", every seat bound to the account, each opened without a token.
const signedIn = showAccount($("bar-nav"));
$("rules-nav").href = `/rules?lang=${LANG}`;

// The name is remembered in this browser and sent when taking a seat.
// A name typed before this script ran (it waits for the game list) is kept, not
// replaced by the remembered one.
const nameInput = $("name");
const rememberName = () => localStorage.setItem("calltrump.name", nameInput.value.trim());
if (nameInput.value.trim()) rememberName();
else nameInput.value = localStorage.getItem("calltrump.name") ?? "";
nameInput.addEventListener("input", rememberName);
// Signed in with no name typed: the account's name.
signedIn.then((me) => {
  if (me && !nameInput.value.trim()) {
    nameInput.value = me.name;
    rememberName();
  }
});

const gameSelect = $("game");
const variantSelect = $("variant");
for (const game of GAMES) gameSelect.append(el("option", { value: game.id, textContent: gameTitle(game.id) }));

function currentGame() {
  return GAMES.find((game) => game.id === gameSelect.value);
}

function currentVariant() {
  return currentGame().variants.find((v) => v.id === variantSelect.value);
}

function fillVariants() {
  variantSelect.replaceChildren(...currentGame().variants.map((v) => el("option", { value: v.id, textContent: variantTitle(v) })));
  $("rules-link").href = `${currentGame().rules}?lang=${LANG}`;
  fillOptionsAndSeats();
}

/** The options form for the chosen variant, each at the rules' default. */
/**
 * An option's words in the page's language: its label, what it decides (by game, as a
 * key means different things in different games) and its choices; the catalogue's
 * English where a string is missing.
 */
// The catalogue's words in English (its titles are the long ones: "Six players (54
// cards)"), the strings' elsewhere where they have them.
const variantTitle = (v) => (LANG !== "en" && hasString(`variant-${v.id}`) ? t(`variant-${v.id}`) : v.title);
const variantLength = (v) => (hasString(`length-${v.id}`) ? t(`length-${v.id}`) : v.length);
const optionLabel = (option) => (hasString(`option-${option.key}`) ? t(`option-${option.key}`) : option.label);
const optionMeaning = (game, option) => (hasString(`option-meaning-${game}-${option.key}`) ? t(`option-meaning-${game}-${option.key}`) : option.meaning);
const choiceLabel = ({ value, label }) => (hasString(`option-choice-${value}`) ? t(`option-choice-${value}`) : label);

function fillOptionsAndSeats() {
  const variant = currentVariant();
  const game = currentGame().id;
  const fields = variant.options.map((option) => {
    const fallback = option.default == null ? "" : String(option.default);
    let input;
    if (option.kind === "choice") {
      input = el("select", { name: option.key });
      for (const choice of option.choices) input.append(el("option", { value: choice.value, textContent: choiceLabel(choice) }));
      input.value = fallback;
    } else {
      input = el("input", { type: "number", name: option.key, min: 1, value: fallback, required: option.default != null });
      if (option.default == null) input.placeholder = t("option-none");
    }
    input.dataset.default = fallback;
    input.dataset.kind = option.kind;
    input.title = optionMeaning(game, option);
    return el("label", { className: "field" }, `${optionLabel(option)} `, input);
  });
  // A variant whose length no option sets: say how long its game is.
  const note = variant.options.some((option) => option.kind === "count")
    ? []
    : [el("p", { className: "hint", textContent: t("lobby-no-shorter", { game: gameTitle(currentGame().id), length: variantLength(variant) }) })];
  $("options").replaceChildren(el("legend", { textContent: t("lobby-options") }), ...fields, ...note);

  const seats = variant.seats;
  const list = $("seat-list");
  const previous = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren();
  for (let seat = 0; seat < seats; seat += 1) {
    const select = el("select", { name: `seat-${seat}`, id: `seat-${seat}` });
    select.append(el("option", { value: "me", textContent: t("lobby-me") }), el("option", { value: "open", textContent: t("lobby-friend") }));
    for (const level of LEVELS) select.append(el("option", { value: `bot:${level.id}`, textContent: t("sitter-bot", { level: level.title }) }));
    select.value = previous[seat] ?? (seat === 0 ? "me" : "bot:medium");
    const label = el("label", { htmlFor: `seat-${seat}`, textContent: t("lobby-seat", { seat, team: teamLetter(seat) }) });
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
// The turn clock's choices: off, or seconds a decision; the bot that then decides.
$("turn-clock").append(el("option", { value: "", textContent: t("lobby-clock-off") }), ...[15, 30, 60, 120].map((s) => el("option", { value: String(s), textContent: t("lobby-clock-secs", { s }) })));
$("clock-level").append(...LEVELS.map((level) => el("option", { value: level.id, textContent: level.title })));
$("clock-level").value = "medium";
// A night started from here takes the clock chosen here (the night's page reads it).
function nightLink() {
  const clock = $("turn-clock").value;
  $("start-night").href = clock ? `/night?clock=${clock}&level=${encodeURIComponent($("clock-level").value)}` : "/night";
}
$("turn-clock").addEventListener("change", nightLink);
$("clock-level").addEventListener("change", nightLink);
nightLink();

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
    names: choices.map((c) => (c === "me" ? ($("name").value.trim() || t("sender-host")) : "")),
    undo: $("undo").checked,
    hints: $("hints").checked,
    unattended: $("unattended").checked,
    rated: $("rated").checked,
    // Signed in, the host's own seat is their account's at once (in "My tables").
    host_seat: mySeat >= 0 ? mySeat : undefined,
  };
  // The turn clock: seconds a decision, then a bot of the chosen level decides.
  if ($("turn-clock").value) body.turn_clock = { seconds: Number($("turn-clock").value), level: $("clock-level").value };
  $("create").disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    await showCreated(answer, body, mySeat);
  } catch (error) {
    $("create-error").textContent = t("lobby-create-failed", { error: error.message });
  } finally {
    $("create").disabled = false;
  }
});

/** The table the invite form invites to: its id and host token. */
let inviteTo = null;
// The last invitation sent from the form, `{table, seat, name}`: its line is kept true as
// "My tables" is refreshed (the invitee may decline it, or leave the seat).
let invited = null;

/** The new table's links: the player's own seat, one invite per friend, the watch link. */
async function showCreated(answer, body, mySeat) {
  const mine = answer.invites.find((invite) => invite.seat === mySeat);
  const friends = answer.invites.filter((invite) => invite.seat !== mySeat);
  const own = mine
    ? `${location.origin}/table/${answer.id}#token=${mine.token}&host=${answer.host_token}`
    : answer.host_url;
  rememberTable({
    id: answer.id, game: body.game, variant: body.variant, seat: mine ? mySeat : null,
    url: own, invites: friends.map((f) => ({ seat: f.seat, url: f.url })), watch: answer.watch_url,
  });
  // Bots in every seat: no seat to sit in; the game starts when the table is opened,
  // or has started already when the bots play unattended.
  const when = t(friends.length ? "lobby-send-links" : mine ? "lobby-starts-when-you-sit" : body.unattended ? "lobby-bots-playing" : "lobby-starts-when-opened");
  $("created-what").textContent = `${gameTitle(body.game, body.variant)} · ${when}`;
  const links = friends.map((f) => linkRow(t("lobby-seat-team", { seat: f.seat, team: teamLetter(f.seat) }), f.url));
  links.push(linkRow(t("lobby-spectators"), answer.watch_url));
  $("invites").replaceChildren(...links);
  // Signed in: a friend's seat may be kept for a player named, who finds it in "My tables".
  inviteTo = { id: answer.id, host: answer.host_token };
  $("invite-seat").replaceChildren(...friends.map((f) => el("option", { value: f.seat, textContent: t("lobby-seat-team", { seat: f.seat, team: teamLetter(f.seat) }) })));
  $("invite-result").textContent = "";
  invited = null;
  signedIn.then((me) => { $("invite-form").hidden = !me || friends.length === 0; });
  $("open-seat").href = own;
  $("open-seat").textContent = mine ? t("lobby-sit-at", { seat: mySeat }) : t("lobby-open-as-host");
  // A signed-in host's seat is their account's from the table's creation: "My tables"
  // says so before the links show, not at its next refresh.
  await refreshMine();
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "nearest" });
  refreshTables();
}

$("invite-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("invite-name").value.trim();
  const seat = Number($("invite-seat").value);
  if (!inviteTo || !name) return;
  const result = $("invite-result");
  result.className = "";
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(inviteTo.id)}/invitations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ host_token: inviteTo.host, seat, name }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    result.textContent = t("lobby-invited-name", { name: answer.name, seat: answer.seat });
    invited = { table: inviteTo.id, seat: answer.seat, name: answer.name };
    $("invite-name").value = "";
    refreshTables();
  } catch (error) {
    result.className = "error";
    result.textContent = t("lobby-invite-failed", { error: error.message });
  }
});

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("join-link").value.trim();
  try {
    const url = new URL(text, location.origin);
    if (!url.pathname.startsWith("/table/")) throw new Error("not a table link");
    location.href = url.pathname + url.hash;
  } catch {
    $("join-link").setCustomValidity(t("lobby-paste-link"));
    $("join-link").reportValidity();
  }
});
$("join-link").addEventListener("input", () => $("join-link").setCustomValidity(""));

/** Tables the lobby asks for: a page of 100, grown by "Show more" up to the server's 500. */
let tablesShown = 100;
$("tables-more").addEventListener("click", () => {
  tablesShown = Math.min(tablesShown + 100, 500);
  refreshTables();
});

/** The signed-in account's invitations, as "My tables" last said: `{table, seat, link, ...}`. */
let invitations = [];

/** "Sit down" at the seat a host keeps for this account. */
function sitDownButton(held) {
  return el("a", { className: "button primary sit-down", href: withHostToken(held.link, held.table), textContent: t("my-table-sit-down") });
}

/** The host's token of table `id`, if this browser created it (remembered with it). */
function hostTokenOf(id) {
  const url = myTables().find((t) => t.id === id)?.url ?? "";
  return new URLSearchParams(url.split("#")[1] ?? "").get("host");
}

/**
 * The ways out of a seat on "My tables": decline an invitation; leave a seat before the
 * game starts; close a table this browser created whose game has not started.
 */
function wayOutButtons(held) {
  const buttons = [];
  const ask = (path, body) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      // Said by the button's row; the list is not redrawn, so that it stays readable.
      const why = await response.json().catch(() => ({}));
      button.after(el("span", { className: "error", role: "alert", textContent: t("my-table-refused", { error: why.error ?? String(response.status) }) }));
      return;
    }
    refreshMine();
  };
  const id = encodeURIComponent(held.table);
  if (held.invited_by || held.status === "open") {
    buttons.push(el("button", {
      type: "button",
      className: "button leave-seat",
      textContent: t(held.invited_by ? "my-table-decline" : "my-table-leave"),
      title: t(held.invited_by ? "my-table-decline-about" : "my-table-leave-about"),
      onclick: ask(`/api/tables/${id}/leave`, {}),
    }));
  }
  const host = hostTokenOf(held.table);
  if (host && held.status === "open") {
    buttons.push(el("button", {
      type: "button",
      className: "button close-table",
      textContent: t("my-table-close"),
      title: t("my-table-close-about"),
      onclick: ask(`/api/tables/${id}/close`, { host_token: host }),
    }));
  }
  return buttons;
}

/**
 * Whether this browser's remembered seat at table `own` is still its own: the server
 * says which seat the link's token opens (none once the host gave it to a bot or
 * reopened it for someone else). A link without a token (a seat of the account's,
 * opened from "My tables") and an unanswered question count as still its own.
 */
async function stillMine(own) {
  // A seat the table's page already knew was taken back is remembered without its link.
  if (!own.url) return false;
  const token = new URLSearchParams(own.url.split("#")[1] ?? "").get("token");
  if (!token) return true;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(own.id)}/holder`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
    });
    return !response.ok || (await response.json()).seat === own.seat;
  } catch {
    return true;
  }
}

/** The host's link of table `own` without its seat: `/table/ID#host=TOKEN`, or null. */
function hostLink(own) {
  const host = new URLSearchParams(own.url?.split("#")[1] ?? "").get("host");
  return host ? `/table/${encodeURIComponent(own.id)}#host=${encodeURIComponent(host)}` : null;
}

/** The open and running tables (a page of them), with the seats this browser holds. */
async function refreshTables() {
  let tables;
  let total;
  try {
    ({ tables, total } = await (await fetch(`/api/tables?limit=${tablesShown}`)).json());
  } catch {
    return;
  }
  const more = $("tables-more");
  more.hidden = !(total > tables.length) || tablesShown >= 500;
  more.textContent = t("lobby-more-tables", { count: total - tables.length });
  const mine = myTables();
  const owns = tables.map((table) => mine.find((t) => t.id === table.id));
  const held = await Promise.all(owns.map((own) => own?.seat != null && stillMine(own)));
  $("tables-empty").hidden = tables.length > 0;
  $("tables").replaceChildren(...tables.map((table, i) => {
    const own = owns[i];
    const ownSeat = held[i] ? own.seat : null;
    const seats = table.seats.map((s) => {
      // This browser's own seat at a table it made: kept for it, not open to others.
      if (s.sitter === "open" && ownSeat === s.seat) return t("lobby-your-seat");
      // A seat kept for a name (an invitation by name, a named friend's): whose it is.
      if (s.sitter === "open" && s.name) return t("lobby-reserved-for", { name: s.name });
      if (s.sitter === "open" && own?.invites?.some((i) => i.seat === s.seat)) return t("lobby-invited");
      if (s.sitter === "open") return t("badge-open");
      if (s.sitter.startsWith("bot:")) {
        // An unnamed bot's seat carries its level as its name: "Bot 2" then. A named
        // bot's level says it is a bot: "Botty (easy)", not "Botty (bot) (easy)".
        const level = s.sitter.slice(4);
        const named = s.name && s.name !== level ? s.name : null;
        return t("bot-with-level", { name: named ?? botName(s.seat, null), level: levelTitle(level) });
      }
      // A deleted account's seat, in the page's language.
      const name = s.name === "a former player" ? t("former-player") : s.name ?? t("lobby-someone");
      return s.connected ? name : t("lobby-away", { name });
    });
    const status = t(table.status === "open" ? "lobby-waiting" : "lobby-playing");
    // One run of text: where it wraps, no line starts with a separator (each "·" is
    // held to the word before it).
    const item = el("li", { className: "table-row" },
      el("span", { className: "table-what" },
        el("strong", { textContent: gameTitle(table.game, table.variant) }),
        el("span", { className: "hint", textContent: `\u00a0· ${status}\u00a0· ${seats.join(t("list-comma"))}` })));
    const actions = el("span", { className: "actions" });
    const invited = invitations.find((held) => held.table === table.id);
    if (invited) actions.append(sitDownButton(invited));
    else if (ownSeat != null) actions.append(el("a", { className: "button primary", href: own.url, textContent: t("lobby-back-to-seat") }));
    // A seat the host took back: its host (if this browser is) still opens the table.
    else if (own && hostLink(own)) actions.append(el("a", { className: "button primary", href: own.seat == null ? own.url : hostLink(own), textContent: t("lobby-open-host") }));
    actions.append(el("a", { className: "button", href: `/table/${table.id}`, textContent: t("lobby-watch") }));
    item.append(actions);
    return item;
  }));
}
/**
 * Where this browser's player of `night` (its token kept by the night's page) goes back
 * in: their seat at the set being played, or null (sitting out, or not theirs).
 */
async function seatAtNight(night) {
  const token = localStorage.getItem(`calltrump.night.${night.id}`);
  if (!token) return null;
  try {
    const response = await fetch(`/api/nights/${encodeURIComponent(night.id)}?player=${encodeURIComponent(token)}`);
    const you = response.ok ? (await response.json()).you : null;
    return you?.seat != null && you.link ? `${you.link}${you.link.includes("#") ? "&" : "#"}night=${encodeURIComponent(night.id)}` : null;
  } catch {
    return null;
  }
}

/** The nights being played: each to follow, and its set to watch; a player's own to go back to. */
async function refreshNights() {
  let nights;
  try {
    nights = (await (await fetch("/api/nights")).json()).nights;
  } catch {
    return;
  }
  const seats = await Promise.all(nights.map(seatAtNight));
  $("nights").replaceChildren(...nights.map((night, i) => {
    const mine = localStorage.getItem(`calltrump.night.${night.id}`) != null;
    const players = night.players.map((p) => (p.bot ? botName(null, p.name) : p.name));
    const item = el("li", { className: "table-row night-row" },
      el("span", { className: "table-what" },
        el("strong", { textContent: t("lobby-night-set", { set: night.set + 1, sets: night.sets }) }),
        el("span", { className: "hint", textContent: `\u00a0· ${players.join(t("list-comma"))}` })));
    const actions = el("span", { className: "actions" });
    if (seats[i]) actions.append(el("a", { className: "button primary back-to-night-seat", href: seats[i], textContent: t("lobby-back-to-seat") }));
    actions.append(el("a", { className: `button ${seats[i] ? "" : "primary"}`, href: `/night/${night.id}`, textContent: t(mine ? "lobby-back-to-night" : "lobby-follow-night") }));
    if (night.table && !seats[i]) actions.append(el("a", { className: "button", href: `/table/${night.table}#night=${night.id}`, textContent: t("lobby-watch-set") }));
    item.append(actions);
    return item;
  }));
}

/** Who sits at a held seat's table, the others by name: two tables of one game differ. */
function heldPlayers(held) {
  return (held.players ?? []).map((p, seat) => seatName(seat, p, held.seat)).join(t("list-comma"));
}

/** The signed-in account's seats at tables in play ("My tables"), with their links. */
async function refreshMine() {
  const me = await signedIn;
  if (!me) return;
  let tables;
  try {
    const response = await fetch("/api/me/tables");
    if (!response.ok) return;
    tables = (await response.json()).tables;
  } catch {
    return;
  }
  $("my-tables-panel").hidden = false;
  // The invitee gave the seat up (declined, or left it): the server names nobody there
  // any more, and the form's line says so instead of "is invited".
  const table = invited && tables.find((held) => held.table === invited.table);
  if (table && table.players?.[invited.seat]?.name !== invited.name) {
    $("invite-result").textContent = t("lobby-invite-given-up", { name: invited.name, seat: invited.seat });
    invited = null;
  }
  // Invitations are said at the top of the lobby too, as they come (the lobby's socket).
  invitations = tables.filter((held) => held.invited_by);
  $("invitations-panel").hidden = invitations.length === 0;
  $("invitations").replaceChildren(...invitations.map((held) => el("li", { className: "table-row invitation" },
    el("span", { className: "table-what" },
      el("strong", { textContent: t("lobby-invitation", { name: held.invited_by, seat: held.seat }) }),
      el("span", { className: "hint", textContent: `\u00a0· ${gameTitle(held.game, held.variant)}\u00a0· ${heldPlayers(held)}` })),
    el("span", { className: "actions" }, sitDownButton(held), ...wayOutButtons(held)))));
  $("my-games").href = `/players/${encodeURIComponent(me.name)}`;
  $("my-tables-empty").hidden = tables.length > 0;
  $("my-tables").replaceChildren(...tables.map((held) => {
    const status = t(held.status === "open" ? "lobby-waiting" : "lobby-playing");
    // A host's invitation by name: the seat is kept for this account until it sits down.
    const what = held.invited_by
      ? t("my-table-invited", { name: held.invited_by, seat: held.seat, status })
      : t("my-table-seat", { seat: held.seat, status });
    return el("li", { className: held.invited_by ? "table-row invitation" : "table-row" },
      el("span", { className: "table-what" },
        el("strong", { textContent: gameTitle(held.game, held.variant) }),
        el("span", { className: "hint", textContent: `\u00a0· ${what}\u00a0· ${heldPlayers(held)}` })),
      el("span", { className: "actions" },
        el("a", { className: "button primary", href: withHostToken(held.link, held.table), textContent: t(held.invited_by ? "my-table-sit-down" : "my-table-open") }),
        ...wayOutButtons(held)));
  }));
}

/** Who is online, as the lobby's socket says (signed in only): each to their page. */
function showOnline(names, me) {
  const others = names.filter((name) => name !== me.name);
  $("online-panel").hidden = false;
  $("online-empty").hidden = others.length > 0;
  $("online").replaceChildren(...others.map((name) =>
    el("li", {}, el("a", { href: `/players/${encodeURIComponent(name)}`, textContent: name }))));
  $("online-names").replaceChildren(...others.map((name) => el("option", { value: name })));
}

/** The lobby's socket: holds this account online, and hears who else is, and of invitations. */
async function listenToLobby() {
  const me = await signedIn;
  if (!me) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type !== "online") return;
    showOnline(message.online, me);
    // Sent also when someone is invited: perhaps this player.
    refreshMine().then(refreshTables);
  });
  socket.addEventListener("close", () => setTimeout(listenToLobby, 5000));
}

listenToLobby();

refreshMine();
refreshTables();
refreshNights();
setInterval(() => { refreshMine(); refreshTables(); refreshNights(); }, 5000);
// Tests wait for this before typing: the page now listens to every control.
document.body.dataset.ready = "true";
