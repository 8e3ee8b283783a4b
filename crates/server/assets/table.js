// The table: one seat's (or a spectator's) live view of a game over the table protocol
// (docs/table-protocol.md). The server's view of the game is drawn as it is; updates are
// shown one after another, with a pause on each finished trick and hand so people can
// follow bots that play at once.

import { cardFace, cardName, cardText, strainText, SUIT_SYMBOLS } from "./cards.js";
import {
  actionText, callBubble, contractText, playedFace, seatFacts, seatLabel as labelOf, seatName as nameOf,
  seatPosition, seatSubject, trumpMark, turnSeat,
} from "./drawing.js";
import { $, el, gameTitle, linkRow, LEVELS, myTables, rememberTable, teamLetter, variantFacts } from "./common.js";
import { canCheck, checkHand, deck } from "./fairdeal.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token");
const hostToken = fragment.get("host");

// How long a finished trick and a finished hand stay on the table, in ms at "normal".
const TRICK_HOLD = 1400;
const HAND_HOLD = 3000;
const PACE = { slow: 1.7, normal: 1, fast: 0.25 };

const state = {
  welcome: null,
  snap: null, // {version, view, actions, dealt, deal_check}: the state as shown
  received: null, // the latest version received (shown or queued)
  seats: [],
  seatsAt: 0,
  status: "open",
  lastChat: 0,
  holding: null, // a finished trick or hand being shown: {kind, trick, ms}
  lastHand: null, // {summary, scores, view}
  handCheck: null, // the fair-deal check of the last revealed hand
  selected: new Set(), // indices into the sorted hand, for an exchange
  showLast: false,
  sending: false,
  closed: null, // why the server closed the seat for good
  closedKind: null, // the `closing` kind of that: seat_gone, table_gone, bad_token, too_big
  endConfirm: false,
  cutValue: null, // what the player typed into the cut box
  cutDeadline: null, // when the server cuts at random for this seat (ms since 1970)
  historyAsked: false, // the log of the game so far was asked for (once a page)
  chatWaiting: null, // chat lines held while that log is built, to go where they were said
  asked: false, // the seat's dialog was shown
  hint: null, // the latest `hint` answer (for the version it names)
  hintAsked: null, // the version a hint was asked for, until it comes
  unread: 0, // chat lines said while the chat was out of view
  live: false, // this page's connection is open and welcomed: a chat line goes at once
  away: false, // the server does not answer: the page tries again
  gone: null, // the table cannot be joined: "over", "ended" or "unknown" (no such table)
  pendingChat: [], // chat lines typed while the connection was down, sent once it is back
  wasMyTurn: false,
  talkSent: false, // the chat lines after `welcome` (the talk so far) have all come
  // A seat's link whose person has no name yet only looks (`look`): the seat is taken
  // once they sit down, name given, with `hello`.
  looking: Boolean(token) && !localStorage.getItem("calltrump.name"),
};

// ---- names and words ------------------------------------------------------------

const mySeat = () => state.welcome?.seat ?? null;
const view = () => state.snap?.view;
/** The game's calls with names of their own (the view's `call_names`). */
const names = () => view()?.call_names ?? [];
/** The catalogue's facts of the table's variant. */
const facts = () => variantFacts(state.welcome?.rules.game, state.welcome?.rules.variant);

/** Who sits at `seat`: a bot's name is its own only if it is not its level's. */
function player(seat) {
  const info = state.seats[seat];
  const level = info?.sitter?.startsWith("bot:") ? info.sitter.slice(4) : null;
  return { name: info?.name && info.name !== level ? info.name : null, bot: level != null };
}

/** A seat as its box names it: "You (Ann)", "Bo", "Cy (bot)", "Bot 3". */
function seatTitle(seat) {
  return nameOf(seat, player(seat), mySeat());
}

/** A seat in the table's sentences and lists: "You" for this player. */
function seatName(seat) {
  return seatSubject(seat, player(seat), mySeat());
}

/** A seat's name inside a sentence: "Ann", "Bot 3", or "you". */
function seatLabel(seat) {
  return labelOf(seat, player(seat), mySeat());
}

function teamOf(seat) {
  return seat % 2;
}

function teamName(team) {
  const me = mySeat();
  if (me != null) return teamOf(me) === team ? "Us" : "Them";
  return `Team ${team === 0 ? "A" : "B"}`;
}

function teamMembers(team) {
  const n = view()?.seats ?? state.seats.length;
  const names = [];
  for (let s = team; s < n; s += 2) names.push(seatName(s));
  return names.join(" & ");
}

function pace() {
  return PACE[localStorage.getItem("calltrump.speed")] ?? 1;
}

// ---- the connection -------------------------------------------------------------

let socket = null;
let backoff = 500;
let pinger = null;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  setConn("Connecting…", "connecting");
  socket.addEventListener("open", () => {
    backoff = 500;
    if (state.looking) send({ type: "look", token });
    else {
      send({
        type: "hello",
        token: token ?? undefined,
        host: hostToken ?? undefined,
        name: localStorage.getItem("calltrump.name") || undefined,
        version: state.received ?? undefined,
      });
    }
    setConn("Connected", "ok");
    clearInterval(pinger);
    pinger = setInterval(() => send({ type: "ping" }), 20000);
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  let welcomed = false;
  socket.addEventListener("message", () => { welcomed = true; }, { once: true });
  socket.addEventListener("close", async () => {
    clearInterval(pinger);
    state.sending = false;
    state.live = false;
    // Refused before a word (the upgrade answered 404, or nobody answered): ask the
    // server why. A table over or ended, or none at this link, is not retried.
    if (!welcomed && !state.closed) {
      const why = await whyRefused();
      if (why === "away") state.away = true;
      else if (why) {
        state.gone = why;
        state.closed = goneWords(why);
        const r = state.goneReplay;
        $("title").textContent = r?.game ? gameTitle(r.game, r.variant) : "";
      }
    } else state.away = false;
    if (state.closed) {
      setConn("Closed", "closed");
      chatClosed();
      render();
      return;
    }
    setConn("Reconnecting…", "connecting");
    render();
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  });
}

/**
 * Why a connection was refused, from the table's replay: `over` (its game is over),
 * `ended` (the host ended it), `unknown` (no such table), `away` (the server does not
 * answer, or answers as if it could not say), null (the table is there: try again).
 */
async function whyRefused() {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?seat=spectator`);
    if (response.status === 404) return "unknown";
    // Not started, yet refused: ended (or given up) before its first deal, nothing to replay.
    if (response.status === 409) {
      state.goneReplay = null;
      state.goneEmpty = true;
      return "ended";
    }
    if (!response.ok) return "away";
    const replay = await response.json().catch(() => null);
    state.goneReplay = replay;
    return replay?.finished ? "over" : "ended";
  } catch {
    return "away";
  }
}

function goneWords(why) {
  return { over: "this game is over", ended: "this table has ended", unknown: "there is no table at this link" }[why];
}

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function setConn(text, kind) {
  const conn = $("conn");
  conn.textContent = text;
  conn.dataset.kind = kind;
}

// The closing kinds after which connecting again may help; every other kind is final
// (the seat or the table is gone, the link is wrong, a message was too big).
const RETRY_KINDS = new Set(["retry", "idle"]);

function receive(message) {
  switch (message.type) {
    case "welcome":
      state.talkSent = false;
      state.live = true;
      state.away = false;
      flushChat();
      state.welcome = message;
      state.status = message.status;
      onWelcome();
      break;
    case "snapshot":
      state.received = message.version;
      queue.length = 0;
      enqueue(message);
      break;
    case "update":
      state.received = message.version;
      enqueue(message);
      break;
    case "seats":
      // The talk so far comes between `welcome` and `seats`; later lines are new.
      state.talkSent = true;
      state.seats = message.seats;
      seatsArrived();
      state.seatsAt = Date.now();
      render();
      // The seats follow the welcome: the dialog can name the partners.
      if (state.welcome) askName();
      break;
    case "status":
      state.status = message.status;
      chatClosed();
      logLine(statusWords(message.status), "event");
      render();
      break;
    case "chat":
      if (message.seq > state.lastChat) {
        state.lastChat = message.seq;
        if (state.chatWaiting) state.chatWaiting.push(message);
        else chatLine(message, state.talkSent);
      }
      break;
    case "hint":
      state.hintAsked = null;
      if (message.version === state.received) {
        state.hint = message;
        const best = message.actions[0];
        announce(best ? `Hint: ${actionText(best.action, names())} is best, ${pointsText(best.points)} points.` : "No hint for this position.");
      }
      render();
      break;
    case "error":
      state.sending = false;
      state.hintAsked = null;
      toast(message.message);
      render();
      break;
    case "invite":
      // The host opened a seat for a person: its link, to hand on.
      rememberInvite(message.seat, message.url);
      render();
      break;
    case "closing":
      // A final closing is on the page for good (and the error before it stays up).
      if (RETRY_KINDS.has(message.kind)) toast(`The server closed the connection: ${message.reason}`);
      else {
        state.closed = message.reason;
        state.closedKind = message.kind;
      }
      break;
    default:
      break;
  }
}

function statusWords(status) {
  return {
    open: "The table waits for its players.", playing: "The game is on.",
    over: "The game is over.", ended: "The host closed the table.",
  }[status] ?? `The table is ${status}.`;
}

function onWelcome() {
  const { rules, table, seat, host } = state.welcome;
  const title = gameTitle(rules.game, rules.variant);
  $("title").textContent = title + (seat == null ? (host ? " · host" : " · watching") : "");
  // Cut short on a phone's one-line bar: the whole of it on hover.
  $("title").title = $("title").textContent;
  $("rules-link").href = `/rules/${rules.game}`;
  $("record-link").href = `/api/tables/${encodeURIComponent(table)}/record`;
  $("record-link").setAttribute("download", `calltrump-${table}.json`);
  if (seat != null || host) {
    const known = myTables().find((t) => t.id === table) ?? {};
    rememberTable({ ...known, id: table, game: rules.game, variant: rules.variant, seat, url: location.pathname + location.hash });
  }
  render();
}

// ---- showing updates one after another ---------------------------------------------

const queue = [];
let pumping = false;

function enqueue(message) {
  queue.push(message);
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  while (queue.length) {
    const message = queue.shift();
    const holds = message.type === "snapshot" ? applySnapshot(message) : applyUpdate(message);
    // A finished trick, then the hand's summary, each for a while (the trick is drawn
    // held at once, so its cards do not land twice).
    if (!holds.length) render();
    for (const hold of holds) {
      state.holding = hold;
      render();
      // The pace is read as the hold goes: a change shows on the trick on the table.
      const since = Date.now();
      while (Date.now() - since < hold.ms * pace()) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    state.holding = null;
  }
  pumping = false;
  render();
}

function applySnapshot(snapshot) {
  const check0 = snapshot.deal_check;
  if (check0 && check0.cut == null && check0.seed == null && check0.cutter === mySeat() && state.cutDeadline == null) startCutClock();
  if (!state.historyAsked) {
    state.historyAsked = true;
    state.chatWaiting = [];
    loadHistory(snapshot);
  }
  state.snap = {
    version: snapshot.version, view: snapshot.view, actions: snapshot.actions,
    dealt: snapshot.dealt, deal_check: snapshot.deal_check,
  };
  state.sending = false;
  state.selected.clear();
  state.holding = null;
  const check = snapshot.deal_check;
  if (check?.seed && ["hand-over", "game-over"].includes(snapshot.view.phase)) verify(snapshot.view, check, snapshot.dealt);
  return [];
}

/** Folds one update in; answers what to hold on the table, and how long. */
function applyUpdate(update) {
  const snap = state.snap;
  if (!snap) return [];
  const before = snap.view;
  let handEnded = false;
  for (const event of update.events) {
    switch (event.type) {
      case "dealt":
        snap.dealt = event.hand;
        snap.actions = [];
        state.showLast = false;
        state.handCheck = null;
        logLine(`New hand: ${seatLabel(event.dealer)} ${event.dealer === mySeat() ? "deal" : "deals"}.`, "event");
        break;
      case "acted":
        snap.actions.push([event.seat, event.action]);
        logLine(`${seatName(event.seat)}: ${actionText(event.action, names())}`, "action");
        break;
      case "undone":
        snap.actions.splice(snap.actions.length - event.actions, event.actions);
        logLine(`${seatName(event.seat)} took back ${event.actions === 1 ? "a move" : `${event.actions} moves`}.`, "event");
        break;
      case "hand-ended":
        state.lastHand = { summary: event.summary, scores: event.scores, view: update.view };
        logLine(handSummaryText(event.summary, update.view), "event");
        handEnded = true;
        break;
      case "game-ended":
        logLine(gameOverText(event.outcome, event.scores), "event");
        break;
      case "committed":
        snap.deal_check = { commitment: event.commitment, cutter: event.cutter, cut: null, seed: null };
        state.cutDeadline = null;
        if (event.cutter === mySeat()) startCutClock();
        logLine(`Next deal committed: ${event.commitment.slice(0, 12)}…; ${seatLabel(event.cutter)} ${event.cutter === mySeat() ? "cut" : "cuts"}.`, "event");
        break;
      case "cut":
        if (snap.deal_check) snap.deal_check.cut = event.cut;
        state.cutDeadline = null;
        state.cutValue = null;
        logLine(`${seatName(event.seat)} cut ${event.cut} cards.`, "event");
        break;
      case "revealed":
        if (snap.deal_check) {
          snap.deal_check.seed = event.seed;
          verify(update.view, { ...snap.deal_check }, snap.dealt);
        }
        break;
      default:
        break;
    }
  }
  snap.view = update.view;
  snap.version = update.version;
  state.sending = false;
  state.selected.clear();
  const taken = (v) => (v?.tricks_by_seat ?? []).reduce((a, b) => a + b, 0);
  const after = update.view;
  const holds = [];
  if (taken(after) > taken(before) && after.last_trick) {
    const winner = after.last_trick.winning;
    holds.push({ kind: "trick", trick: after.last_trick, ms: TRICK_HOLD });
    announce(`${seatName(winner)} ${winner === mySeat() ? "take" : "takes"} the trick.`);
  }
  if (handEnded) holds.push({ kind: "hand", ms: HAND_HOLD });
  if (turnSeat(after) === mySeat() && turnSeat(before) !== mySeat()) announce("Your turn.");
  return holds;
}

let seatsArrived;
const seatsKnown = new Promise((resolve) => { seatsArrived = resolve; });

/**
 * The log of the game so far, for a page opened (or reloaded) mid-game: the hands before
 * the snapshot's from the table's public replay, the current hand from the snapshot.
 */
async function loadHistory(snapshot) {
  // The log names the seats as the table does: their names come with `seats`, just
  // after the snapshot.
  await seatsKnown;
  const v = snapshot.view;
  const inHand = !["dealing", "hand-over", "game-over"].includes(v.phase);
  const lines = [];
  // Where each line stands in the game, [hand, actions of it made], for the chat's lines.
  const anchors = [];
  let anchor = [-1, 0];
  const add = (text, kind) => {
    lines.push(el("li", { className: `${kind} history`, textContent: text }));
    anchors.push(anchor);
  };
  // Hands before this one, or this one over: the server's replay has them (none yet: no
  // request, and no refusal in the console).
  const before = v.deals_played > 0 || ["hand-over", "game-over"].includes(v.phase);
  try {
    const response = before ? await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?seat=spectator`) : null;
    if (response?.ok) {
      const replay = await response.json();
      const last = inHand ? v.deals_played - 1 : v.deals_played;
      let end = null;
      let endAnchor = null;
      const close = () => {
        if (!end) return;
        const now = anchor;
        anchor = endAnchor; // the summary stands at its hand's end
        add(handSummaryText({
          outcome: end.hand_outcome, points: end.hand_points, tricks: end.tricks,
          contract: end.contract?.bid ?? null, declarer: end.contract?.declarer ?? null,
        }, end), "event");
        anchor = now;
        end = null;
      };
      for (const step of replay.steps) {
        if (step.hand > last) break;
        anchor = [step.hand, step.index == null ? 0 : step.index + 1];
        if (step.index == null) {
          close();
          add(`New hand: ${seatLabel(step.view.dealer)} ${step.view.dealer === mySeat() ? "deal" : "deals"}.`, "event");
        } else {
          add(`${seatName(step.seat)}: ${actionText(step.action, names())}`, "action");
        }
        if (["hand-over", "game-over"].includes(step.view.phase)) {
          end = step.view;
          endAnchor = anchor;
        }
        if (step.view.phase === "game-over" && step.view.outcome != null) {
          close();
          add(gameOverText(step.view.outcome, step.view.scores), "event");
        }
      }
      close();
    }
  } catch {
    // No history: the log starts now.
  }
  if (inHand) {
    anchor = [v.deals_played, 0];
    add(`New hand: ${seatLabel(v.dealer)} ${v.dealer === mySeat() ? "deal" : "deals"}.`, "event");
    (snapshot.actions ?? []).forEach(([seat, action], i) => {
      anchor = [v.deals_played, i + 1];
      add(`${seatName(seat)}: ${actionText(action, names())}`, "action");
    });
  }
  const talk = state.chatWaiting ?? [];
  state.chatWaiting = null;
  const log = $("log");
  if (!lines.length) {
    for (const line of talk) chatLine(line);
    return;
  }
  // Each chat line after the last line of the game it followed (`deals` and `actions`
  // of the server); a line that does not say (said before a restart of the server)
  // after the game so far. Never before an earlier chat line.
  const upTo = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
  // slots[i]: the chat lines before lines[i]; the last, those after the game so far.
  const slots = [...lines, null].map(() => []);
  let floor = 0;
  for (const line of talk) {
    let at = lines.length;
    if (line.deals != null && line.actions != null) {
      const said = [line.deals - 1, line.actions];
      at = anchors.filter((a) => upTo(a, said)).length;
    }
    at = Math.max(at, floor);
    floor = at;
    slots[at].push(chatItem(line));
  }
  const merged = lines.flatMap((line, i) => [...slots[i], line]).concat(slots[lines.length]);
  log.prepend(el("li", { className: "event history-head", textContent: "The game so far:" }), ...merged);
  log.scrollTop = log.scrollHeight;
}

/** Checks a revealed deal in the background; the info panel shows the result. */
async function verify(v, check, dealt) {
  const hand = v.deals_played;
  if (!canCheck()) {
    state.handCheck = { hand, ok: null, reason: "this browser can check deals only over https or on localhost" };
    render();
    return;
  }
  try {
    const result = await checkHand({
      rules: state.welcome.rules, seats: v.seats, table: tableId, hand, dealer: v.dealer,
      check, dealt, seat: mySeat(),
    });
    state.handCheck = { hand, ...result };
  } catch (error) {
    state.handCheck = { hand, ok: false, reason: `the check failed: ${error.message}` };
  }
  render();
}

/** The two teams, this seat's first. */
function teamOrder() {
  return mySeat() != null && teamOf(mySeat()) === 1 ? [1, 0] : [0, 1];
}

function handSummaryText(summary, v) {
  if (summary.outcome === "thrown-in") return "Everyone passed: the hand is thrown in.";
  if (summary.outcome === "misdeal") return "Misdeal: the hand is dealt again.";
  const points = summary.points ?? v.hand_points ?? [0, 0];
  const tricks = summary.tricks ?? v.tricks;
  const each = (values, signed) => teamOrder()
    .map((t) => `${teamName(t)} ${signed && values[t] >= 0 ? "+" : ""}${values[t]}`).join(", ");
  const contract = summary.contract != null && summary.declarer != null
    ? `${seatName(summary.declarer)}: ${actionText(summary.contract, names())}. ` : "";
  return `${contract}Tricks ${each(tricks, false)}. Points ${each(points, true)}.`;
}

function gameOverText(outcome, scores) {
  const score = `${scores[0]} to ${scores[1]}`;
  if (outcome === "draw") return `Game over: a draw, ${score}.`;
  const me = mySeat();
  const both = teamOrder().map((t) => `${teamName(t)} ${scores[t]}`).join(", ");
  if (me != null) return `Game over: ${teamOf(me) === outcome ? "you win" : "you lose"}, ${both}.`;
  return `Game over: ${teamName(outcome)} (${teamMembers(outcome)}) win, ${score}.`;
}

// ---- drawing --------------------------------------------------------------------------

/** Where a seat sits on screen: 0 at the bottom (this player), then round the table in the order of play. */
function position(seat, n) {
  return seatPosition(seat, n, mySeat(), facts()?.direction);
}

function render() {
  const v = view();
  document.body.dataset.status = state.status;
  document.body.dataset.phase = v?.phase ?? "";
  document.body.dataset.version = state.snap?.version ?? "";
  document.body.dataset.tricks = String((v?.tricks_by_seat ?? []).reduce((a, b) => a + b, 0));
  const busy = pumping || state.holding != null || state.sending;
  document.body.dataset.busy = String(busy);
  const myTurn = v != null && turnSeat(v) === mySeat() && mySeat() != null && state.status === "playing";
  document.body.dataset.myTurn = String(myTurn && !busy);
  const cutting = mustCut();
  document.body.dataset.cut = String(cutting && !busy);
  const focusKey = document.activeElement?.dataset?.key;
  // The player's turn comes while the chat covers a phone's table: the chat steps aside
  // (what was typed stays in its box, for after the move).
  const turnNow = (myTurn || cutting) && !busy;
  if (turnNow && !state.wasMyTurn && narrow.matches && document.body.classList.contains("chat-open")) {
    openChat(false, { focus: false });
    announce(`Your turn: the chat is closed${$("chat-input").value ? ", what you typed is kept" : ""}.`);
  }
  state.wasMyTurn = turnNow;
  renderSeats(v);
  renderCenter(v);
  renderTurnLine(v, myTurn, cutting);
  renderControls(v, myTurn && !busy, cutting && !busy);
  renderHand(v, myTurn && !busy);
  renderInfo(v);
  renderHost();
  if (focusKey) document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
}

function cutSize() {
  const rules = state.welcome.rules;
  return deck(rules.game, rules.variant, rules.options).length;
}

function validCut(cut) {
  return Number.isInteger(cut) && cut >= 1 && cut <= cutSize() - 1;
}

function sendCut(cut) {
  if (state.sending) return;
  state.sending = true;
  state.cutValue = null;
  state.cutDeadline = null;
  send({ type: "cut", cut });
  render();
}

/** The server cuts at random for a person who has not cut in `cut_wait_ms`: count it down. */
function startCutClock() {
  const wait = state.welcome?.cut_wait_ms;
  state.cutDeadline = wait ? Date.now() + wait : null;
}

/** Shows the seconds left to cut; just before they run out, sends the number typed. */
function tickCut() {
  const clock = $("cut-countdown");
  if (!mustCut() || state.cutDeadline == null) {
    if (clock) clock.textContent = "";
    return;
  }
  const left = state.cutDeadline - Date.now();
  const typed = state.cutValue != null && state.cutValue !== "" ? Number(state.cutValue) : null;
  // A cut the player chose is never replaced by the server's random one: sent with a
  // margin, as this clock started when the page heard of the cut, after the server's.
  if (left <= 3000 && typed != null && validCut(typed) && !state.sending) {
    sendCut(typed);
    return;
  }
  if (clock) {
    const secs = Math.max(0, Math.ceil(left / 1000));
    clock.textContent = typed != null && validCut(typed)
      ? `${secs} s left: ${typed} will be cut then`
      : `${secs} s left, then a random cut`;
    clock.classList.toggle("urgent", secs <= 5);
    clock.setAttribute("aria-label", `${secs} seconds left to cut`);
  }
}
setInterval(tickCut, 250);

function mustCut() {
  const check = state.snap?.deal_check;
  return check != null && check.cut == null && check.cutter === mySeat() && view()?.turn === "chance" && state.status === "playing";
}

function renderSeats(v) {
  const felt = $("felt");
  const n = v?.seats ?? state.seats.length;
  if (!n) return;
  felt.className = `felt seats-${n}`;
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const turn = turnSeat(v);
  for (let seat = 0; seat < n; seat += 1) {
    const info = state.seats[seat] ?? {};
    const box = el("section", { className: `seat pos-${position(seat, n)} team-${teamLetter(seat)}` });
    box.setAttribute("aria-label", `${seatTitle(seat)}, seat ${seat}, team ${teamLetter(seat)}`);
    box.dataset.seat = seat;
    if (seat === turn && state.status === "playing") box.classList.add("to-act");
    if (v?.sitting_out === seat) box.classList.add("out");
    if (seat === mySeat()) box.classList.add("me");

    const name = el("div", { className: "name" }, el("span", { className: "who", textContent: seatTitle(seat) }));
    const badges = el("div", { className: "badges" });
    const badge = (text, cls, title) => badges.append(el("span", { className: `badge ${cls}`, textContent: text, title: title ?? text }));
    const team = el("span", { className: "badge team", title: `Team ${teamLetter(seat)}` }, el("span", { className: "long", textContent: "Team " }), teamLetter(seat));
    badges.append(team);
    // Once the table is over or ended nobody is away any more: no countdowns.
    const live = state.status === "open" || state.status === "playing";
    if (v && v.dealer === seat && v.phase !== "dealing") badge("Dealer", "dealer");
    if (info.sitter?.startsWith("bot:")) badge(`bot · ${info.sitter.slice(4)}`, "bot");
    else if (info.sitter === "open") badge("open seat", "open");
    else if (!live) { /* no presence badges on a closed table */ }
    else if (info.bot_standing_in) badge("bot playing for them", "away");
    else if (info.grace_ms != null) {
      const left = Math.max(0, Math.ceil((info.grace_ms - (Date.now() - state.seatsAt)) / 1000));
      badge(`away · bot in ${left} s`, "away", "A bot takes the seat when the countdown ends");
    } else if (info.sitter === "person") badge(info.connected ? "online" : "offline", info.connected ? "online" : "offline");
    if (v?.sitting_out === seat) badge("sits out", "out");
    if (seat === turn && state.status === "playing") badge(turnWord(v), "turn");

    const facts = seatFacts(v, seat);
    if (seat !== mySeat() && v?.hand_sizes?.[seat]) {
      const count = v.hand_sizes[seat];
      const stack = el("span", { className: "stack", title: `${count} cards in hand` });
      stack.setAttribute("aria-label", `${count} cards in hand`);
      for (let i = 0; i < Math.min(count, 5); i += 1) stack.append(el("span", { className: "mini-back" }));
      stack.append(el("span", { className: "count", textContent: String(count) }));
      facts.append(stack);
    }
    box.append(name, badges, facts);
    felt.append(box);
  }
}

function turnWord(v) {
  return { auction: "bidding", "trump-naming": "naming trump", exchange: "passing cards", play: "to play" }[v?.phase] ?? "next";
}

/** The cards the center showed last time, as `seat:card`. */
let centerShown = new Set();

function renderCenter(v) {
  const center = $("center");
  center.replaceChildren();
  if (!v) {
    center.append(state.gone ? goneNotice() : el("p", { className: "center-status", textContent:
      state.away ? "The server is not answering: trying again…" : state.closed ? "" : "Connecting to the table…" }));
    return;
  }
  const n = v.seats;
  let trick = v.trick;
  let caption = "";
  let won = false;
  if (state.holding?.kind === "trick") {
    trick = state.holding.trick;
    won = true;
    caption = `${seatName(trick.winning)} ${trick.winning === mySeat() ? "take" : "takes"} the trick`;
  } else if (state.showLast && v.last_trick) {
    trick = v.last_trick;
    won = true;
    caption = `Last trick: ${seatLabel(trick.winning)} took it`;
  } else if (v.phase === "hand-over" || v.phase === "game-over") {
    won = trick?.winning != null;
  }
  const shown = new Set();
  // The trick in play: the card winning it so far is marked (and said) too.
  const leading = !won && v.phase === "play" && trick?.winning != null && trick.cards.length > 1 ? trick.winning : null;
  if (trick) {
    for (const [seat, card] of trick.cards) {
      const label = `${seatName(seat)}: ${cardName(card)}${seat === leading ? ", winning so far" : ""}`;
      const face = playedFace(card, position(seat, n), label, won && seat === trick.winning, seatName(seat));
      if (seat === leading) face.classList.add("leading");
      // Only a card that just arrived lands: the table is redrawn on every message.
      const key = `${seat}:${card}`;
      shown.add(key);
      if (!centerShown.has(key)) face.classList.add("fresh");
      center.append(face);
    }
  }
  centerShown = shown;
  const summary = centerSummary(v);
  // A summary over the trick covers the trump mark: none then (the side panel says it).
  if (v.trump && !summary) {
    center.append(trumpMark(v.trump));
  }
  if (summary) center.append(summary);
  else if (caption && state.showLast && state.holding?.kind !== "trick") {
    const hide = el("button", { type: "button", className: "quiet hide-last", textContent: "Hide" });
    hide.dataset.key = "hide-last";
    hide.setAttribute("aria-label", "Hide the last trick");
    hide.addEventListener("click", () => { state.showLast = false; render(); });
    center.append(el("p", { className: "center-note won last-note" }, caption, " ", hide));
  } else if (caption) center.append(el("p", { className: `center-note ${won ? "won" : ""}`, textContent: caption }));
  else if (v.phase === "play" && trick && trick.cards.length === 0) {
    center.append(el("p", { className: "center-note", textContent: `${seatName(trick.leader)} ${trick.leader === mySeat() ? "lead" : "leads"}` }));
  }
}

/** Whether a hand was dealt at this table (else there is nothing to replay). */
function dealtYet(v) {
  return v != null && (v.deals_played > 0 || v.phase !== "dealing");
}

/** Where to go from a table that is over or ended: its replay, its record, the lobby. */
function exitLinks({ replay = true, record = true } = {}) {
  const id = encodeURIComponent(tableId);
  return el("p", { className: "row exit-links" },
    record ? el("a", { className: "button", href: `/api/tables/${id}/record`, download: `calltrump-${tableId}.json`, textContent: "Download the record" }) : null,
    replay ? el("a", { className: "button", href: `/replay/${id}`, textContent: "Replay this game" }) : null,
    el("a", { className: "button primary", href: "/", textContent: "Back to the lobby" }));
}

/** A table that cannot be joined: over, ended, or none at this link. */
function goneNotice() {
  const heading = { over: "This game is over", ended: "This table has ended", unknown: "There is no table at this link" }[state.gone];
  const box = el("div", { className: "gone-notice", role: "status" }, el("h2", { textContent: heading }));
  if (state.gone === "unknown") {
    box.append(el("p", { textContent: "The link may be mistyped, or cut short." }), exitLinks({ replay: false, record: false }));
    return box;
  }
  if (state.goneEmpty) {
    box.append(el("p", { textContent: "It ended before a hand was dealt: there is no game to replay." }), exitLinks({ replay: false, record: false }));
    return box;
  }
  const r = state.goneReplay;
  if (r?.game) {
    const scores = Array.isArray(r.scores) ? ` · ${r.scores.map((x, t) => `Team ${t === 0 ? "A" : "B"} ${x}`).join(", ")}` : "";
    box.append(el("p", { textContent: `${gameTitle(r.game, r.variant)}${scores}` }));
  }
  box.append(el("p", { textContent: state.gone === "over" ? "Its replay shows every hand." : "The host ended it; its replay shows the game up to then." }), exitLinks());
  return box;
}

/** The hand's or the game's end, over the last trick. */
function centerSummary(v) {
  if (state.holding?.kind === "trick") return null;
  if (state.status === "ended") {
    return el("div", { className: "summary final", role: "status" },
      el("h2", { textContent: "The host ended the table" }),
      el("p", { textContent: teamOrder().map((t) => `${teamName(t)} (${teamMembers(t)}) ${v.scores[t]}`).join(" · ") }),
      // Ended before its first deal: no game to replay.
      exitLinks({ replay: dealtYet(v), record: dealtYet(v) }));
  }
  if (v.phase === "game-over" && v.outcome != null) {
    const box = el("div", { className: "summary final", role: "status" },
      el("h2", { textContent: gameOverText(v.outcome, v.scores) }),
      el("p", { textContent: teamOrder().map((t) => `${teamName(t)} (${teamMembers(t)}) ${v.scores[t]}`).join(" · ") }));
    box.append(exitLinks());
    return box;
  }
  if ((v.phase === "hand-over" || state.holding?.kind === "hand") && state.lastHand) {
    const box = el("div", { className: "summary", role: "status" },
      el("h2", { textContent: "Hand over" }),
      el("p", { textContent: handSummaryText(state.lastHand.summary, v) }),
      el("p", { textContent: `Scores: ${teamOrder().map((t) => `${teamName(t)} ${v.scores[t]}`).join(", ")}` }));
    // The next hand's deck waits for its cut: say whose.
    if (nextHandWaits(v) && state.holding?.kind !== "hand") {
      const cutter = state.snap.deal_check.cutter;
      box.append(el("p", { className: "next-hand", textContent: `Next: hand ${handNumber(v)}. ${cutter === mySeat() ? "Your cut" : `${seatName(cutter)} cuts`} the deck.` }));
    }
    return box;
  }
  return null;
}

function renderTurnLine(v, myTurn, cutting) {
  const line = $("turn-line");
  let text = "";
  if (state.gone) text = `${goneWords(state.gone).replace(/^./, (c) => c.toUpperCase())}.`;
  else if (state.closed) text = `This page is closed: ${state.closed}.`;
  else if (state.away) text = "The server is not answering: trying again…";
  else if (!v) text = "Connecting…";
  else if (state.status === "open") {
    const open = state.seats.filter((s) => s.sitter === "open").length;
    const who = open ? `${open} more ${open === 1 ? "player" : "players"}` : "players";
    text = `Waiting for ${who} to sit down${state.welcome?.host ? " (or start now with bots)" : ""}.`;
  } else if (state.status === "ended") text = "The host closed this table.";
  else if (v.phase === "game-over") text = "Game over.";
  else if (cutting) text = "Your cut: choose how many cards to lift from the top of the deck.";
  else if (v.turn === "chance") {
    const check = state.snap.deal_check;
    text = check && check.cut == null && check.seed == null ? `Waiting for ${seatLabel(check.cutter)} to cut the deck…` : "Dealing…";
    if (v.phase === "hand-over") text = `Hand over. ${text}`;
  } else {
    const seat = turnSeat(v);
    if (myTurn) {
      text = {
        auction: "Your call.",
        "trump-naming": "You won the auction: name trump.",
        exchange: exchangeWords(v),
        play: "Your turn: play a card.",
      }[v.phase] ?? "Your turn.";
    } else {
      text = `${seatName(seat)} ${turnWord(v) === "to play" ? "to play" : `is ${turnWord(v)}`}…`;
    }
  }
  line.textContent = text;
  if (state.closed || state.status === "ended") {
    // A seat given to a bot can still be watched.
    if (state.closedKind === "seat_gone") line.append(" ", el("a", { href: `/table/${encodeURIComponent(tableId)}`, textContent: "Watch instead" }), " ·");
    else if (state.gone ? state.gone !== "unknown" && !state.goneEmpty : dealtYet(v) && (state.status === "ended" || state.closedKind === "table_gone")) {
      line.append(" ", el("a", { href: `/replay/${encodeURIComponent(tableId)}`, textContent: "Replay this game" }), " ·");
    }
    line.append(" ", el("a", { href: "/", textContent: "Back to the lobby" }));
  }
  line.classList.toggle("mine", Boolean(myTurn || cutting));
  // The tab says so too, when this page is in the background.
  const title = state.welcome ? gameTitle(state.welcome.rules.game, state.welcome.rules.variant)
    : state.gone ? { over: "Game over", ended: "Table ended", unknown: "No such table" }[state.gone] : "table";
  titleBase = `${myTurn || cutting ? "▶ Your turn · " : ""}${title} · calltrump`;
  setTitle();
}

let titleBase = "calltrump table";
/** The tab's title: the chat lines unread first, "(2) ▶ Your turn · Kaibosh · calltrump". */
function setTitle() {
  document.title = `${state.unread ? `(${state.unread}) ` : ""}${titleBase}`;
}

function exchangeWords(v) {
  const legal = v.legal[0] ?? "";
  const count = legal.split(" ").length - 1;
  const declarer = v.contract?.declarer;
  return legal.startsWith("give")
    ? `Your partner plays alone: choose ${count} ${count === 1 ? "card" : "cards"} to give ${seatLabel(declarer)}.`
    : `Choose ${count} ${count === 1 ? "card" : "cards"} to discard.`;
}

function renderControls(v, active, cutting) {
  const box = $("controls");
  box.replaceChildren();
  if (cutting) {
    const size = cutSize();
    const input = el("input", { type: "number", min: 1, max: size - 1, value: state.cutValue ?? "", placeholder: String(Math.floor(size / 2)), id: "cut-input" });
    input.dataset.key = "cut-input";
    // The controls are redrawn on every message: keep what was typed.
    input.addEventListener("input", () => { state.cutValue = input.value; });
    const button = el("button", { type: "submit", className: "primary", textContent: "Cut" });
    button.dataset.key = "cut";
    button.dataset.action = "cut";
    const form = el("form", { className: "row cut-form" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // Nothing typed: the number shown in the box.
      const cut = Number(input.value === "" ? input.placeholder : input.value);
      if (!validCut(cut)) return toast(`Cut between 1 and ${size - 1} cards.`);
      sendCut(cut);
    });
    const clock = el("span", { id: "cut-countdown", className: "countdown", role: "timer" });
    clock.setAttribute("aria-live", "off");
    form.append(el("label", { className: "field", htmlFor: "cut-input", textContent: `Cards to lift (1 to ${size - 1}) ` }), input, button, clock);
    box.append(form);
    tickCut();
    return;
  }
  if (!v || !active) {
    if (state.welcome?.undo && mySeat() != null && v && ["auction", "trump-naming", "exchange", "play"].includes(v.phase) && !active) box.append(undoButton());
    return;
  }
  const legal = v.legal;
  const calls = legal.filter((a) => !/^(play|give|discard|trump) /.test(a));
  const trumps = legal.filter((a) => a.startsWith("trump "));
  if (calls.length) box.append(callControls(calls));
  if (trumps.length) {
    const row = el("div", { className: "choices", role: "group" });
    row.setAttribute("aria-label", "Name trump");
    for (const action of trumps) {
      const suit = action.split(" ")[1];
      row.append(actionButton(action, `${SUIT_SYMBOLS[suit]} ${strainText(suit).split(" ")[0]}`, `suit-${suit}`));
    }
    box.append(row);
  }
  if (legal.some((a) => a.startsWith("give ") || a.startsWith("discard "))) box.append(exchangeControls(legal));
  if (state.welcome.undo) box.append(undoButton());
  if (state.welcome.hints) box.append(hintButton(), ...hintBox());
}

/**
 * The server's sentences in the page's words: seats by name ("P2 (seat 2)"), calls and
 * cards with suit symbols ("bid 4 S" → "bid 4 ♠ spades", "JH" → "J♥").
 */
function readable(text) {
  return text
    .replace(/\bP(\d) \(seat \d\)/g, (_, s) => seatName(Number(s)))
    .replace(/\b((?:bid \d+|call[12]|moon|trump) (?:[SHDC]|NT))\b/g, (action) => actionText(action, names()))
    .replace(/\b([2-9TJQKA][SHDC]|RJ|BJ)\b/g, (card) => cardText(card));
}

/** The hint for the version shown, if the server has answered for it. */
function currentHint() {
  return state.hint && state.hint.version === state.snap?.version ? state.hint : null;
}

/** The hint's best action, to mark on its button or card. */
function hintedAction() {
  return currentHint()?.actions[0]?.action ?? null;
}

function pointsText(points) {
  return `${points >= 0 ? "+" : "−"}${Math.abs(points).toFixed(2)}`;
}

function hintButton() {
  const asking = state.hintAsked === state.snap.version;
  const button = el("button", { type: "button", className: "quiet hint-button", textContent: asking ? "Thinking…" : "Hint", disabled: asking || currentHint() != null });
  button.dataset.key = "hint";
  button.setAttribute("aria-label", "Hint: the bots' three best choices for you, from what you can see");
  button.addEventListener("click", () => {
    state.hintAsked = state.snap.version;
    send({ type: "hint" });
    render();
  });
  return button;
}

/** The hint's answer beside the choices: the top actions with their points. */
function hintBox() {
  const hint = currentHint();
  if (!hint) return [];
  const box = el("div", { className: "hint-box", role: "status" });
  box.setAttribute("aria-label", "Hint");
  if (!hint.actions.length) {
    box.append(el("p", { textContent: "No hint for this position." }));
    return [box];
  }
  const list = el("ol", { className: "hint-actions" });
  hint.actions.forEach(({ action, points }, i) => {
    const item = el("li", { className: i === 0 ? "best" : "" },
      el("span", { className: "hint-action", textContent: actionText(action, names()) }),
      " ",
      el("span", { className: "hint-points", textContent: pointsText(points) }));
    item.dataset.hintAction = action;
    list.append(item);
  });
  box.append(el("p", { className: "hint-title", textContent: `Hint: points expected this hand, your side less theirs (${hint.deals} deals)` }), list);
  if (hint.explanation) box.append(el("p", { className: "hint-explanation", textContent: readable(hint.explanation) }));
  return [box];
}

function undoButton() {
  const button = el("button", { type: "button", className: "quiet", textContent: "Take back" });
  button.dataset.key = "undo";
  button.addEventListener("click", () => send({ type: "undo" }));
  return button;
}

function actionButton(action, label, cls = "") {
  const button = el("button", { type: "button", className: `choice ${cls}`, textContent: label });
  button.dataset.action = action;
  button.dataset.key = `act:${action}`;
  const hinted = action === hintedAction();
  if (hinted) button.classList.add("hinted");
  button.setAttribute("aria-label", actionText(action, names()) + (hinted ? ", the hint's best" : ""));
  // A button that shows only a symbol says what it does on hover too.
  button.title = actionText(action, names());
  button.addEventListener("click", () => act(action));
  return button;
}

// Bid Euchre's loners in a few words, for the grid's headings.
const LONER_WORDS = {
  call2: "alone: your partner gives you 2 cards, you discard 2; take all 8 tricks",
  call1: "alone: your partner gives you 1 card, you discard 1; take all 8 tricks",
  moon: "shoot the moon: alone with the cards you were dealt; take all 8 tricks",
};

// ... and in fewer, under them (a title does not show on a touch screen), on two lines
// so that the columns stay as narrow as their buttons and the hint fits beside the grid.
const LONER_SHORT = { call2: "alone,\n+2 cards", call1: "alone,\n+1 card", moon: "alone,\nno cards" };

/** Bid Euchre's many bids as a grid (level by strain); other games' calls as a row. */
function callControls(calls) {
  const group = el("div", { className: "calls", role: "group" });
  group.setAttribute("aria-label", "Your call");
  const strained = calls.filter((a) => a.split(" ").length === 3 || /^(call2|call1|moon) /.test(a));
  const plain = calls.filter((a) => !strained.includes(a));
  const row = el("div", { className: "choices" });
  for (const action of plain) row.append(actionButton(action, callBubble(action, names()), action === "pass" ? "pass" : ""));
  group.append(row);
  if (strained.length) {
    const strains = ["S", "H", "D", "C", "NT"].filter((s) => strained.some((a) => a.endsWith(` ${s}`)));
    const levels = [...new Set(strained.map((a) => a.split(" ").slice(0, -1).join(" ")))];
    const levelLabel = (level) => (level.startsWith("bid ") ? level.slice(4) : { call2: "Call 2", call1: "Call 1", moon: "Moon" }[level]);
    const levelHead = (level, scope) => {
      const th = el("th", { scope, textContent: levelLabel(level) });
      const about = LONER_WORDS[level] ?? (level.startsWith("bid ") ? `bid ${level.slice(4)}: take ${level.slice(4)} of the 8 tricks with your partner` : null);
      if (about) {
        th.title = about;
        if (LONER_WORDS[level]) {
          th.classList.add("explained");
          th.append(el("small", { textContent: LONER_SHORT[level] }));
        }
      }
      return th;
    };
    const strainHead = (s) => el("th", { scope: "row", className: s === "NT" ? "" : `suit-${s}`, textContent: s === "NT" ? "NT" : SUIT_SYMBOLS[s], title: strainText(s) });
    // A cell says "5♠" for a level, only the strain for a loner (its row or column says which).
    const cell = (level, s) => {
      const action = `${level} ${s}`;
      const td = el("td");
      const symbol = s === "NT" ? "NT" : SUIT_SYMBOLS[s];
      const text = level.startsWith("bid ") ? `${levelLabel(level)}${symbol}` : symbol;
      if (strained.includes(action)) td.append(actionButton(action, text, s === "NT" ? "" : `suit-${s}`));
      return td;
    };
    if (isPhone()) {
      group.append(bidPicker(levels, strained, levelLabel));
      return group;
    }
    const grid = el("table", { className: "bid-grid" });
    const body = el("tbody");
    // Wide screens: a row per strain (a short grid, the hand stays in view); phones: a
    // row per level (a narrow one).
    if (window.innerWidth > 560) {
      grid.classList.add("by-strain");
      grid.append(el("thead", {}, el("tr", {}, el("th", { textContent: "" }), ...levels.map((level) => levelHead(level, "col")))));
      for (const s of strains) body.append(el("tr", {}, strainHead(s), ...levels.map((level) => cell(level, s))));
    } else {
      grid.append(el("thead", {}, el("tr", {}, el("th", { textContent: "" }), ...strains.map((s) => el("th", { scope: "col", className: s === "NT" ? "" : `suit-${s}`, textContent: s === "NT" ? "NT" : SUIT_SYMBOLS[s], title: strainText(s) })))));
      for (const level of levels) body.append(el("tr", {}, levelHead(level, "row"), ...strains.map((s) => cell(level, s))));
    }
    grid.append(body);
    group.append(el("div", { className: "grid-wrap" }, grid));
  }
  return group;
}

/** A phone: narrower than a tablet, or a phone held landscape (little height). */
function isPhone() {
  return window.innerWidth <= 560 || window.innerHeight <= 500;
}

/**
 * Bid Euchre's bids on a phone: the levels (and loners) in one row, then the strains
 * legal at the chosen level; up to 55 buttons would push the hand off the screen.
 */
function bidPicker(levels, strained, levelLabel) {
  if (!levels.includes(state.pickedLevel)) state.pickedLevel = levels[0];
  const picker = el("div", { className: "bid-picker" });
  const levelRow = el("div", { className: "choices picker-levels", role: "radiogroup" });
  levelRow.setAttribute("aria-label", "Bid: how many tricks, or a loner");
  for (const level of levels) {
    const chosen = level === state.pickedLevel;
    const button = el("button", { type: "button", className: `choice level${chosen ? " picked" : ""}`, textContent: levelLabel(level) });
    button.dataset.key = `level ${level}`;
    button.dataset.level = level;
    button.setAttribute("role", "radio");
    button.setAttribute("aria-checked", String(chosen));
    button.title = LONER_WORDS[level] ?? `bid ${level.slice(4)}: take ${level.slice(4)} of the 8 tricks with your partner`;
    button.addEventListener("click", () => { state.pickedLevel = level; render(); });
    levelRow.append(button);
  }
  const strainRow = el("div", { className: "choices picker-strains", role: "group" });
  strainRow.setAttribute("aria-label", `${levelLabel(state.pickedLevel)}: the trump`);
  for (const s of ["S", "H", "D", "C", "NT"]) {
    const action = `${state.pickedLevel} ${s}`;
    if (!strained.includes(action)) continue;
    const symbol = s === "NT" ? "NT" : SUIT_SYMBOLS[s];
    strainRow.append(actionButton(action, symbol, s === "NT" ? "" : `suit-${s}`));
  }
  picker.append(levelRow, strainRow);
  return picker;
}

function exchangeControls(legal) {
  const hand = sortedHand(view());
  const chosen = [...state.selected].map((i) => hand[i]).sort();
  const match = legal.find((a) => {
    const cards = a.split(" ").slice(1).sort();
    return cards.length === chosen.length && cards.every((c, i) => c === chosen[i]);
  });
  const word = legal[0].split(" ")[0];
  const count = legal[0].split(" ").length - 1;
  const label = match
    ? `${word === "give" ? "Give" : "Discard"} ${chosen.map(cardText).join(" ")}`
    : `Select ${count} ${count === 1 ? "card" : "cards"} (${chosen.length} chosen)`;
  const button = el("button", { type: "button", className: "primary", textContent: label, disabled: !match });
  button.dataset.key = "exchange";
  button.dataset.action = word;
  if (match) button.setAttribute("aria-label", actionText(match, names()));
  button.addEventListener("click", () => match && act(match));
  return el("div", { className: "choices" }, button);
}

function act(action) {
  if (state.sending) return;
  state.sending = true;
  send({ type: "act", version: state.snap.version, action });
  render();
}

function sortedHand(v) {
  return v?.sorted_hand ?? [];
}

function renderHand(v, active) {
  const box = $("hand");
  box.replaceChildren();
  const cards = sortedHand(v);
  if (!v || mySeat() == null) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const legal = active ? v.legal : [];
  const plays = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  const exchange = legal.filter((a) => a.startsWith("give ") || a.startsWith("discard "));
  const passable = new Set(exchange.flatMap((a) => a.split(" ").slice(1)));
  // While a loner discards, the cards the partner just gave are marked.
  const received = v.phase === "exchange" && v.contract?.declarer === mySeat()
    ? v.exchanges.filter(([, a]) => a.startsWith("give ")).flatMap(([, a]) => a.split(" ").slice(1)).filter((c) => c !== "??")
    : [];
  let focusable = null;
  cards.forEach((card, index) => {
    const button = cardFace(card, "button");
    button.dataset.key = `hand:${index}:${card}`;
    button.dataset.index = index;
    button.tabIndex = -1;
    const usable = plays.has(card) || passable.has(card);
    if (usable) {
      button.classList.add("legal");
      focusable ??= button;
    } else {
      button.setAttribute("aria-disabled", "true");
      if (active && (plays.size || passable.size)) button.classList.add("not-legal");
    }
    if (state.selected.has(index)) {
      button.classList.add("selected");
      button.setAttribute("aria-pressed", "true");
    } else if (passable.size) button.setAttribute("aria-pressed", "false");
    let note = plays.has(card) ? ", playable" : passable.has(card) ? (state.selected.has(index) ? ", chosen" : ", can be chosen") : "";
    const best = hintedAction();
    if (best && (best === `play ${card}` || (/^(give|discard) /.test(best) && best.split(" ").slice(1).includes(card)))) {
      button.classList.add("hinted");
      note += ", the hint's best";
    }
    const given = received.indexOf(card);
    if (given >= 0) {
      received.splice(given, 1);
      button.classList.add("received");
      note += ", just given by your partner";
    }
    button.setAttribute("aria-label", cardName(card) + note);
    button.addEventListener("click", () => {
      if (plays.has(card)) act(`play ${card}`);
      else if (passable.has(card)) {
        if (state.selected.has(index)) state.selected.delete(index);
        else state.selected.add(index);
        render();
      }
    });
    box.append(button);
  });
  // One tab stop for the hand; arrows move along it.
  const current = box.querySelector(`[data-key="${CSS.escape(document.activeElement?.dataset?.key ?? "")}"]`);
  (current ?? focusable ?? box.firstElementChild)?.setAttribute("tabindex", "0");
  fitHand();
}

$("hand").addEventListener("keydown", (event) => {
  const cards = [...$("hand").querySelectorAll(".card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let next = null;
  if (step) next = cards[(at + step + cards.length) % cards.length];
  if (event.key === "Home") next = cards[0];
  if (event.key === "End") next = cards[cards.length - 1];
  if (!next) return;
  event.preventDefault();
  for (const card of cards) card.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
});

/** Overlaps the hand's cards when they do not fit side by side. */
function fitHand() {
  const box = $("hand");
  const cards = [...box.children];
  if (!cards.length) return;
  for (const card of cards) card.style.marginLeft = "";
  const width = cards[0].getBoundingClientRect().width;
  const gap = 6;
  const room = box.clientWidth - 8;
  const needed = cards.length * (width + gap) - gap;
  if (needed <= room) return;
  const overlap = Math.min(width * 0.62, (needed - room) / (cards.length - 1) + gap);
  cards.slice(1).forEach((card) => { card.style.marginLeft = `${-overlap + gap}px`; });
}
window.addEventListener("resize", fitHand);

function renderInfo(v) {
  const box = $("info");
  box.replaceChildren();
  if (!state.welcome) return;
  const rules = state.welcome.rules;
  box.append(el("h2", { textContent: gameTitle(rules.game, rules.variant) }));
  if (!v) return;
  const scores = el("table", { className: "scores" });
  scores.append(el("caption", { textContent: goalText(v) }));
  for (const team of teamOrder()) {
    scores.append(el("tr", { className: `team-${team === 0 ? "A" : "B"}` },
      el("th", { scope: "row", textContent: teamName(team) }),
      el("td", { className: "members", textContent: teamMembers(team) }),
      el("td", { className: "score", textContent: String(v.scores[team]) })));
  }
  box.append(scores);
  // On a phone the side panel is below the table: the scores stay in view above it.
  const line = $("score-line");
  line.hidden = false;
  line.textContent = `${teamOrder().map((t) => `${teamName(t)} ${v.scores[t]}`).join(" · ")} · ${goalText(v)}`;
  const facts = el("dl", { className: "facts-list" });
  const fact = (term, value) => facts.append(el("dt", { textContent: term }), el("dd", {}, value));
  const check = state.snap?.deal_check;
  // Between hands, once the next deal is committed, the next hand is what matters.
  if (nextHandWaits(v) || (v.phase === "dealing" && check != null && check.cut == null)) {
    fact("Hand", `${handNumber(v)}: waiting for ${seatLabel(check.cutter)} to cut`);
    box.append(facts);
    box.append(fairDealBlock());
    if (state.lastHand) box.append(el("p", { className: "hint last-hand", textContent: `Last hand: ${handSummaryText(state.lastHand.summary, state.lastHand.view)}` }));
    return;
  }
  fact("Hand", v.phase === "game-over" ? `${handNumber(v)} (the last)` : String(handNumber(v)));
  if (v.phase !== "dealing") fact("Dealer", seatName(v.dealer));
  if (v.contract) {
    fact("Contract", `${seatName(v.contract.declarer)}: ${contractText(v)}`);
  }
  if (v.trump) fact("Trump", strainText(v.trump));
  if (v.sitting_out != null) fact("Sits out", seatName(v.sitting_out));
  if (["play", "hand-over", "game-over"].includes(v.phase)) fact("Tricks", teamOrder().map((t) => `${teamName(t)} ${v.tricks[t]}`).join(" · "));
  if (v.exchanges?.length) fact("Passed", v.exchanges.map(([s, a]) => `${seatName(s)}: ${actionText(a, names())}`).join("; "));
  box.append(facts);
  if (v.last_trick) {
    const toggle = el("button", { type: "button", className: "quiet", textContent: state.showLast ? "Hide the last trick" : "Show the last trick" });
    toggle.dataset.key = "last-trick";
    toggle.setAttribute("aria-pressed", String(state.showLast));
    toggle.addEventListener("click", () => {
      state.showLast = !state.showLast;
      render();
      // On a phone the table is far above this button: bring the trick into view.
      if (state.showLast) showTable();
    });
    box.append(toggle);
  }
  box.append(fairDealBlock());
  if (state.lastHand && v.phase !== "hand-over") box.append(el("p", { className: "hint last-hand", textContent: `Last hand: ${handSummaryText(state.lastHand.summary, state.lastHand.view)}` }));
}

/** Scrolls the table's felt into view where it is out of the window. */
function showTable() {
  const felt = $("felt").getBoundingClientRect();
  if (felt.top >= 0 && felt.bottom <= window.innerHeight) return;
  $("felt").scrollIntoView({ block: felt.height > window.innerHeight ? "start" : "center" });
}

/** Whether the last hand is over and the next one's deck waits for its cut. */
function nextHandWaits(v) {
  const check = state.snap?.deal_check;
  return v.phase === "hand-over" && check != null && check.cut == null && check.seed == null;
}

/** The hand on the table, from 1: the current one, the one just over, or the next at its cut. */
function handNumber(v) {
  return v.deals_played + 1 + (nextHandWaits(v) ? 1 : 0);
}

function goalText(v) {
  const parts = [];
  if (v.goal.target != null) parts.push(`first to ${v.goal.target} points`);
  if (v.goal.deals != null) parts.push(`hand ${Math.min(handNumber(v), v.goal.deals)} of ${v.goal.deals}`);
  return parts.join(" · ") || "Scores";
}

function fairDealBlock() {
  const check = state.snap?.deal_check;
  const block = el("div", { className: "fair-deal" });
  if (!check) return block;
  block.append(el("h3", { textContent: "Fair deal" }));
  const short = `${check.commitment.slice(0, 10)}…${check.commitment.slice(-6)}`;
  const line = el("p", {}, "Commitment ", el("code", { textContent: short, title: check.commitment }));
  if (check.cut != null) line.append(`, cut ${check.cut} by ${seatLabel(check.cutter)}`);
  block.append(line);
  const result = state.handCheck;
  if (check.seed && result) {
    const mark = result.ok === true ? "✓ verified" : result.ok === false ? "✗ not verified" : "not checked";
    block.append(el("p", { className: `verified ${result.ok === true ? "ok" : result.ok === false ? "bad" : ""}`, textContent: `${mark}: ${result.reason}` }));
  } else if (!check.seed) {
    block.append(el("p", { className: "hint", textContent: "The seed is revealed when the hand ends; this page then checks the deal." }));
  }
  return block;
}

let hostSignature = "";

function renderHost() {
  const box = $("host");
  const host = state.welcome?.host;
  // Once the game is over there is nothing left to run (nor to end).
  box.hidden = !host || state.status === "over";
  if (box.hidden) return;
  // Rebuilt only when something in it changed, so an open seat menu stays open.
  const invites = myTables().find((t) => t.id === tableId)?.invites ?? [];
  const signature = JSON.stringify([state.status, state.endConfirm, state.seats.map((s) => [s.sitter, s.name, s.connected]), invites]);
  if (signature === hostSignature) return;
  hostSignature = signature;
  box.replaceChildren(el("h2", { textContent: "Host" }));
  if (state.status === "ended") {
    box.append(el("p", { textContent: "The table is closed." }));
    return;
  }
  if (state.status === "open") {
    const start = el("button", { type: "button", className: "primary", textContent: "Start now (bots take empty seats)" });
    start.dataset.key = "start";
    start.addEventListener("click", () => send({ type: "start" }));
    box.append(start);
  }
  // Seat links a person may still need: seats open, or a person's seat nobody is at.
  const mine = myTables().find((t) => t.id === tableId);
  const waiting = (mine?.invites ?? []).filter((i) => {
    const info = state.seats[i.seat];
    return info && (info.sitter === "open" || (info.sitter === "person" && !info.connected && i.seat !== mySeat()));
  });
  if (waiting.length && state.status !== "over") {
    box.append(el("p", { textContent: "Links of the seats waiting for a person:" }));
    const list = el("ul", { className: "links" });
    for (const invite of waiting) list.append(linkRow(`Seat ${invite.seat}`, invite.url));
    box.append(list);
  }
  if (state.status === "open" || state.status === "playing") {
    const list = el("ul", { className: "host-seats" });
    state.seats.forEach((info, seat) => {
      const select = el("select", { id: `host-seat-${seat}` });
      select.append(el("option", { value: "open", textContent: "a person" }));
      for (const level of LEVELS) select.append(el("option", { value: `bot:${level.id}`, textContent: `bot: ${level.title}` }));
      select.value = info.sitter?.startsWith("bot:") ? info.sitter : "open";
      select.dataset.key = `host-seat-${seat}`;
      select.addEventListener("change", () => send({ type: "set-seat", seat, sitter: select.value }));
      list.append(el("li", {}, el("label", { htmlFor: `host-seat-${seat}`, textContent: seatName(seat) === `Seat ${seat}` ? `Seat ${seat} ` : `Seat ${seat} · ${seatName(seat)} ` }), select));
    });
    box.append(list);
  }
  const end = el("button", { type: "button", className: "danger", textContent: state.endConfirm ? "Really end the table?" : "End the table" });
  end.dataset.key = "end";
  end.addEventListener("click", () => {
    if (state.endConfirm) send({ type: "end" });
    state.endConfirm = !state.endConfirm;
    render();
  });
  box.append(end);
}

/** Keeps a seat's link with this browser's tables, for the host panel and the lobby. */
function rememberInvite(seat, url) {
  const known = myTables().find((t) => t.id === tableId) ?? { id: tableId };
  const invites = (known.invites ?? []).filter((i) => i.seat !== seat);
  rememberTable({ ...known, invites: [...invites, { seat, url }].sort((a, b) => a.seat - b.seat) });
}

// ---- talk, log, toasts ------------------------------------------------------------------

function logLine(text, kind) {
  const log = $("log");
  log.append(el("li", { className: kind, textContent: text }));
  while (log.children.length > 300) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Who said a chat line, in words: a spectator or host without a name is not "watching: hi". */
function senderText(sender) {
  if (sender === "watching") return "a spectator (watching)";
  if (sender === "host") return "the host";
  return sender;
}

/** A chat line for the log. Chat is plain text: textContent, never markup. */
function chatItem(line) {
  const item = el("li", { className: "chat-line" }, el("b", { textContent: `${senderText(line.sender)}: ` }), el("span", { textContent: line.body }));
  item.dataset.seq = line.seq;
  return item;
}

/** A chat line at the end of the log; `fresh`: said now (not the talk before one came). */
function chatLine(line, fresh = false) {
  const log = $("log");
  // Lines of this page's still waiting for the connection stay last.
  const pending = log.querySelector(".chat-line.pending");
  const item = chatItem(line);
  if (pending) pending.before(item);
  else log.append(item);
  log.scrollTop = log.scrollHeight;
  if (fresh && !chatInView()) {
    state.unread += 1;
    showUnread();
  }
}

// ---- the chat's lines unread: on a narrow screen a button with the count, the panel over
// the table; beside the table (a laptop) a badge atop the side column while the chat is
// below its fold; in the tab's title on both.

const narrow = matchMedia("(max-width: 900px)");
let chatSeen = true; // beside the table: the chat's latest lines are in the window

function chatInView() {
  if (document.visibilityState === "hidden") return false;
  return narrow.matches ? document.body.classList.contains("chat-open") : chatSeen;
}

function clearUnread() {
  if (!state.unread) return;
  state.unread = 0;
  showUnread();
}

function showUnread() {
  const n = state.unread;
  const badge = $("chat-unread");
  badge.hidden = n === 0;
  badge.textContent = String(n);
  const words = `${n} new ${n === 1 ? "line" : "lines"}`;
  $("chat-toggle").setAttribute("aria-label", n ? `Chat, ${words}` : "Chat");
  const side = $("side-unread");
  side.hidden = n === 0 || narrow.matches;
  side.textContent = `${n} new in the chat ↓`;
  side.setAttribute("aria-label", `${words} in the chat: go to the chat`);
  const head = $("chat-h-unread");
  head.hidden = n === 0;
  head.textContent = n ? ` · ${n} new` : "";
  setTitle();
}

// The chat's latest lines are just above its box: seen while the box is in the window.
new IntersectionObserver((entries) => {
  chatSeen = entries[entries.length - 1].intersectionRatio >= 0.9;
  if (chatInView()) clearUnread();
}, { threshold: [0, 0.5, 0.9, 1] }).observe($("chat-form"));
document.addEventListener("visibilitychange", () => { if (chatInView()) clearUnread(); });
$("chat-panel").addEventListener("focusin", clearUnread);
$("side-unread").addEventListener("click", () => {
  $("chat-panel").scrollIntoView({ block: "nearest" });
  const log = $("log");
  log.scrollTop = log.scrollHeight;
  $("chat-input").disabled ? $("chat-panel").focus() : $("chat-input").focus();
});

function openChat(open, { focus = true } = {}) {
  document.body.classList.toggle("chat-open", open);
  $("chat-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    clearUnread();
    const log = $("log");
    log.scrollTop = log.scrollHeight;
    // The panel, not the input: no keyboard pops up over a phone's screen to read.
    $("chat-panel").focus();
  } else if (narrow.matches && focus) $("chat-toggle").focus();
  else if ($("chat-panel").contains(document.activeElement)) document.activeElement.blur();
}

$("chat-toggle").addEventListener("click", () => openChat(!document.body.classList.contains("chat-open")));
$("chat-close").addEventListener("click", () => openChat(false));
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (document.body.classList.contains("chat-open") && narrow.matches) openChat(false);
  if ($("bar-menu").closest(".bar").classList.contains("menu-open")) openMenu(false);
});
narrow.addEventListener("change", () => {
  if (!narrow.matches) document.body.classList.remove("chat-open");
  if (chatInView()) clearUnread();
  else showUnread();
});

// The bar's menu (rules, record, pace) where they do not fit on its line.
function openMenu(open) {
  $("bar-menu").closest(".bar").classList.toggle("menu-open", open);
  $("menu-toggle").setAttribute("aria-expanded", String(open));
}
$("menu-toggle").addEventListener("click", () => openMenu(!$("bar-menu").closest(".bar").classList.contains("menu-open")));
document.addEventListener("click", (event) => {
  if (!event.target.closest("#bar-menu, #menu-toggle")) openMenu(false);
});

// A line typed while the connection is down (a new name reopens it, the server is away)
// waits, shown as "sending", and goes once the table has welcomed this page again.
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || chatIsClosed()) return;
  input.value = "";
  if (state.live && socket?.readyState === WebSocket.OPEN && !state.pendingChat.length) {
    send({ type: "chat", text });
    return;
  }
  state.pendingChat.push(text);
  const item = el("li", { className: "chat-line pending" }, el("b", { textContent: "You (sending once connected): " }), el("span", { textContent: text }));
  $("log").append(item);
  $("log").scrollTop = $("log").scrollHeight;
});

let flushing = false;
/** Sends the lines that waited, half a second apart (the server's pace for chat). */
async function flushChat() {
  if (flushing) return;
  flushing = true;
  while (state.pendingChat.length && state.live && socket?.readyState === WebSocket.OPEN) {
    $("log").querySelector(".chat-line.pending")?.remove();
    send({ type: "chat", text: state.pendingChat.shift() });
    if (state.pendingChat.length) await new Promise((resolve) => setTimeout(resolve, 600));
  }
  flushing = false;
}

function chatIsClosed() {
  return Boolean(state.closed || state.gone) || state.status === "ended";
}

/** A table closed (or a seat lost for good): the chat box takes no line it cannot send. */
function chatClosed() {
  if (!chatIsClosed()) return;
  const input = $("chat-input");
  const reason = state.gone === "unknown" ? "there is no table here" : "the table is closed";
  input.disabled = true;
  input.placeholder = "Chat closed";
  $("chat-form").querySelector("button").disabled = true;
  for (const control of document.querySelectorAll(".watch-name input, .watch-name button")) control.disabled = true;
  const note = $("chat-note");
  note.hidden = false;
  note.textContent = `No more chat: ${reason}.`;
  // Lines still waiting are not lost: back in the box, to copy.
  if (state.pendingChat.length) {
    input.value = state.pendingChat.join(" ");
    state.pendingChat = [];
    note.textContent += " What you typed was not sent; it is still in the box.";
    for (const item of $("log").querySelectorAll(".chat-line.pending")) item.remove();
  }
}

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 5000);
}

function announce(text) {
  $("announce").textContent = text;
}

// ---- start ---------------------------------------------------------------------------------

const speed = $("speed");
speed.value = localStorage.getItem("calltrump.speed") ?? "normal";
speed.addEventListener("change", () => localStorage.setItem("calltrump.speed", speed.value));

// The away countdowns tick.
setInterval(() => {
  if (["open", "playing"].includes(state.status) && state.seats.some((s) => s.grace_ms != null && !s.bot_standing_in)) renderSeats(view());
}, 1000);

/** Takes the seat looked at: a new connection says hello with the token (and the name). */
function sitDown() {
  state.looking = false;
  state.live = false;
  // The look's snapshot was a spectator's: the seat's own comes with the next hello.
  state.received = null;
  socket?.close();
}

// A seat link asks for a name once, when the table says which seat it is.
function askName() {
  const { seat, rules } = state.welcome;
  if (state.asked || seat == null) return;
  // A seat named already (a night's player, or this person on another device) needs no
  // name: it is taken at once.
  if (localStorage.getItem("calltrump.name") || state.seats[seat]?.name) {
    if (state.looking) {
      state.asked = true;
      sitDown();
    }
    return;
  }
  state.asked = true;
  const seats = variantFacts(rules.game, rules.variant)?.seats ?? state.seats.length;
  const partners = [];
  for (let s = seat % 2; s < seats; s += 2) if (s !== seat) partners.push(s);
  const partnerText = partners.map((s) => {
    const info = state.seats[s];
    const level = info?.sitter?.startsWith("bot:") ? info.sitter.slice(4) : null;
    const named = info?.name && info.name !== level ? info.name : null;
    const who = level ? (named ? `${named}, a bot (${level})` : `a bot (${level})`)
      : named ?? (info?.sitter === "open" ? "a player still to come" : "a player");
    return `seat ${s}, ${who}`;
  });
  $("name-what").textContent = `${gameTitle(rules.game, rules.variant)}: you sit at seat ${seat}, team ${teamLetter(seat)}; ` +
    `${partners.length === 1 ? "your partner is" : "your partners are"} ${partnerText.join(" and ")}.`;
  const dialog = $("name-dialog");
  // The seat is taken by sitting down: Escape does not leave the dialog.
  dialog.addEventListener("cancel", (event) => event.preventDefault());
  dialog.addEventListener("close", () => {
    const name = $("name-input").value.trim();
    if (!name) {
      dialog.showModal();
      return;
    }
    localStorage.setItem("calltrump.name", name);
    // The name goes with hello: the seat is taken now.
    sitDown();
  });
  dialog.showModal();
}

// A spectator may give a name for the chat, remembered like a player's.
if (!token) {
  const input = el("input", { id: "watch-name", maxLength: 40, autocomplete: "nickname", placeholder: "Your name", value: localStorage.getItem("calltrump.name") ?? "" });
  input.setAttribute("aria-label", "Your name in the chat");
  const save = el("button", { type: "button", className: "quiet", textContent: "Set name" });
  save.addEventListener("click", () => {
    const name = input.value.trim();
    if (!name || name === localStorage.getItem("calltrump.name")) return;
    localStorage.setItem("calltrump.name", name);
    toast(`Your name in the chat: ${name}`);
    // The name goes with a new hello: until it is welcomed, chat lines wait.
    state.live = false;
    socket?.close();
  });
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); save.click(); } });
  $("chat-form").before(el("div", { className: "row watch-name" }, input, save));
}
connect();

render();
