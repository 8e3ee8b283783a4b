//! The alexa night (RULINGS.md, Bid Euchre 9): tables, sit-out rotation, score sheets.

use calltrump_engine::night::{set_rules, set_table, SET_DEALS, SIT_OUT_POINTS};
use calltrump_engine::{
    seeded, AnyGame, BidEuchreRules, BidEuchreVariant, Game, GameRules, Night, NightError, Record,
    Seat, Turn,
};
use rand::Rng;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("p{i}")).collect()
}

/// The two partnerships of a table, each pair sorted, the pairs sorted.
fn partnerships(seats: [usize; 4]) -> [(usize, usize); 2] {
    let pair = |a: usize, b: usize| (a.min(b), a.max(b));
    let mut pairs = [pair(seats[0], seats[2]), pair(seats[1], seats[3])];
    pairs.sort();
    pairs
}

#[test]
fn four_players_rotate_the_three_partnerships() {
    let tables: Vec<_> = (0..9).map(|set| set_table(4, set)).collect();
    for table in &tables {
        assert!(table.sitting_out.is_empty());
        let mut seated = table.seats;
        seated.sort();
        assert_eq!(seated, [0, 1, 2, 3]);
    }
    let first_three: Vec<_> = tables[..3].iter().map(|t| partnerships(t.seats)).collect();
    assert!(
        first_three[0] != first_three[1]
            && first_three[1] != first_three[2]
            && first_three[0] != first_three[2],
        "three sets, three partnerships: {first_three:?}"
    );
    for set in 3..9 {
        assert_eq!(
            partnerships(tables[set].seats),
            partnerships(tables[set - 3].seats),
            "set {set} repeats the rotation"
        );
    }
}

#[test]
fn more_players_sit_out_in_turn_and_partners_change_every_set() {
    for players in 5..=9 {
        let mut sat_out = vec![0u32; players];
        let mut last_partner: Vec<Option<usize>> = vec![None; players];
        for set in 0..3 * players {
            let table = set_table(players, set);
            assert_eq!(table.sitting_out.len(), players - 4);
            let mut everyone: Vec<usize> = table
                .seats
                .iter()
                .chain(&table.sitting_out)
                .copied()
                .collect();
            everyone.sort();
            assert_eq!(
                everyone,
                (0..players).collect::<Vec<_>>(),
                "{players} players, set {set}"
            );
            for &p in &table.sitting_out {
                sat_out[p] += 1;
            }
            // No one sits out twice before everyone has sat out once (and so on).
            let (low, high) = (sat_out.iter().min().unwrap(), sat_out.iter().max().unwrap());
            assert!(high - low <= 1, "{players} players, set {set}: {sat_out:?}");
            for seat in 0..4 {
                let (player, partner) = (table.seats[seat], table.seats[(seat + 2) % 4]);
                assert_ne!(
                    last_partner[player],
                    Some(partner),
                    "{players} players, set {set}: p{player} keeps partner p{partner}"
                );
            }
            for (p, last) in last_partner.iter_mut().enumerate() {
                *last = table.seat_of(p).map(|s| table.seats[(s + 2) % 4]);
            }
        }
        // Every player sat out exactly three times in 3 * players sets.
        assert!(sat_out.iter().all(|&n| n as usize == 3 * (players - 4)));
    }
}

#[test]
fn the_sheet_adds_team_points_and_sit_out_points() {
    let mut night = Night::new(names(6), 4).unwrap();
    let results = [[10, -4], [24, 3], [-12, 8], [7, 7]];
    for (set, scores) in results.iter().enumerate() {
        night.record_set(set, *scores).unwrap();
    }
    let sheet = night.sheet();
    assert!(sheet.complete);
    assert_eq!(sheet.sets_recorded, 4);
    for (player, line) in sheet.players.iter().enumerate() {
        let mut expected = 0;
        for (set, scores) in results.iter().enumerate() {
            let table = night.table(set).unwrap();
            let points = match table.seat_of(player) {
                Some(seat) => scores[seat % 2],
                None => SIT_OUT_POINTS,
            };
            assert_eq!(line.rows[set].points, Some(points));
            expected += points;
        }
        assert_eq!(line.total, expected, "{}", line.name);
    }
    let best = sheet.players.iter().map(|p| p.total).max().unwrap();
    let leaders: Vec<String> = sheet
        .players
        .iter()
        .filter(|p| p.total == best)
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(sheet.winners, leaders);
    assert_eq!(sheet.shared, leaders.len() > 1);
    let json = serde_json::to_value(&sheet).unwrap();
    assert_eq!(json["players"].as_array().unwrap().len(), 6);
}

#[test]
fn a_tie_at_the_top_is_shared_and_an_unfinished_night_has_no_winner() {
    let mut night = Night::new(names(4), 1).unwrap();
    assert!(night.sheet().winners.is_empty());
    night.record_set(0, [5, 5]).unwrap();
    let sheet = night.sheet();
    assert_eq!(sheet.winners.len(), 4);
    assert!(sheet.shared);
    assert_eq!(
        night.record_set(0, [1, 1]),
        Err(NightError::AlreadyRecorded(0))
    );
}

#[test]
fn bad_nights_are_refused() {
    assert_eq!(Night::new(names(3), 2), Err(NightError::TooFewPlayers(3)));
    assert_eq!(
        Night::new(vec!["a".into(), "b".into(), "c".into(), "a".into()], 2),
        Err(NightError::DuplicateName("a".into()))
    );
    assert_eq!(Night::new(names(4), 0), Err(NightError::NoSets));
    let night = Night::new(names(5), 2).unwrap();
    assert_eq!(
        night.table(2),
        Err(NightError::NoSuchSet { set: 2, sets: 2 })
    );
}

#[test]
fn a_set_is_recorded_from_the_replay_of_its_finished_game() {
    assert_eq!(set_rules(), BidEuchreRules::new(BidEuchreVariant::Alexa));
    assert_eq!(set_rules().deals, SET_DEALS);
    let rules = GameRules::BidEuchre(set_rules());
    let mut night = Night::new(names(5), 1).unwrap();
    let mut game = AnyGame::new(&rules, Seat(0));
    let mut record = Record::new(&rules, Seat(0));
    let mut rng = seeded(11);
    loop {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                game.deal_random(&mut rng);
                let deal: Vec<_> = (0..4).map(|s| game.observation(Seat(s)).dealt).collect();
                record.push_deal(&deal);
            }
            Turn::Seat(_) => {
                let legal = game.legal_action_list();
                let action = legal[rng.random_range(0..legal.len())];
                game.apply(action).unwrap();
                record.push_action(action);
                if record.hands.len() == 1 && record.hands[0].actions.len() == 4 {
                    let (partial, _) = record.replay().unwrap();
                    assert_eq!(
                        night.record_replay(0, &partial),
                        Err(NightError::Unfinished(0))
                    );
                }
            }
        }
    }
    let (replay, _) = record.replay().unwrap();
    night.record_replay(0, &replay).unwrap();
    let sheet = night.sheet();
    let table = night.table(0).unwrap();
    for seat in 0..4 {
        let player = table.seats[seat];
        assert_eq!(sheet.players[player].total, replay.scores[seat % 2]);
    }
    assert_eq!(sheet.players[table.sitting_out[0]].total, SIT_OUT_POINTS);
}
