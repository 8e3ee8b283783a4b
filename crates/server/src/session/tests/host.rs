//! The host's controls and a table's life: started, ended, left, retired.

use super::*;

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
    // Open again: the host gets the seat's link, a new one (each handing on makes one).
    let open = ClientMessage::SetSeat {
        seat: Seat(0),
        sitter: Sitter::Open,
    };
    let opened = say(&mut s, 9, open, t0);
    assert!(sent(&opened, 9).iter().any(|m| matches!(
        m,
        ServerMessage::Invite { seat: Seat(0), url, token }
            if token == "new-2" && url == "http://here/table/t1#token=new-2"
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
fn a_game_played_out_keeps_its_result_when_the_host_says_end() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Over,
        false,
        false,
    );
    connect(&mut s, 9, Some("host"), t0);
    let refused = say(&mut s, 9, ClientMessage::End, t0);
    assert_eq!(errors(&refused, 9), [ErrorCode::Status]);
    assert!(persists(&refused).is_empty() && !stops(&refused));
    assert_eq!(s.status(), TableStatus::Over);
}

#[test]
fn a_rated_game_under_way_cannot_be_ended_by_its_host() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Person, bot(), bot(), bot()],
        TableStatus::Playing,
        false,
        false,
    );
    s.rated = true;
    connect(&mut s, 9, Some("host"), t0);
    let refused = say(&mut s, 9, ClientMessage::End, t0);
    assert_eq!(errors(&refused, 9), [ErrorCode::Status]);
    assert!(persists(&refused).is_empty() && !stops(&refused));
    assert_eq!(s.status(), TableStatus::Playing);
    // Unrated, the same host ends it.
    s.rated = false;
    let ended = say(&mut s, 9, ClientMessage::End, t0);
    assert!(stops(&ended));
    assert_eq!(s.status(), TableStatus::Ended);
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

#[test]
fn an_account_is_invited_to_one_seat_of_a_table() {
    use crate::model::SignedIn;
    use crate::session::invite::{Invitation, InviteRefused};
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, Sitter::Open, Sitter::Open, bot()],
        TableStatus::Open,
        false,
        false,
    );
    let bob = SignedIn {
        id: "bob-id".into(),
        name: "Bob".into(),
    };
    let to = |seat: u8| Invitation {
        host_token: "host".into(),
        seat: Seat(seat),
        invitee: bob.clone(),
        by: "Ann".into(),
    };
    assert_eq!(s.invite_refusal(&to(1)), None);
    s.invite(to(1), t0);
    // The same seat again is no slip; another seat of the table is.
    assert_eq!(s.invite_refusal(&to(1)), None);
    let refused = s.invite_refusal(&to(2)).expect("a second seat refused");
    assert_eq!(
        refused,
        InviteRefused::Seat("Bob holds or is invited to seat 1 at this table already".into())
    );
    assert_eq!(s.seats[2].account, None, "nothing kept for seat 2");
}
