//! Who sits where: the grace before a bot stands in, seats handed on.

use super::*;

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
fn a_bot_standing_in_is_kept_and_a_restart_gives_no_fresh_grace() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    s.handle(Input::Disconnect { conn: 1 }, t0);
    let grace = Timer::Grace {
        seat: Seat(0),
        since: t0,
    };
    let over = s.handle(
        Input::Timer {
            timer: grace,
            entropy: [0; 32],
        },
        t0 + GRACE,
    );
    let kept = persists(&over).into_iter().any(|p| {
        matches!(p, Persist::Seats { seats, .. } if seats[0].stand_in && seats[0].sitter == Sitter::Person)
    });
    assert!(kept, "the bot standing in is persisted");

    // The server restarts (the bot asked before it never answered): the table is
    // restored from what the store keeps.
    let stored = StoredTable {
        id: "t1".into(),
        settings: s.table().settings().clone(),
        hints: false,
        unattended: false,
        turn_clock: None,
        rated: false,
        night: None,
        deal_rng: seeded(7),
        seats: s.seats().to_vec(),
        host_token: "host".into(),
        status: s.status(),
        created_at: 0,
    };
    let tokens = Box::new(|| "fresh".to_string());
    let t1 = t0 + GRACE + Duration::from_secs(5);
    let mut restored = Session::restore(
        stored,
        s.table().log(),
        Vec::new(),
        config(),
        (t1, WALL * 1000),
        tokens,
    )
    .unwrap();
    assert_eq!(restored.table().turn(), Turn::Seat(Seat(0)));
    let resumed = restored.handle(Input::Resume, t1);
    assert!(
        !timers(&resumed)
            .iter()
            .any(|(timer, _)| matches!(timer, Timer::Grace { .. })),
        "no fresh grace"
    );
    assert_eq!(asked(&resumed), [(Seat(0), false)], "the bot plays at once");
    let seat = &restored.summary(t1).seats[0];
    assert!(seat.bot_standing_in && seat.grace_ms.is_none());

    // The person back: the seat is theirs and that, too, is kept.
    let back = connect(&mut restored, 2, Some("seat-0"), t1);
    let mine = persists(&back)
        .into_iter()
        .any(|p| matches!(p, Persist::Seats { seats, .. } if !seats[0].stand_in));
    assert!(mine, "the seat is the person's again");
    assert!(!restored.summary(t1).seats[0].bot_standing_in);
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
        rated: None,
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
fn a_seat_handed_on_has_a_new_link_and_the_old_one_seats_no_one() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, Sitter::Open, bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    connect(&mut s, 1, Some("seat-0"), t0);
    connect(&mut s, 9, Some("host"), t0);
    let to_bot = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: bot(),
    };
    let given = say(&mut s, 9, to_bot, t0);
    assert!(closes(&given, 1, CloseKind::SeatGone));
    let [Persist::Seats { seats, .. }] = persists(&given)[..] else {
        panic!("the seats are kept")
    };
    assert_eq!(seats[0].token, "new-1", "a new token is kept with the seat");
    // The kicked player's link is refused, saying why.
    let back = connect(&mut s, 2, Some("seat-0"), t0);
    assert_eq!(errors(&back, 2), [ErrorCode::BadToken]);
    assert!(
        sent(&back, 2)
            .iter()
            .any(|m| matches!(m, ServerMessage::Error { message, .. }
            if message.contains("no longer seat 0's"))),
        "the refusal says the seat was handed on"
    );
    assert!(closes(&back, 2, CloseKind::SeatGone));
    // The host is told someone tried the old link, and who sits there now; nobody else is.
    assert_eq!(
        sent(&back, 9),
        [&ServerMessage::LinkRefused {
            seat: Seat(0),
            sitter: bot()
        }]
    );
    assert!(back.iter().all(|e| !matches!(e,
        Effect::Send { conn, message: ServerMessage::LinkRefused { .. } } if *conn != 9)));

    // Opened again for a person: a link neither the first nor the bot's.
    let open = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: Sitter::Open,
    };
    let token = invited(&say(&mut s, 9, open.clone(), t0));
    assert_eq!(token, "new-2");
    for (conn, old) in [(3, "seat-0"), (4, "new-1")] {
        let refused = connect(&mut s, conn, Some(old), t0);
        assert_eq!(errors(&refused, conn), [ErrorCode::BadToken], "{old}");
    }
    let taken = connect(&mut s, 5, Some(&token), t0);
    assert!(matches!(
        sent(&taken, 5)[0],
        ServerMessage::Welcome {
            seat: Some(Seat(0)),
            ..
        }
    ));
    // Opened for someone else while its person is here: the person is closed out, and
    // the link they came with is dead too.
    let reopened = say(&mut s, 9, open, t0);
    assert!(closes(&reopened, 5, CloseKind::SeatGone));
    assert_eq!(invited(&reopened), "new-3");
    assert_eq!(
        errors(&connect(&mut s, 6, Some(&token), t0), 6),
        [ErrorCode::BadToken]
    );
}

#[test]
fn a_seat_opened_during_a_hand_opens_when_the_hand_ends() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    connect(&mut s, 9, Some("host"), t0);
    let dealt = s.table().deals();
    let open = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: Sitter::Open,
    };
    // Asked mid-hand: remembered and shown, nothing handed on yet.
    let asked = say(&mut s, 9, open, t0);
    assert!(
        !closes(&asked, 1, CloseKind::SeatGone),
        "the person plays on"
    );
    assert!(persists(&asked).is_empty());
    assert!(!sent(&asked, 9)
        .iter()
        .any(|m| matches!(m, ServerMessage::Invite { .. })));
    assert!(s.summary(t0).seats[0].opens_after_hand);
    assert!(sent(&asked, 1).iter().any(|m| matches!(m,
        ServerMessage::Seats { seats } if seats[0].opens_after_hand)));
    // The person plays the hand out; once it is over the seat opens, before the deal.
    let mut after = Vec::new();
    while after.is_empty() {
        assert_eq!(s.table().deals(), dealt, "still the hand it was asked in");
        assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
        let act = first_legal(&s);
        let acted = say(&mut s, 1, act, t0);
        let effects = drive(&mut s, acted, t0);
        if closes(&effects, 1, CloseKind::SeatGone) {
            after = effects;
        }
    }
    let token = invited(&after);
    assert!(s.table().deals() > dealt, "the next hand was dealt after");
    assert!(!s.summary(t0).seats[0].opens_after_hand);
    let Some(Persist::Seats { seats, .. }) = persists(&after)
        .into_iter()
        .find(|p| matches!(p, Persist::Seats { .. }))
    else {
        panic!("the opened seat is kept")
    };
    assert_eq!(
        (&seats[0].sitter, seats[0].token.as_str()),
        (&Sitter::Open, token.as_str())
    );
    // The old link seats no one; the new one sees the new hand only.
    assert_eq!(
        errors(&connect(&mut s, 2, Some("seat-0"), t0), 2),
        [ErrorCode::BadToken]
    );
    let joined = connect(&mut s, 3, Some(&token), t0);
    assert!(sent(&joined, 3).iter().any(|m| matches!(m,
        ServerMessage::Snapshot(snapshot) if snapshot.view.deals_played as usize >= dealt)));
}

#[test]
fn a_bot_takes_a_seat_at_once_and_cancels_an_opening_asked_in_the_hand() {
    let t0 = start();
    let mut s = person_to_play(false, false, t0);
    connect(&mut s, 9, Some("host"), t0);
    let open = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: Sitter::Open,
    };
    say(&mut s, 9, open, t0);
    let to_bot = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: bot(),
    };
    let given = say(&mut s, 9, to_bot, t0);
    assert!(closes(&given, 1, CloseKind::SeatGone));
    assert!(!s.summary(t0).seats[0].opens_after_hand);
    assert_eq!(s.seats()[0].sitter, bot());
}

#[test]
fn seats_are_sent_to_everyone_only_when_a_seat_changes() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, Sitter::Open, bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    let seats_sent = |effects: &[Effect], to: u64| {
        sent(effects, to)
            .iter()
            .filter(|m| matches!(m, ServerMessage::Seats { .. }))
            .count()
    };
    connect(&mut s, 1, None, t0);
    // Another spectator comes: it gets the seats, the first hears nothing.
    let came = connect(&mut s, 2, None, t0);
    assert_eq!(seats_sent(&came, 2), 1);
    assert!(sent(&came, 1).is_empty());
    let went = s.handle(Input::Disconnect { conn: 2 }, t0);
    assert!(sent(&went, 1).is_empty());
    // A person takes a seat, and leaves it: everyone is told each time.
    let seated = connect(&mut s, 3, Some("seat-0"), t0);
    assert_eq!(seats_sent(&seated, 1), 1);
    let left = s.handle(Input::Disconnect { conn: 3 }, t0);
    assert_eq!(seats_sent(&left, 1), 1);
}
