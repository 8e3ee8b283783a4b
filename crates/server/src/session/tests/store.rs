//! A store that does not keep a write: nothing told is lost, the table pauses and resumes.

use super::*;

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
            kept: 0,
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
            kept: 0,
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
fn a_bots_step_the_store_does_not_keep_is_tried_again_after_a_pause() {
    let t0 = start();
    let (mut s, seat, version) = bot_to_play(t0);
    let action = s.table().game().legal_action_list()[0];
    let answer = || Input::BotAnswer {
        version,
        seat,
        action: Some(action),
        player: None,
        fallback: false,
    };
    let played = s.handle(answer(), t0);
    assert!(matches!(played[0], Effect::Persist(Persist::Step { .. })));
    let back = s.handle(
        Input::NotSaved {
            error: "disk full".into(),
            kept: 0,
        },
        t0,
    );
    assert_eq!(s.table().version(), version, "the step is taken back");
    // Nobody asked: nobody is told of the step; everyone is told the table pauses.
    // It tries again after a while.
    assert!(s.paused());
    let paused = |m: &&&ServerMessage| matches!(m, ServerMessage::Paused { .. });
    assert_eq!(sent(&back, 1).len(), 1);
    assert!(
        sent(&back, 1).iter().any(|m| paused(&m)),
        "{:?}",
        sent(&back, 1)
    );
    assert!(asked(&back).is_empty(), "not at once");
    assert_eq!(timers(&back), [(Timer::StoreRetry, STORE_RETRY)]);
    let retried = s.handle(
        Input::Timer {
            timer: Timer::StoreRetry,
            entropy: [0; 32],
        },
        t0 + STORE_RETRY,
    );
    assert_eq!(asked(&retried), [(seat, false)], "the bot is asked again");
    assert!(
        persists(&retried).is_empty(),
        "the bot's step is the next write"
    );
    // The step again, and `resumed` right after it: told only if the store keeps it.
    let again = s.handle(answer(), t0 + STORE_RETRY);
    assert!(matches!(again[0], Effect::Persist(Persist::Step { .. })));
    assert!(matches!(
        &again[1],
        Effect::Send {
            message: ServerMessage::Resumed,
            ..
        }
    ));
    assert!(!s.paused());
    // It fails as well: `resumed` never went out, so `paused` is not told again.
    let back = s.handle(
        Input::NotSaved {
            error: "disk full".into(),
            kept: 0,
        },
        t0 + STORE_RETRY,
    );
    assert!(sent(&back, 1).is_empty(), "told once: {:?}", sent(&back, 1));
    assert!(s.paused());
    // Had a write before it been kept (and `resumed` gone out), `paused` again.
    s.handle(answer(), t0 + STORE_RETRY);
    let back = s.handle(
        Input::NotSaved {
            error: "disk full".into(),
            kept: 1,
        },
        t0 + STORE_RETRY,
    );
    assert_eq!(sent(&back, 1).iter().filter(|m| paused(m)).count(), 1);
}

#[test]
fn a_paused_table_at_a_persons_turn_writes_its_seats_again_until_the_store_keeps_them() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    let act = first_legal(&s);
    say(&mut s, 1, act, t0);
    let error = Input::NotSaved {
        error: "disk full".into(),
        kept: 0,
    };
    s.handle(error, t0);
    assert!(s.paused());
    // A newcomer is told at once.
    let watcher = connect(&mut s, 5, None, t0);
    assert!(sent(&watcher, 5)
        .iter()
        .any(|m| matches!(m, ServerMessage::Paused { .. })));
    let retry = Input::Timer {
        timer: Timer::StoreRetry,
        entropy: [0; 32],
    };
    let retried = s.handle(retry, t0 + STORE_RETRY);
    assert!(asked(&retried).is_empty(), "the person's turn");
    let [Persist::Seats { status, seats }] = persists(&retried)[..] else {
        panic!("the seats written again")
    };
    assert_eq!((*status, &seats[..]), (s.status(), s.seats()));
    for conn in [1, 5] {
        assert_eq!(sent(&retried, conn), [&ServerMessage::Resumed]);
    }
    assert!(!s.paused());
}

#[test]
fn seats_and_status_the_store_does_not_keep_are_put_back() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    let host = ClientMessage::Hello {
        token: None,
        name: None,
        version: None,
        host: Some("host".into()),
        seat: None,
    };
    let base = "http://here".to_string();
    s.handle(
        Input::Connect {
            conn: 2,
            hello: host,
            base,
            account: None,
        },
        t0,
    );
    let not_saved = || Input::NotSaved {
        error: "disk full".into(),
        kept: 0,
    };

    // The host ends the table: status and seats are written first, nothing after them
    // is carried out if that fails, and the table is playing again, everyone still here.
    let ended = say(&mut s, 2, ClientMessage::End, t0);
    assert!(matches!(ended[0], Effect::Persist(Persist::Seats { .. })));
    let back = s.handle(not_saved(), t0);
    assert_eq!(s.status(), TableStatus::Playing);
    assert_eq!(errors(&back, 2), [ErrorCode::NotSaved]);
    assert!(!stops(&back));
    let version = s.table().version();
    let act = first_legal(&s);
    let again = say(&mut s, 1, act, t0);
    assert!(matches!(again[0], Effect::Persist(Persist::Step { .. })));
    assert!(s.table().version() > version, "seat 0 still plays");
    s.handle(not_saved(), t0);

    // The host gives seat 0 to a bot: not kept, so its person keeps it, with its token.
    let given = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: bot(),
    };
    let handed = say(&mut s, 2, given, t0);
    assert!(matches!(handed[0], Effect::Persist(Persist::Seats { .. })));
    s.handle(not_saved(), t0);
    assert_eq!(s.seats()[0].sitter, Sitter::Person);
    assert_eq!(s.seats()[0].token, "seat-0");
    // The table tries the seats again a while later; kept, everyone hears `resumed`.
    let retry = Input::Timer {
        timer: Timer::StoreRetry,
        entropy: [0; 32],
    };
    let retried = s.handle(retry, t0 + STORE_RETRY);
    assert!(matches!(persists(&retried)[..], [Persist::Seats { .. }]));
    for conn in [1, 2] {
        assert_eq!(sent(&retried, conn), [&ServerMessage::Resumed]);
    }
    let back = connect(&mut s, 3, Some("seat-0"), t0);
    assert!(errors(&back, 3).is_empty(), "the old link still seats");

    // A person taking a seat the store does not keep is closed, to come again.
    let mut open = table(
        &[Sitter::Open, Sitter::Open, bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    let took = connect(&mut open, 4, Some("seat-1"), t0);
    assert!(matches!(took[0], Effect::Persist(Persist::Seats { .. })));
    let back = open.handle(not_saved(), t0);
    assert_eq!(open.seats()[1].sitter, Sitter::Open);
    assert_eq!(errors(&back, 4), [ErrorCode::NotSaved]);
    assert!(back.iter().any(|e| matches!(
        e,
        Effect::Close {
            conn: 4,
            closing: Some(ServerMessage::Closing {
                kind: CloseKind::Retry,
                ..
            })
        }
    )));
}
