// The replay viewer: a game record stepped through action by action, every hand face up
// or as one seat (or a spectator) saw it. The states come from the server's engine
// (`POST /api/replay`, or a finished table's `GET /api/tables/{id}/replay`): nothing of the
// rules is worked out here. An `analyze --json` output adds its marks to the steps.

import { cardFace, cardName, strainText } from "./cards.js";
import { $, el, gameTitle, teamLetter, variantFacts } from "./common.js";
import { LANG, hasString, languageSwitch, num, t, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";
import {
  actionText, contractBubble, contractText, isolated, messageNodes, playedFace, seatFacts, seatLabel as labelOf,
  seatName as nameOf, seatNameNodes, seatPosition, trumpMark, turnSeat,
} from "./drawing.js";

// The page's words, the bar's language switch and account.
translatePage();
document.title = t("replay-tab");
document.querySelector(".bar nav").append(languageSwitch());
showAccount(document.querySelector(".bar nav"));
showHint();
// Right to left, forward is leftwards: the step buttons' arrows and the arrow keys turn.
const RTL = LANG === "ar";
const FORWARD_KEY = RTL ? "ArrowLeft" : "ArrowRight";
const BACK_KEY = RTL ? "ArrowRight" : "ArrowLeft";
$("back").title = t("replay-back-title", { key: RTL ? "→" : "←" });
$("forward").title = t("replay-forward-title", { key: RTL ? "←" : "→" });

/** The files' hint, its commands set as code in the sentence of either language. */
function showHint() {
  const commands = { simulate: "calltrump simulate --records", analyze: "calltrump analyze --json" };
  const marked = t("replay-hint", { simulate: "\u0001simulate\u0001", analyze: "\u0001analyze\u0001" });
  $("load-hint").replaceChildren(...marked.split("\u0001").map((part, i) => (i % 2 ? el("code", { textContent: commands[part] }) : part)));
}

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

/**
 * Who sits at `seat`: the name the record or the table gives. The server writes a seat
 * without a name as `Bot N` or `Seat N` and a named bot as `Name (bot)`: read back, they
 * are said in the page's language.
 */
function player(seat) {
  const named = players()?.[seat];
  if (typeof named !== "string" || !named || named === `Seat ${seat}`) return { name: null };
  if (named === `Bot ${seat}`) return { name: null, bot: true };
  const bot = named.match(/^(.+) \(bot\)$/);
  return bot ? { name: bot[1], bot: true } : { name: named };
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
  return teamNodes(team).map((node) => (typeof node === "string" ? node : node.textContent)).join("");
}

/** [`teamName`] as nodes, each name isolated: "Ann" keeps its order in Arabic. */
function teamNodes(team) {
  const n = state.data?.seats ?? 4;
  const members = [];
  for (let s = team; s < n; s += 2) members.push(...(members.length ? [t("list-comma")] : []), isolated(seatLabel(s)));
  return messageNodes("replay-team", {}, { team: isolated(team === 0 ? "A" : "B"), members });
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
    showError(t("replay-not-json", { name, error: e.message }));
    return;
  }
  if (isAnalysis(json)) {
    // `analyze --json` holds its record: the one file opens the game with its marks.
    if (json.record) {
      setAnalysis(json, false);
      await setRecord(JSON.stringify(json.record));
    } else {
      setAnalysis(json, true);
      if (!state.data) status(t("replay-analysis-alone", { name }));
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
    showError(t("replay-analysis-other"));
  } else {
    const marked = [...state.marks.values()].filter((d) => d.mark).length;
    status(t("replay-analysis-judged", { n: state.marks.size, marked }));
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
    showError(t("replay-unreachable", { error: e.message }));
    return;
  }
  const body = await response.json().catch(() => ({ error: `status ${response.status}` }));
  if (!response.ok) {
    showError(t("replay-refused", { error: body.error ?? `status ${response.status}` }));
    return;
  }
  const keep = state.data && state.data.steps.length === body.steps.length ? state.at : 0;
  state.data = body;
  document.body.classList.add("loaded");
  $("replay-note").hidden = !body.note;
  $("replay-note").textContent = body.note ? noteText(body) : "";
  if (!body.steps.length) {
    // Nothing replays yet (the first hand is in progress): the public actions only.
    $("viewer").hidden = true;
    $("steps-panel").hidden = false;
    $("steps").replaceChildren(...progressItems());
    $("title").textContent = t("replay-heading", { title: gameTitle(body.game, body.variant) });
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
  document.title = t("replay-tab-game", { title: gameTitle(body.game, body.variant) });
  $("title").textContent = t("replay-heading", { title: gameTitle(body.game, body.variant) });
  render();
}

/**
 * Why the steps stop before the game's end, in the page's language (the server's `note`
 * says it in English): the hand in progress, or the last hand replayed.
 */
function noteText(body) {
  if (body.in_progress) return t("replay-note-in-progress", { n: body.in_progress.hand + 1, count: body.in_progress.actions.length });
  const last = body.steps[body.steps.length - 1];
  if (!last) return t("replay-note-during", { n: 1 });
  const open = !["hand-over", "game-over"].includes(last.view.phase);
  return t(open ? "replay-note-during" : "replay-note-after", { n: last.hand + 1 });
}

for (const id of ["record-file", "analysis-file"]) {
  $(id).addEventListener("change", async (event) => {
    const files = [...event.target.files];
    // The file chosen, named beside the button (the browser's own words are not shown).
    event.target.closest(".file-row").querySelector(".file-name").textContent = files.map((f) => f.name).join(t("list-comma")) || t("replay-no-file");
    for (const file of files) await takeFile(file.name, await file.text());
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
    [FORWARD_KEY]: () => go(state.at + 1),
    [BACK_KEY]: () => go(state.at - 1),
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
    const n = s.hand + 1;
    const text = end.contract ? t("replay-hand-option-contract", { n, seat: seatLabel(end.contract.declarer), bid: contractBubble(end) })
      : end.hand_outcome === "thrown-in" ? t("replay-hand-option-thrown", { n }) : t("replay-hand-option", { n });
    hands.append(el("option", { value: String(s.hand), textContent: text }));
  }
  const seat = $("seat-select");
  seat.replaceChildren(
    el("option", { value: "all", textContent: t("replay-view-all") }),
    el("option", { value: "spectator", textContent: t("replay-view-spectator") }),
  );
  for (let s = 0; s < seats; s += 1) {
    seat.append(el("option", { value: String(s), textContent: t("replay-view-seat", { seat: nameOf(s, player(s)) }) }));
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
  $("step-count").textContent = t("replay-step-count", { n: state.at + 1, of: state.data.steps.length });
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
    box.setAttribute("aria-label", t("replay-cards-known", { n: known.length, cards: known.map(cardName).join(t("list-comma")) }));
    for (const card of known) box.append(cardFace(card));
  } else {
    const count = v.hand_sizes[seat] ?? 0;
    box.classList.add("hidden-cards");
    box.setAttribute("aria-label", t("replay-cards-hidden", { n: count }));
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
    box.setAttribute("aria-label", t("replay-seat-label", { name: seatName(seat), team: teamLetter(seat) }));
    if (seat === turn) box.classList.add("to-act");
    if (seat === s.seat) box.classList.add("acted");
    if (v.sitting_out === seat) box.classList.add("out");
    if (seat === viewerSeat()) box.classList.add("me");
    const badges = el("div", { className: "badges" });
    const badge = (text, cls) => badges.append(el("span", { className: `badge ${cls}`, textContent: text }));
    badge(t("team-letter", { team: teamLetter(seat) }), "team");
    if (v.dealer === seat) badge(t("badge-dealer"), "dealer");
    if (v.sitting_out === seat) badge(t("badge-sits-out"), "out");
    if (seat === turn) badge(t("turn-word-next"), "turn");
    const facts = seatFacts(v, seat);
    box.append(el("div", { className: "name" }, ...seatNameNodes(seat, player(seat), viewerSeat())), badges, facts, seatCards(s, seat));
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
    const [a, b] = v.scores;
    note = v.outcome === "draw" ? t("replay-game-over-draw", { a, b }) : t("replay-game-over-won", { team: teamName(v.outcome), a, b });
  } else if (over) note = handOverText(v);
  else if (complete) note = t("trick-takes", { seat: seatName(trick.winning) });
  else if (v.phase === "play" && trick && trick.cards.length === 0) note = t("seat-leads", { seat: seatName(trick.leader) });
  if (note) center.append(el("p", { className: `center-note ${complete || over ? "won" : ""}`, textContent: note }));
}

function handOverText(v) {
  if (v.hand_outcome === "thrown-in") return t("hand-thrown-in");
  if (v.hand_outcome === "misdeal") return t("hand-misdeal");
  const points = v.hand_points ?? [0, 0];
  const signed = (p) => (p >= 0 ? `+${p}` : String(p));
  return t("replay-hand-over", { a: signed(points[0]), b: signed(points[1]) });
}

function renderLine(s) {
  const line = $("turn-line");
  line.replaceChildren();
  if (s.index == null) {
    const n = s.hand + 1;
    line.append(s.view.dealer === viewerSeat() ? t("replay-line-deal-you", { n }) : t("replay-line-deal", { n, seat: seatName(s.view.dealer) }));
  } else {
    line.append(t("replay-line-action", { n: s.hand + 1, m: s.index + 1, seat: seatName(s.seat), action: actionText(s.action, names()) }));
  }
  const decision = markOf(s);
  if (decision?.mark) line.append(" ", markBadge(decision.mark));
}

/** An analysis's mark (inaccuracy, mistake, blunder) as a badge in the page's words. */
function markBadge(mark) {
  return el("span", { className: `mark ${mark}`, textContent: hasString(`mark-${mark}`) ? t(`mark-${mark}`) : mark });
}

function renderInfo(s) {
  const v = s.view;
  const info = $("info");
  info.replaceChildren();
  info.append(el("h2", { textContent: gameTitle(state.data.game, state.data.variant) }));
  const scores = el("table", { className: "scores" }, el("caption", { textContent: t("replay-scores-caption") }));
  for (const team of [0, 1]) {
    scores.append(el("tr", {},
      el("th", {}, ...teamNodes(team)),
      el("td", { className: "members", textContent: t("seat-tricks", { n: v.tricks[team] }) }),
      el("td", { className: "score", textContent: num(String(v.scores[team])) })));
  }
  info.append(scores);
  const list = el("dl", { className: "facts-list" });
  const fact = (name, value) => list.append(el("dt", { textContent: name }), el("dd", { textContent: value }));
  const hands = state.data.steps[state.data.steps.length - 1].hand + 1 + (state.data.in_progress ? 1 : 0);
  fact(t("fact-hand"), t(state.data.finished ? "replay-hand-of" : "replay-hand-of-so-far", { n: s.hand + 1, of: hands }));
  fact(t("fact-dealer"), seatName(v.dealer));
  fact(t("fact-contract"), v.contract ? t("replay-step", { seat: seatName(v.contract.declarer), action: contractText(v) }) : t("replay-none-yet"));
  fact(t("fact-trump"), v.trump ? strainText(v.trump) : t("replay-not-named"));
  if (v.exchanges.length) fact(t("fact-passed"), v.exchanges.map(([seat, a]) => t("replay-step", { seat: seatName(seat), action: actionText(a, names()) })).join(t("list-comma")));
  if (v.hand_points) fact(t("replay-hand-points"), t("replay-hand-points-value", { a: v.hand_points[0], b: v.hand_points[1] }));
  info.append(list);
  const decision = markOf(s);
  if (decision) {
    const box = el("div", { className: "judged" });
    if (decision.forced) box.append(el("p", { textContent: t("replay-forced") }));
    else {
      const best = decision.actions[0];
      box.append(el("p", {},
        decision.mark ? markBadge(decision.mark) : null,
        decision.mark ? " " : null,
        t("replay-lost", { loss: decision.loss.toFixed(2), best: actionText(best.action, names()), points: `${best.points >= 0 ? "+" : ""}${best.points?.toFixed(2)}` })));
      // The analysis's reading is the file's own English words: marked so (screen readers
      // say it in English, and it runs left to right in an Arabic page).
      if (decision.reading) {
        const reading = el("span", { className: "reading", lang: "en", dir: "ltr", textContent: decision.reading });
        const [before, after] = t("replay-shows", { reading: "\u0001" }).split("\u0001");
        box.append(el("p", { className: "small" }, before, reading, after));
      }
    }
    info.append(box);
  } else if (state.analysis && s.index != null) {
    info.append(el("p", { className: "hint", textContent: t("replay-not-judged") }));
  }
}

function renderSteps(s) {
  const list = $("steps");
  const [first, last] = handBounds(state.at);
  list.replaceChildren();
  for (let i = first; i <= last; i += 1) {
    const item = state.data.steps[i];
    const decision = markOf(item);
    const text = item.index != null ? t("replay-step", { seat: seatName(item.seat), action: actionText(item.action, names()) })
      : item.view.dealer === viewerSeat() ? t("replay-step-deal-you") : t("replay-step-deal", { seat: seatLabel(item.view.dealer) });
    const button = el("button", { type: "button", className: "step-link", textContent: text });
    button.addEventListener("click", () => go(i));
    const row = el("li", {}, button);
    if (decision?.mark) row.append(" ", markBadge(decision.mark));
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
    textContent: t("replay-in-progress", { n: progress.hand + 1, count: progress.actions.length }),
  }))];
  for (const action of progress.actions) items.push(el("li", { className: "in-progress", textContent: actionText(action, names()) }));
  return items;
}

// ---- start --------------------------------------------------------------------------

if (tableId) {
  $("load-h").textContent = t("replay-table", { id: tableId });
  status(t("replay-loading"));
  load().then(showTableAnalysis);
}

/** A table's game that is over: its analysis from the server (the expert's judgement of
 * every decision, worked out once), its marks on the steps. */
async function showTableAnalysis() {
  if (!state.data) return;
  // A game still being played has no analysis yet (the server would answer 409): not asked.
  if (!state.data.finished) {
    status(t("replay-still-playing", { id: tableId }));
    return;
  }
  status(t("replay-asking", { id: tableId }));
  const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`).catch(() => null);
  if (answer?.ok) {
    setAnalysis(await answer.json(), true);
  } else if (answer?.status === 409) {
    status(t("replay-still-playing", { id: tableId }));
  } else {
    status(t("replay-drop-analysis", { id: tableId }));
  }
}
