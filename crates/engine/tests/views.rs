//! The per-seat [`View`] over seeded random games of every variant: it agrees with the
//! game, and it never holds a card its viewer may not know.

mod common;

use calltrump_engine::{
    Action, AnyGame, BidEuchreRules, BidEuchreVariant, Contract, Declared, Game, GameRules,
    HandOutcome, Phase, Seat, SeenAction, Strain, Turn, View, Viewer,
};
use common::redaction::assert_only_known;

fn variants() -> Vec<GameRules> {
    common::every_variant()
        .into_iter()
        .map(|(_, rules)| rules)
        .collect()
}

fn check_view(game: &AnyGame, viewer: Viewer, seed: u64) {
    let view = game.view(viewer);
    let context = format!("seed {seed}, {viewer:?}, {:?}", view.phase);

    // Only cards the viewer may know, wherever they appear.
    assert_only_known(&view, game, viewer, &context);

    // The same state as the game.
    let summary = game.hand_summary();
    assert_eq!(view.turn, game.turn(), "{context}");
    assert_eq!(view.dealer, summary.dealer, "{context}");
    assert_eq!(view.trump, summary.trump, "{context}");
    assert_eq!(view.tricks, summary.tricks, "{context}");
    assert_eq!(view.scores, game.scores(), "{context}");
    assert_eq!(view.sitting_out, game.sitting_out(), "{context}");
    let by_team = view
        .tricks_by_seat
        .iter()
        .enumerate()
        .fold([0, 0], |mut t, (s, n)| {
            t[Seat(s as u8).team().index()] += n;
            t
        });
    assert_eq!(by_team, view.tricks, "{context}: tricks by seat");
    for s in 0..game.seats() {
        let seat = Seat(s as u8);
        let held = if view.phase == Phase::Dealing {
            0
        } else {
            game.observation(seat).hand.len()
        };
        assert_eq!(
            usize::from(view.hand_sizes[s]),
            held,
            "{context}: hand size of {seat}"
        );
    }
    match viewer {
        Viewer::Seat(seat) => {
            assert_eq!(view.hand, Some(game.observation(seat).hand), "{context}");
            if game.turn() == Turn::Seat(seat) {
                assert_eq!(view.legal, game.legal_action_list().to_vec(), "{context}");
            } else {
                assert!(view.legal.is_empty(), "{context}");
            }
        }
        Viewer::Spectator => {
            assert_eq!(view.hand, None, "{context}");
            assert!(view.legal.is_empty(), "{context}");
        }
    }

    // The trick on the table: whoever is winning it takes it, and leads the next one.
    if let Some(trick) = &view.trick {
        if let Some((leader, _)) = trick.cards.first() {
            assert_eq!(*leader, trick.leader, "{context}");
            assert!(trick.winning.is_some(), "{context}");
        }
        if let Turn::Seat(to_act) = game.turn() {
            if trick.cards.is_empty() {
                assert_eq!(trick.leader, to_act, "{context}: the leader acts");
            }
        }
    }
    if let (Some(last), Some(trick), Phase::Play) = (&view.last_trick, &view.trick, view.phase) {
        assert_eq!(
            last.winning,
            Some(trick.leader),
            "{context}: the winner leads"
        );
    }
    if view.phase == Phase::HandOver && summary.outcome == HandOutcome::Played {
        assert_eq!(
            view.trick, view.last_trick,
            "{context}: the last trick stays"
        );
    }
}

#[test]
fn views_agree_with_the_game_and_hold_only_known_cards() {
    for rules in variants() {
        for seed in 0..60 {
            let game = AnyGame::new(&rules, Seat(0));
            let seats = game.seats();
            check_view(&game, Viewer::Spectator, seed);
            common::random_game_watched(&rules, seed, |game| {
                check_view(game, Viewer::Spectator, seed);
                for s in 0..seats {
                    check_view(game, Viewer::Seat(Seat(s as u8)), seed);
                }
            });
        }
    }
}

#[test]
fn a_view_round_trips_through_json() {
    let rules = GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa));
    common::random_game_watched(&rules, 3, |game| {
        let view = game.view(Viewer::Seat(Seat(1)));
        let text = serde_json::to_string(&view).unwrap();
        let back: View = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(back, view);
    });
}

/// What an observation declares, read back from its own actions the long way: the last
/// call that is not a pass won the auction, the trump action (or the bid's strain) named
/// trump, and a kaibosh or a loner sent the bidder's partner out.
fn declared_by_actions(actions: &[(Seat, SeenAction)]) -> Declared {
    let mut declared = Declared::default();
    let mut high = None;
    for &(seat, seen) in actions {
        match seen {
            SeenAction::Open(Action::Trump(suit)) => declared.trump = Some(Strain::Suit(suit)),
            SeenAction::Open(action) if action.is_call() && action != Action::Pass => {
                high = Some((seat, action))
            }
            _ => {}
        }
    }
    let Some((declarer, bid)) = high else {
        return declared;
    };
    let alone = matches!(bid, Action::Kaibosh | Action::Loner(..));
    if let Action::BidStrain(_, strain) | Action::Loner(_, strain) = bid {
        declared.trump = Some(strain);
    }
    declared.sitting_out = alone.then(|| declarer.partner4());
    declared.contract = Some(Contract {
        declarer,
        bid,
        alone,
    });
    declared
}

#[test]
fn every_observation_declares_what_its_actions_settle() {
    for rules in variants() {
        for seed in 0..40 {
            common::random_game_watched(&rules, seed, |game| {
                let playing = matches!(
                    game.phase(),
                    Phase::TrumpNaming | Phase::Exchange | Phase::Play
                );
                for s in 0..game.seats() {
                    let observation = game.observation(Seat(s as u8));
                    let context = format!("{rules:?} seed {seed} seat {s}");
                    if playing && game.hand_summary().outcome == HandOutcome::InProgress {
                        let expected = declared_by_actions(&observation.actions);
                        assert_eq!(observation.declared, expected, "{context}");
                    }
                    // The view shows exactly what the observation declares.
                    let view = game.view(Viewer::Seat(Seat(s as u8)));
                    assert_eq!(view.contract, observation.declared.contract, "{context}");
                    assert_eq!(view.trump, observation.declared.trump, "{context}");
                    assert_eq!(
                        view.sitting_out, observation.declared.sitting_out,
                        "{context}"
                    );
                }
            });
        }
    }
}
