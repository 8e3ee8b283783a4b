//! The turn clock and the cut's wait, counted by the server.

use std::time::Duration;

use calltrump_engine::{Seat, Turn};

use super::*;
use crate::model::TurnClock;

const CLOCK: Duration = Duration::from_secs(20);

/// The `clock` messages sent to `to`: seat, milliseconds left, whether for a cut.
fn clocks(effects: &[Effect], to: u64) -> Vec<(Option<Seat>, u64, bool)> {
    sent(effects, to)
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::Clock { seat, ms, cut, .. } => Some((*seat, *ms, *cut)),
            _ => None,
        })
        .collect()
}

/// A game on a 20 s clock whose bot is `random`, a person at seat 0 (connection 1),
/// bots elsewhere, played until the person's turn; with the effects of getting there.
fn clocked_person_to_play(t0: Instant) -> (Session, Vec<Effect>) {
    let sitters = [Sitter::Open, bot(), bot(), bot()];
    let mut s = table(&sitters, TableStatus::Open, false, false);
    s.turn_clock = Some(TurnClock {
        seconds: CLOCK.as_secs() as u32,
        level: "random".into(),
    });
    s.handle(Input::Resume, t0);
    let effects = connect(&mut s, 1, Some("seat-0"), t0);
    let rest = drive(&mut s, effects, t0);
    assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
    (s, rest)
}

#[test]
fn a_persons_clock_is_kept_with_the_step_and_told_by_the_servers_time() {
    let t0 = start();
    let (mut s, effects) = clocked_person_to_play(t0);
    let version = s.table().version();
    let due = WALL * 1000 + CLOCK.as_millis() as i64;
    // The step that made it the person's turn keeps the deadline with the seats.
    let kept = persists(&effects)
        .into_iter()
        .filter_map(|p| match p {
            Persist::Step {
                table: Some((_, seats)),
                ..
            } => Some(seats[0].deadline_ms),
            _ => None,
        })
        .next_back();
    assert_eq!(kept, Some(Some(due)));
    let clock = Timer::Clock {
        version,
        seat: Seat(0),
    };
    assert!(timers(&effects).contains(&(clock, CLOCK)));
    assert_eq!(
        clocks(&effects, 1).last(),
        Some(&(Some(Seat(0)), CLOCK.as_millis() as u64, false))
    );
    // The page opened again 12 s later hears what is left, not a fresh clock.
    s.handle(Input::Disconnect { conn: 1 }, t0 + Duration::from_secs(12));
    let back = connect(&mut s, 2, Some("seat-0"), t0 + Duration::from_secs(12));
    assert_eq!(clocks(&back, 2), [(Some(Seat(0)), 8_000, false)]);
}

#[test]
fn when_the_clock_runs_out_a_bot_makes_that_one_decision_and_everyone_is_told() {
    let t0 = start();
    let (mut s, _) = clocked_person_to_play(t0);
    let version = s.table().version();
    let clock = Timer::Clock {
        version,
        seat: Seat(0),
    };
    let fire = |s: &mut Session, at| {
        s.handle(
            Input::Timer {
                timer: clock,
                entropy: [0; 32],
            },
            at,
        )
    };
    // Fired before the deadline (a timer of an earlier deadline): nothing happens.
    assert!(asked(&fire(&mut s, t0 + CLOCK - Duration::from_secs(1))).is_empty());
    let t1 = t0 + CLOCK;
    let ran_out = fire(&mut s, t1);
    assert_eq!(asked(&ran_out), [(Seat(0), false)]);
    assert_eq!(clocks(&ran_out, 1), [(None, 0, false)], "the clock stops");
    let rest = drive(&mut s, ran_out, t1);
    assert!(s.table().version() > version, "the bot decided");
    let told: Vec<_> = sent(&rest, 1)
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::TimeUp { seat, level } => Some((*seat, level.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(told, [(Seat(0), "random".to_string())]);
    // One decision only: the seat is still the person's, whose next turn has a whole
    // clock from the moment it came.
    let record = &s.seats()[0];
    assert_eq!((&record.sitter, record.stand_in), (&Sitter::Person, false));
    assert_eq!(s.table().turn(), Turn::Seat(Seat(0)));
    assert_eq!(
        record.deadline_ms,
        Some(WALL * 1000 + (CLOCK * 2).as_millis() as i64)
    );
    // The person acting before the bot answers wins: the bot's late answer is dropped.
    let version = s.table().version();
    {
        let t2 = t1 + CLOCK;
        let again = s.handle(
            Input::Timer {
                timer: Timer::Clock {
                    version,
                    seat: Seat(0),
                },
                entropy: [0; 32],
            },
            t2,
        );
        assert_eq!(asked(&again), [(Seat(0), false)]);
        let act = first_legal(&s);
        say(&mut s, 1, act, t2);
        let acted = s.table().version();
        let late = drive(&mut s, again, t2);
        assert!(!sent(&late, 1)
            .iter()
            .any(|m| matches!(m, ServerMessage::TimeUp { .. })));
        assert!(s.table().version() >= acted);
    }
}

#[test]
fn a_restart_gives_the_person_what_was_left_of_the_clock_not_a_fresh_one() {
    let t0 = start();
    let (s, _) = clocked_person_to_play(t0);
    let stored = again_stored(&s);
    // The server comes back 15 s later by the wall clock (its own moments start anew).
    let t1 = t0 + Duration::from_secs(600);
    let log = s.table().log().to_vec();
    let mut again = Session::restore(
        stored,
        &log,
        Vec::new(),
        config(),
        (t1, (WALL + 15) * 1000),
        Box::new(|| "new".into()),
    )
    .unwrap();
    let resumed = again.handle(Input::Resume, t1);
    let clock = Timer::Clock {
        version: s.table().version(),
        seat: Seat(0),
    };
    assert!(timers(&resumed).contains(&(clock, Duration::from_secs(5))));
    // Past its deadline, it runs out at once.
    let late = Session::restore(
        again_stored(&s),
        &log,
        Vec::new(),
        config(),
        (t1, (WALL + 60) * 1000),
        Box::new(|| "new".into()),
    );
    let resumed = late.unwrap().handle(Input::Resume, t1);
    assert!(timers(&resumed).contains(&(clock, Duration::ZERO)));
}

fn again_stored(s: &Session) -> StoredTable {
    StoredTable {
        id: "t1".into(),
        settings: s.table().settings().clone(),
        hints: false,
        unattended: false,
        turn_clock: s.turn_clock.clone(),
        rated: false,
        night: None,
        deal_rng: s.initial_rng.clone(),
        seats: s.seats().to_vec(),
        host_token: "host".into(),
        status: TableStatus::Playing,
        created_at: 0,
    }
}

#[test]
fn a_person_who_must_cut_hears_what_is_left_of_the_wait_on_coming_back() {
    let t0 = start();
    let (mut s, dealt) = committed_deal(true, t0);
    let wait = config().cut_wait;
    let cutter = s.table().cutter().unwrap();
    let conn = u64::from(cutter.0);
    assert_eq!(
        clocks(&dealt, conn),
        [(Some(cutter), wait.as_millis() as u64, true)]
    );
    s.handle(Input::Disconnect { conn }, t0 + Duration::from_secs(4));
    let back = connect(
        &mut s,
        9,
        Some(&format!("seat-{}", cutter.0)),
        t0 + Duration::from_secs(4),
    );
    assert_eq!(
        clocks(&back, 9),
        [(
            Some(cutter),
            (wait - Duration::from_secs(4)).as_millis() as u64,
            true
        )]
    );
}
