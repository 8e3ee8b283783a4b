// The replay viewer: a game record stepped through action by action, every hand face up
// or as one seat (or a spectator) saw it. The states come from the server's engine
// (`POST /api/replay`, or a finished table's `GET /api/tables/{id}/replay`): nothing of the
// rules is worked out here. An `analyze --json` output adds its marks to the steps.

import { cardFace, cardName, strainText } from "./cards.js";
import { $, el, gameTitle, teamLetter, variantFacts } from "./common.js";
import { languageSwitch, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";
import {
  actionText, contractBubble, contractText, playedFace, seatFacts, seatLabel as labelOf, seatName as nameOf,
  seatPosition, trumpMark, turnSeat,
} from "./drawing.js";

// The bar's words and the language switch (this page's own text is English only so far).
translatePage();
document.querySelector(".bar nav").append(languageSwitch());
showAccount(document.querySelector(".bar nav"));

// /replay/{id}: a finished table's game from the server.
const parts = location.pathname.split("/").filter(Boolean);
const tableId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;

// `#step=N&view=V` (N from 1; V all, spectator or a seat): where a link opens the game.
const fragment = new URLSearchParams(location.hash.slice(1));
let pendingStep = Number(fragment.get("step")) - 1;

const state = {
  record: null, // the record's text, for POST /api/replay
  analysis: null, // an `analyze --json` output
  marks: new Map(), // `${hand}:${index}` → the decision judged
  data: null, // the server's answer: {game, variant, seats, viewer, steps, ...}
  at: 0, // the step shown
  seat: /^(all|spectator|\d+)$/.test(fragment.get("view") ?? "") ? fragment.get("view") : "all", // whose view
};

const step = () => state.data?.steps[state.at];
/** The game's calls with names of their own (the view's `call_names`). */
const names = () => step()?.view.call_names ?? [];
/** The catalogue's facts of the replayed game's variant. */
const facts = () => variantFacts(state.data?.game, state.data?.variant);
const viewerSeat = () => (/^\d+$/.test(state.seat) ? Number(state.seat) : null);

/** The players' names: the record's `players` if it has them, else none. */
function players() {
  try {
    const names = state.data?.players ?? (state.record ? JSON.parse(state.record).players : null);
    return Array.isArray(names) ? names : null;
  } catch {
    return null;
  }
}

/** Who sits at `seat`: the name the record or the table gives (a bot's marked already). */
function player(seat) {
  const named = players()?.[seat];
  return { name: typeof named === "string" && named ? named : null };
}

/** A seat as the pages name it: "Ann", "Bot 2", "Seat 3"; the viewer's "You (Ann)". */
function seatName(seat) {
  return nameOf(seat, player(seat), viewerSeat());
}

/** A seat inside a sentence: "you" for the viewer. */
function seatLabel(seat) {
  return labelOf(seat, player(seat), viewerSeat());
}

function teamName(team) {
  const n = state.data?.seats ?? 4;
  const members = [];
  for (let s = team; s < n; s += 2) members.push(seatLabel(s));
  return `Team ${team === 0 ? "A" : "B"} (${members.join(", ")})`;
}

// ---- loading ----------------------------------------------------------------------

function showError(text) {
  $("load-error").textContent = text;
}

function status(text) {
  $("load-status").textContent = text;
}

/** A file's JSON: the whole text, or its first line (a file of one game a line). */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch (whole) {
    const line = text.split("\n").find((l) => l.trim());
    if (line && line.length < text.trim().length) {
      try {
        return JSON.parse(line);
      } catch { /* fall through */ }
    }
    throw whole;
  }
}

const isAnalysis = (json) => json && typeof json === "object" && json.judge && json.thresholds && Array.isArray(json.hands);

/** Takes one file's text: a record, an analysis, or an analysis holding its record. */
async function takeFile(name, text) {
  showError("");
  let json;
  try {
    json = parseJson(text);
  } catch (e) {
    showError(`${name}: not JSON (${e.message})`);
    return;
  }
  if (isAnalysis(json)) {
    // `analyze --json` holds its record: the one file opens the game with its marks.
    if (json.record) {
      setAnalysis(json, false);
      await setRecord(JSON.stringify(json.record));
    } else {
      setAnalysis(json, true);
      if (!state.data) status(`${name}: an analysis; now choose the game's record.`);
    }
    return;
  }
  if (json && typeof json === "object" && isAnalysis(json.analysis)) {
    setAnalysis(json.analysis, false);
    const { analysis: _, ...record } = json;
    await setRecord(JSON.stringify(record));
    return;
  }
  await setRecord(JSON.stringify(json));
}

/** Takes an analysis's marks; `check`: against the game shown now (else the next one). */
function setAnalysis(analysis, check) {
  state.analysis = analysis;
  state.marks = new Map();
  for (const hand of analysis.hands ?? []) {
    for (const decision of hand.decisions ?? []) state.marks.set(`${hand.hand}:${decision.index}`, decision);
  }
  if (check) {
    checkAnalysis();
    render();
  }
}

/** Drops an analysis that is not of the game shown, and says so. */
function checkAnalysis() {
  if (!state.analysis || !state.data) return;
  const a = state.analysis;
  let wrong = a.game !== state.data.game || a.variant !== state.data.variant;
  // An analysis that holds its record: the same deals and actions as the record shown.
  const moves = (record) => JSON.stringify((record?.hands ?? []).map((h) => [h.deal, h.actions ?? []]));
  if (a.record && state.record && moves(a.record) !== moves(JSON.parse(state.record))) wrong = true;
  for (const s of state.data.steps) {
    const decision = s.index != null ? state.marks.get(`${s.hand}:${s.index}`) : null;
    if (decision && !s.action.includes("??") && decision.taken !== s.action) wrong = true;
  }
  if (wrong) {
    state.analysis = null;
    state.marks = new Map();
    showError("The analysis is of another game than this record: its marks are not shown.");
  } else {
    const marked = [...state.marks.values()].filter((d) => d.mark).length;
    status(`Analysis: ${state.marks.size} decisions judged, ${marked} marked.`);
  }
}

async function setRecord(text) {
  state.record = text;
  await load();
}

/** Asks the server for every state of the game, as the chosen viewer sees it. */
async function load() {
  const seat = encodeURIComponent(state.seat);
  let response;
  try {
    response = tableId && !state.record
      ? await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?seat=${seat}`)
      : await fetch(`/api/replay?seat=${seat}`, {
        method: "POST", headers: { "content-type": "application/json" }, body: state.record,
      });
  } catch (e) {
    showError(`The server could not be reached: ${e.message}`);
    return;
  }
  const body = await response.json().catch(() => ({ error: `status ${response.status}` }));
  if (!response.ok) {
    showError(body.error ?? `status ${response.status}`);
    return;
  }
  const keep = state.data && state.data.steps.length === body.steps.length ? state.at : 0;
  state.data = body;
  document.body.classList.add("loaded");
  $("replay-note").hidden = !body.note;
  $("replay-note").textContent = body.note ?? "";
  if (!body.steps.length) {
    // Nothing replays yet (the first hand is in progress): the public actions only.
    $("viewer").hidden = true;
    $("steps-panel").hidden = false;
    $("steps").replaceChildren(...progressItems());
    $("title").textContent = `Replay · ${gameTitle(body.game, body.variant)}`;
    return;
  }
  state.at = pendingStep > 0 ? Math.min(pendingStep, body.steps.length - 1) : keep;
  pendingStep = -1;
  showError("");
  checkAnalysis();
  fillSelects();
  $("viewer").hidden = false;
  $("load-hint").hidden = true;
  $("steps-panel").hidden = false;
  document.title = `Replay · ${gameTitle(body.game, body.variant)} · calltrump`;
  $("title").textContent = `Replay · ${gameTitle(body.game, body.variant)}`;
  render();
}

for (const id of ["record-file", "analysis-file"]) {
  $(id).addEventListener("change", async (event) => {
    for (const file of event.target.files) await takeFile(file.name, await file.text());
  });
}

// Dropping files anywhere on the page: the analysis first, so the record finds its marks.
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", (event) => {
  if (event.relatedTarget == null) document.body.classList.remove("dragging");
});
document.addEventListener("drop", async (event) => {
  event.preventDefault();
  document.body.classList.remove("dragging");
  const files = await Promise.all([...event.dataTransfer.files].map(async (f) => [f.name, await f.text()]));
  files.sort(([, a], [, b]) => Number(/"judge"/.test(b)) - Number(/"judge"/.test(a)));
  for (const [name, text] of files) await takeFile(name, text);
});
// The page takes files from here on (common.js's catalogue is awaited before this module
// runs, which can be after the page's load event).
document.body.dataset.ready = "true";

// ---- moving -------------------------------------------------------------------------

function go(index) {
  if (!state.data) return;
  state.at = Math.max(0, Math.min(state.data.steps.length - 1, index));
  render();
}

/** The first and last step of the hand of step `at`. */
function handBounds(at) {
  const steps = state.data.steps;
  const hand = steps[at].hand;
  let first = at;
  while (first > 0 && steps[first - 1].hand === hand) first -= 1;
  let last = at;
  while (last < steps.length - 1 && steps[last + 1].hand === hand) last += 1;
  return [first, last];
}

function goHand(hand) {
  const index = state.data.steps.findIndex((s) => s.hand === hand);
  if (index >= 0) go(index);
}

$("first").addEventListener("click", () => {
  const [first] = handBounds(state.at);
  go(first === state.at ? first - 1 : first);
});
$("back").addEventListener("click", () => go(state.at - 1));
$("forward").addEventListener("click", () => go(state.at + 1));
$("last").addEventListener("click", () => {
  const [, last] = handBounds(state.at);
  go(last === state.at ? last + 1 : last);
});
// After a choice the arrow keys step again (in a list they would change the choice).
$("hand-select").addEventListener("change", (event) => {
  goHand(Number(event.target.value));
  $("forward").focus();
});
$("seat-select").addEventListener("change", async (event) => {
  state.seat = event.target.value;
  await load();
  $("forward").focus();
});

document.addEventListener("keydown", (event) => {
  if (!state.data?.steps.length || event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target?.tagName;
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
  const hand = step().hand;
  const last = state.data.steps[state.data.steps.length - 1].hand;
  const moves = {
    ArrowRight: () => go(state.at + 1),
    ArrowLeft: () => go(state.at - 1),
    Home: () => $("first").click(),
    End: () => $("last").click(),
    PageDown: () => goHand(Math.min(last, hand + 1)),
    PageUp: () => goHand(Math.max(0, hand - 1)),
  };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  move();
});

// ---- drawing ------------------------------------------------------------------------

function fillSelects() {
  const { steps, seats } = state.data;
  const hands = $("hand-select");
  hands.replaceChildren();
  for (const s of steps) {
    if (s.index != null) continue;
    const end = steps[handBounds(steps.indexOf(s))[1]].view;
    const what = end.contract ? ` · ${seatLabel(end.contract.declarer)} ${contractBubble(end)}` : end.hand_outcome === "thrown-in" ? " · thrown in" : "";
    hands.append(el("option", { value: String(s.hand), textContent: `Hand ${s.hand + 1}${what}` }));
  }
  const seat = $("seat-select");
  seat.replaceChildren(
    el("option", { value: "all", textContent: "Every hand face up" }),
    el("option", { value: "spectator", textContent: "A spectator" }),
  );
  for (let s = 0; s < seats; s += 1) {
    seat.append(el("option", { value: String(s), textContent: `${nameOf(s, player(s))}'s view` }));
  }
  seat.value = state.seat;
}

function markOf(s) {
  return s?.index != null ? state.marks.get(`${s.hand}:${s.index}`) : null;
}

function render() {
  const s = step();
  if (!s) return;
  const v = s.view;
  document.body.dataset.step = String(state.at);
  document.body.dataset.phase = v.phase;
  document.body.dataset.viewer = state.data.viewer;
  $("step-count").textContent = `Step ${state.at + 1} of ${state.data.steps.length}`;
  $("back").disabled = state.at === 0;
  $("forward").disabled = state.at === state.data.steps.length - 1;
  $("hand-select").value = String(s.hand);
  history.replaceState(null, "", `#step=${state.at + 1}&view=${state.seat}`);
  renderSeats(s);
  renderCenter(s);
  renderLine(s);
  renderInfo(s);
  renderSteps(s);
}

function position(seat) {
  return seatPosition(seat, state.data.seats, viewerSeat(), facts()?.direction);
}

/** The cards `seat` holds as this view shows them: faces, or backs with a count. */
function seatCards(s, seat) {
  const v = s.view;
  const box = el("div", { className: "mini-hand" });
  const known = s.hands ? s.hands[seat] : v.viewer?.seat === seat ? v.sorted_hand : null;
  if (known) {
    box.setAttribute("aria-label", `${known.length} cards: ${known.map(cardName).join(", ")}`);
    for (const card of known) box.append(cardFace(card));
  } else {
    const count = v.hand_sizes[seat] ?? 0;
    box.classList.add("hidden-cards");
    box.setAttribute("aria-label", `${count} cards, face down`);
    for (let i = 0; i < count; i += 1) box.append(el("span", { className: "card back", ariaHidden: "true" }));
  }
  return box;
}

function renderSeats(s) {
  const v = s.view;
  const n = state.data.seats;
  const felt = $("felt");
  felt.className = `felt seats-${n}`;
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const turn = turnSeat(v);
  for (let seat = 0; seat < n; seat += 1) {
    const box = el("section", { className: `seat pos-${position(seat)} team-${teamLetter(seat)}` });
    box.dataset.seat = seat;
    box.setAttribute("aria-label", `${seatName(seat)}, team ${teamLetter(seat)}`);
    if (seat === turn) box.classList.add("to-act");
    if (seat === s.seat) box.classList.add("acted");
    if (v.sitting_out === seat) box.classList.add("out");
    if (seat === viewerSeat()) box.classList.add("me");
    const badges = el("div", { className: "badges" });
    const badge = (text, cls) => badges.append(el("span", { className: `badge ${cls}`, textContent: text }));
    badge(`Team ${teamLetter(seat)}`, "team");
    if (v.dealer === seat) badge("Dealer", "dealer");
    if (v.sitting_out === seat) badge("sits out", "out");
    if (seat === turn) badge("next", "turn");
    const facts = seatFacts(v, seat);
    box.append(el("div", { className: "name", textContent: seatName(seat) }), badges, facts, seatCards(s, seat));
    felt.append(box);
  }
}

function renderCenter(s) {
  const v = s.view;
  const center = $("center");
  center.replaceChildren();
  // A card that ends a trick: the engine's view has moved on to the next (empty) one,
  // and the trick just won is its last one.
  const justWon = s.action?.startsWith("play ") && v.trick?.cards.length === 0 && v.last_trick;
  const trick = justWon ? v.last_trick : v.trick;
  const over = v.phase === "hand-over" || v.phase === "game-over";
  const complete = trick && trick.cards.length > 0 && trick.cards.length === state.data.seats - (v.sitting_out != null ? 1 : 0);
  if (trick) {
    for (const [seat, card] of trick.cards) {
      center.append(playedFace(card, position(seat), `${seatName(seat)}: ${cardName(card)}`, complete && seat === trick.winning, seatName(seat)));
    }
  }
  if (v.trump) {
    center.append(trumpMark(v.trump));
  }
  let note = "";
  if (v.phase === "game-over" && v.outcome != null) {
    note = v.outcome === "draw" ? `Game over: a draw, ${v.scores[0]} to ${v.scores[1]}` : `Game over: ${teamName(v.outcome)} wins, ${v.scores[0]} to ${v.scores[1]}`;
  } else if (over) note = handOverText(v);
  else if (complete) note = `${seatName(trick.winning)} takes the trick`;
  else if (v.phase === "play" && trick && trick.cards.length === 0) note = `${seatName(trick.leader)} leads`;
  if (note) center.append(el("p", { className: `center-note ${complete || over ? "won" : ""}`, textContent: note }));
}

function handOverText(v) {
  if (v.hand_outcome === "thrown-in") return "Everyone passed: thrown in";
  if (v.hand_outcome === "misdeal") return "Misdeal: dealt again";
  const points = v.hand_points ?? [0, 0];
  const signed = (p) => (p >= 0 ? `+${p}` : String(p));
  return `Hand over: A ${signed(points[0])}, B ${signed(points[1])}`;
}

function renderLine(s) {
  const line = $("turn-line");
  line.replaceChildren();
  if (s.index == null) {
    line.append(`Hand ${s.hand + 1}: ${seatName(s.view.dealer)} ${s.view.dealer === viewerSeat() ? "deal" : "deals"}.`);
  } else {
    line.append(`Hand ${s.hand + 1}, action ${s.index + 1}: ${seatName(s.seat)} — ${actionText(s.action, names())}.`);
  }
  const decision = markOf(s);
  if (decision?.mark) line.append(" ", el("span", { className: `mark ${decision.mark}`, textContent: decision.mark }));
}

function renderInfo(s) {
  const v = s.view;
  const info = $("info");
  info.replaceChildren();
  info.append(el("h2", { textContent: gameTitle(state.data.game, state.data.variant) }));
  const scores = el("table", { className: "scores" }, el("caption", { textContent: "Scores, and tricks this hand" }));
  for (const team of [0, 1]) {
    scores.append(el("tr", {},
      el("th", { textContent: teamName(team) }),
      el("td", { className: "members", textContent: `tricks ${v.tricks[team]}` }),
      el("td", { className: "score", textContent: String(v.scores[team]) })));
  }
  info.append(scores);
  const list = el("dl", { className: "facts-list" });
  const fact = (name, value) => list.append(el("dt", { textContent: name }), el("dd", { textContent: value }));
  const hands = state.data.steps[state.data.steps.length - 1].hand + 1 + (state.data.in_progress ? 1 : 0);
  fact("Hand", `${s.hand + 1} of ${hands}${state.data.finished ? "" : " so far"}`);
  fact("Dealer", seatName(v.dealer));
  fact("Contract", v.contract ? `${seatName(v.contract.declarer)}: ${contractText(v)}` : "none yet");
  fact("Trump", v.trump ? strainText(v.trump) : "not named");
  if (v.exchanges.length) fact("Passed", v.exchanges.map(([seat, a]) => `${seatName(seat)}: ${actionText(a, names())}`).join("; "));
  if (v.hand_points) fact("Hand's points", `Team A ${v.hand_points[0]}, team B ${v.hand_points[1]}`);
  info.append(list);
  const decision = markOf(s);
  if (decision) {
    const box = el("div", { className: "judged" });
    if (decision.forced) box.append(el("p", { textContent: "Forced: the only legal action." }));
    else {
      const best = decision.actions[0];
      box.append(el("p", {},
        decision.mark ? el("span", { className: `mark ${decision.mark}`, textContent: decision.mark }) : null,
        decision.mark ? " " : null,
        `Lost ${decision.loss.toFixed(2)} points. Best: ${actionText(best.action, names())} (${best.points >= 0 ? "+" : ""}${best.points?.toFixed(2)}).`));
      if (decision.reading) box.append(el("p", { className: "small", textContent: `Shows: ${decision.reading}` }));
    }
    info.append(box);
  } else if (state.analysis && s.index != null) {
    info.append(el("p", { className: "hint", textContent: "Not judged by the analysis." }));
  }
}

function renderSteps(s) {
  const list = $("steps");
  const [first, last] = handBounds(state.at);
  list.replaceChildren();
  for (let i = first; i <= last; i += 1) {
    const item = state.data.steps[i];
    const decision = markOf(item);
    const text = item.index == null ? `Deal: ${seatLabel(item.view.dealer)} ${item.view.dealer === viewerSeat() ? "deal" : "deals"}` : `${seatName(item.seat)}: ${actionText(item.action, names())}`;
    const button = el("button", { type: "button", className: "step-link", textContent: text });
    button.addEventListener("click", () => go(i));
    const row = el("li", {}, button);
    if (decision?.mark) row.append(" ", el("span", { className: `mark ${decision.mark}`, textContent: decision.mark }));
    if (i === state.at) {
      row.classList.add("current");
      button.setAttribute("aria-current", "step");
    }
    list.append(row);
  }
  // After the last hand replayed: the hand in progress, as far as it is public.
  if (last === state.data.steps.length - 1) list.append(...progressItems());
  // Only the list scrolls to the current step: scrolling the page (scrollIntoView) took
  // the board and its buttons off a phone's screen at every step.
  const current = list.querySelector(".current");
  if (current) {
    const at = current.getBoundingClientRect();
    const room = list.getBoundingClientRect();
    if (at.top < room.top) list.scrollTop -= room.top - at.top;
    else if (at.bottom > room.bottom) list.scrollTop += at.bottom - room.bottom;
  }
}

/** The hand in progress of a record taken during the game: its public actions, as text. */
function progressItems() {
  const progress = state.data?.in_progress;
  if (!progress) return [];
  const items = [el("li", { className: "in-progress-head" }, el("strong", {
    textContent: `Hand ${progress.hand + 1}, in progress: not replayed (its deal is not public), ${progress.actions.length} ${progress.actions.length === 1 ? "action" : "actions"} so far`,
  }))];
  for (const action of progress.actions) items.push(el("li", { className: "in-progress", textContent: actionText(action, names()) }));
  return items;
}

// ---- start --------------------------------------------------------------------------

if (tableId) {
  $("load-h").textContent = `Table ${tableId}`;
  status("Loading the table's game…");
  load().then(showTableAnalysis);
}

/** A table's game that is over: its analysis from the server (the expert's judgement of
 * every decision, worked out once), its marks on the steps. */
async function showTableAnalysis() {
  if (!state.data) return;
  status(`Table ${tableId}'s game. Asking the server for its analysis…`);
  const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`).catch(() => null);
  if (answer?.ok) {
    setAnalysis(await answer.json(), true);
  } else if (answer?.status === 409) {
    status(`Table ${tableId}'s game, still in play: its analysis comes when it is over.`);
  } else {
    status(`Table ${tableId}'s game. Drop an analysis of it here to see its marks.`);
  }
}
