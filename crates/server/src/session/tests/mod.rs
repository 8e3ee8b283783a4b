//! The session driven input by input with a clock the test moves: no socket, no store,
//! no sleep.

use std::time::{Duration, Instant};

use calltrump_engine::{seeded, Game, GameRules, Seat, Turn, Viewer};
use calltrump_table::{Budget, Event, Request, Settings};

use super::{Effect, HubConfig, Input, Persist, Session, Timer, TimerKey, FILL_LEVEL, STORE_RETRY};
use crate::model::{SeatRecord, Sitter, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};
use crate::store::StoredTable;

mod chat;
mod clock;
mod host;
mod seating;
mod store;
mod turns;

const GRACE: Duration = Duration::from_secs(30);
const DELAY: Duration = Duration::from_millis(100);
const WALL: i64 = 1_700_000_000;

/// The moment every test's clock starts from (sessions take its wall time as [`WALL`]).
fn start() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(Instant::now)
}

fn config() -> HubConfig {
    HubConfig {
        seed: Some(1),
        ..HubConfig::new(DELAY, GRACE)
    }
}

fn bot() -> Sitter {
    Sitter::Bot("random".into())
}

/// A kaibosh table (four seats, seat 0 deals first) with these sitters, whose seat `i`
/// has the token `seat-i` and whose host's is `host`.
fn table(sitters: &[Sitter], status: TableStatus, undo: bool, hints: bool) -> Session {
    let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
    let settings = Settings {
        rules,
        first_dealer: Seat(0),
        humans: sitters.iter().map(|s| s.bot_level().is_none()).collect(),
        undo,
        committed: None,
        cut_side: None,
    };
    committed_table(settings, sitters, status, hints)
}

fn committed_table(
    settings: Settings,
    sitters: &[Sitter],
    status: TableStatus,
    hints: bool,
) -> Session {
    let seats = sitters
        .iter()
        .enumerate()
        .map(|(i, sitter)| SeatRecord {
            token: format!("seat-{i}"),
            name: None,
            sitter: sitter.clone(),
            stand_in: false,
            account: None,
            deadline_ms: None,
            former: Vec::new(),
            invited_by: None,
        })
        .collect();
    let stored = StoredTable {
        id: "t1".into(),
        settings,
        hints,
        unattended: false,
        turn_clock: None,
        rated: false,
        night: None,
        deal_rng: seeded(7),
        seats,
        host_token: "host".into(),
        status,
        created_at: 0,
    };
    let mut issued = 0;
    let tokens = Box::new(move || {
        issued += 1;
        format!("new-{issued}")
    });
    let session = Session::restore(
        stored,
        &[],
        Vec::new(),
        config(),
        (start(), WALL * 1000),
        tokens,
    )
    .unwrap();
    assert_eq!(session.table().seats(), sitters.len());
    session
}

fn hello(token: Option<&str>) -> ClientMessage {
    ClientMessage::Hello {
        token: token.map(str::to_string),
        name: None,
        version: None,
        host: None,
        seat: None,
    }
}

fn connect(s: &mut Session, conn: u64, token: Option<&str>, now: Instant) -> Vec<Effect> {
    let input = Input::Connect {
        conn,
        hello: hello(token),
        base: "http://here".into(),
        account: None,
    };
    s.handle(input, now)
}

fn say(s: &mut Session, conn: u64, message: ClientMessage, now: Instant) -> Vec<Effect> {
    s.handle(Input::Message { conn, message }, now)
}

fn sent(effects: &[Effect], to: u64) -> Vec<&ServerMessage> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send { conn, message } if *conn == to => Some(message),
            _ => None,
        })
        .collect()
}

/// The codes of the errors sent to `to`.
fn errors(effects: &[Effect], to: u64) -> Vec<ErrorCode> {
    sent(effects, to)
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .collect()
}

fn timers(effects: &[Effect]) -> Vec<(Timer, Duration)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::StartTimer { timer, after } => Some((*timer, *after)),
            _ => None,
        })
        .collect()
}

fn persists(effects: &[Effect]) -> Vec<&Persist> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Persist(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// The seats bots are asked for, and whether each is a fallback.
fn asked(effects: &[Effect]) -> Vec<(Seat, bool)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::AskBot { seat, fallback, .. } => Some((*seat, *fallback)),
            _ => None,
        })
        .collect()
}

fn stops(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Stop))
}

/// The first action the seat to play may take, as `act` of a client.
fn first_legal(s: &Session) -> ClientMessage {
    ClientMessage::Act {
        version: s.table().version(),
        action: s.table().game().legal_action_list()[0],
    }
}

/// Plays whatever comes next without a person, at `now`: deals and cuts fire at once,
/// bots answer with their own decision. What else the session asked is returned.
fn drive(s: &mut Session, effects: Vec<Effect>, now: Instant) -> Vec<Effect> {
    let mut queue = effects;
    let mut rest = Vec::new();
    for _ in 0..500 {
        let Some(position) = queue.iter().position(|e| {
            matches!(
                e,
                Effect::AskBot { .. }
                    | Effect::StartTimer {
                        timer: Timer::Deal { .. } | Timer::Cut { .. },
                        ..
                    }
            )
        }) else {
            rest.append(&mut queue);
            return rest;
        };
        let mut tail = queue.split_off(position);
        rest.append(&mut queue);
        let input = match tail.remove(0) {
            Effect::StartTimer { timer, .. } => Input::Timer {
                timer,
                entropy: [9; 32],
            },
            Effect::AskBot {
                seat,
                version,
                mut player,
                game,
                fallback,
                ..
            } => {
                let observation = game.observation(seat);
                let view = game.view(Viewer::Seat(seat));
                let legal = game.legal_action_list();
                let request = Request {
                    rules: game.rules(),
                    observation: &observation,
                    view: &view,
                    legal: &legal,
                    deal: 0,
                };
                let action = player.decide(&request, &Budget::unlimited()).ok();
                Input::BotAnswer {
                    version,
                    seat,
                    action,
                    player: Some(player),
                    fallback,
                }
            }
            _ => unreachable!(),
        };
        queue = s.handle(input, now);
        queue.append(&mut tail);
    }
    panic!("the table kept going without a person");
}

/// A game under way, a person at seat 0 (connection 1), bots elsewhere; played until it
/// is the person's turn.
fn person_to_play(undo: bool, hints: bool, t0: Instant) -> Session {
    let sitters = [Sitter::Open, bot(), bot(), bot()];
    let mut s = table(&sitters, TableStatus::Open, undo, hints);
    s.handle(Input::Resume, t0);
    let effects = connect(&mut s, 1, Some("seat-0"), t0);
    assert_eq!(
        s.status(),
        TableStatus::Playing,
        "the last person's seat taken starts"
    );
    drive(&mut s, effects, t0);
    assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
    s
}

/// A game of committed deals, every seat a person's, about to deal; connections 0-3
/// at seats 0-3 if `here`, else nobody.
fn committed_deal(here: bool, t0: Instant) -> (Session, Vec<Effect>) {
    let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
    let settings = Settings {
        committed: Some("t1".into()),
        ..Settings::new(rules, Seat(0), &[Seat(0), Seat(1), Seat(2), Seat(3)])
    };
    let mut s = committed_table(
        settings,
        &vec![Sitter::Person; 4],
        TableStatus::Playing,
        false,
    );
    let resumed = s.handle(Input::Resume, t0);
    let deal = Timer::Deal {
        version: s.table().version(),
    };
    assert!(timers(&resumed).contains(&(deal, DELAY)));
    for conn in (0..4).filter(|_| here) {
        connect(&mut s, conn, Some(&format!("seat-{conn}")), t0);
    }
    let dealt = s.handle(
        Input::Timer {
            timer: deal,
            entropy: [3; 32],
        },
        t0,
    );
    assert_eq!(persists(&dealt).len(), 1, "the deal's seed is committed");
    assert!(s.table().cutter().is_some(), "the deck waits for its cut");
    (s, dealt)
}

/// The turn of the first bot asked once the game of [`person_to_play`] is dealt: the
/// session, the bot's seat and version.
fn bot_to_play(t0: Instant) -> (Session, Seat, u64) {
    let sitters = [Sitter::Open, bot(), bot(), bot()];
    let mut s = table(&sitters, TableStatus::Open, false, false);
    let started = connect(&mut s, 1, Some("seat-0"), t0);
    let [(deal, _)] = timers(&started)[..] else {
        panic!("a deal is due")
    };
    let dealt = s.handle(
        Input::Timer {
            timer: deal,
            entropy: [0; 32],
        },
        t0,
    );
    let [(seat, false)] = asked(&dealt)[..] else {
        panic!("a bot is asked")
    };
    let version = s.table().version();
    (s, seat, version)
}

/// The `invite` the host (connection 9) received: its token.
fn invited(effects: &[Effect]) -> String {
    sent(effects, 9)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::Invite { token, .. } => Some(token.clone()),
            _ => None,
        })
        .expect("the host is sent the seat's link")
}

/// Whether `effects` close connection `conn` with `kind`.
fn closes(effects: &[Effect], conn: u64, kind: CloseKind) -> bool {
    effects.iter().any(|e| {
        matches!(e, Effect::Close { conn: c, closing: Some(ServerMessage::Closing { kind: k, .. }) }
            if *c == conn && *k == kind)
    })
}
