//! Turns without a person: hints, the cut, a bot that fails.

use super::*;

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

#[test]
fn a_person_who_sits_at_the_cutters_seat_before_the_quick_cut_gets_time_to_cut() {
    let t0 = start();
    let (mut s, dealt) = committed_deal(false, t0);
    let version = s.table().version();
    assert_eq!(timers(&dealt), [(Timer::Cut { version }, DELAY)]);
    for conn in 0..4 {
        connect(&mut s, conn, Some(&format!("seat-{conn}")), t0);
    }
    let fired = s.handle(
        Input::Timer {
            timer: Timer::Cut { version },
            entropy: [1; 32],
        },
        t0 + DELAY,
    );
    assert!(
        persists(&fired).is_empty(),
        "no cut while the person is given time"
    );
    assert!(s.table().cutter().is_some());
    assert_eq!(
        timers(&fired),
        [(Timer::Cut { version }, config().cut_wait)]
    );
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
fn bots_alone_play_while_someone_watches_and_stop_when_the_last_one_leaves() {
    let t0 = start();
    let mut s = table(
        &[bot(), bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    // A spectator comes: the game starts and the first bot is asked.
    let started = connect(&mut s, 5, None, t0);
    let [(deal, _)] = timers(&started)[..] else {
        panic!("a deal is due: {:?}", timers(&started))
    };
    let timer = Input::Timer {
        timer: deal,
        entropy: [0; 32],
    };
    let dealt = s.handle(timer, t0);
    assert_eq!(asked(&dealt).len(), 1);
    // The spectator leaves while the bot thinks: its answer is played, and no other
    // bot is asked.
    s.handle(Input::Disconnect { conn: 5 }, t0);
    let version = s.table().version();
    let after = drive(&mut s, dealt, t0);
    assert_eq!(s.table().version(), version + 1);
    assert!(asked(&after).is_empty(), "{:?}", asked(&after));
    // Someone watches again: the bots play on.
    let back = connect(&mut s, 6, None, t0);
    assert_eq!(asked(&back).len(), 1);
}
