//! The session driven input by input with a clock the test moves: no socket, no store,
//! no sleep.

use std::time::{Duration, Instant};

use calltrump_engine::{seeded, Game, GameRules, Seat, Turn, Viewer};
use calltrump_table::{Budget, Event, Request, Settings};

use super::{Effect, HubConfig, Input, Persist, Session, Stored, Timer, TimerKey, FILL_LEVEL};
use crate::model::{SeatRecord, Sitter, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};

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
        })
        .collect();
    let stored = Stored {
        id: "t1".into(),
        settings,
        hints,
        deal_rng: seeded(7),
        seats,
        host_token: "host".into(),
        status,
    };
    let session = Session::restore(stored, &[], Vec::new(), config(), start(), WALL).unwrap();
    assert_eq!(session.table().seats(), sitters.len());
    session
}

fn hello(token: Option<&str>) -> ClientMessage {
    ClientMessage::Hello {
        token: token.map(str::to_string),
        name: None,
        version: None,
        host: None,
    }
}

fn connect(s: &mut Session, conn: u64, token: Option<&str>, now: Instant) -> Vec<Effect> {
    let input = Input::Connect {
        conn,
        hello: hello(token),
        base: "http://here".into(),
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
        action: s.table().game().legal_action_list()[0].to_string(),
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

#[test]
fn a_person_away_past_the_grace_gets_a_bot_and_has_the_seat_back() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    let t1 = t0 + Duration::from_secs(1);
    let left = s.handle(Input::Disconnect { conn: 1 }, t1);
    let grace = Timer::Grace {
        seat: Seat(0),
        since: t1,
    };
    assert_eq!(timers(&left), [(grace, GRACE)]);
    assert!(asked(&left).is_empty(), "no bot before the grace runs out");
    let seat = &s.summary(t1 + Duration::from_secs(10)).seats[0];
    assert_eq!(seat.grace_ms, Some(20_000));
    assert!(!seat.bot_standing_in);

    // A grace timer of an earlier absence does nothing.
    let stale = Timer::Grace {
        seat: Seat(0),
        since: t0,
    };
    let nothing = s.handle(
        Input::Timer {
            timer: stale,
            entropy: [0; 32],
        },
        t1 + GRACE,
    );
    assert!(nothing.is_empty());

    let over = s.handle(
        Input::Timer {
            timer: grace,
            entropy: [0; 32],
        },
        t1 + GRACE,
    );
    assert_eq!(
        asked(&over),
        [(Seat(0), false)],
        "a bot plays the person's turn"
    );
    assert!(s.summary(t1 + GRACE).seats[0].bot_standing_in);
    let Some(Effect::AskBot { version, .. }) = over
        .into_iter()
        .find(|e| matches!(e, Effect::AskBot { .. }))
    else {
        unreachable!()
    };

    // The person is back before the bot answered: the seat is theirs again and the
    // bot's answer is dropped.
    let t2 = t1 + GRACE + Duration::from_secs(1);
    let back = connect(&mut s, 2, Some("seat-0"), t2);
    assert!(back
        .iter()
        .any(|e| matches!(e, Effect::CancelTimer(TimerKey::Grace(Seat(0))))));
    let seat = &s.summary(t2).seats[0];
    assert!(!seat.bot_standing_in && seat.connected && seat.grace_ms.is_none());
    let action = s.table().game().legal_action_list()[0];
    let late = s.handle(
        Input::BotAnswer {
            version,
            seat: Seat(0),
            action: Some(action),
            player: None,
            fallback: false,
        },
        t2,
    );
    assert!(persists(&late).is_empty());
    assert_eq!(s.table().version(), version);
    assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
}

#[test]
fn a_person_back_within_the_grace_gets_no_bot() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    s.handle(Input::Disconnect { conn: 1 }, t0);
    let back = connect(&mut s, 2, Some("seat-0"), t0 + GRACE / 2);
    assert!(back
        .iter()
        .any(|e| matches!(e, Effect::CancelTimer(TimerKey::Grace(Seat(0))))));
    let grace = Timer::Grace {
        seat: Seat(0),
        since: t0,
    };
    // Were the cancelled timer to fire all the same, it would find the person back.
    let fired = s.handle(
        Input::Timer {
            timer: grace,
            entropy: [0; 32],
        },
        t0 + GRACE,
    );
    assert!(fired.is_empty());
    assert!(!s.summary(t0 + GRACE).seats[0].bot_standing_in);
}

#[test]
fn undo_is_for_seated_people_at_tables_that_allow_it() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    connect(&mut s, 5, None, t0);
    assert_eq!(
        errors(&say(&mut s, 5, ClientMessage::Undo, t0), 5),
        [ErrorCode::NotSeated]
    );
    let act = first_legal(&s);
    let acted = say(&mut s, 1, act, t0);
    drive(&mut s, acted, t0);
    let refused = say(&mut s, 1, ClientMessage::Undo, t0);
    assert_eq!(errors(&refused, 1), [ErrorCode::Illegal]);
    assert!(persists(&refused).is_empty());

    let mut s = person_to_play(true, false, t0);
    let before = s.table().version();
    let act = first_legal(&s);
    let acted = say(&mut s, 1, act, t0);
    assert_eq!(persists(&acted).len(), 1);
    let [(next, false)] = asked(&acted)[..] else {
        panic!("a bot is asked next")
    };
    assert_ne!(next, Seat(0));
    let undone = say(&mut s, 1, ClientMessage::Undo, t0);
    let [Persist::Step {
        entries,
        table: None,
    }] = persists(&undone)[..]
    else {
        panic!("one step kept")
    };
    assert!(matches!(
        entries[..],
        [calltrump_table::Entry {
            event: Event::Undone {
                seat: Seat(0),
                actions: 1
            },
            ..
        }]
    ));
    assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
    assert_eq!(s.table().version(), before + 2);
}

#[test]
fn only_the_host_starts_ends_and_gives_seats() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, Sitter::Open, bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    connect(&mut s, 1, Some("seat-0"), t0);
    let host = connect(&mut s, 9, Some("host"), t0);
    assert!(matches!(
        sent(&host, 9)[0],
        ServerMessage::Welcome {
            host: true,
            seat: None,
            ..
        }
    ));
    for message in [
        ClientMessage::Start,
        ClientMessage::End,
        ClientMessage::SetSeat {
            seat: Seat(1),
            sitter: bot(),
        },
    ] {
        let refused = say(&mut s, 1, message, t0);
        assert_eq!(errors(&refused, 1), [ErrorCode::NotHost]);
        assert!(persists(&refused).is_empty());
    }
    let no_seat = ClientMessage::SetSeat {
        seat: Seat(7),
        sitter: bot(),
    };
    assert_eq!(
        errors(&say(&mut s, 9, no_seat, t0), 9),
        [ErrorCode::BadSeat]
    );
    let person = ClientMessage::SetSeat {
        seat: Seat(1),
        sitter: Sitter::Person,
    };
    assert_eq!(errors(&say(&mut s, 9, person, t0), 9), [ErrorCode::BadSeat]);

    // Seat 0 to a bot: its person is closed out with `seat_gone`.
    let to_bot = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: bot(),
    };
    let given = say(&mut s, 9, to_bot, t0);
    assert!(given.iter().any(|e| matches!(
        e,
        Effect::Close {
            conn: 1,
            closing: Some(ServerMessage::Closing {
                kind: CloseKind::SeatGone,
                ..
            })
        }
    )));
    assert!(matches!(
        persists(&given)[..],
        [Persist::Seats { seats, .. }] if seats[0].sitter == bot()
    ));
    // Open again: the host gets the seat's link.
    let open = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: Sitter::Open,
    };
    let opened = say(&mut s, 9, open, t0);
    assert!(sent(&opened, 9).iter().any(|m| matches!(
        m,
        ServerMessage::Invite { seat: Seat(0), url, token }
            if token == "seat-0" && url == "http://here/table/t1#token=seat-0"
    )));

    let started = say(&mut s, 9, ClientMessage::Start, t0);
    assert_eq!(s.status(), TableStatus::Playing);
    let [Persist::Seats { status, seats }] = persists(&started)[..] else {
        panic!("the start is kept")
    };
    assert_eq!(*status, TableStatus::Playing);
    assert_eq!(seats[1].sitter, Sitter::Bot(FILL_LEVEL.into()));
    assert_eq!(
        errors(&say(&mut s, 9, ClientMessage::Start, t0), 9),
        [ErrorCode::Status]
    );

    let ended = say(&mut s, 9, ClientMessage::End, t0);
    assert!(matches!(
        persists(&ended)[..],
        [Persist::Seats {
            status: TableStatus::Ended,
            ..
        }]
    ));
    assert!(ended.iter().any(|e| matches!(
        e,
        Effect::Close {
            conn: 9,
            closing: Some(ServerMessage::Closing {
                kind: CloseKind::TableGone,
                ..
            })
        }
    )));
    assert!(stops(&ended));
}

#[test]
fn a_hint_is_worked_out_once_and_sent_to_the_seat_on_its_turn() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    assert_eq!(
        errors(&say(&mut s, 1, ClientMessage::Hint, t0), 1),
        [ErrorCode::NoHint]
    );

    let mut s = person_to_play(false, true, t0);
    connect(&mut s, 5, None, t0);
    assert_eq!(
        errors(&say(&mut s, 5, ClientMessage::Hint, t0), 5),
        [ErrorCode::NotSeated]
    );
    let jobs = |effects: &[Effect]| {
        effects
            .iter()
            .filter(|e| matches!(e, Effect::ComputeHint(_)))
            .count()
    };
    assert_eq!(jobs(&say(&mut s, 1, ClientMessage::Hint, t0)), 1);
    assert_eq!(
        jobs(&say(&mut s, 1, ClientMessage::Hint, t0)),
        0,
        "already under way"
    );
    let version = s.table().version();
    let failed = s.handle(
        Input::HintReady {
            seat: Seat(0),
            version,
            message: None,
        },
        t0,
    );
    assert_eq!(errors(&failed, 1), [ErrorCode::NoHint]);

    assert_eq!(
        jobs(&say(&mut s, 1, ClientMessage::Hint, t0)),
        1,
        "asked again"
    );
    let hint = ServerMessage::Hint {
        version,
        actions: Vec::new(),
        deals: 0,
        unweighed: 0,
        explanation: None,
        readings: Vec::new(),
    };
    let ready = Input::HintReady {
        seat: Seat(0),
        version,
        message: Some(Box::new(hint.clone())),
    };
    assert_eq!(sent(&s.handle(ready, t0), 1), [&hint]);
    let cached = say(&mut s, 1, ClientMessage::Hint, t0);
    assert_eq!((jobs(&cached), sent(&cached, 1)), (0, vec![&hint]));

    let act = first_legal(&s);
    say(&mut s, 1, act, t0);
    assert_eq!(
        errors(&say(&mut s, 1, ClientMessage::Hint, t0), 1),
        [ErrorCode::NoHint]
    );
}

#[test]
fn a_finished_table_nobody_visits_leaves_memory() {
    let t0 = start();
    let mut s = table(
        &[bot(), bot(), bot(), bot()],
        TableStatus::Over,
        false,
        false,
    );
    let keep = config().keep_over;
    assert_eq!(
        timers(&s.handle(Input::Resume, t0)),
        [(Timer::Retire { epoch: 0 }, keep)]
    );
    let came = connect(&mut s, 1, None, t0);
    assert!(came
        .iter()
        .any(|e| matches!(e, Effect::CancelTimer(TimerKey::Retire))));
    let left = s.handle(Input::Disconnect { conn: 1 }, t0);
    assert_eq!(timers(&left), [(Timer::Retire { epoch: 1 }, keep)]);
    let stale = Input::Timer {
        timer: Timer::Retire { epoch: 0 },
        entropy: [0; 32],
    };
    assert!(!stops(&s.handle(stale, t0 + keep)), "someone came since");
    let due = Input::Timer {
        timer: Timer::Retire { epoch: 1 },
        entropy: [0; 32],
    };
    let retired = s.handle(due, t0 + keep);
    assert!(stops(&retired) && persists(&retired).is_empty());
    assert_eq!(s.status(), TableStatus::Over);
}

#[test]
fn a_table_nobody_comes_to_is_ended() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    let wait = config().abandon_open;
    let [(timer, after)] = timers(&s.handle(Input::Resume, t0))[..] else {
        panic!("one timer")
    };
    assert_eq!(after, wait);
    let ended = s.handle(
        Input::Timer {
            timer,
            entropy: [0; 32],
        },
        t0 + wait,
    );
    assert!(matches!(
        persists(&ended)[..],
        [Persist::Seats {
            status: TableStatus::Ended,
            ..
        }]
    ));
    assert!(stops(&ended));
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

#[test]
fn a_person_here_who_must_cut_is_given_time_then_the_server_cuts() {
    let t0 = start();
    let (mut s, dealt) = committed_deal(true, t0);
    let version = s.table().version();
    let wait = config().cut_wait;
    assert_eq!(timers(&dealt), [(Timer::Cut { version }, wait)]);
    let old = Timer::Cut {
        version: version - 1,
    };
    let early = s.handle(
        Input::Timer {
            timer: old,
            entropy: [1; 32],
        },
        t0,
    );
    assert!(
        early.is_empty(),
        "a cut timer of an old version does nothing"
    );
    assert!(s.table().cutter().is_some());
    let cut = Timer::Cut { version };
    let fired = s.handle(
        Input::Timer {
            timer: cut,
            entropy: [1; 32],
        },
        t0 + wait,
    );
    assert_eq!(persists(&fired).len(), 1);
    assert_eq!(s.table().cutter(), None, "the server cut for the person");
    assert!(matches!(s.table().turn(), Turn::Seat(_)));
}

#[test]
fn the_cut_does_not_wait_for_a_person_away() {
    let (s, dealt) = committed_deal(false, start());
    let version = s.table().version();
    assert_eq!(timers(&dealt), [(Timer::Cut { version }, DELAY)]);
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

#[test]
fn a_bot_that_fails_is_replaced_for_its_turn_by_a_fallback() {
    let t0 = start();
    let (mut s, seat, version) = bot_to_play(t0);
    let failed = Input::BotAnswer {
        version,
        seat,
        action: None,
        player: None,
        fallback: false,
    };
    let fallback = s.handle(failed, t0);
    assert_eq!(asked(&fallback), [(seat, true)]);
    assert!(persists(&fallback).is_empty());
    // The fallback bot's own decision is played.
    let played = drive(&mut s, fallback, t0);
    assert!(s.table().version() > version, "the table went on");
    assert!(!persists(&played).is_empty());

    // A bot's action the table refuses is a failure too.
    let (mut s, seat, version) = bot_to_play(t0);
    let refused: calltrump_engine::Action = "play AS".parse().unwrap();
    assert!(!s.table().game().legal_action_list().contains(&refused));
    let illegal = Input::BotAnswer {
        version,
        seat,
        action: Some(refused),
        player: None,
        fallback: false,
    };
    let fallback = s.handle(illegal, t0);
    assert_eq!(asked(&fallback), [(seat, true)]);
    assert_eq!(
        s.table().version(),
        version,
        "the refused action changed nothing"
    );
}

#[test]
fn a_step_the_store_does_not_keep_is_taken_back_and_its_player_told() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    let (version, turn) = (s.table().version(), s.table().turn());
    let act = first_legal(&s);
    let acted = say(&mut s, 1, act, t0);
    assert!(
        matches!(acted[0], Effect::Persist(Persist::Step { .. })),
        "kept first"
    );
    assert!(s.table().version() > version);
    let back = s.handle(
        Input::NotSaved {
            error: "disk full".into(),
        },
        t0,
    );
    assert_eq!(errors(&back, 1), [ErrorCode::NotSaved]);
    assert_eq!((s.table().version(), s.table().turn()), (version, turn));
    assert!(asked(&back).is_empty(), "the person's turn again");

    // A chat line not kept is not in the history a newcomer gets.
    let said = say(
        &mut s,
        1,
        ClientMessage::Chat {
            text: "hello".into(),
        },
        t0,
    );
    assert!(matches!(said[0], Effect::Persist(Persist::Chat { .. })));
    let back = s.handle(
        Input::NotSaved {
            error: "disk full".into(),
        },
        t0,
    );
    assert_eq!(errors(&back, 1), [ErrorCode::NotSaved]);
    let newcomer = connect(&mut s, 7, None, t0);
    assert!(!sent(&newcomer, 7)
        .iter()
        .any(|m| matches!(m, ServerMessage::Chat(_))));
}

#[test]
fn chat_lines_are_paced_by_the_clock_given() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    connect(&mut s, 1, None, t0);
    let line = |text: &str| ClientMessage::Chat { text: text.into() };
    let first = say(&mut s, 1, line("one"), t0);
    let [Persist::Chat { line: kept, .. }] = persists(&first)[..] else {
        panic!("the line is kept")
    };
    assert_eq!(
        (kept.seq, kept.at, kept.sender.as_str()),
        (1, WALL, "watching")
    );
    let soon = say(&mut s, 1, line("two"), t0 + Duration::from_millis(100));
    assert_eq!(errors(&soon, 1), [ErrorCode::Chat]);
    assert!(persists(&soon).is_empty());
    let later = say(&mut s, 1, line("three"), t0 + Duration::from_secs(5));
    let [Persist::Chat { line: kept, .. }] = persists(&later)[..] else {
        panic!("the line is kept")
    };
    assert_eq!((kept.seq, kept.at), (2, WALL + 5));
}

#[test]
fn a_table_of_bots_starts_nothing_before_anyone_comes() {
    let t0 = start();
    let mut s = table(
        &[bot(), bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    let resumed = s.handle(Input::Resume, t0);
    let abandon = config().abandon_open;
    assert_eq!(timers(&resumed), [(Timer::Retire { epoch: 0 }, abandon)]);
    assert!(asked(&resumed).is_empty() && persists(&resumed).is_empty());
    let came = connect(&mut s, 1, None, t0);
    assert_eq!(
        s.status(),
        TableStatus::Playing,
        "the first connection starts it"
    );
    assert!(matches!(timers(&came)[..], [(Timer::Deal { .. }, DELAY)]));
}

#[test]
fn a_table_watched_is_not_closed_and_its_wait_starts_when_it_is_left() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    let abandon = config().abandon_open;
    s.handle(Input::Resume, t0);
    connect(&mut s, 1, None, t0);
    let first = Input::Timer {
        timer: Timer::Retire { epoch: 0 },
        entropy: [0; 32],
    };
    let watched = s.handle(first, t0 + abandon);
    assert!(watched.is_empty(), "closed while watched");
    let t1 = t0 + abandon + Duration::from_secs(1);
    let left = s.handle(Input::Disconnect { conn: 1 }, t1);
    assert_eq!(timers(&left), [(Timer::Retire { epoch: 1 }, abandon)]);
    let due = Input::Timer {
        timer: Timer::Retire { epoch: 1 },
        entropy: [0; 32],
    };
    assert!(stops(&s.handle(due, t1 + abandon)));
    assert_eq!(s.status(), TableStatus::Ended);
}
