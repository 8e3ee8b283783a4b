//! Bid Euchre, rule by rule: `rules/bid-euchre-alexa.txt`, `rules/bid-euchre-simplified.txt`
//! and the Bid Euchre rulings of RULINGS.md, for both variants, defaults and options.

use crate::common;

use calltrump_engine::bid_euchre::{highest_trumps, Variant, DECK};
use calltrump_engine::{
    seeded, stream, Action, AllPass, BidEuchre, BidEuchreRules, Broken, CardBag, DealError, Game,
    GameRules, HandOutcome, Observation, Outcome, Record, Seat, SeenAction, Suit, Team, Turn,
};
use common::{bag, card, seat_to_act};
use rand::Rng;
use serde_json::{json, Map, Value};

const BOTH: [Variant; 2] = [Variant::Alexa, Variant::Simplified];

fn act(text: &str) -> Action {
    text.parse().unwrap()
}

/// Each seat holds one suit: spades, hearts, diamonds, clubs.
const SUITS: [&str; 4] = [
    "JS JS QS QS KS KS AS AS",
    "JH JH QH QH KH KH AH AH",
    "JD JD QD QD KD KD AD AD",
    "JC JC QC QC KC KC AC AC",
];

fn rules(variant: Variant) -> BidEuchreRules {
    BidEuchreRules::new(variant)
}

/// A game under `rules` dealt `deal` by `dealer`.
fn dealt(rules: BidEuchreRules, dealer: u8, deal: [&str; 4]) -> BidEuchre {
    let mut game = BidEuchre::new(&rules, Seat(dealer));
    game.deal(&deal.map(bag)).unwrap();
    game
}

/// Applies each action, which must be legal and listed as legal.
fn play(game: &mut BidEuchre, actions: &[&str]) {
    common::apply_all(game, actions);
}

/// SUITS dealt by seat 0 under `rules`, after `actions`.
fn suits_after(rules: BidEuchreRules, actions: &[&str]) -> BidEuchre {
    let mut game = dealt(rules, 0, SUITS);
    play(&mut game, actions);
    game
}

/// The rule the action breaks, checking the game stays as it was.
fn refused(game: &BidEuchre, text: &str) -> Broken {
    common::refused(game, text).broken
}

// Ruling 1: the deck and the deal.

#[test]
fn the_deck_is_j_q_k_a_twice_in_each_suit_eight_cards_each() {
    assert_eq!(DECK.len(), 16);
    for variant in BOTH {
        let mut game = BidEuchre::new(&rules(variant), Seat(0));
        game.deal_random(&mut seeded(7));
        let mut all = CardBag::EMPTY;
        for s in 0..4 {
            let hand = game.hand(Seat(s));
            assert_eq!(hand.len(), 8);
            for c in hand.iter() {
                assert!(DECK.contains(c));
                assert!(all.insert(c));
            }
        }
        assert_eq!(all.doubles(), DECK, "every face is dealt twice");
    }
}

#[test]
fn deals_with_a_third_copy_a_foreign_card_or_a_wrong_size_are_refused() {
    let mut game = BidEuchre::new(&rules(Variant::Alexa), Seat(0));
    let mut hands = SUITS.map(bag);
    hands[1].remove(card("JH"));
    hands[1].insert(card("JS"));
    assert_eq!(game.deal(&hands), Err(DealError::TooMany(card("JS"))));
    let mut hands = SUITS.map(bag);
    hands[2].remove(card("QD"));
    hands[2].insert(card("9D"));
    assert_eq!(game.deal(&hands), Err(DealError::NotInDeck(card("9D"))));
    let mut hands = SUITS.map(bag);
    hands[3].remove(card("QC"));
    assert!(matches!(
        game.deal(&hands),
        Err(DealError::HandSize {
            seat: Seat(3),
            expected: 8,
            found: 7
        })
    ));
    assert!(matches!(
        game.deal(&hands[..3]),
        Err(DealError::SeatCount { .. })
    ));
    assert_eq!(game.turn(), Turn::Chance, "a refused deal deals nothing");
}

// Ruling 2: the auction.

#[test]
fn every_player_bids_once_from_the_dealers_left_to_the_dealer() {
    for variant in BOTH {
        for dealer in 0..4u8 {
            let mut game = dealt(rules(variant), dealer, SUITS);
            for i in 1..=4u8 {
                assert_eq!(seat_to_act(&game), Seat((dealer + i) % 4));
                play(&mut game, &["pass"]);
            }
            assert_eq!(game.turn(), Turn::Chance, "four passes end the auction");
        }
    }
}

#[test]
fn a_bid_is_a_level_one_to_eight_with_a_strain_above_the_current_level() {
    for variant in BOTH {
        let mut game = dealt(rules(variant), 0, SUITS);
        assert_eq!(
            refused(&game, "bid 9 H"),
            Broken::BidOutOfRange { low: 1, high: 8 }
        );
        assert_eq!(
            refused(&game, "bid 0 NT"),
            Broken::BidOutOfRange { low: 1, high: 8 }
        );
        play(&mut game, &["bid 1 NT"]);
        // Strains are unranked: no strain beats another at the same level.
        for strain in ["S", "H", "D", "C", "NT"] {
            assert_eq!(
                refused(&game, &format!("bid 1 {strain}")),
                Broken::BidTooLow {
                    high: act("bid 1 NT")
                }
            );
        }
        play(&mut game, &["bid 2 S", "pass"]);
        assert_eq!(
            refused(&game, "bid 2 NT"),
            Broken::BidTooLow {
                high: act("bid 2 S")
            },
            "the dealer may not match a low level bid"
        );
        play(&mut game, &["bid 8 C"]);
        assert_eq!(game.declarer(), Some(Seat(0)));
        assert_eq!(game.contract(), Some(act("bid 8 C")));
    }
}

#[test]
fn the_kaibosh_calls_are_not_part_of_bid_euchre() {
    let game = dealt(rules(Variant::Alexa), 0, SUITS);
    for text in ["bid 3", "kaibosh", "misdeal", "trump H"] {
        assert_eq!(refused(&game, text), Broken::NotInGame, "{text}");
    }
    assert!(matches!(refused(&game, "play JH"), Broken::NotNow { .. }));
}

// Ruling 3: the loner bids.

#[test]
fn loners_rank_above_every_level_in_the_order_call2_call1_moon() {
    for variant in BOTH {
        let mut game = suits_after(rules(variant), &["bid 8 NT", "call2 H"]);
        assert_eq!(
            refused(&game, "bid 8 S"),
            Broken::BidTooLow {
                high: act("call2 H")
            }
        );
        assert!(matches!(
            refused(&game, "call2 S"),
            Broken::BidTooLow { .. }
        ));
        assert!(game.is_legal(act("call1 S")));
        play(&mut game, &["call1 D"]);
        // The dealer may match call1 but not bid call2 below it.
        assert!(matches!(refused(&game, "call2 C"), Broken::BidBelow { .. }));
        assert!(game.is_legal(act("call1 C")));
        play(&mut game, &["moon C"]);
        assert_eq!(game.contract(), Some(act("moon C")));
        assert_eq!(game.declarer(), Some(Seat(0)));
    }
}

#[test]
fn a_loner_partner_sits_out_and_the_declarer_leads_three_card_tricks() {
    for variant in BOTH {
        let mut game = suits_after(rules(variant), &["moon NT", "pass", "pass", "pass"]);
        assert_eq!(game.out(), Some(Seat(3)));
        assert_eq!(
            seat_to_act(&game),
            Seat(1),
            "moon: no exchange, the declarer leads"
        );
        play(&mut game, &["play AH", "play AD"]);
        assert_eq!(seat_to_act(&game), Seat(0), "the partner's turn is skipped");
        play(&mut game, &["play AS"]);
        assert_eq!(seat_to_act(&game), Seat(1), "three cards make a trick");
        assert_eq!(game.hand_summary().tricks, [0, 1]);
        assert_eq!(
            game.hand(Seat(3)),
            bag(SUITS[3]),
            "the partner plays no card"
        );
    }
}

#[test]
fn call2_and_call1_exchange_two_and_one_cards_then_play_starts() {
    for variant in BOTH {
        for (call, n) in [("call2 C", 2), ("call1 C", 1)] {
            let mut game = suits_after(rules(variant), &[call, "pass", "pass", "pass"]);
            assert_eq!(seat_to_act(&game), Seat(3), "the partner gives");
            let give = if n == 2 { "give JC JC" } else { "give JC" };
            play(&mut game, &[give]);
            assert_eq!(seat_to_act(&game), Seat(1), "the declarer discards");
            assert_eq!(game.hand(Seat(1)).len(), 8 + n);
            assert_eq!(game.hand(Seat(3)).len(), 8 - n);
            // Any card of the enlarged hand, those just received included.
            let discard = if n == 2 {
                "discard JC AH"
            } else {
                "discard JC"
            };
            assert!(game.is_legal(act(discard)));
            let wrong = if n == 2 {
                "discard AH"
            } else {
                "discard AH KH"
            };
            assert_eq!(
                refused(&game, wrong),
                Broken::CardCount {
                    verb: "discard",
                    expected: n as u8
                }
            );
            assert_eq!(refused(&game, "discard QD"), {
                if n == 2 {
                    Broken::CardCount {
                        verb: "discard",
                        expected: 2,
                    }
                } else {
                    Broken::NotHeld(card("QD"))
                }
            });
            play(&mut game, &[discard]);
            assert_eq!(game.hand(Seat(1)).len(), 8);
            assert_eq!(seat_to_act(&game), Seat(1), "the declarer leads");
            assert!(game.is_legal(act("play AH")));
        }
    }
}

#[test]
fn alexa_partner_gives_the_highest_trumps_as_a_multiset_bowers_first() {
    let alexa = rules(Variant::Alexa);
    // Right bowers, then left bowers, then A, K, Q.
    let hand = bag("QC KC AC JS JC AH AH QD");
    assert_eq!(highest_trumps(hand, Suit::Clubs, 2), bag("JC JS"));
    assert_eq!(highest_trumps(hand, Suit::Clubs, 1), bag("JC"));
    assert_eq!(
        highest_trumps(bag("QC KC AC AC JD"), Suit::Clubs, 2),
        bag("AC AC")
    );
    assert_eq!(
        highest_trumps(bag("QH KC JD"), Suit::Hearts, 2),
        bag("JD QH")
    );
    assert_eq!(
        highest_trumps(bag("QS AD"), Suit::Hearts, 2),
        CardBag::EMPTY
    );

    // Partner seat 3 holds JC JS AC AC KC KC QC QC: under clubs it gives JC and JS.
    let deal = [
        "JS JC QS QS KS KS AS AS",
        SUITS[1],
        SUITS[2],
        "JC JS AC AC KC KC QC QC",
    ];
    let mut game = dealt(alexa, 0, deal);
    play(&mut game, &["call2 C", "pass", "pass", "pass"]);
    assert_eq!(game.legal_action_list().as_slice(), &[act("give JC JS")]);
    for wrong in ["give JC AC", "give AC AC", "give JS AC"] {
        assert_eq!(
            refused(&game, wrong),
            Broken::MustGiveHighestTrumps,
            "{wrong}"
        );
    }
    assert_eq!(refused(&game, "give JC JC"), Broken::NotHeld(card("JC")));
    assert_eq!(
        refused(&game, "give JC"),
        Broken::CardCount {
            verb: "give",
            expected: 2
        }
    );

    // A partner with one trump gives it and chooses the rest; with none, anything.
    let deal = [
        SUITS[0],
        SUITS[1],
        "JD JD JC QD KD KD AD AD",
        "JC QD QC QC KC KC AC AC",
    ];
    let mut game = dealt(alexa, 0, deal);
    play(&mut game, &["call2 S", "pass", "pass", "pass"]);
    let gives = game.legal_action_list();
    assert!(gives
        .iter()
        .all(|a| matches!(a, Action::Give(p) if p.cards().contains(&card("JC")))));
    // JC with each of the four other faces: QD, QC, KC, AC.
    assert_eq!(gives.len(), 4);
    assert!(game.is_legal(act("give JC QD")));
    assert_eq!(refused(&game, "give AC AC"), Broken::MustGiveHighestTrumps);

    let game = suits_after(alexa, &["call2 H", "pass", "pass", "pass"]);
    // Seat 3 holds no heart and no JD: any two clubs, as multisets.
    assert_eq!(game.legal_action_list().len(), 4 + 6);
}

#[test]
fn alexa_no_trump_and_simplified_gives_are_free() {
    let mut game = dealt(rules(Variant::Alexa), 0, SUITS);
    play(&mut game, &["call1 NT", "pass", "pass", "pass"]);
    assert_eq!(
        game.legal_action_list().len(),
        4,
        "any of the four club faces"
    );
    assert!(game.is_legal(act("give QC")));

    let mut game = dealt(rules(Variant::Simplified), 0, SUITS);
    play(&mut game, &["call2 C", "pass", "pass", "pass"]);
    assert!(game.is_legal(act("give AC AC")));
    assert!(game.is_legal(act("give QC KC")));
    assert_eq!(game.legal_action_list().len(), 4 + 6);
}

// Ruling 4: the dealer's match.

#[test]
fn alexa_dealer_may_match_a_loner_in_any_strain_but_not_a_level_bid() {
    let alexa = rules(Variant::Alexa);
    let mut game = suits_after(alexa, &["call2 H", "pass", "pass"]);
    for text in ["call2 H", "call2 S", "call2 NT", "call1 D", "moon C"] {
        assert!(game.is_legal(act(text)), "{text}");
    }
    play(&mut game, &["call2 S"]);
    assert_eq!(
        game.declarer(),
        Some(Seat(0)),
        "the dealer takes the contract"
    );
    assert_eq!(game.out(), Some(Seat(2)));
    assert_eq!(seat_to_act(&game), Seat(2));

    let game = suits_after(alexa, &["call1 H", "pass", "pass"]);
    assert_eq!(
        refused(&game, "call2 S"),
        Broken::BidBelow {
            high: act("call1 H")
        }
    );

    let game = suits_after(alexa, &["bid 8 H", "pass", "pass"]);
    assert!(matches!(
        refused(&game, "bid 8 S"),
        Broken::BidTooLow { .. }
    ));
}

#[test]
fn simplified_dealer_may_match_any_level_8_bid() {
    let simplified = rules(Variant::Simplified);
    let mut game = suits_after(simplified, &["bid 8 H", "pass", "pass"]);
    assert!(game.is_legal(act("bid 8 S")));
    assert!(game.is_legal(act("bid 8 H")));
    play(&mut game, &["bid 8 NT"]);
    assert_eq!(game.declarer(), Some(Seat(0)));

    let game = suits_after(simplified, &["bid 7 H", "pass", "pass"]);
    assert!(matches!(
        refused(&game, "bid 7 S"),
        Broken::BidTooLow { .. }
    ));

    let game = suits_after(simplified, &["call1 H", "pass", "pass"]);
    assert!(game.is_legal(act("call1 C")));
    assert_eq!(
        refused(&game, "call2 C"),
        Broken::BidBelow {
            high: act("call1 H")
        }
    );
}

#[test]
fn the_dealer_may_match_the_partners_bid_and_no_one_else_may_match() {
    for (variant, bid) in [
        (Variant::Alexa, "call2 H"),
        (Variant::Simplified, "bid 8 H"),
    ] {
        let mut game = suits_after(rules(variant), &["pass", bid]);
        assert!(
            matches!(refused(&game, bid), Broken::BidTooLow { .. }),
            "seat 3"
        );
        play(&mut game, &["pass", bid]);
        assert_eq!(game.declarer(), Some(Seat(0)), "{variant:?}");
    }
}

// Ruling 5: all pass.

#[test]
fn all_pass_redeals_by_default_and_the_deal_passes_on() {
    for variant in BOTH {
        let mut game = dealt(rules(variant), 2, SUITS);
        play(&mut game, &["pass", "pass", "pass", "pass"]);
        let summary = game.hand_summary();
        assert_eq!(summary.outcome, HandOutcome::ThrownIn);
        assert_eq!(summary.points, Some([0, 0]));
        assert_eq!(
            (summary.declarer, summary.contract, summary.trump),
            (None, None, None)
        );
        game.deal(&SUITS.map(bag)).unwrap();
        assert_eq!(game.hand_summary().dealer, Seat(3));
        assert_eq!(seat_to_act(&game), Seat(0));
    }
}

#[test]
fn dealer_must_bid_option_forbids_the_dealers_pass_after_three_passes() {
    for variant in BOTH {
        let forced = BidEuchreRules {
            all_pass: AllPass::DealerMustBid,
            ..rules(variant)
        };
        let game = suits_after(forced, &["pass", "pass", "pass"]);
        assert_eq!(refused(&game, "pass"), Broken::DealerMustBid);
        assert!(game.is_legal(act("bid 1 S")));
        let game = suits_after(forced, &["bid 1 H", "pass", "pass", "pass"]);
        assert_eq!(game.declarer(), Some(Seat(1)));
    }
}

// Ruling 6: card order.

#[test]
fn trump_order_is_right_bowers_left_bowers_a_k_q_and_no_trump_is_a_k_q_j() {
    use calltrump_engine::CardOrder;
    let hearts = CardOrder::euchre(Some(Suit::Hearts));
    let order = ["JH", "JD", "AH", "KH", "QH"];
    for w in order.windows(2) {
        assert!(
            hearts.beats(card(w[0]), card(w[1])),
            "{} over {}",
            w[0],
            w[1]
        );
        assert!(!hearts.beats(card(w[1]), card(w[0])));
    }
    assert!(
        hearts.beats(card("QH"), card("AD")),
        "the lowest trump beats a plain ace"
    );
    assert!(
        !hearts.beats(card("JH"), card("JH")),
        "the first of identical cards wins"
    );
    let nt = CardOrder::euchre(None);
    let order = ["AD", "KD", "QD", "JD"];
    for w in order.windows(2) {
        assert!(nt.beats(card(w[0]), card(w[1])));
    }
    assert!(!nt.beats(card("JH"), card("QD")), "no bowers, no trumps");
}

#[test]
fn of_two_identical_cards_in_a_trick_the_first_wins() {
    // Seat 0 holds the other JH; seat 1 declares hearts and leads its JH.
    let deal = [
        "JS JS QS QS KS KS AS JH",
        "JH QH QH KH KH AH AH AS",
        SUITS[2],
        SUITS[3],
    ];
    for variant in BOTH {
        let mut game = dealt(rules(variant), 0, deal);
        play(&mut game, &["bid 1 H", "pass", "pass", "pass"]);
        play(&mut game, &["play JH", "play JD", "play QC", "play JH"]);
        assert_eq!(seat_to_act(&game), Seat(1), "the first right bower won");
        assert_eq!(game.hand_summary().tricks, [0, 1]);
    }
}

// Ruling 7: the lead, following suit.

#[test]
fn the_declarer_leads_follow_suit_no_duty_to_trump() {
    for variant in BOTH {
        let mut game = suits_after(rules(variant), &["pass", "pass", "bid 1 C", "pass"]);
        assert_eq!(
            seat_to_act(&game),
            Seat(3),
            "the declarer leads, not the dealer's left"
        );
        // Clubs trump: seat 0 holds the left bowers (JS) and must follow a club lead.
        play(&mut game, &["play AC"]);
        assert_eq!(refused(&game, "play AS"), Broken::MustFollow(Suit::Clubs));
        assert_eq!(
            game.legal_action_list().as_slice(),
            &[act("play JS")],
            "only the left bower follows"
        );
        play(&mut game, &["play JS", "play AH", "play AD"]);
        // Seat 0 won with the left bower and leads a spade: a void seat 1 plays anything.
        assert_eq!(seat_to_act(&game), Seat(0));
        play(&mut game, &["play AS"]);
        assert_eq!(game.legal_action_list().len(), 4, "any heart face");
    }
}

#[test]
fn a_void_declarer_need_not_trump() {
    for variant in BOTH {
        let mut game = suits_after(
            rules(variant),
            &["call1 C", "pass", "pass", "pass", "give JC", "discard QH"],
        );
        // Seat 0 trumps the first heart with a left bower and leads a plain spade.
        play(&mut game, &["play AH", "play QD", "play JS", "play AS"]);
        assert!(game.is_legal(act("play QH")), "seat 1 may discard");
        assert!(game.is_legal(act("play JC")), "or trump");
    }
}

// Ruling 8: scoring.

/// Plays the hand out with each seat playing its lowest-index legal card.
fn play_out(game: &mut BidEuchre) {
    while game.hand_summary().outcome == HandOutcome::InProgress {
        let first = game.legal_action_list()[0];
        game.apply(first).unwrap();
    }
}

/// A loner's exchange that changes no hand: the partner gives the first cards listed, and
/// the declarer discards the very cards it received.
fn give_and_discard_back(game: &mut BidEuchre) {
    let give = game.legal_action_list()[0];
    game.apply(give).unwrap();
    let Action::Give(pair) = give else {
        panic!("{give} is no give")
    };
    game.apply(Action::Discard(pair)).unwrap();
}

#[test]
fn scoring_levels_and_loners_made_and_failed() {
    // Seat 1 in no-trump on SUITS takes all 8 (the others are void).
    for variant in BOTH {
        for (bid, points) in [
            ("bid 5 NT", [0, 8]),
            ("call2 NT", [0, 12]),
            ("call1 NT", [0, 18]),
            ("moon NT", [0, 24]),
        ] {
            let mut game = suits_after(rules(variant), &[bid, "pass", "pass", "pass"]);
            if bid.starts_with("call") {
                // Discard what was received, keeping all hearts.
                give_and_discard_back(&mut game);
            }
            play_out(&mut game);
            assert_eq!(
                game.hand_summary().points,
                Some(points),
                "{variant:?} {bid}"
            );
        }
        // Seat 1 in spades: seat 0 holds every spade, trumps the first heart with a right
        // bower and then leads trumps, so seat 1's side takes no trick.
        for (bid, points) in [
            ("bid 1 S", [8, -1]),
            ("bid 8 S", [8, -8]),
            ("call2 S", [8, -12]),
            ("call1 S", [8, -18]),
            ("moon S", [8, -24]),
        ] {
            let mut game = dealt(rules(variant), 2, SUITS);
            // Dealer 2: seat 3 bids first, seat 0 then seat 1.
            play(&mut game, &["pass", "pass", bid, "pass"]);
            if bid.starts_with("call") {
                give_and_discard_back(&mut game);
            }
            play_out(&mut game);
            let summary = game.hand_summary();
            assert_eq!(summary.points, Some(points), "{variant:?} {bid}");
            assert_eq!(
                summary.tricks[0], 8,
                "defenders score every trick they took"
            );
        }
    }
}

#[test]
fn a_level_bid_made_scores_the_tricks_taken_not_the_bid() {
    // Seat 1 bids 4 in hearts and takes 6: seat 2's left bowers take two (AH is led first).
    let mut game = dealt(rules(Variant::Simplified), 0, SUITS);
    play(&mut game, &["bid 4 H", "pass", "pass", "pass"]);
    play(&mut game, &["play AH", "play JD", "play QC", "play QS"]);
    play(&mut game, &["play JD", "play KC", "play KS", "play QH"]);
    play_out(&mut game);
    common::assert_hand_result(&game, [2, 6], [2, 6], [2, 6]);
}

// Rulings 9 and 10: game length and the winner.

#[test]
fn the_game_lasts_the_agreed_deals_and_the_higher_total_wins() {
    for variant in BOTH {
        let r = BidEuchreRules {
            deals: 2,
            ..rules(variant)
        };
        let mut game = dealt(r, 0, SUITS);
        play(&mut game, &["bid 5 NT", "pass", "pass", "pass"]);
        play_out(&mut game);
        assert_eq!(game.turn(), Turn::Chance);
        assert_eq!(game.outcome(), None);
        game.deal(&SUITS.map(bag)).unwrap();
        play(&mut game, &["pass", "pass", "pass", "pass"]);
        assert_eq!(game.turn(), Turn::Over, "a thrown-in hand counts as a deal");
        assert_eq!(game.outcome(), Some(Outcome::Winner(Team(1))));
        assert_eq!(game.scores(), [0, 8]);
        assert_eq!(
            game.apply(act("pass")).unwrap_err().broken,
            Broken::GameOver
        );
    }
}

#[test]
fn a_level_total_is_a_draw() {
    let r = BidEuchreRules {
        deals: 1,
        ..rules(Variant::Simplified)
    };
    let mut game = dealt(r, 0, SUITS);
    play(&mut game, &["pass", "pass", "pass", "pass"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn header_options_deals_rounds_all_pass() {
    let read = |variant: Option<&str>, options: Value| {
        let Value::Object(map) = options else {
            panic!()
        };
        GameRules::from_header("bid-euchre", variant, &map)
    };
    let alexa = read(None, json!({})).unwrap();
    assert_eq!(
        alexa,
        GameRules::BidEuchre(rules(Variant::Alexa)),
        "alexa is the default"
    );
    let GameRules::BidEuchre(simplified) = read(Some("simplified"), json!({})).unwrap() else {
        panic!()
    };
    assert_eq!(simplified.deals, 8, "two rounds of four deals");
    let GameRules::BidEuchre(three) = read(Some("simplified"), json!({"rounds": 3})).unwrap()
    else {
        panic!()
    };
    assert_eq!(three.deals, 12);
    let GameRules::BidEuchre(five) = read(
        Some("alexa"),
        json!({"deals": 5, "all_pass": "dealer-must-bid"}),
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!((five.deals, five.all_pass), (5, AllPass::DealerMustBid));
    for bad in [
        json!({"deals": 4, "rounds": 1}),
        json!({"deals": 0}),
        json!({"rounds": 1.5}),
        json!({"all_pass": "misdeal"}),
        json!({"target": 50}),
    ] {
        assert!(read(Some("alexa"), bad.clone()).is_err(), "{bad}");
    }
    assert!(read(Some("standard"), json!({})).is_err());
    // Written options read back the same rules.
    for (variant, options) in [
        ("alexa", json!({"deals": 12, "all_pass": "dealer-must-bid"})),
        ("simplified", json!({"rounds": 3})),
        ("simplified", json!({"deals": 7})),
        ("alexa", json!({})),
    ] {
        let rules = read(Some(variant), options).unwrap();
        let written: Map<String, Value> = rules.options();
        assert_eq!(
            GameRules::from_header(rules.game(), Some(rules.variant()), &written).unwrap(),
            rules
        );
    }
}

// Observations: exchanged cards travel face down.

/// What a seat saw of the give and of the discard.
fn seen_exchange(obs: &Observation) -> [Option<SeenAction>; 2] {
    let find = |is: fn(&SeenAction) -> bool| obs.actions.iter().map(|(_, a)| *a).find(is);
    [
        find(|a| {
            matches!(
                a,
                SeenAction::HiddenGive(_) | SeenAction::Open(Action::Give(_))
            )
        }),
        find(|a| {
            matches!(
                a,
                SeenAction::HiddenDiscard(_) | SeenAction::Open(Action::Discard(_))
            )
        }),
    ]
}

#[test]
fn the_give_is_seen_by_giver_and_declarer_the_discard_by_the_declarer_only() {
    for variant in BOTH {
        let game = suits_after(
            rules(variant),
            &[
                "call2 C",
                "pass",
                "pass",
                "pass",
                "give JC JC",
                "discard QH QH",
            ],
        );
        let give = SeenAction::Open(act("give JC JC"));
        let discard = SeenAction::Open(act("discard QH QH"));
        let expected = [
            (SeenAction::HiddenGive(2), SeenAction::HiddenDiscard(2)),
            (give, discard),
            (SeenAction::HiddenGive(2), SeenAction::HiddenDiscard(2)),
            (give, SeenAction::HiddenDiscard(2)),
        ];
        for (s, (g, d)) in expected.into_iter().enumerate() {
            let obs = game.observation(Seat(s as u8));
            assert_eq!(seen_exchange(&obs), [Some(g), Some(d)], "seat {s}");
        }
        assert_eq!(
            game.observation(Seat(1)).hand,
            bag("JH JH KH KH AH AH JC JC")
        );
        assert_eq!(game.observation(Seat(3)).hand, bag("QC QC KC KC AC AC"));
        assert_eq!(SeenAction::HiddenGive(2).to_string(), "give ?? ??");
    }
}

/// Random games straight on the engine: the exchange conserves cards, the loner's
/// partner never plays, and no observation shows an exchanged card to a seat that did
/// not see it pass.
#[test]
fn random_games_conserve_cards_and_hide_the_exchange() {
    for variant in BOTH {
        let mut exchanges = 0;
        for seed in 0..400u64 {
            let mut rng = stream(seed, 1);
            let r = BidEuchreRules {
                deals: 4,
                ..rules(variant)
            };
            let mut game = BidEuchre::new(&r, Seat(rng.random_range(0..4u8)));
            while game.turn() != Turn::Over {
                let Turn::Seat(seat) = game.turn() else {
                    game.deal_random(&mut rng);
                    continue;
                };
                let legal = game.legal_action_list();
                let action = legal[rng.random_range(0..legal.len())];
                if game.out() == Some(seat) {
                    assert!(
                        matches!(action, Action::Give(_)),
                        "seed {seed}: the loner's partner does more than give"
                    );
                }
                let before: Vec<CardBag> = (0..4).map(|s| game.hand(Seat(s))).collect();
                game.apply(action).unwrap();
                if matches!(action, Action::Give(_) | Action::Discard(_)) {
                    exchanges += 1;
                }
                if let Action::Give(pair) = action {
                    let declarer = seat.partner4();
                    let mut expected = before[declarer.index()];
                    for c in pair.cards() {
                        expected.insert(*c);
                    }
                    assert_eq!(game.hand(declarer), expected, "seed {seed}");
                    assert_eq!(
                        game.hand(seat).len() + pair.len(),
                        before[seat.index()].len()
                    );
                }
                check_hidden(&game, seed);
            }
        }
        assert!(exchanges > 100, "{variant:?}: only {exchanges} exchanges");
    }
}

/// Every seat's hand follows from what it saw, and cards it did not see are hidden.
fn check_hidden(game: &BidEuchre, seed: u64) {
    let declarer = game.declarer();
    for s in 0..4u8 {
        let seat = Seat(s);
        let obs = game.observation(seat);
        let mut hand = obs.dealt;
        for (actor, seen) in &obs.actions {
            match seen {
                SeenAction::Open(Action::Give(pair)) => {
                    assert!(
                        *actor == seat || Some(seat) == declarer,
                        "seed {seed}: seat {s} saw a give"
                    );
                    for c in pair.cards() {
                        if *actor == seat {
                            assert!(hand.remove(*c));
                        } else {
                            hand.insert(*c);
                        }
                    }
                }
                SeenAction::Open(Action::Discard(pair)) => {
                    assert_eq!(*actor, seat, "seed {seed}: seat {s} saw a discard");
                    for c in pair.cards() {
                        assert!(hand.remove(*c));
                    }
                }
                SeenAction::Open(Action::Play(c)) if *actor == seat => {
                    assert!(hand.remove(*c));
                }
                SeenAction::HiddenGive(_) => {
                    assert!(*actor != seat && Some(seat) != declarer, "seed {seed}");
                }
                SeenAction::HiddenDiscard(_) => assert_ne!(*actor, seat, "seed {seed}"),
                _ => {}
            }
        }
        assert_eq!(obs.hand, hand, "seed {seed}: seat {s}");
    }
    // Cards held, played and discarded add up to the deck at every step.
    let mut total: usize = (0..4u8).map(|s| game.hand(Seat(s)).len()).sum();
    for (_, seen) in &game.observation(Seat(0)).actions {
        total += match seen {
            SeenAction::Open(Action::Play(_)) => 1,
            SeenAction::Open(Action::Discard(pair)) => pair.len(),
            SeenAction::HiddenDiscard(n) => usize::from(*n),
            _ => 0,
        };
    }
    if game.turn() != Turn::Chance && game.turn() != Turn::Over {
        assert_eq!(total, 32, "seed {seed}: cards lost or made");
    }
}

#[test]
fn a_record_of_a_random_game_replays_to_the_same_game() {
    for variant in BOTH {
        let rules = GameRules::BidEuchre(BidEuchreRules::new(variant));
        let mut rng = seeded(3);
        let mut game = calltrump_engine::AnyGame::new(&rules, Seat(1));
        let mut record = Record::new(&rules, Seat(1));
        while game.turn() != Turn::Over {
            match game.turn() {
                Turn::Chance => {
                    game.deal_random(&mut rng);
                    let deal: Vec<CardBag> =
                        (0..4).map(|s| game.observation(Seat(s)).dealt).collect();
                    record.push_deal(&deal);
                }
                _ => {
                    let legal = game.legal_action_list();
                    let action = legal[rng.random_range(0..legal.len())];
                    game.apply(action).unwrap();
                    record.push_action(action);
                }
            }
        }
        let (replay, replayed) = record.replay().unwrap();
        assert_eq!(replayed, game);
        assert!(replay.finished);
        assert_eq!(replay.hands.len(), 8);
    }
}
