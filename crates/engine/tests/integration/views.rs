//! The per-seat [`View`] over seeded random games of every variant: it agrees with the
//! game, and it never holds a card its viewer may not know.

use crate::common;

use calltrump_engine::{
    Action, AnyGame, BidEuchreRules, BidEuchreVariant, Card, CardBag, CardOrder, Contract,
    Declared, Game, GameRules, HandOutcome, Phase, Seat, SeenAction, Strain, Suit, Turn, View,
    Viewer,
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

/// Fails unless `sorted` holds the cards of `hand` as the game ranks them: trumps first,
/// each suit together (the left bower and jokers with trump), each from its highest card
/// by the game's own card order (before trump is named, jokers come first).
fn assert_shown_in_order(game: &AnyGame, hand: CardBag, sorted: &[Card], context: &str) {
    let mut back = CardBag::EMPTY;
    for &card in sorted {
        back.insert(card);
    }
    assert_eq!(back, hand, "{context}: the sorted hand is the hand");
    let trump = game.observation(Seat(0)).declared.trump_suit();
    let order = match (game, trump) {
        (AnyGame::Kout(..), Some(trump)) => Some(CardOrder::kout(trump)),
        (AnyGame::Kout(..), None) => None,
        _ => Some(CardOrder::euchre(trump)),
    };
    // (suit, strength): a joker with no trump named is in no suit, and above every card.
    let rank = |card: Card| match order {
        Some(order) => (Some(order.suit_of(card)), order.strength(card)),
        None => (card.suit(), card.rank()),
    };
    let mut seen_suits: Vec<Option<Suit>> = Vec::new();
    for pair in sorted.windows(2) {
        let ((suit_a, high_a), (suit_b, high_b)) = (rank(pair[0]), rank(pair[1]));
        if suit_a == suit_b {
            assert!(
                high_a >= high_b,
                "{context}: {sorted:?} not from the highest"
            );
        } else {
            seen_suits.push(suit_a);
            assert!(
                !seen_suits.contains(&suit_b),
                "{context}: {sorted:?} splits a suit"
            );
        }
    }
    if let Some(first) = sorted.first() {
        let holds_trump = sorted
            .iter()
            .any(|&c| rank(c).0.is_some() && rank(c).0 == trump);
        if holds_trump {
            assert_eq!(
                rank(*first).0,
                trump,
                "{context}: {sorted:?} not trumps first"
            );
        }
        if order.is_none() && sorted.iter().any(|c| c.is_joker()) {
            assert!(first.is_joker(), "{context}: {sorted:?} not jokers first");
        }
    }
}

#[test]
fn display_facts_follow_the_game_and_hold_nothing_hidden() {
    for (name, rules) in common::every_variant() {
        let names = rules.kind().game().call_names();
        let mut malzoms = 0;
        for seed in 0..40 {
            common::random_game_watched(&rules, seed, |game| {
                let spectator = game.view(Viewer::Spectator);
                let context = format!("{name} seed {seed} {:?}", spectator.phase);
                assert_eq!(spectator.sorted_hand, None, "{context}");
                // Malzom is the dealer's forced 5, the contract of a dealer who bid 5.
                let dealer_bid_5 = spectator
                    .contract
                    .is_some_and(|c| c.declarer == spectator.dealer && c.bid == Action::Bid(5));
                assert_eq!(
                    spectator.malzom,
                    matches!(game, AnyGame::Kout(..)) && dealer_bid_5,
                    "{context}"
                );
                malzoms += usize::from(spectator.malzom);
                for s in 0..game.seats() {
                    let viewer = Viewer::Seat(Seat(s as u8));
                    let view = game.view(viewer);
                    let context = format!("{context} seat {s}");
                    let sorted = view.sorted_hand.as_deref().expect("a seat sees its hand");
                    assert_shown_in_order(
                        game,
                        game.observation(Seat(s as u8)).hand,
                        sorted,
                        &context,
                    );
                    // What every seat knows alike, each seat is told alike.
                    assert_eq!(view.malzom, spectator.malzom, "{context}");
                    assert_eq!(view.call_names, spectator.call_names, "{context}");
                    let new_fields = (&view.sorted_hand, view.malzom, &view.call_names);
                    assert_only_known(&new_fields, game, viewer, &context);
                }
                let listed: Vec<(Action, &str)> = spectator
                    .call_names
                    .iter()
                    .map(|(a, n)| (*a, n.as_str()))
                    .collect();
                assert_eq!(listed, names, "{context}");
            });
        }
        if matches!(rules, GameRules::Kout(_)) {
            assert!(malzoms > 0, "{name}: no Malzom in 40 games");
        }
    }
}

#[test]
fn kout_bo_names_its_bids_as_its_rules_do() {
    let names = calltrump_engine::GameKind::Kout.call_names();
    assert_eq!(
        names,
        [
            (Action::Bid(5), "Bab"),
            (Action::Bid(6), "Six"),
            (Action::Bid(7), "Seven"),
            (Action::Bid(8), "Eight"),
            (Action::Bid(9), "Bawan")
        ]
    );
    for game in [
        calltrump_engine::GameKind::Kaibosh,
        calltrump_engine::GameKind::BidEuchre,
    ] {
        assert!(game.call_names().is_empty(), "{game}");
    }
}
