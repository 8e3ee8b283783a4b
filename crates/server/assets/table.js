// The table: one seat's (or a spectator's) live view of a game over the table protocol
// (docs/table-protocol.md). The server's view of the game is drawn as it is; updates are
// shown one after another, with a pause on each finished trick and hand so people can
// follow bots that play at once.

import { cardFace, cardName, cardText, strainText, suitName, SUIT_SYMBOLS } from "./cards.js";
import {
  actionText, botName, callBubble, contractText, playedFace, seatFacts, seatLabel as labelOf, seatName as nameOf, seatNameNodes,
  seatPosition, seatSubject, trumpMark, turnSeat,
} from "./drawing.js";
import { $, el, gameTitle, leaveSeatBlock, levelTitle, linkRow, LEVELS, myTables, NEW_PLAYER_RATING, rememberTable, teamLetter, variantFacts } from "./common.js";
import { canCheck, checkHand, deck } from "./fairdeal.js";
import { hasString, LANG, languageSwitch, num, t, translatePage } from "./i18n.js";
import { showAccount, whoAmI } from "./account.js";

translatePage();
$("bar-menu").append(languageSwitch());
showAccount($("bar-menu"));

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token");
const hostToken = fragment.get("host");
// "My tables"' link: the seat bound to the signed-in account, taken without its token.
const accountSeat = token ? null : fragment.get("seat");
// A night's set (its page's links say which night): the table's end leads back to it.
// Reached by another link ("My tables", the lobby's list), `welcome` names the night
// (`findNight` finds it sooner while it is the night's current set).
let nightId = fragment.get("night");
// The fragment is read once, above: another seat's link pasted into this tab (the same
// page but for its fragment) starts the page again, at that seat.
window.addEventListener("hashchange", () => location.reload());

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
  account: null, // the signed-in account, once asked (`GET /api/session`)
  seatConfirm: null, // {seat, sitter}: the host's handing on of a person's seat, until confirmed
  cutValue: null, // what the player typed into the cut box
  cutDeadline: null, // when the server cuts at random for this seat (ms since 1970)
  clock: null, // the server's clock running: { seat, until (ms since 1970), cut }
  historyAsked: false, // the log of the game so far was asked for (once a page)
  chatWaiting: null, // chat lines held while that log is built, to go where they were said
  asked: false, // the seat's dialog was shown
  hint: null, // the latest `hint` answer (for the version it names)
  hintAsked: null, // the version a hint was asked for, until it comes
  unread: 0, // chat lines said while the chat was out of view
  live: false, // this page's connection is open and welcomed: a chat line goes at once
  away: false, // the server does not answer: the page tries again
  paused: false, // the server cannot save (`paused`, until `resumed`): nothing moves
  gone: null, // the table cannot be joined: "over", "ended" or "unknown" (no such table)
  pendingChat: [], // chat lines typed while the connection was down, sent once it is back
  chatSent: null, // the latest chat line sent, put back in the box if the server refuses it
  cutSent: false, // this page sent the cut of the deck that waits (else the server cuts at random)
  focusArea: null, // "hand" or "controls" while the focus is there: kept there after a move
  nextSetAsked: false, // a night's set over: the night was asked for its next set
  nextSet: null, // {href, seated}: where this player goes for the night's next set
  wasMyTurn: false,
  talkSent: false, // the chat lines after `welcome` (the talk so far) have all come
  ratingChanges: null, // a rated game over: each person's rating before and after, once asked
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
  if (me != null) return teamOf(me) === team ? t("team-us") : t("team-them");
  return t("team-letter", { team: team === 0 ? "A" : "B" });
}

function teamMembers(team) {
  const n = view()?.seats ?? state.seats.length;
  const names = [];
  for (let s = team; s < n; s += 2) names.push(seatName(s));
  return names.join(t("team-and"));
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
  setConn(t("conn-connecting"), "connecting");
  socket.addEventListener("open", () => {
    backoff = 500;
    if (state.looking) send({ type: "look", token });
    else {
      send({
        type: "hello",
        token: token ?? undefined,
        host: hostToken ?? undefined,
        seat: accountSeat != null ? Number(accountSeat) : undefined,
        name: localStorage.getItem("calltrump.name") || undefined,
        version: state.received ?? undefined,
      });
    }
    setConn(t("conn-connected"), "ok");
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
      setConn(t("conn-closed"), "closed");
      chatClosed();
      render();
      return;
    }
    setConn(t("conn-reconnecting"), "connecting");
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
    // Quarantined at the server's start: its saved game does not replay.
    if (response.status === 410) return "damaged";
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
  return t(`gone-${why}`);
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
const RETRY_KINDS = new Set(["retry", "idle", "too_slow"]);

function receive(message) {
  switch (message.type) {
    case "welcome":
      state.talkSent = false;
      state.live = true;
      state.away = false;
      // A table still paused says so after `welcome`.
      state.paused = false;
      flushChat();
      state.welcome = message;
      state.status = message.status;
      // A set's table names its night, however it was reached.
      if (message.night) nightId = message.night;
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
      seatLostWhileLooking();
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
        if (message.body === state.chatSent) state.chatSent = null;
        if (state.chatWaiting) state.chatWaiting.push(message);
        else chatLine(message, state.talkSent);
      }
      break;
    case "hint":
      state.hintAsked = null;
      if (message.version === state.received) {
        state.hint = message;
        const best = message.actions[0];
        announce(best ? t("hint-said", { action: actionText(best.action, names()), points: pointsText(best.points) }) : t("hint-none"));
      }
      render();
      break;
    case "error":
      state.sending = false;
      state.hintAsked = null;
      toast(errorWords(message));
      // A chat line refused (too soon after the last, too long) goes back into the box.
      if (message.code === "chat" && state.chatSent != null) {
        const input = $("chat-input");
        input.value = input.value ? `${state.chatSent} ${input.value}` : state.chatSent;
        state.chatSent = null;
      }
      render();
      break;
    case "clock":
      // The server's clock: what is left of it now, counted down from here (a page
      // opened again mid-turn counts what is left, not a fresh wait).
      state.clock = message.seat == null ? null : { seat: message.seat, until: Date.now() + message.ms, of: message.of_ms, cut: message.cut };
      if (message.cut && message.seat === mySeat()) state.cutDeadline = state.clock.until;
      render();
      break;
    case "time-up":
      // A bot made the decision of a person whose clock ran out.
      {
        const words = message.seat === mySeat() ? t("time-up-you") : t("time-up", { name: seatName(message.seat) });
        if (message.seat === mySeat()) showTimeUp();
        else toast(words);
        logLine(words, "event");
      }
      break;
    case "link-refused":
      // Someone came late with a link that seats nobody now: the host hears of it.
      {
        const words = t(message.sitter === "open" ? "link-refused-open" : "link-refused", { n: message.seat });
        toast(words);
        logLine(words, "event");
      }
      break;
    case "seat-left":
      // A seat's account gave it up from "My tables": the host hears of it (its new
      // link follows in an `invite`).
      {
        const who = message.name ?? t("seat-number", { seat: message.seat });
        const words = message.declined
          ? t("seat-declined", { name: who, n: message.seat })
          : t("seat-left", { name: who, n: message.seat });
        toast(words);
        logLine(words, "event");
      }
      break;
    case "paused":
    case "resumed":
      state.paused = message.type === "paused";
      render();
      break;
    case "invite":
      // The host opened a seat for a person: its link, to hand on.
      rememberInvite(message.seat, message.url);
      render();
      break;
    case "closing":
      // A final closing is on the page for good (and the error before it stays up).
      if (RETRY_KINDS.has(message.kind)) toast(t("server-closed", { reason: serverWords("closing", message.kind, message.reason) }));
      else {
        // A link whose token is not this table's (most often cut short when copied):
        // the page says so in its own words, not the server's "unknown token".
        state.closed = message.kind === "bad_token" ? t("link-bad") : serverWords("closing", message.kind, message.reason);
        state.closedKind = message.kind;
        if (message.kind === "seat_gone" || message.kind === "bad_token") forgetSeat();
      }
      break;
    default:
      break;
  }
}

/**
 * The host took this page's seat back (or its link is no longer the seat's): the lobby
 * must not offer "Back to my seat" any more. A host keeps a way back to the host's panel.
 */
function forgetSeat() {
  const known = myTables().find((t) => t.id === tableId);
  // Only the link this page came by: a good one kept from before stays (a link cut
  // short when copied is refused too).
  const tokenOf = (url) => new URLSearchParams(url?.split("#")[1] ?? "").get("token");
  if (known?.seat == null || tokenOf(known.url) !== token) return;
  rememberTable({ ...known, seat: null, url: hostToken ? `/table/${encodeURIComponent(tableId)}#host=${encodeURIComponent(hostToken)}` : null });
}

/** "New hand: Bo deals." */
function newHandText(dealer) {
  return dealer === mySeat() ? t("log-new-hand-you") : t("log-new-hand", { seat: seatLabel(dealer) });
}

/**
 * A refused request in words: a move that came after the table moved on is said as
 * such in every language (the server's "stale version N" is for programs).
 */
function errorWords(message) {
  if (message.code === "version") return t("error-version");
  return serverWords("error", message.code, message.message);
}

/**
 * What the server says, in the page's language: its own English words, or in Arabic the
 * words for the typed code it sends beside them (`error` codes, `closing` kinds).
 */
function serverWords(what, code, english) {
  if (LANG === "en") return english;
  if (what === "error") return t(`error-${ERROR_CODES.includes(code) ? code : "other"}`);
  return t(`closing-${CLOSE_KINDS.includes(code) ? code : "other"}`);
}
const ERROR_CODES = ["malformed", "too_fast", "hello", "bad_token", "seat_taken", "not_seated", "not_host", "status", "version", "illegal", "bad_seat", "no_hint", "chat", "not_saved"];
const CLOSE_KINDS = ["retry", "idle", "seat_gone", "table_gone", "bad_token", "too_big"];

function statusWords(status) {
  return ["open", "playing", "over", "ended"].includes(status) ? t(`status-${status}`) : status;
}

function onWelcome() {
  const { rules, table, seat, host } = state.welcome;
  const title = gameTitle(rules.game, rules.variant);
  $("title").textContent = seat == null ? t(host ? "title-host" : "title-watching", { title }) : title;
  // Cut short on a phone's one-line bar: the whole of it on hover.
  $("title").title = $("title").textContent;
  $("rules-link").href = `/rules/${rules.game}?lang=${LANG}`;
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

/** Where this browser last saw its seat's game: its storage key. */
function seenKey() {
  return mySeat() == null || !state.welcome ? null : `calltrump.seen.${state.welcome.table}.${mySeat()}`;
}

/** Remembers the hands and scores this seat's page has seen, to tell what was played without it. */
function rememberSeen(v) {
  const key = seenKey();
  if (key && v && !state.closed) localStorage.setItem(key, JSON.stringify({ deals: v.deals_played, scores: v.scores }));
}

/**
 * Back at the seat after hands were played without this page (a bot stood in for the
 * player): how many, and the scores then and now, in the log and a toast.
 */
function sayWhatWasPlayedAway(v) {
  const key = seenKey();
  let seen = null;
  try { seen = JSON.parse(localStorage.getItem(key) ?? "null"); } catch { /* none */ }
  if (!seen || !v || !(v.deals_played > seen.deals) || !Array.isArray(seen.scores)) return;
  const scores = teamOrder().map((team) => t("away-score", { team: teamName(team), before: seen.scores[team], now: v.scores[team] })).join(t("list-comma"));
  const words = t("away-summary", { n: v.deals_played - seen.deals, scores });
  logLine(words, "event");
  toast(words);
}

function applySnapshot(snapshot) {
  // A page coming back to its seat says what was played without it.
  sayWhatWasPlayedAway(snapshot.view);
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
        logLine(newHandText(event.dealer), "event");
        break;
      case "acted":
        snap.actions.push([event.seat, event.action]);
        logLine(`${seatName(event.seat)}: ${actionText(event.action, names())}`, "action");
        break;
      case "undone":
        snap.actions.splice(snap.actions.length - event.actions, event.actions);
        logLine(event.actions === 1 ? t("log-undone-one", { seat: seatName(event.seat) }) : t("log-undone", { seat: seatName(event.seat), n: event.actions }), "event");
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
        state.cutSent = false;
        if (event.cutter === mySeat()) startCutClock();
        logLine(t(event.cutter === mySeat() ? "log-committed-you" : "log-committed", { commitment: `${event.commitment.slice(0, 12)}…`, seat: seatLabel(event.cutter) }), "event");
        break;
      case "cut":
        if (snap.deal_check) snap.deal_check.cut = event.cut;
        state.cutDeadline = null;
        state.cutValue = null;
        // This seat's cut that the page did not send: the server's, at random.
        logLine(event.seat === mySeat() && !state.cutSent ? t("log-cut-random-you", { n: event.cut }) : t("log-cut", { seat: seatName(event.seat), n: event.cut }), "event");
        state.cutSent = false;
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
    announce(`${takesText(winner)}.`);
  }
  if (handEnded) holds.push({ kind: "hand", ms: HAND_HOLD });
  if (turnSeat(after) === mySeat() && turnSeat(before) !== mySeat()) announce(t("turn-yours"));
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
          add(newHandText(step.view.dealer), "event");
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
    add(newHandText(v.dealer), "event");
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
  log.prepend(el("li", { className: "event history-head", textContent: t("log-so-far") }), ...merged);
  log.scrollTop = log.scrollHeight;
}

/** Checks a revealed deal in the background; the info panel shows the result. */
async function verify(v, check, dealt) {
  const hand = v.deals_played;
  if (!canCheck()) {
    state.handCheck = { hand, ok: null, reason: t("check-needs-https") };
    render();
    return;
  }
  try {
    const result = await checkHand({
      rules: state.welcome.rules, seats: v.seats, table: tableId, hand, dealer: v.dealer,
      check, dealt, seat: mySeat(),
    });
    state.handCheck = { hand, ok: result.ok, reason: t(`check-${result.code}`) };
  } catch (error) {
    state.handCheck = { hand, ok: false, reason: t("check-failed", { error: error.message }) };
  }
  render();
}

/** The two teams, this seat's first. */
function teamOrder() {
  return mySeat() != null && teamOf(mySeat()) === 1 ? [1, 0] : [0, 1];
}

function handSummaryText(summary, v) {
  if (summary.outcome === "thrown-in") return t("hand-thrown-in");
  if (summary.outcome === "misdeal") return t("hand-misdeal");
  const points = summary.points ?? v.hand_points ?? [0, 0];
  const tricks = summary.tricks ?? v.tricks;
  const each = (values, signed) => teamOrder()
    // A signed number kept left to right in an Arabic sentence (a left-to-right mark
    // before it): "+5", not "5+".
    .map((team) => `${teamName(team)} \u200e${signed && values[team] >= 0 ? "+" : ""}${values[team]}`).join(t("list-comma"));
  const result = t("hand-result", { tricks: each(tricks, false), points: each(points, true) });
  return summary.contract != null && summary.declarer != null
    ? t("hand-contract-result", { seat: seatName(summary.declarer), contract: actionText(summary.contract, names()), result }) : result;
}

function gameOverText(outcome, scores) {
  const score = t("score-to", { a: scores[0], b: scores[1] });
  if (outcome === "draw") return t("game-over-draw", { score });
  const me = mySeat();
  const both = teamOrder().map((team) => `${teamName(team)} ${num(scores[team])}`).join(t("list-comma"));
  if (me != null) return t(teamOf(me) === outcome ? "game-over-won" : "game-over-lost", { scores: both });
  return t("game-over-team", { team: teamName(outcome), members: teamMembers(outcome), score });
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
  rememberSeen(v);
  // A seat lost for good (given to a bot, opened for someone else) is no longer this
  // page's to play: no live choices.
  const myTurn = v != null && turnSeat(v) === mySeat() && mySeat() != null && state.status === "playing" && !state.closed;
  document.body.dataset.myTurn = String(myTurn && !busy);
  const cutting = mustCut();
  document.body.dataset.cut = String(cutting && !busy);
  const focusKey = document.activeElement?.dataset?.key;
  // The player's turn comes while the chat covers a phone's table: the chat stays open
  // until the player closes it (they may be mid-sentence); its close button says whose turn.
  const turnNow = (myTurn || cutting) && !busy;
  const chatOver = narrow.matches && document.body.classList.contains("chat-open");
  if (turnNow && !state.wasMyTurn && chatOver) announce(t("chat-turn-open"));
  $("chat-close").classList.toggle("your-turn", turnNow);
  $("chat-close-text").textContent = t(turnNow ? "chat-close-turn" : "chat-close");
  if (turnNow && !state.wasMyTurn) signalTurn();
  showTurnIcon(turnNow);
  state.wasMyTurn = turnNow;
  renderSeats(v);
  renderCenter(v);
  renderTurnLine(v, myTurn, cutting);
  renderControls(v, myTurn && !busy, cutting && !busy);
  renderHand(v, myTurn && !busy);
  renderMyClock();
  renderInfo(v);
  renderHost();
  keepFocus(focusKey);
  if (nightId && (v?.phase === "game-over" || state.gone === "over")) findNextSet();
}

/**
 * After a redraw the focus goes back where it was; if that button is gone (the card
 * played, the bid made) it stays in the same place, the hand or the choices, rather than
 * falling to the page, where a screen reader loses its place.
 */
function keepFocus(focusKey) {
  const again = focusKey && document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (again) return again.focus({ preventScroll: true });
  const lost = !document.activeElement || document.activeElement === document.body;
  if (!lost || !state.focusArea) return;
  const choice = $("controls").querySelector("button:not([disabled])");
  const card = $("hand").querySelector('.card[tabindex="0"]');
  const target = state.focusArea === "controls" ? choice ?? card : card ?? choice;
  (target ?? $("hand")).focus({ preventScroll: true });
}
for (const area of ["hand", "controls"]) $(area).addEventListener("focusin", () => { state.focusArea = area; });
document.addEventListener("focusin", (event) => {
  if (!event.target.closest?.("#hand, #controls")) state.focusArea = null;
});

function cutSize() {
  const rules = state.welcome.rules;
  return deck(rules.game, rules.variant, rules.options).length;
}

function validCut(cut) {
  return Number.isInteger(cut) && cut >= 1 && cut <= cutSize() - 1;
}

function sendCut(cut) {
  if (state.sending) return;
  if (!connectedToAct()) return;
  state.sending = true;
  state.cutSent = true;
  state.cutValue = null;
  state.cutDeadline = null;
  send({ type: "cut", cut });
  render();
}

/** The server cuts at random for a person who has not cut in time: its `clock` counts it down. */
function startCutClock() {
  const clock = state.clock;
  state.cutDeadline = clock?.cut && clock.seat === mySeat() ? clock.until : null;
}

/**
 * The turn clock of this player's own decision, beside their hand: on a phone the seat's
 * badge is small and far from the cards. Counted down every second (the ticker below).
 */
function renderMyClock() {
  const box = $("my-clock");
  const clock = state.clock;
  const mine = clock && !clock.cut && clock.seat === mySeat() && mySeat() != null && state.status === "playing" && !state.closed;
  box.hidden = !mine;
  if (!mine) return;
  const ms = Math.max(0, clock.until - Date.now());
  const secs = Math.ceil(ms / 1000);
  box.classList.toggle("urgent", secs <= 5);
  box.replaceChildren(
    el("span", { className: "my-clock-text", textContent: t("my-clock", { s: secs }) }),
    el("span", { className: "my-clock-bar", ariaHidden: "true" }, el("span", { style: `inline-size: ${clock.of ? Math.min(100, (100 * ms) / clock.of) : 100}%` })),
  );
  box.title = t("badge-clock-title-you");
}

/**
 * This player's clock ran out and a bot decided for them: said at once over their hand,
 * with what the bot did (the update before told it), until they next act or close it. A
 * toast would be gone before someone who looked away looks back.
 */
function showTimeUp() {
  const last = (state.snap?.actions ?? []).findLast(([seat]) => seat === mySeat());
  const box = $("time-up-note");
  const close = el("button", { type: "button", className: "quiet", textContent: "✕" });
  close.setAttribute("aria-label", t("time-up-close"));
  close.addEventListener("click", () => { box.hidden = true; });
  box.replaceChildren(el("span", { textContent: last ? t("time-up-note", { action: actionText(last[1], names()) }) : t("time-up-you") }), close);
  box.hidden = false;
  announce(box.textContent);
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
    clock.textContent = typed != null && validCut(typed) ? t("cut-left-typed", { s: secs, n: typed }) : t("cut-left-random", { s: secs });
    clock.classList.toggle("urgent", secs <= 5);
    clock.setAttribute("aria-label", t("cut-left-label", { s: secs }));
  }
}
setInterval(tickCut, 250);

function mustCut() {
  const check = state.snap?.deal_check;
  return check != null && check.cut == null && check.cutter === mySeat() && view()?.turn === "chance" && state.status === "playing" && !state.closed;
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
    box.setAttribute("aria-label", t("seat-label", { name: seatTitle(seat), seat, team: teamLetter(seat) }));
    box.dataset.seat = seat;
    if (seat === turn && state.status === "playing") box.classList.add("to-act");
    if (v?.sitting_out === seat) box.classList.add("out");
    if (seat === mySeat()) box.classList.add("me");

    const name = el("div", { className: "name" }, el("span", { className: "who" }, ...seatNameNodes(seat, player(seat), mySeat(), true)));
    const badges = el("div", { className: "badges" });
    const badge = (text, cls, title) => badges.append(el("span", { className: `badge ${cls}`, textContent: text, title: title ?? text }));
    const team = el("span", { className: "badge team", title: t("team-letter", { team: teamLetter(seat) }) }, el("span", { className: "long", textContent: `${t("team-word")} ` }), teamLetter(seat));
    badges.append(team);
    // Once the table is over or ended nobody is away any more: no countdowns.
    const live = state.status === "open" || state.status === "playing";
    if (v && v.dealer === seat && v.phase !== "dealing") badge(t("badge-dealer"), "dealer");
    if (info.sitter?.startsWith("bot:")) badge(t("badge-bot", { level: badgeLevel(info.sitter.slice(4)) }), "bot");
    else if (info.sitter === "open") {
      const left = live ? graceLeft(info) : null;
      // An open seat with a name is kept for that account (the host's own, an
      // invitee's): it is not free to anyone, its player has not sat down yet.
      if (left == null && info.name && live && !info.bot_standing_in) badge(t("badge-kept"), "open kept", t("badge-kept-title", { name: info.name }));
      else if (left == null) badge(t(live && info.bot_standing_in ? "badge-open-standing-in" : "badge-open"), "open");
      else badge(t("badge-open-waiting", { s: left }), "open away", t("badge-away-title"));
    } else if (!live) { /* no presence badges on a closed table */ }
    else if (info.bot_standing_in) badge(t("badge-standing-in"), "away");
    else if (info.grace_ms != null) badge(t("badge-away", { s: graceLeft(info) }), "away", t("badge-away-title"));
    else if (info.sitter === "person") badge(t(info.connected ? "badge-online" : "badge-offline"), info.connected ? "online" : "offline");
    // The host opened it for a person during the hand: it opens when the hand ends.
    if (info.opens_after_hand && live) badge(t("badge-opens-after-hand"), "opening", t("host-opens-after-hand"));
    if (v?.sitting_out === seat) badge(t("badge-sits-out"), "out");
    if (seat === turn && state.status === "playing") badge(turnWord(v), "turn");
    // Another's clock on their seat; this player's own is above their hand (`my-clock`).
    if (state.clock && !state.clock.cut && state.clock.seat === seat && seat !== mySeat() && state.status === "playing") {
      const left = Math.max(0, Math.ceil((state.clock.until - Date.now()) / 1000));
      badge(t("badge-clock", { s: left }), `clock${left <= 5 ? " urgent" : ""}`, t("badge-clock-title"));
    }

    const facts = seatFacts(v, seat);
    if (seat !== mySeat() && v?.hand_sizes?.[seat]) {
      const count = v.hand_sizes[seat];
      const stack = el("span", { className: "stack", title: t("cards-in-hand", { n: count }) });
      stack.setAttribute("aria-label", t("cards-in-hand", { n: count }));
      for (let i = 0; i < Math.min(count, 5); i += 1) stack.append(el("span", { className: "mini-back" }));
      stack.append(el("span", { className: "count", textContent: String(count) }));
      facts.append(stack);
    }
    box.append(name, badges, facts);
    felt.append(box);
  }
}

/** A bot's level in a seat's badge, in a word ("rules"): the badges stay one line. */
function badgeLevel(level) {
  return hasString(`badge-level-${level}`) ? t(`badge-level-${level}`) : level;
}

function turnWord(v) {
  return t(`turn-word-${["auction", "trump-naming", "exchange", "play"].includes(v?.phase) ? v.phase : "next"}`);
}

/** "Bo takes the trick", "You take the trick". */
function takesText(seat) {
  return seat === mySeat() ? t("trick-you-take") : t("trick-takes", { seat: seatName(seat) });
}

/** The cards the center showed last time, as `seat:card`. */
let centerShown = new Set();

function renderCenter(v) {
  const center = $("center");
  center.replaceChildren();
  if (!v) {
    center.append(state.gone ? goneNotice() : state.closedKind === "bad_token" ? badLinkNotice() : el("p", { className: "center-status", textContent:
      state.away ? t("server-away") : state.closed ? "" : t("connecting-table") }));
    return;
  }
  const n = v.seats;
  let trick = v.trick;
  let caption = "";
  let won = false;
  if (state.holding?.kind === "trick") {
    trick = state.holding.trick;
    won = true;
    caption = takesText(trick.winning);
  } else if (state.showLast && v.last_trick) {
    trick = v.last_trick;
    won = true;
    caption = t("last-trick-took", { seat: seatLabel(trick.winning) });
  } else if (v.phase === "hand-over" || v.phase === "game-over") {
    won = trick?.winning != null;
  }
  const shown = new Set();
  // The trick in play: the card winning it so far is marked (and said) too.
  const leading = !won && v.phase === "play" && trick?.winning != null && trick.cards.length > 1 ? trick.winning : null;
  if (trick) {
    for (const [seat, card] of trick.cards) {
      const label = `${seatName(seat)}: ${cardName(card)}${seat === leading ? t("winning-so-far") : ""}`;
      const face = playedFace(card, position(seat, n), label, won && seat === trick.winning, seatName(seat));
      if (seat === leading) {
        face.classList.add("leading");
        face.dataset.badge = t("winning-badge");
      }
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
    const hide = el("button", { type: "button", className: "quiet hide-last", textContent: t("hide") });
    hide.dataset.key = "hide-last";
    hide.setAttribute("aria-label", t("last-trick-hide"));
    hide.addEventListener("click", () => { state.showLast = false; render(); });
    center.append(el("p", { className: "center-note won last-note" }, caption, " ", hide));
  } else if (caption) center.append(el("p", { className: `center-note ${won ? "won" : ""}`, textContent: caption }));
  else if (v.phase === "play" && trick && trick.cards.length === 0) {
    center.append(el("p", { className: "center-note", textContent: trick.leader === mySeat() ? t("you-lead") : t("seat-leads", { seat: seatName(trick.leader) }) }));
  }
  // On a phone the side panel, with its "Last hand", is below the hand: until the next
  // hand's play, the last hand's result is on the felt (shown on narrow screens only).
  if (!summary && !caption && state.lastHand && ["dealing", "auction", "trump-naming", "exchange"].includes(v.phase)) {
    center.append(el("p", { className: "center-last", textContent: t("last-hand", { text: handSummaryText(state.lastHand.summary, state.lastHand.view) }) }));
  }
}

/** Whether a hand was dealt at this table (else there is nothing to replay). */
function dealtYet(v) {
  return v != null && (v.deals_played > 0 || v.phase !== "dealing");
}

/** Where to go from a table that is over or ended: its replay, its record, the lobby. */
/**
 * A rated game over: each person's rating before and after it, from their pages (the
 * server rates the game before it tells anyone it is over), with links to their pages
 * and the leaderboard. Asked once; shown once it comes.
 */
function ratingChangesBlock() {
  const box = el("div", { className: "rating-changes" }, el("h3", { textContent: t("rated-heading") }));
  if (state.ratingChanges == null) {
    state.ratingChanges = [];
    askRatingChanges();
    return box;
  }
  const list = el("ul", {});
  for (const change of state.ratingChanges) {
    const delta = change.after - change.before;
    const line = t("rated-change", { before: change.before.toFixed(1), after: change.after.toFixed(1), delta: `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)}` });
    list.append(el("li", {}, el("a", { href: `/players/${encodeURIComponent(change.name)}`, textContent: change.name }), ` ${line}`));
  }
  box.append(list);
  const family = state.ratingChanges[0]?.family;
  if (family) box.append(el("p", {}, el("a", { className: "leaderboard-link", href: `/leaderboard/${encodeURIComponent(family)}`, textContent: t("lobby-leaderboard") })));
  return box;
}

async function askRatingChanges() {
  const people = state.seats.map((info, seat) => ({ info, seat })).filter(({ info }) => info.sitter === "person" && info.name);
  const changes = await Promise.all(people.map(async ({ info, seat }) => {
    try {
      const response = await fetch(`/api/players/${encodeURIComponent(info.name)}`);
      if (!response.ok) return null;
      const history = (await response.json()).rating_history ?? [];
      const at = history.findIndex((point) => point.table === tableId);
      if (at < 0) return null;
      const point = history[at];
      // Before its first rated game a player is rated as a new player.
      const earlier = history.slice(0, at).filter((p) => p.family === point.family).pop();
      return { seat, name: info.name, family: point.family, before: earlier?.mu ?? NEW_PLAYER_RATING, after: point.mu };
    } catch {
      return null;
    }
  }));
  state.ratingChanges = changes.filter((c) => c != null);
  render();
}

function exitLinks({ replay = true, record = true } = {}) {
  const id = encodeURIComponent(tableId);
  return el("p", { className: "row exit-links" },
    record ? el("a", { className: "button", href: `/api/tables/${id}/record`, download: `calltrump-${tableId}.json`, textContent: t("download-record") }) : null,
    replay ? el("a", { className: "button", href: `/replay/${id}`, textContent: t("replay-game") }) : null,
    nightId && state.nextSet
      ? el("a", { className: "button primary", id: "next-set", href: state.nextSet.href, textContent: t(state.nextSet.seated ? "next-set" : "next-set-watch") })
      : null,
    nightId
      ? el("a", { className: `button ${state.nextSet ? "" : "primary"}`, id: "back-to-night", href: `/night/${encodeURIComponent(nightId)}`, textContent: t("back-to-night") })
      : el("a", { className: "button primary", href: "/", textContent: t("back-to-lobby") }));
}

/**
 * A night's set is over: asks the night, until it has opened the next set, where this
 * player goes now (their seat, with the player's token this browser keeps for the
 * night; else the set's table to watch). A last set leads only back to the night.
 */
async function findNextSet() {
  if (!nightId || state.nextSetAsked) return;
  state.nextSetAsked = true;
  const player = localStorage.getItem(`calltrump.night.${nightId}`);
  const query = player ? `?player=${encodeURIComponent(player)}` : "";
  const withNight = (link) => `${link}${link.includes("#") ? "&" : "#"}night=${encodeURIComponent(nightId)}`;
  // The night opens the next set within a second of this one's end: a minute is ample.
  for (let tries = 0; tries < 60; tries += 1) {
    try {
      const response = await fetch(`/api/nights/${encodeURIComponent(nightId)}${query}`);
      if (response.ok) {
        const night = await response.json();
        const at = night.tables.indexOf(tableId);
        const next = at >= 0 ? night.tables[at + 1] : undefined;
        if (next) {
          const mine = night.seating?.table === next && night.you?.seat != null ? night.you.link : null;
          state.nextSet = { href: withNight(mine ?? `/table/${next}`), seated: mine != null };
          render();
          return;
        }
        if (at < 0 || night.status !== "playing") return;
      }
    } catch {
      // The server is away for a moment: ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * A link that names no night: the night being played whose set this table is, if any,
 * so that its end leads back to the night (and on to the next set) all the same.
 */
async function findNight() {
  if (nightId) return;
  try {
    const response = await fetch("/api/nights");
    const night = response.ok ? (await response.json()).nights.find((n) => n.table === tableId) : null;
    if (night && !nightId) {
      nightId = night.id;
      render();
    }
  } catch {
    // The server is away: the table ends as any table does, back to the lobby.
  }
}

/** A seat link whose token is not this table's (cut short, mistyped): what to do. */
function badLinkNotice() {
  return el("div", { className: "gone-notice", role: "status" },
    el("h2", { textContent: t("link-bad-heading") }),
    el("p", { textContent: t("link-bad-help") }),
    el("p", { className: "row exit-links" },
      el("a", { className: "button", href: `/table/${encodeURIComponent(tableId)}`, textContent: t("watch-instead") }),
      el("a", { className: "button primary", href: "/", textContent: t("back-to-lobby") })));
}

/** A table that cannot be joined: over, ended, or none at this link. */
function goneNotice() {
  const heading = t(`gone-heading-${state.gone}`);
  const box = el("div", { className: "gone-notice", role: "status" }, el("h2", { textContent: heading }));
  if (state.gone === "unknown" || state.gone === "damaged") {
    box.append(el("p", { textContent: t(state.gone === "unknown" ? "gone-link" : "gone-damaged-kept") }), exitLinks({ replay: false, record: false }));
    return box;
  }
  if (state.goneEmpty) {
    box.append(el("p", { textContent: t("gone-empty") }), exitLinks({ replay: false, record: false }));
    return box;
  }
  const r = state.goneReplay;
  if (r?.game) {
    const scores = Array.isArray(r.scores) ? ` · ${r.scores.map((x, team) => `${t("team-letter", { team: team === 0 ? "A" : "B" })} ${num(x)}`).join(t("list-comma"))}` : "";
    box.append(el("p", { textContent: `${gameTitle(r.game, r.variant)}${scores}` }));
  }
  box.append(el("p", { textContent: t(state.gone === "over" ? "gone-replay-over" : "gone-replay-ended") }), exitLinks());
  return box;
}

/** The hand's or the game's end, over the last trick. */
function centerSummary(v) {
  if (state.holding?.kind === "trick") return null;
  if (state.status === "ended") {
    return el("div", { className: "summary final", role: "status" },
      el("h2", { textContent: t("host-ended-table") }),
      el("p", { textContent: teamOrder().map((team) => `${teamName(team)} (${teamMembers(team)}) ${num(v.scores[team])}`).join(" · ") }),
      // Ended before its first deal: no game to replay.
      exitLinks({ replay: dealtYet(v), record: dealtYet(v) }));
  }
  if (v.phase === "game-over" && v.outcome != null) {
    const box = el("div", { className: "summary final", role: "status" },
      el("h2", { textContent: gameOverText(v.outcome, v.scores) }),
      el("p", { textContent: teamOrder().map((team) => `${teamName(team)} (${teamMembers(team)}) ${num(v.scores[team])}`).join(" · ") }));
    // The ways on first: the ratings below them may need scrolling on a small screen.
    box.append(exitLinks());
    if (state.welcome?.rated) box.append(ratingChangesBlock());
    return box;
  }
  if ((v.phase === "hand-over" || state.holding?.kind === "hand") && state.lastHand) {
    const box = el("div", { className: "summary", role: "status" },
      el("h2", { textContent: t("hand-over") }),
      el("p", { textContent: handSummaryText(state.lastHand.summary, v) }),
      el("p", { textContent: t("scores-line", { scores: teamOrder().map((team) => `${teamName(team)} ${num(v.scores[team])}`).join(t("list-comma")) }) }));
    // The next hand's deck waits for its cut: say whose.
    if (nextHandWaits(v) && state.holding?.kind !== "hand") {
      const cutter = state.snap.deal_check.cutter;
      box.append(el("p", { className: "next-hand", textContent: cutter === mySeat() ? t("next-hand-you-cut", { n: handNumber(v) }) : t("next-hand-cuts", { n: handNumber(v), seat: seatName(cutter) }) }));
    }
    return box;
  }
  return null;
}

function renderTurnLine(v, myTurn, cutting) {
  const line = $("turn-line");
  let text = "";
  if (state.gone) text = t(`gone-heading-${state.gone}`) + t("full-stop");
  else if (state.closed) text = t("page-closed", { reason: state.closed });
  else if (state.away) text = t("server-away");
  else if (state.paused) text = t("server-paused");
  else if (!v) text = t("conn-connecting");
  else if (state.status === "open") {
    const open = state.seats.filter((s) => s.sitter === "open").length;
    const host = state.welcome?.host ? "-host" : "";
    text = open === 1 ? t(`waiting-one${host}`) : open ? t(`waiting-more${host}`, { n: open }) : t(`waiting-players${host}`);
  } else if (state.status === "ended") text = t("host-closed-table");
  else if (v.phase === "game-over") text = t("game-over");
  else if (cutting) text = t("your-cut");
  else if (v.turn === "chance") {
    const check = state.snap.deal_check;
    text = check && check.cut == null && check.seed == null ? t("waiting-cut", { seat: seatLabel(check.cutter) }) : t("dealing");
    if (v.phase === "hand-over") text = t("hand-over-then", { text });
  } else {
    const seat = turnSeat(v);
    if (myTurn) {
      text = v.phase === "exchange" ? exchangeWords(v)
        : ["auction", "trump-naming", "play"].includes(v.phase) ? t(`my-turn-${v.phase}`) : t("turn-yours");
    } else if (waitsForPerson(seat)) {
      // A seat the host opened again: the table waits for whoever takes its link, and
      // everyone, not only the host, is told who it waits for and for how long.
      const left = graceLeft(state.seats[seat]);
      text = t(left == null ? "waiting-open-seat" : "waiting-open-seat-bot", { n: seat, s: left });
    } else {
      text = t(`seat-turn-${["auction", "trump-naming", "exchange", "play"].includes(v.phase) ? v.phase : "next"}`, { seat: seatName(seat) });
    }
  }
  line.textContent = text;
  if (state.closed || state.status === "ended") {
    // A seat given to a bot can still be watched.
    if (state.closedKind === "seat_gone" || state.closedKind === "bad_token") line.append(" ", el("a", { href: `/table/${encodeURIComponent(tableId)}`, textContent: t("watch-instead") }), " ·");
    else if (state.gone ? state.gone !== "unknown" && !state.goneEmpty : dealtYet(v) && (state.status === "ended" || state.closedKind === "table_gone")) {
      line.append(" ", el("a", { href: `/replay/${encodeURIComponent(tableId)}`, textContent: t("replay-game") }), " ·");
    }
    line.append(" ", el("a", { href: "/", textContent: t("back-to-lobby") }));
  }
  line.classList.toggle("mine", Boolean(myTurn || cutting));
  // The tab says so too, when this page is in the background.
  const title = state.welcome ? gameTitle(state.welcome.rules.game, state.welcome.rules.variant)
    : state.gone ? t(`tab-gone-${state.gone}`) : t("tab-table");
  titleBase = t(myTurn || cutting ? "tab-your-turn" : "tab-title", { title });
  setTitle();
}

let titleBase = t("tab-start");
/** The tab's title: the chat lines unread first, "(2) ▶ Your turn · Kaibosh · calltrump". */
function setTitle() {
  document.title = `${state.unread ? `(${state.unread}) ` : ""}${titleBase}`;
}

/** Whether `seat` is open for a person during play, nobody (no stand-in bot) playing it. */
function waitsForPerson(seat) {
  const info = state.seats[seat];
  return info?.sitter === "open" && !info.bot_standing_in && state.status === "playing";
}

/** The seconds left of a seat's grace (a bot stands in after), or null if none runs. */
function graceLeft(info) {
  if (info?.grace_ms == null || info.bot_standing_in) return null;
  return Math.max(0, Math.ceil((info.grace_ms - (Date.now() - state.seatsAt)) / 1000));
}

function exchangeWords(v) {
  const legal = v.legal[0] ?? "";
  const count = legal.split(" ").length - 1;
  const declarer = v.contract?.declarer;
  return legal.startsWith("give")
    ? t(count === 1 ? "choose-give-one" : "choose-give", { n: count, seat: seatLabel(declarer) })
    : t(count === 1 ? "choose-discard-one" : "choose-discard", { n: count });
}

function renderControls(v, active, cutting) {
  const box = $("controls");
  box.replaceChildren();
  $("hint-slot").replaceChildren();
  if (cutting) {
    const size = cutSize();
    const input = el("input", { type: "number", min: 1, max: size - 1, value: state.cutValue ?? "", placeholder: String(Math.floor(size / 2)), id: "cut-input" });
    input.dataset.key = "cut-input";
    // The controls are redrawn on every message: keep what was typed.
    input.addEventListener("input", () => { state.cutValue = input.value; });
    const button = el("button", { type: "submit", className: "primary", textContent: t("cut") });
    button.dataset.key = "cut";
    button.dataset.action = "cut";
    const form = el("form", { className: "row cut-form" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // Nothing typed: the number shown in the box.
      const cut = Number(input.value === "" ? input.placeholder : input.value);
      if (!validCut(cut)) return toast(t("cut-between", { most: size - 1 }));
      sendCut(cut);
    });
    const clock = el("span", { id: "cut-countdown", className: "countdown", role: "timer" });
    clock.setAttribute("aria-live", "off");
    form.append(el("label", { className: "field", htmlFor: "cut-input", textContent: `${t("cut-label", { most: size - 1 })} ` }), input, button, clock);
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
    row.setAttribute("aria-label", t("name-trump"));
    for (const action of trumps) {
      const suit = action.split(" ")[1];
      row.append(actionButton(action, `${SUIT_SYMBOLS[suit]} ${suitName(suit)}`, `suit-${suit}`));
    }
    box.append(row);
  }
  if (legal.some((a) => a.startsWith("give ") || a.startsWith("discard "))) box.append(exchangeControls(legal));
  if (state.welcome.undo) box.append(undoButton());
  if (!state.welcome.hints) return;
  // A phone: the hint's button ends the last row of choices, and its answer comes below
  // the hand, so that neither pushes the hand out of the window.
  if (!isPhone()) return box.append(hintButton(), ...hintBox());
  const rows = box.querySelectorAll(".choices");
  (rows.length ? rows[rows.length - 1] : box).append(hintButton());
  $("hint-slot").append(...hintBox());
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
  const button = el("button", { type: "button", className: "quiet hint-button", textContent: t(asking ? "hint-thinking" : "hint"), disabled: asking || currentHint() != null });
  button.dataset.key = "hint";
  button.setAttribute("aria-label", t("hint-label"));
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
  box.setAttribute("aria-label", t("hint"));
  if (!hint.actions.length) {
    box.append(el("p", { textContent: t("hint-none") }));
    return [box];
  }
  const list = el("ol", { className: "hint-actions" });
  hint.actions.forEach(({ action, points }, i) => {
    const item = el("li", { className: i === 0 ? "best" : "" },
      el("span", { className: "hint-action", textContent: actionText(action, names()) }),
      " ",
      el("span", { className: "hint-points", textContent: num(pointsText(points)) }));
    item.dataset.hintAction = action;
    list.append(item);
  });
  box.append(el("p", { className: "hint-title", textContent: t("hint-title", { deals: hint.deals }) }), list);
  if (hint.explanation) box.append(el("p", { className: "hint-explanation", textContent: readable(hint.explanation) }));
  return [box];
}

function undoButton() {
  const button = el("button", { type: "button", className: "quiet", textContent: t("take-back") });
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
  button.setAttribute("aria-label", actionText(action, names()) + (hinted ? t("hint-best") : ""));
  // A button that shows only a symbol says what it does on hover too.
  button.title = actionText(action, names());
  button.addEventListener("click", () => act(action));
  return button;
}

// Bid Euchre's loners in a few words, for the grid's headings.
const lonerWords = (level) => (["call2", "call1", "moon"].includes(level) ? t(`loner-${level}`) : null);

// ... and in fewer, under them (a title does not show on a touch screen), on two lines
// so that the columns stay as narrow as their buttons and the hint fits beside the grid.
const lonerShort = (level) => t(`loner-short-${level}`).replace(", ", ",\n");

/** Bid Euchre's many bids as a grid (level by strain); other games' calls as a row. */
function callControls(calls) {
  const group = el("div", { className: "calls", role: "group" });
  group.setAttribute("aria-label", t("your-call"));
  const strained = calls.filter((a) => a.split(" ").length === 3 || /^(call2|call1|moon) /.test(a));
  const plain = calls.filter((a) => !strained.includes(a));
  const row = el("div", { className: "choices" });
  for (const action of plain) row.append(actionButton(action, callBubble(action, names()), action === "pass" ? "pass" : ""));
  group.append(row);
  if (strained.length) {
    const strains = ["S", "H", "D", "C", "NT"].filter((s) => strained.some((a) => a.endsWith(` ${s}`)));
    const levels = [...new Set(strained.map((a) => a.split(" ").slice(0, -1).join(" ")))];
    const levelLabel = (level) => (level.startsWith("bid ") ? level.slice(4) : t(`level-${level}`));
    const levelHead = (level, scope) => {
      const th = el("th", { scope, textContent: levelLabel(level) });
      const about = lonerWords(level) ?? (level.startsWith("bid ") ? t("bid-about", { n: level.slice(4) }) : null);
      if (about) {
        th.title = about;
        if (lonerWords(level)) {
          th.classList.add("explained");
          th.append(el("small", { textContent: lonerShort(level) }));
        }
      }
      return th;
    };
    const strainHead = (s) => el("th", { scope: "row", className: s === "NT" ? "" : `suit-${s}`, textContent: s === "NT" ? t("nt") : SUIT_SYMBOLS[s], title: strainText(s) });
    // A cell says "5♠" for a level, only the strain for a loner (its row or column says which).
    const cell = (level, s) => {
      const action = `${level} ${s}`;
      const td = el("td");
      const symbol = s === "NT" ? t("nt") : SUIT_SYMBOLS[s];
      const text = level.startsWith("bid ") ? `${levelLabel(level)}${symbol}` : symbol;
      if (strained.includes(action)) td.append(actionButton(action, text, s === "NT" ? "" : `suit-${s}`));
      return td;
    };
    if (isPhone()) {
      // Pass beside the strains: one row fewer above the hand.
      const picker = bidPicker(levels, strained, levelLabel);
      picker.querySelector(".picker-strains").append(...row.childNodes);
      row.remove();
      group.append(picker);
      return group;
    }
    // Wider screens: a row per strain (a short grid, the hand stays in view).
    const grid = el("table", { className: "bid-grid by-strain" });
    const body = el("tbody");
    grid.append(el("thead", {}, el("tr", {}, el("th", { textContent: "" }), ...levels.map((level) => levelHead(level, "col")))));
    for (const s of strains) body.append(el("tr", {}, strainHead(s), ...levels.map((level) => cell(level, s))));
    grid.append(body);
    group.append(el("div", { className: "grid-wrap" }, grid));
  }
  return group;
}

/** A phone: narrower than a tablet, or a phone held landscape (little height). */
const phoneWindow = matchMedia("(max-width: 560px), (max-height: 500px)");
const isPhone = () => phoneWindow.matches;
// A phone turned (or a window resized) across that line gets the choices laid out for
// its new shape at once, not at the next update: the picker, or the grid.
phoneWindow.addEventListener("change", () => { if (state.welcome) render(); });

/**
 * Bid Euchre's bids on a phone: the levels (and loners) in one row, then the strains
 * legal at the chosen level; up to 55 buttons would push the hand off the screen.
 */
function bidPicker(levels, strained, levelLabel) {
  if (!levels.includes(state.pickedLevel)) state.pickedLevel = levels[0];
  const picker = el("div", { className: "bid-picker" });
  const levelRow = el("div", { className: "choices picker-levels", role: "radiogroup" });
  levelRow.setAttribute("aria-label", t("picker-levels"));
  for (const level of levels) {
    const chosen = level === state.pickedLevel;
    const button = el("button", { type: "button", className: `choice level${chosen ? " picked" : ""}`, textContent: levelLabel(level) });
    button.dataset.key = `level ${level}`;
    button.dataset.level = level;
    button.setAttribute("role", "radio");
    button.setAttribute("aria-checked", String(chosen));
    button.title = lonerWords(level) ?? t("bid-about", { n: level.slice(4) });
    button.addEventListener("click", () => { state.pickedLevel = level; render(); });
    levelRow.append(button);
  }
  const strainRow = el("div", { className: "choices picker-strains", role: "group" });
  strainRow.setAttribute("aria-label", t("picker-strains", { level: levelLabel(state.pickedLevel) }));
  for (const s of ["S", "H", "D", "C", "NT"]) {
    const action = `${state.pickedLevel} ${s}`;
    if (!strained.includes(action)) continue;
    const symbol = s === "NT" ? t("nt") : SUIT_SYMBOLS[s];
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
    ? t(word === "give" ? "give-cards" : "discard-cards", { cards: chosen.map(cardText).join(" ") })
    : t(count === 1 ? "select-one" : "select-cards", { n: count, chosen: chosen.length });
  const button = el("button", { type: "button", className: "primary", textContent: label, disabled: !match });
  button.dataset.key = "exchange";
  button.dataset.action = word;
  if (match) button.setAttribute("aria-label", actionText(match, names()));
  button.addEventListener("click", () => match && act(match));
  return el("div", { className: "choices" }, button);
}

function act(action) {
  if (state.sending) return;
  if (!connectedToAct()) return;
  state.sending = true;
  // The player is back: the note of a turn a bot made for them has been seen.
  $("time-up-note").hidden = true;
  send({ type: "act", version: state.snap.version, action });
  render();
}

/**
 * Whether a move can go now; if not (the server is away, the page reconnects), the
 * player is told at once and the hand shakes: nothing was sent.
 */
let refusedTimer = null;
function connectedToAct() {
  if (state.live && socket?.readyState === WebSocket.OPEN) return true;
  toast(t("move-not-sent"));
  const hand = $("hand");
  hand.classList.remove("refused");
  // Read the layout so that the animation starts again on the next tap.
  void hand.offsetWidth;
  hand.classList.add("refused");
  clearTimeout(refusedTimer);
  refusedTimer = setTimeout(() => hand.classList.remove("refused"), 1500);
  return false;
}

function sortedHand(v) {
  return v?.sorted_hand ?? [];
}

function renderHand(v, active) {
  const box = $("hand");
  box.replaceChildren();
  const cards = sortedHand(v);
  // A page whose seat was handed on holds no hand: the cards are the new player's.
  if (!v || mySeat() == null || state.closedKind === "seat_gone") {
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
    let note = plays.has(card) ? t("card-playable") : passable.has(card) ? t(state.selected.has(index) ? "card-chosen" : "card-choosable") : "";
    const best = hintedAction();
    if (best && (best === `play ${card}` || (/^(give|discard) /.test(best) && best.split(" ").slice(1).includes(card)))) {
      button.classList.add("hinted");
      note += t("hint-best");
    }
    const given = received.indexOf(card);
    if (given >= 0) {
      received.splice(given, 1);
      button.classList.add("received");
      note += t("card-given");
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
  for (const card of cards) card.style.marginInlineStart = "";
  const width = cards[0].getBoundingClientRect().width;
  const gap = 6;
  const room = box.clientWidth - 8;
  const needed = cards.length * (width + gap) - gap;
  if (needed <= room) return;
  const overlap = Math.min(width * 0.62, (needed - room) / (cards.length - 1) + gap);
  cards.slice(1).forEach((card) => { card.style.marginInlineStart = `${-overlap + gap}px`; });
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
      el("td", { className: "score", textContent: num(String(v.scores[team])) })));
  }
  box.append(scores);
  // A signed-in player seated at a table still waiting for players may leave it, as from
  // "My tables" (the host ends it from the host's panel instead).
  if (state.status === "open" && mySeat() != null && !state.welcome.host && state.account && !state.closed) {
    box.append(leaveSeatBlock(tableId, mySeat(), render, () => location.assign("/")));
  }
  // On a phone the side panel is below the table: the scores stay in view above it.
  const line = $("score-line");
  line.hidden = false;
  line.textContent = `${teamOrder().map((team) => `${teamName(team)} ${num(v.scores[team])}`).join(" · ")} · ${goalText(v)}`;

  const facts = el("dl", { className: "facts-list" });
  const fact = (term, value) => facts.append(el("dt", { textContent: term }), el("dd", {}, value));
  const check = state.snap?.deal_check;
  // Between hands, once the next deal is committed, the next hand is what matters.
  if (nextHandWaits(v) || (v.phase === "dealing" && check != null && check.cut == null)) {
    fact(t("fact-hand"), t("fact-hand-waiting", { n: handNumber(v), seat: seatLabel(check.cutter) }));
    box.append(facts);
    box.append(fairDealBlock());
    if (state.lastHand) box.append(el("p", { className: "hint last-hand", textContent: t("last-hand", { text: handSummaryText(state.lastHand.summary, state.lastHand.view) }) }));
    return;
  }
  fact(t("fact-hand"), v.phase === "game-over" ? t("fact-hand-last", { n: handNumber(v) }) : String(handNumber(v)));
  if (v.phase !== "dealing") fact(t("fact-dealer"), seatName(v.dealer));
  if (v.contract) {
    fact(t("fact-contract"), `${seatName(v.contract.declarer)}: ${contractText(v)}`);
  }
  if (v.trump) fact(t("fact-trump"), strainText(v.trump));
  if (v.sitting_out != null) fact(t("fact-sits-out"), seatName(v.sitting_out));
  if (["play", "hand-over", "game-over"].includes(v.phase)) fact(t("fact-tricks"), teamOrder().map((team) => `${teamName(team)} ${v.tricks[team]}`).join(" · "));
  if (v.exchanges?.length) fact(t("fact-passed"), v.exchanges.map(([s, a]) => `${seatName(s)}: ${actionText(a, names())}`).join("; "));
  box.append(facts);
  if (v.last_trick) {
    const toggle = el("button", { type: "button", className: "quiet", textContent: t(state.showLast ? "last-trick-hide" : "last-trick-show") });
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
  if (state.lastHand && v.phase !== "hand-over") box.append(el("p", { className: "hint last-hand", textContent: t("last-hand", { text: handSummaryText(state.lastHand.summary, state.lastHand.view) }) }));
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
  if (v.goal.target != null) parts.push(t("goal-target", { n: v.goal.target }));
  if (v.goal.deals != null) parts.push(t("goal-deals", { n: Math.min(handNumber(v), v.goal.deals), of: v.goal.deals }));
  return parts.join(" · ") || t("scores");
}

function fairDealBlock() {
  const check = state.snap?.deal_check;
  const block = el("div", { className: "fair-deal" });
  if (!check) return block;
  block.append(el("h3", { textContent: t("fair-deal") }));
  const short = `${check.commitment.slice(0, 10)}…${check.commitment.slice(-6)}`;
  const line = el("p", {}, `${t("commitment")} `, el("code", { textContent: short, title: check.commitment }));
  if (check.cut != null) line.append(t("commitment-cut", { n: check.cut, seat: seatLabel(check.cutter) }));
  block.append(line);
  const result = state.handCheck;
  if (check.seed && result) {
    const mark = t(result.ok === true ? "deal-verified" : result.ok === false ? "deal-not-verified" : "deal-not-checked");
    block.append(el("p", { className: `verified ${result.ok === true ? "ok" : result.ok === false ? "bad" : ""}`, textContent: `${mark}: ${result.reason}` }));
  } else if (!check.seed) {
    block.append(el("p", { className: "hint", textContent: t("seed-later") }));
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
  const signature = JSON.stringify([state.status, state.endConfirm, state.seatConfirm, state.seats.map((s) => [s.sitter, s.name, s.connected, s.opens_after_hand]), invites]);
  if (signature === hostSignature) return;
  hostSignature = signature;
  box.replaceChildren(el("h2", { textContent: t("host") }));
  if (state.status === "ended") {
    box.append(el("p", { textContent: t("table-closed") }));
    return;
  }
  if (state.status === "open") {
    const start = el("button", { type: "button", className: "primary", textContent: t("start-now") });
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
    box.append(el("p", { textContent: t("links-waiting") }));
    const list = el("ul", { className: "links" });
    for (const invite of waiting) list.append(linkRow(t("seat-number", { seat: invite.seat }), invite.url));
    box.append(list);
  }
  if (state.status === "open" || state.status === "playing") {
    const list = el("ul", { className: "host-seats" });
    state.seats.forEach((info, seat) => {
      // A rated game's person keeps the seat to the end (the server refuses to hand it
      // on): no control to offer.
      if (state.welcome.rated && state.status !== "open" && info.sitter === "person") {
        list.append(el("li", { className: "rated-seat" }, `${t("seat-number", { seat })} · ${seatName(seat)} `,
          el("span", { className: "hint", textContent: t("host-rated-seat-kept") })));
        return;
      }
      const select = el("select", { id: `host-seat-${seat}` });
      select.append(el("option", { value: "open", textContent: t("sitter-person") }));
      for (const level of LEVELS) select.append(el("option", { value: `bot:${level.id}`, textContent: t("sitter-bot", { level: levelTitle(level.id) }) }));
      const asked = state.seatConfirm?.seat === seat ? state.seatConfirm : null;
      // A seat opening when the hand ends is the person's already in the host's choice.
      select.value = asked?.sitter ?? (info.sitter?.startsWith("bot:") && !info.opens_after_hand ? info.sitter : "open");
      select.dataset.key = `host-seat-${seat}`;
      select.addEventListener("change", () => {
        // A person's seat (or one waiting for a person) handed on cuts its link: asked
        // first. A bot's level changes at once.
        if (info.sitter?.startsWith("bot:")) send({ type: "set-seat", seat, sitter: select.value });
        else state.seatConfirm = { seat, sitter: select.value };
        render();
      });
      const number = t("seat-number", { seat });
      const row = el("li", {}, el("label", { htmlFor: `host-seat-${seat}`, textContent: seatName(seat) === number ? `${number} ` : `${number} · ${seatName(seat)} ` }), select);
      // Opened mid-hand: the seat opens (and its new link comes) when the hand ends.
      if (info.opens_after_hand) row.append(el("span", { className: "hint", textContent: ` ${t("host-opens-after-hand")}` }));
      list.append(row);
      if (asked) list.append(seatConfirmRow(asked, info));
    });
    box.append(list);
  }
  // A rated game under way is played to its end (the server refuses to end it).
  if (state.welcome?.rated && state.status === "playing") {
    box.append(el("p", { className: "hint rated-no-end", textContent: t("host-rated-no-end") }));
    return;
  }
  const end = el("button", { type: "button", className: "danger", textContent: t(state.endConfirm ? "end-really" : "end-table") });
  end.dataset.key = "end";
  end.addEventListener("click", () => {
    if (state.endConfirm) send({ type: "end" });
    state.endConfirm = !state.endConfirm;
    render();
  });
  box.append(end);
}

/**
 * The host's question before a person's seat is handed on (to a bot, or opened for
 * someone else): its link stops working, so nothing happens until it is answered.
 */
function seatConfirmRow({ seat, sitter }, info) {
  const who = info.name ? `${t("seat-number", { seat })} (${info.name})` : t("seat-number", { seat });
  const question = sitter.startsWith("bot:")
    ? t("host-confirm-bot", { seat: who, level: levelTitle(sitter.slice(4)) })
    : t("host-confirm-open", { seat: who });
  const yes = el("button", { type: "button", className: "danger", textContent: t("host-confirm-yes") });
  yes.dataset.key = `host-seat-yes-${seat}`;
  yes.addEventListener("click", () => {
    state.seatConfirm = null;
    send({ type: "set-seat", seat, sitter });
    render();
  });
  const no = el("button", { type: "button", className: "quiet", textContent: t("host-confirm-no") });
  no.dataset.key = `host-seat-no-${seat}`;
  no.addEventListener("click", () => {
    state.seatConfirm = null;
    render();
  });
  return el("li", { className: "seat-confirm", role: "alert" }, el("span", { textContent: question }), el("span", { className: "row" }, yes, no));
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
  if (sender === "watching") return t("sender-watching");
  if (sender === "host") return t("sender-host");
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
  const words = t(n === 1 ? "new-line" : "new-lines", { n });
  $("chat-toggle").setAttribute("aria-label", n ? t("chat-with-new", { words }) : t("chat-toggle"));
  const side = $("side-unread");
  side.hidden = n === 0 || narrow.matches;
  side.textContent = t("side-unread", { n });
  side.setAttribute("aria-label", t("side-unread-label", { words }));
  const head = $("chat-h-unread");
  head.hidden = n === 0;
  head.textContent = n ? t("head-unread", { n }) : "";
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

function openChat(open) {
  document.body.classList.toggle("chat-open", open);
  $("chat-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    clearUnread();
    const log = $("log");
    log.scrollTop = log.scrollHeight;
    // The panel, not the input: no keyboard pops up over a phone's screen to read.
    $("chat-panel").focus();
  } else if (narrow.matches) $("chat-toggle").focus();
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
    state.chatSent = text;
    send({ type: "chat", text });
    return;
  }
  state.pendingChat.push(text);
  const item = el("li", { className: "chat-line pending" }, el("b", { textContent: `${t("chat-pending")} ` }), el("span", { textContent: text }));
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
  const reason = t(state.gone === "unknown" ? "chat-no-table" : "chat-table-closed");
  input.disabled = true;
  input.placeholder = t("chat-closed");
  $("chat-form").querySelector("button").disabled = true;
  for (const control of document.querySelectorAll(".watch-name input, .watch-name button")) control.disabled = true;
  const note = $("chat-note");
  note.hidden = false;
  note.textContent = t("chat-no-more", { reason });
  // Lines still waiting are not lost: back in the box, to copy.
  if (state.pendingChat.length) {
    input.value = state.pendingChat.join(" ");
    state.pendingChat = [];
    note.textContent += ` ${t("chat-not-sent-kept")}`;
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

// ---- turn signals: the tab's title (renderTurnLine) and icon change on this player's
// turn; a sound (off unless chosen), a vibration and, while the page is hidden, a
// notification (once the browser allows it), each as chosen on this device.

const ICON = "/assets/icon.svg";
// The icon with an orange dot: it is your turn.
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="1" width="26" height="30" rx="4" fill="#fff" stroke="#14532d" stroke-width="2"/>' +
  '<path d="M16 6c-3 5-8 7-8 12a4 4 0 0 0 7 2.5L13.5 26h5L17 20.5A4 4 0 0 0 24 18c0-5-5-7-8-12z" fill="#14532d"/><circle cx="24" cy="8" r="7.5" fill="#ea580c" stroke="#fff" stroke-width="1.5"/></svg>')}`;

function showTurnIcon(mine) {
  const link = document.querySelector('link[rel="icon"]');
  const href = mine ? TURN_ICON : ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The turn signals chosen on this device: sound off unless chosen, vibration on. */
const SIGNALS = {
  sound: { key: "calltrump.turn-sound", byDefault: false },
  vibrate: { key: "calltrump.turn-vibrate", byDefault: true },
  notify: { key: "calltrump.turn-notify", byDefault: false },
};

function signalOn(name) {
  const stored = localStorage.getItem(SIGNALS[name].key);
  return stored == null ? SIGNALS[name].byDefault : stored === "on";
}

let audio = null;
let touched = false;
document.addEventListener("pointerdown", () => { touched = true; }, { once: true });

/** Tells the player it is their turn by the means they chose. */
function signalTurn() {
  if (signalOn("sound") && audio) {
    // Two short notes: made here, no sound file to load.
    audio.resume();
    for (const [at, pitch] of [[0, 660], [0.16, 880]]) {
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.15, audio.currentTime + at);
      level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + at + 0.14);
      tone.connect(level).connect(audio.destination);
      tone.start(audio.currentTime + at);
      tone.stop(audio.currentTime + at + 0.15);
    }
  }
  // A browser vibrates only for a page the player has touched (else it complains).
  if (signalOn("vibrate") && touched) navigator.vibrate?.(200);
  if (signalOn("notify") && document.hidden && window.Notification?.permission === "granted") {
    const rules = state.welcome?.rules;
    new Notification(t("notify-title"), { body: rules ? gameTitle(rules.game, rules.variant) : "", tag: `calltrump-${tableId}`, icon: ICON });
  }
}

/** The settings in the bar's menu, each remembered on this device. */
function signalSettings() {
  const boxes = [];
  for (const name of Object.keys(SIGNALS)) {
    const box = el("input", { type: "checkbox", id: `turn-${name}`, checked: signalOn(name) });
    box.addEventListener("change", async () => {
      if (name === "notify" && box.checked && window.Notification && Notification.permission !== "granted") {
        box.checked = (await Notification.requestPermission()) === "granted";
      }
      localStorage.setItem(SIGNALS[name].key, box.checked ? "on" : "off");
      // A sound may start only after a tap: this is one.
      if (name === "sound" && box.checked) audio ??= new AudioContext();
    });
    boxes.push(el("label", { className: "check turn-signal", htmlFor: box.id }, box, ` ${t(`turn-signal-${name}`)}`));
  }
  // The sound chosen earlier: ready at the first tap on the page.
  if (signalOn("sound")) document.addEventListener("pointerdown", () => { audio ??= new AudioContext(); }, { once: true });
  // Folded behind one word, so the bar keeps to one line on a laptop.
  return el("details", { className: "turn-signals" }, el("summary", { textContent: t("turn-signals") }), el("div", { className: "turn-signal-list" }, ...boxes));
}
$("bar-menu").append(signalSettings());

const speed = $("speed");
speed.value = localStorage.getItem("calltrump.speed") ?? "normal";
speed.addEventListener("change", () => localStorage.setItem("calltrump.speed", speed.value));

// The away countdowns and the turn clock tick.
setInterval(() => {
  if (["open", "playing"].includes(state.status) && (state.clock || state.seats.some((s) => s.grace_ms != null && !s.bot_standing_in))) {
    renderSeats(view());
    // Nobody here is to act while the table waits at an open seat: only its line ticks.
    if (waitsForPerson(turnSeat(view()))) renderTurnLine(view(), false, false);
  }
  renderMyClock();
}, 1000);

/**
 * A seat's link still choosing a name (`look`) whose seat the host gives a bot: said at
 * once, not when "Sit down" is refused. The link seats nobody now; the table can be watched.
 */
function seatLostWhileLooking() {
  const seat = state.welcome?.seat;
  if (!state.looking || seat == null || state.closed || !state.seats[seat]?.sitter?.startsWith("bot:")) return;
  state.looking = false;
  state.closed = t("seat-given-bot-look");
  state.closedKind = "seat_gone";
  forgetSeat();
  logLine(t("page-closed", { reason: state.closed }), "event");
  announce(t("page-closed", { reason: state.closed }));
  const dialog = $("name-dialog");
  if (dialog.open) dialog.close();
  socket?.close();
  render();
}

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
    const who = level ? t("bot-with-level", { name: botName(s, named), level: badgeLevel(level) })
      : named ?? t(info?.sitter === "open" ? "partner-to-come" : "partner-player");
    return t("partner-seat", { seat: s, who });
  });
  $("name-what").textContent = t(partners.length === 1 ? "seat-intro-one" : "seat-intro", {
    game: gameTitle(rules.game, rules.variant), seat, team: teamLetter(seat), partners: partnerText.join(t("and")),
  });
  const dialog = $("name-dialog");
  // The seat is taken by sitting down: Escape does not leave the dialog.
  dialog.addEventListener("cancel", (event) => event.preventDefault());
  dialog.addEventListener("close", () => {
    // Closed because the seat was given away meanwhile: nothing to sit down at.
    if (state.closed) return;
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
if (!token && accountSeat == null) {
  const input = el("input", { id: "watch-name", maxLength: 40, autocomplete: "nickname", placeholder: t("name-label"), value: localStorage.getItem("calltrump.name") ?? "" });
  input.setAttribute("aria-label", t("chat-name-label"));
  const save = el("button", { type: "button", className: "quiet", textContent: t("set-name") });
  save.addEventListener("click", () => {
    const name = input.value.trim();
    if (!name || name === localStorage.getItem("calltrump.name")) return;
    localStorage.setItem("calltrump.name", name);
    toast(t("chat-name-set", { name }));
    // The name goes with a new hello: until it is welcomed, chat lines wait.
    state.live = false;
    socket?.close();
  });
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); save.click(); } });
  $("chat-form").before(el("div", { className: "row watch-name" }, input, save));
}
connect();
findNight();
// Who is signed in: a seat kept for an account may be left before the game starts.
whoAmI().then((account) => {
  state.account = account;
  render();
});

render();
