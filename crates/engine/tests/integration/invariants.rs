//! Invariants over thousands of seeded random games of every variant.

use crate::common;

use calltrump_engine::{
    AllPass, BidEuchreRules, BidEuchreVariant, GameRules, HandOutcome, JokerLead, KaiboshRules,
    Kout4Deck, KoutRules, KoutVariant, VariantKind,
};

fn rules_under_test() -> Vec<(&'static str, GameRules, u64)> {
    vec![
        (
            "kaibosh to 50, at most 40 deals",
            GameRules::Kaibosh(KaiboshRules {
                deals: Some(40),
                ..KaiboshRules::default()
            }),
            2000,
        ),
        (
            "kaibosh to 10, no deal limit",
            GameRules::Kaibosh(KaiboshRules {
                target: Some(10),
                ..KaiboshRules::default()
            }),
            300,
        ),
        (
            "kaibosh dealer-must-bid, 8 deals",
            GameRules::Kaibosh(KaiboshRules {
                all_pass: AllPass::DealerMustBid,
                target: None,
                deals: Some(8),
            }),
            300,
        ),
        (
            "kout6 standard",
            GameRules::Kout(KoutRules::default()),
            2000,
        ),
        (
            "kout4 standard",
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Four,
                ..KoutRules::default()
            }),
            2000,
        ),
        (
            "bid-euchre alexa, one set",
            GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa)),
            2000,
        ),
        (
            "bid-euchre simplified, two rounds",
            GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Simplified)),
            2000,
        ),
        (
            "bid-euchre alexa dealer-must-bid, 5 deals",
            GameRules::BidEuchre(BidEuchreRules {
                all_pass: AllPass::DealerMustBid,
                deals: 5,
                ..BidEuchreRules::new(BidEuchreVariant::Alexa)
            }),
            2000,
        ),
        (
            "kout6 contract-only",
            GameRules::Kout(KoutRules {
                joker_lead: JokerLead::ContractOnly,
                ..KoutRules::default()
            }),
            300,
        ),
        (
            "kout6 all-trumps-played",
            GameRules::Kout(KoutRules {
                joker_lead: JokerLead::AllTrumpsPlayed,
                ..KoutRules::default()
            }),
            300,
        ),
        (
            "kout4 trump-ace-played, two-undealt",
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Four,
                joker_lead: JokerLead::TrumpAcePlayed,
                deck: Kout4Deck::TwoUndealt,
            }),
            300,
        ),
        (
            "kout4 all-trumps-played, two-undealt",
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Four,
                joker_lead: JokerLead::AllTrumpsPlayed,
                deck: Kout4Deck::TwoUndealt,
            }),
            300,
        ),
        (
            "bid-euchre simplified dealer-must-bid, 3 rounds",
            GameRules::BidEuchre(BidEuchreRules {
                all_pass: AllPass::DealerMustBid,
                deals: 12,
                ..BidEuchreRules::new(BidEuchreVariant::Simplified)
            }),
            2000,
        ),
    ]
}

/// A variant added to the catalogue is played here and in every test of
/// `common::every_variant` before it ships: the lists are written by hand (some variants
/// with options other than their defaults), so this test holds them to the catalogue.
#[test]
fn every_variant_of_the_catalogue_is_under_test() {
    for variant in VariantKind::ALL {
        assert!(
            rules_under_test()
                .iter()
                .any(|(_, rules, _)| rules.kind() == variant),
            "{variant} is not in rules_under_test"
        );
        assert!(
            common::every_variant()
                .iter()
                .any(|(_, rules)| rules.kind() == variant),
            "{variant} is not in common::every_variant"
        );
    }
}

#[test]
fn random_games_keep_every_invariant() {
    for (name, rules, games) in rules_under_test() {
        let mut hands = 0;
        let mut played = 0;
        for seed in 0..games {
            let (record, game) = common::random_game(&rules, seed);
            common::check_record_round_trip(&record, &game);
            let (replay, _) = record.replay().unwrap();
            for hand in &replay.hands {
                hands += 1;
                if hand.outcome == HandOutcome::Played {
                    played += 1;
                    let tricks: u8 = hand.tricks.iter().sum();
                    assert!(
                        tricks > 0,
                        "{name} seed {seed}: a played hand with no tricks"
                    );
                }
            }
        }
        assert!(
            played > 0 && hands >= played,
            "{name}: {played} of {hands} hands played"
        );
    }
}

/// A game resumed at a start no real game reaches (what a bad observation may claim):
/// scores and deal counts at the ends of their types, a dealer that is no seat. Playing
/// the hand out at random never panics on an overflow, and the scores saturate.
#[test]
fn a_game_resumed_at_an_extreme_start_plays_its_hand_without_overflow() {
    use calltrump_engine::{seeded, AnyGame, Game, HandStart, Seat, Turn};
    use rand::Rng;
    for (name, rules, _) in rules_under_test() {
        for (deals_played, scores, dealer) in [
            (u32::MAX, [i32::MAX, i32::MIN], 0),
            (u32::MAX - 1, [i32::MIN, i32::MAX], 255),
            (0, [i32::MAX - 1, i32::MAX - 1], 3),
        ] {
            for seed in 0..20 {
                let mut rng = seeded(seed);
                let start = HandStart {
                    deals_played,
                    dealer: Seat(dealer),
                    scores,
                };
                let mut game = AnyGame::resume(&rules, start);
                if game.turn() != Turn::Chance {
                    continue;
                }
                game.deal_random(&mut rng);
                while let Turn::Seat(_) = game.turn() {
                    let legal = game.legal_action_list();
                    game.apply(legal[rng.random_range(0..legal.len())])
                        .unwrap_or_else(|e| panic!("{name}: a legal action refused: {e}"));
                }
                let _ = (game.hand_start(), game.hand_summary(), game.outcome());
                for (now, before) in game.scores().into_iter().zip(scores) {
                    let moved = i64::from(now) - i64::from(before);
                    assert!(moved.abs() <= 100, "{name}: {:?}", game.scores());
                }
            }
        }
    }
}
