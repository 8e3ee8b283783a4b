//! Kout Bo: one test per rule of `rules/kout-bo.txt`, per Kout Bo ruling of RULINGS.md
//! and per option, on deals written by hand.

use crate::common;

use calltrump_engine::kout::{contract_points, DECK4, DECK4_FULL, DECK6};
use calltrump_engine::{
    seeded, Action, Card, DealError, Game, GameRules, HandOutcome, HandStart, JokerLead, Kout,
    Kout4Deck, KoutRules, KoutVariant, Outcome, Seat, Team, Turn,
};
use common::{assert_won, bag, card, check_cases, deal, seat_to_act};
use serde_json::{json, Map, Value};

fn kout4(joker_lead: JokerLead) -> KoutRules {
    KoutRules {
        variant: KoutVariant::Four,
        joker_lead,
        deck: Kout4Deck::NoBlackSixes,
    }
}

/// A game at its first deal, seat `dealer` dealing `hands` (seat by seat, split by `|`).
fn dealt(rules: KoutRules, dealer: u8, hands: &str) -> Kout {
    let mut game = Kout::new(&rules, Seat(dealer));
    game.deal(&deal(hands)).unwrap();
    game
}

/// [`dealt`], then the comma-separated `actions`.
fn after(rules: KoutRules, dealer: u8, hands: &str, actions: &str) -> Kout {
    let mut game = dealt(rules, dealer, hands);
    run(&mut game, actions);
    game
}

/// Kout Bo 4 under the joker-lead rule `lead`, seat 3 dealing `hands`, after `actions`.
fn four_after(lead: JokerLead, hands: &str, actions: &str) -> Kout {
    after(kout4(lead), 3, hands, actions)
}

/// Applies comma-separated actions, each of which must be legal; an action written
/// `ACTION => ERROR` must instead be refused with exactly that error, changing nothing.
fn run(game: &mut Kout, actions: &str) {
    for step in actions.split(", ") {
        match step.split_once(" => ") {
            Some((action, error)) => assert_eq!(refused(game, action), error),
            None => common::apply_all(game, &[step]),
        }
    }
}

/// The error line of an action that must be refused; the game must not change.
fn refused(game: &Kout, text: &str) -> String {
    common::refused(game, text).to_string()
}

/// Kout Bo 4, dealer 3: seat 0 bids first. Seat 0 holds RJ and the top spades, seat 1
/// BJ and the jack of spades, seat 3 the clubs and the ace of diamonds.
const DEAL_A: &str =
    "RJ AS KS QS 7H 8H 9H TH JH | BJ JS TS 9S 6D 7D 8D 9D TD | 8S 7S QH KH AH 6H JD QD KD | AD 7C 8C 9C TC JC QC KC AC";

/// Kout Bo 4, dealer 3: seat 0 holds both jokers and every spade but 7S.
const DEAL_C: &str =
    "AS KS QS JS TS 9S 8S RJ BJ | 7S AH KH QH JH TH 9H 8H 7H | 6H AD KD QD JD TD 9D 8D 7D | 6D AC KC QC JC TC 9C 8C 7C";

/// DEAL_C played out: seat 0 bids 8 in spades, wins seven tricks with spades, leads RJ,
/// then leads BJ to the last trick, where seat 1's 7H sets the suit.
const DEAL_C_PLAY: &str = "bid 8, pass, pass, pass, trump S, \
    play AS, play 7S, play 6H, play 6D, \
    play KS, play AH, play AD, play AC, \
    play QS, play KH, play KD, play KC, \
    play JS, play QH, play QD, play QC, \
    play TS, play JH, play JD, play JC, \
    play 9S, play TH, play TD, play TC, \
    play 8S, play 9H, play 9D, play 9C, \
    play RJ, play 8H, play 8D, play 8C, \
    play BJ, play 7H, play 7D, play 7C";

#[test]
fn decks_have_the_variant_sizes() {
    assert_eq!(DECK6.len(), 54);
    assert!(DECK6.contains(card("2C")) && DECK6.contains(Card::RED_JOKER));
    assert_eq!(DECK4.len(), 36);
    assert!(!DECK4.contains(card("6S")) && !DECK4.contains(card("6C")));
    assert!(DECK4.contains(card("6H")) && DECK4.contains(card("6D")));
    assert!(!DECK4.contains(card("5H")));
    assert_eq!(DECK4_FULL.len(), 38);
    assert!(DECK4_FULL.contains(card("6S")) && DECK4_FULL.contains(Card::BLACK_JOKER));
    let mut two_undealt = kout4(JokerLead::Standard);
    two_undealt.deck = Kout4Deck::TwoUndealt;
    assert_eq!(two_undealt.deck(), DECK4_FULL);
    // The kout4 deck option means nothing to kout6.
    let six = KoutRules {
        deck: Kout4Deck::TwoUndealt,
        ..KoutRules::default()
    };
    assert_eq!(six.deck(), DECK6);
}

#[test]
fn random_deals_give_nine_cards_to_each_seat() {
    let mut two_undealt = kout4(JokerLead::Standard);
    two_undealt.deck = Kout4Deck::TwoUndealt;
    for (rules, seats, dealt) in [
        (KoutRules::default(), 6, 54),
        (kout4(JokerLead::Standard), 4, 36),
        (two_undealt, 4, 36),
    ] {
        let mut rng = seeded(7);
        let mut undealt_seen = 0;
        for _ in 0..50 {
            let mut game = Kout::new(&rules, Seat(0));
            game.deal_random(&mut rng);
            assert_eq!(game.seats(), seats);
            let mut all = calltrump_engine::CardSet::EMPTY;
            for s in 0..seats {
                let hand = game.hand(Seat(s as u8)).faces();
                assert_eq!(hand.len(), 9);
                assert!(hand.and(all).is_empty());
                all = all.or(hand);
            }
            assert_eq!(all.len(), dealt);
            assert_eq!(all.minus(rules.deck()).len(), 0);
            undealt_seen += rules.deck().minus(all).len();
        }
        assert_eq!(undealt_seen, 50 * (rules.deck().len() - dealt));
    }
}

#[test]
fn bad_deals_are_refused() {
    let rules = kout4(JokerLead::Standard);
    let mut game = Kout::new(&rules, Seat(3));
    let three = &deal(DEAL_A)[..3];
    assert_eq!(
        game.deal(three),
        Err(DealError::SeatCount {
            expected: 4,
            found: 3
        })
    );
    // 6S is not in the default Kout Bo 4 deck.
    let mut hands = deal(DEAL_A);
    hands[2] = bag("6S 7S QH KH AH 6H JD QD KD");
    assert_eq!(game.deal(&hands), Err(DealError::NotInDeck(card("6S"))));
    hands[2] = bag("AS 7S QH KH AH 6H JD QD KD");
    assert_eq!(game.deal(&hands), Err(DealError::TooMany(card("AS"))));
    hands[2] = bag("7S QH KH AH 6H JD QD KD");
    assert_eq!(
        game.deal(&hands),
        Err(DealError::HandSize {
            seat: Seat(2),
            expected: 9,
            found: 8
        })
    );
    // With two undealt, 6S may be dealt, and the deal still lists only the seats' cards.
    let mut two_undealt = rules;
    two_undealt.deck = Kout4Deck::TwoUndealt;
    let mut game = Kout::new(&two_undealt, Seat(3));
    hands[2] = bag("6S 7S QH KH AH 6H JD QD KD");
    assert_eq!(game.deal(&hands), Ok(()));
    assert_eq!(game.deal(&hands), Err(DealError::NotDue));
    // Kout Bo 6 has every rank from 2.
    let mut six = Kout::new(&KoutRules::default(), Seat(0));
    let four = deal(DEAL_A);
    assert!(matches!(
        six.deal(&four),
        Err(DealError::SeatCount { expected: 6, .. })
    ));
}

#[test]
fn the_auction_starts_after_the_dealer_and_each_seat_acts_once() {
    let mut game = dealt(kout4(JokerLead::Standard), 1, DEAL_A);
    assert_eq!(seat_to_act(&game), Seat(2));
    run(&mut game, "pass, bid 6");
    assert_eq!(seat_to_act(&game), Seat(0));
    assert_eq!(
        refused(&game, "bid 6"),
        "seat 0 must bid higher than \"bid 6\""
    );
    assert_eq!(refused(&game, "bid 10"), "seat 0 must bid from 5 to 9");
    assert_eq!(refused(&game, "bid 4"), "seat 0 must bid from 5 to 9");
    assert!(refused(&game, "kaibosh").contains("not part of this game"));
    assert!(refused(&game, "trump S").contains("expects a call"));
    assert!(refused(&game, "play RJ").contains("expects a call"));
    run(&mut game, "bid 7, pass");
    // Seat 0's 7 stands: it names trump and leads.
    assert_eq!(game.contract(), Some((Seat(0), 7)));
    assert_eq!(seat_to_act(&game), Seat(0));
    assert!(refused(&game, "pass").contains("expects the maker to name trump"));
    run(&mut game, "trump H");
    assert_eq!(game.trump(), Some(calltrump_engine::Suit::Hearts));
    assert_eq!(seat_to_act(&game), Seat(0));
    run(&mut game, "play 7H");
    assert_eq!(game.trick().leader, Seat(0));
}

#[test]
fn a_bid_of_nine_ends_the_auction_at_once() {
    let game = four_after(JokerLead::Standard, DEAL_A, "pass, bid 9");
    assert_eq!(game.contract(), Some((Seat(1), 9)));
    assert_eq!(seat_to_act(&game), Seat(1));
    let legal = game.legal_action_list();
    assert_eq!(legal.len(), 4);
    assert!(legal.iter().all(|a| matches!(a, Action::Trump(_))));
}

#[test]
fn the_dealer_must_bid_when_all_others_pass_and_a_forced_five_is_malzom() {
    let mut game = four_after(JokerLead::Standard, DEAL_A, "pass, pass, pass");
    assert_eq!(
        refused(&game, "pass"),
        "seat 3 may not pass: the dealer must bid when all others have passed"
    );
    let mut forced_six = game.clone();
    run(&mut forced_six, "bid 6");
    assert!(!forced_six.is_malzom());
    run(&mut game, "bid 5");
    assert!(game.is_malzom());
    // A 5 bid before the dealer is Bab, not Malzom.
    let bab = four_after(JokerLead::Standard, DEAL_A, "bid 5, pass, pass, pass");
    assert!(!bab.is_malzom());
    // The dealer may pass when someone has bid.
    assert_eq!(bab.contract(), Some((Seat(0), 5)));
}

#[test]
fn contract_points_follow_the_table() {
    assert_eq!(contract_points(5, true), (5, 5));
    assert_eq!(contract_points(5, false), (5, 10));
    assert_eq!(contract_points(6, false), (6, 12));
    assert_eq!(contract_points(7, false), (7, 14));
    assert_eq!(contract_points(8, false), (8, 16));
    assert_eq!(contract_points(9, false), (36, 18));
}

#[test]
fn players_must_follow_the_led_suit_but_may_always_play_a_joker() {
    let mut game = four_after(
        JokerLead::Standard,
        DEAL_A,
        "bid 5, pass, pass, pass, trump S, play AS",
    );
    assert_eq!(refused(&game, "play 6D"), "seat 1 must follow spades");
    assert_eq!(refused(&game, "play AD"), "seat 1 does not hold AD");
    // BJ is allowed though seat 1 holds spades; it loses to the trump ace.
    run(&mut game, "play BJ, play 8S");
    // Seat 3 has no spade: anything goes.
    run(&mut game, "play QC");
    assert_won(&game, [1, 0], 0);
    // A plain lead: seat 2 must follow hearts; the void seats may play anything.
    run(
        &mut game,
        "play 7H, play 6D, play JD => seat 2 must follow hearts, play 6H, play 7C",
    );
    // 7H beats 6H; diamonds and clubs (not trumps) win nothing.
    assert_won(&game, [2, 0], 0);
}

#[test]
fn a_joker_may_be_played_to_a_plain_lead_while_holding_the_suit_and_wins_as_a_trump() {
    // Dealer 1: seat 2 bids, names diamonds and leads AH; seat 0 holds hearts and RJ.
    let mut game = after(
        kout4(JokerLead::Standard),
        1,
        DEAL_A,
        "bid 5, pass, pass, pass, trump D, play AH, play 7C",
    );
    run(&mut game, "play RJ, play 9S");
    assert_won(&game, [1, 0], 0);
}

#[test]
fn a_seat_without_trumps_but_with_a_joker_must_play_the_joker_to_a_trump_lead() {
    let mut game = dealt(kout4(JokerLead::Standard), 3, DEAL_A);
    // Seat 3 bids 9 in diamonds and leads AD: seat 0 has no diamond but RJ.
    run(
        &mut game,
        "pass, pass, pass, bid 9, trump D, play AD, play 7H => seat 0 must follow diamonds, play RJ",
    );
    // Seat 1 holds diamonds and BJ: either.
    run(&mut game, "play 6D, play JD");
    // RJ beats the trump ace.
    assert_won(&game, [1, 0], 0);
}

#[test]
fn the_trump_ace_beats_bj_and_rj_beats_both() {
    let cases = [
        (
            "RJ beats BJ",
            (
                "bid 9, trump S, play RJ, play BJ, play 8S, play AD",
                [1, 0],
                0,
            ),
        ),
        (
            "the trump ace beats BJ",
            (
                "bid 5, pass, pass, pass, trump S, play AS, play BJ, play 8S, play 7C",
                [1, 0],
                0,
            ),
        ),
        (
            "BJ beats the trump king",
            (
                "bid 5, pass, pass, pass, trump S, play KS, play BJ, play 8S, play 7C",
                [0, 1],
                1,
            ),
        ),
    ];
    check_cases(cases, |(actions, tricks, winner)| {
        assert_won(
            &four_after(JokerLead::Standard, DEAL_A, actions),
            tricks,
            winner,
        );
    });
}

/// DEAL_A, seat 0 bids 7 in spades and leads AS, KS: A, K and J of spades are played.
fn after_two_spade_tricks(rules: KoutRules) -> Kout {
    after(
        rules,
        3,
        DEAL_A,
        "bid 7, pass, pass, pass, trump S, \
         play AS, play JS, play 8S, play 7C, \
         play KS, play TS, play 7S, play 8C",
    )
}

#[test]
fn standard_a_joker_may_be_led_once_trump_a_k_q_j_are_played() {
    let mut game = after_two_spade_tricks(kout4(JokerLead::Standard));
    assert_eq!(
        refused(&game, "play RJ"),
        "seat 0 may not lead a joker: the leader's team must hold the contract at 9, \
         or at 8 for RJ, or trump A, K, Q and J must all have been played"
    );
    run(&mut game, "play QS, play 9S, play QH, play 9C, play RJ");
    // Trumps are led: seat 1 has no spade left but BJ, so it must play BJ.
    assert_eq!(refused(&game, "play 6D"), "seat 1 must follow spades");
    run(&mut game, "play BJ, play KH, play TC");
    assert_won(&game, [4, 0], 0);
}

#[test]
fn contract_only_drops_the_played_trumps_condition() {
    let mut game = after_two_spade_tricks(kout4(JokerLead::ContractOnly));
    run(&mut game, "play QS, play 9S, play QH, play 9C");
    assert_eq!(
        refused(&game, "play RJ"),
        "seat 0 may not lead a joker: the leader's team must hold the contract at 9, \
         or at 8 for RJ"
    );
}

#[test]
fn all_trumps_played_needs_every_trump_of_the_deck() {
    // Default kout4 deck: spades are 7..A, all eight played after three tricks.
    let mut game = after_two_spade_tricks(kout4(JokerLead::AllTrumpsPlayed));
    assert!(refused(&game, "play RJ").contains("every trump must have been played"));
    run(&mut game, "play QS, play 9S, play QH, play 9C, play RJ");
    // With two undealt, 6S is in the deck and never played (it is undealt here).
    let mut rules = kout4(JokerLead::AllTrumpsPlayed);
    rules.deck = Kout4Deck::TwoUndealt;
    let mut game = after_two_spade_tricks(rules);
    run(&mut game, "play QS, play 9S, play QH, play 9C");
    assert!(refused(&game, "play RJ").contains("every trump must have been played"));
    // In Kout Bo 4 under the standard rule the same position allows it.
    let mut rules = kout4(JokerLead::Standard);
    rules.deck = Kout4Deck::TwoUndealt;
    let mut game = after_two_spade_tricks(rules);
    run(&mut game, "play QS, play 9S, play QH, play 9C, play RJ");
}

#[test]
fn trump_ace_played_needs_only_the_ace() {
    let rules = kout4(JokerLead::TrumpAcePlayed);
    // Seat 0 was dealt AS: it may not lead RJ before the ace is played.
    let mut game = after(rules, 3, DEAL_A, "bid 7, pass, pass, pass, trump S");
    assert!(refused(&game, "play RJ").contains("the trump ace must have been played"));
    run(&mut game, "play AS, play JS, play 8S, play 7C, play RJ");
    // An opponent may lead BJ once the ace is out.
    let mut game = after(
        rules,
        3,
        DEAL_A,
        "bid 5, pass, pass, pass, trump S, \
         play AS, play JS, play 8S, play 7C, \
         play 7H, play 9S, play 6H, play 8C",
    );
    assert_eq!(seat_to_act(&game), Seat(1));
    run(&mut game, "play BJ");
    // Under the standard rule that lead is refused.
    let game = four_after(
        JokerLead::Standard,
        DEAL_A,
        "bid 5, pass, pass, pass, trump S, \
         play AS, play JS, play 8S, play 7C, \
         play 7H, play 9S, play 6H, play 8C",
    );
    assert!(refused(&game, "play BJ").starts_with("seat 1 may not lead a joker"));
}

#[test]
fn trump_ace_played_lets_a_maker_not_dealt_the_ace_lead_a_joker_at_once() {
    // Seat 0 names diamonds; seat 3 holds AD.
    let game = four_after(
        JokerLead::TrumpAcePlayed,
        DEAL_A,
        "bid 5, pass, pass, pass, trump D, play RJ",
    );
    // A joker led legally leads trumps.
    assert_eq!(refused(&game, "play JS"), "seat 1 must follow diamonds");
    // The same lead by a maker who was dealt the ace is refused (spades, AS in hand)...
    let game = four_after(
        JokerLead::TrumpAcePlayed,
        DEAL_A,
        "bid 5, pass, pass, pass, trump S",
    );
    assert!(refused(&game, "play RJ").contains("may not lead a joker"));
    // ...but the contract condition stays: a 9 allows it.
    four_after(JokerLead::TrumpAcePlayed, DEAL_A, "bid 9, trump S, play RJ");
}

#[test]
fn the_contract_condition_covers_the_makers_team_and_rj_only_at_eight() {
    // Seat 1 bids 8: RJ only, and seat 1 holds BJ.
    let game = four_after(
        JokerLead::ContractOnly,
        DEAL_A,
        "pass, bid 8, pass, pass, trump S",
    );
    assert!(refused(&game, "play BJ").contains("at 8 for RJ"));
    // Seat 3 bids 9 in diamonds; partner seat 1 wins the first trick and leads BJ.
    let mut game = four_after(
        JokerLead::ContractOnly,
        DEAL_A,
        "pass, pass, pass, bid 9, trump D, play 7C, play 7H, play 6D, play 8S",
    );
    assert_eq!(seat_to_act(&game), Seat(1));
    run(&mut game, "play BJ");
    // Trumps led; seat 2 holds diamonds and must play one.
    assert_eq!(refused(&game, "play 7S"), "seat 2 must follow diamonds");
    // Opponents of a 9 contract gain nothing from it: seat 0 wins with a trump heart
    // and may not lead RJ.
    let game = four_after(
        JokerLead::ContractOnly,
        DEAL_A,
        "pass, pass, pass, bid 9, trump H, play 7C, play 7H, play 6D, play 8S",
    );
    assert_eq!(seat_to_act(&game), Seat(0));
    assert!(refused(&game, "play RJ").starts_with("seat 0 may not lead a joker"));
}

#[test]
fn holding_only_jokers_forces_a_dead_joker_lead_that_wins_nothing() {
    // Contract-only, 8: RJ is live at trick 8, BJ dead at trick 9.
    let mut game = dealt(kout4(JokerLead::ContractOnly), 3, DEAL_C);
    let actions: Vec<&str> = DEAL_C_PLAY.split(", ").collect();
    let (before, last_tricks) = actions.split_at(actions.len() - 8);
    run(&mut game, &before.join(", "));
    assert_eq!(game.hand_summary().tricks, [7, 0]);
    // Holding RJ and BJ under an 8 contract: RJ is led live, so BJ may not be led dead.
    assert!(refused(&game, "play BJ").contains("at 8 for RJ"));
    run(&mut game, &last_tricks[..4].join(", "));
    assert_eq!(game.hand_summary().tricks, [8, 0]);
    // Now seat 0 holds BJ alone: it must lead it, dead.
    let legal = game.legal_action_list();
    assert_eq!(legal.as_slice(), &[Action::Play(Card::BLACK_JOKER)]);
    run(&mut game, "play BJ");
    assert!(game.dead_lead());
    // The next card sets the suit: 7H, then seats 2 and 3 have no hearts.
    run(&mut game, "play 7H, play 7D, play 7C");
    let summary = game.hand_summary();
    assert_eq!(summary.outcome, HandOutcome::Played);
    assert_eq!(summary.tricks, [8, 1]);
    assert_eq!(summary.points, Some([8, 0]));
    // Under the standard rule A, K, Q, J of spades are out by then: BJ is live and wins.
    let game = four_after(JokerLead::Standard, DEAL_C, DEAL_C_PLAY);
    assert_eq!(game.hand_summary().tricks, [9, 0]);
    assert_eq!(game.hand_summary().points, Some([8, 0]));
}

/// Kout Bo 4, dealer 3: seat 0 bids 5 in clubs and wins six tricks with its aces and
/// kings; seat 1 is left with BJ alone to lead the last trick while JC is still out.
const DEAL_B: &str =
    "AH KH QH AD KD AS KS QC 7C | JH TH JD TD QS JS AC KC BJ | 9H 8H 9D 8D TS 9S 9C QD RJ | 7H 6H 7D 6D 8S 7S 8C TC JC";

const DEAL_B_SIX_TRICKS: &str = "bid 5, pass, pass, pass, trump C, \
    play AH, play TH, play 8H, play 6H, \
    play KH, play JH, play 9H, play 7H, \
    play AD, play TD, play 8D, play 6D, \
    play KD, play JD, play 9D, play 7D, \
    play AS, play JS, play 9S, play 7S, \
    play KS, play QS, play TS, play 8S";

#[test]
fn a_dead_joker_loses_even_to_a_lower_trump() {
    let mut game = four_after(JokerLead::Standard, DEAL_B, DEAL_B_SIX_TRICKS);
    // RJ takes trick 7, seat 1's KC trick 8; AC, KC and QC are out, JC is not.
    run(
        &mut game,
        "play QH, play AC, play RJ, play 8C, play 9C, play TC, play QC, play KC",
    );
    assert_eq!(seat_to_act(&game), Seat(1));
    assert!(refused(&game, "play QS").contains("does not hold"));
    run(&mut game, "play BJ");
    assert!(game.dead_lead());
    // QD sets diamonds; JC trumps it and wins, though BJ outranks JC.
    run(&mut game, "play QD, play JC, play 7C");
    common::assert_hand_result(&game, [7, 2], [5, 0], [5, 0]);
}

#[test]
fn a_joker_played_second_after_a_dead_joker_is_live_and_sets_trumps() {
    let mut game = four_after(JokerLead::Standard, DEAL_B, DEAL_B_SIX_TRICKS);
    run(
        &mut game,
        "play QH, play AC, play QD, play 8C, play KC, play 9C, play TC, play QC",
    );
    run(&mut game, "play BJ, play RJ");
    // Trumps are now led: seat 3 must follow with JC (its only card anyway) and
    // seat 0 with 7C; RJ wins for team 0.
    run(&mut game, "play JC, play 7C");
    assert_eq!(game.hand_summary().tricks, [7, 2]);
    assert_eq!(game.observation(Seat(2)).actions.len(), 5 + 36);
}

#[test]
fn a_made_contract_scores_for_the_makers_and_a_failed_one_for_the_opponents() {
    let game = four_after(JokerLead::ContractOnly, DEAL_C, DEAL_C_PLAY);
    assert_eq!(game.scores(), [8, 0]);
    assert_eq!(game.turn(), Turn::Chance);
    assert_eq!(game.outcome(), None);
    // Bid 9 on the same cards: both jokers live, all nine tricks, Bawan on the first
    // hand wins the game at once.
    let mut game = dealt(kout4(JokerLead::ContractOnly), 3, DEAL_C);
    run(
        &mut game,
        &DEAL_C_PLAY.replace("bid 8, pass, pass, pass", "bid 9"),
    );
    assert_eq!(game.hand_summary().points, Some([36, 0]));
    assert_eq!(game.outcome(), Some(Outcome::Winner(Team(0))));
    assert_eq!(game.turn(), Turn::Over);
    assert!(game
        .clone()
        .apply(Action::Pass)
        .unwrap_err()
        .to_string()
        .contains("game is over"));
}

/// DEAL_B with seat 1 the maker in clubs, leading: team 0 takes seven tricks.
const DEAL_B_SEAT1_PLAY: &str = "trump C, \
    play AC, play 9C, play 8C, play 7C, \
    play KC, play RJ, play TC, play QC, \
    play 9H, play 7H, play AH, play TH, \
    play KH, play JH, play 8H, play 6H, \
    play QH, play JD, play 8D, play 7D, \
    play AD, play TD, play 9D, play 6D, \
    play KD, play QS, play QD, play 7S, \
    play AS, play JS, play TS, play 8S, \
    play KS, play BJ, play 9S, play JC";

#[test]
fn failed_contracts_score_for_the_opponents_and_malzom_fails_for_five() {
    // Seat 0 bids 8 and takes seven: the opponents score 16.
    let mut game = dealt(kout4(JokerLead::Standard), 3, DEAL_B);
    run(&mut game, &DEAL_B_SIX_TRICKS.replace("bid 5", "bid 8"));
    run(
        &mut game,
        "play QH, play AC, play RJ, play 8C, play 9C, play TC, play QC, play KC, \
         play BJ, play QD, play JC, play 7C",
    );
    assert_eq!(game.hand_summary().tricks, [7, 2]);
    assert_eq!(game.hand_summary().points, Some([0, 16]));
    // Seat 1 makes clubs and takes two tricks: forced as the dealer (Malzom) it fails
    // for 5, bid freely (Bab) for 10.
    let cases = [
        (
            "Malzom: the dealer is forced to bid",
            (1, "pass, pass, pass, bid 5", true, [5, 0]),
        ),
        (
            "Bab: the same 5 bid freely",
            (0, "bid 5, pass, pass, pass", false, [10, 0]),
        ),
    ];
    check_cases(cases, |(dealer, calls, malzom, points)| {
        let mut game = after(kout4(JokerLead::Standard), dealer, DEAL_B, calls);
        assert_eq!(game.is_malzom(), malzom);
        run(&mut game, DEAL_B_SEAT1_PLAY);
        assert_eq!(game.hand_summary().tricks, [7, 2]);
        assert_eq!(game.hand_summary().points, Some(points));
    });
}

/// Plays DEAL_C with a bid of 8 (made, 8 points to team 0) from a resumed position.
fn eight_made_from(deals_played: u32, scores: [i32; 2], bid: &str) -> Kout {
    let start = HandStart {
        deals_played,
        dealer: Seat(3),
        scores,
    };
    let mut game = Kout::resume(&kout4(JokerLead::ContractOnly), start);
    game.deal(&deal(DEAL_C)).unwrap();
    let play = match bid {
        "9" => DEAL_C_PLAY.replace("bid 8, pass, pass, pass", "bid 9"),
        _ => DEAL_C_PLAY.to_string(),
    };
    run(&mut game, &play);
    game
}

/// A hand of [`eight_made_from`], as (deals played, scores before, bid), and the scores
/// after it and the winner, if it ends the game.
type GameEnd = ((u32, [i32; 2], &'static str), [i32; 2], Option<u8>);

fn check_game_ends(cases: impl IntoIterator<Item = (&'static str, GameEnd)>) {
    check_cases(cases, |((deals_played, before, bid), after, winner)| {
        let game = eight_made_from(deals_played, before, bid);
        assert_eq!(game.scores(), after);
        assert_eq!(
            game.outcome(),
            winner.map(|team| Outcome::Winner(Team(team)))
        );
    });
}

#[test]
fn the_game_ends_at_101_or_at_51_against_0() {
    check_game_ends([
        ("101", ((5, [93, 40], "8"), [101, 40], Some(0))),
        ("100 is not enough", ((5, [92, 40], "8"), [100, 40], None)),
        ("51 against 0", ((5, [43, 0], "8"), [51, 0], Some(0))),
        (
            "50 against 0 is not enough",
            ((5, [42, 0], "8"), [50, 0], None),
        ),
        (
            "51 against 5 is not enough",
            ((5, [43, 5], "8"), [51, 5], None),
        ),
        // The opponents at 51 do not win because their opponents score.
        ("the other team's 51", ((5, [0, 60], "8"), [8, 60], None)),
    ]);
}

#[test]
fn bawan_wins_at_once_only_on_the_first_hand() {
    check_game_ends([
        (
            "Bawan on the first hand",
            ((0, [0, 0], "9"), [36, 0], Some(0)),
        ),
        (
            "Bawan on the second hand",
            ((1, [0, 5], "9"), [36, 5], None),
        ),
        // A later Bawan can still end the game by the other conditions.
        (
            "a later Bawan to 51 against 0",
            ((3, [20, 0], "9"), [56, 0], Some(0)),
        ),
    ]);
}

#[test]
fn the_deal_passes_on_after_every_hand() {
    let mut game = four_after(JokerLead::ContractOnly, DEAL_C, DEAL_C_PLAY);
    game.deal(&deal(DEAL_C)).unwrap();
    assert_eq!(game.hand_summary().dealer, Seat(0));
    assert_eq!(seat_to_act(&game), Seat(1));
    assert_eq!(game.hand_start().deals_played, 1);
}

#[test]
fn headers_read_and_write_the_kout_options() {
    let options = |v: Value| -> Map<String, Value> { v.as_object().unwrap().clone() };
    let rules = GameRules::from_header("kout", None, &Map::new()).unwrap();
    assert_eq!(rules, GameRules::Kout(KoutRules::default()));
    assert_eq!(rules.variant(), "kout6");
    let four = GameRules::from_header(
        "kout",
        Some("kout4"),
        &options(json!({"deck": "two-undealt", "joker_lead": "trump-ace-played"})),
    )
    .unwrap();
    assert_eq!(
        four,
        GameRules::Kout(KoutRules {
            variant: KoutVariant::Four,
            joker_lead: JokerLead::TrumpAcePlayed,
            deck: Kout4Deck::TwoUndealt,
        })
    );
    assert_eq!(
        Value::Object(four.options()),
        json!({"deck": "two-undealt", "joker_lead": "trump-ace-played"})
    );
    for (name, rule) in [
        ("standard", JokerLead::Standard),
        ("contract-only", JokerLead::ContractOnly),
        ("all-trumps-played", JokerLead::AllTrumpsPlayed),
        ("trump-ace-played", JokerLead::TrumpAcePlayed),
    ] {
        let rules =
            GameRules::from_header("kout", None, &options(json!({ "joker_lead": name }))).unwrap();
        assert_eq!(
            rules,
            GameRules::Kout(KoutRules {
                joker_lead: rule,
                ..KoutRules::default()
            })
        );
        let back = GameRules::from_header("kout", Some("kout6"), &rules.options()).unwrap();
        assert_eq!(back, rules);
    }
    let error = |variant: &str, v: Value| {
        GameRules::from_header("kout", Some(variant), &options(v))
            .unwrap_err()
            .to_string()
    };
    assert!(error("kout6", json!({"deck": "two-undealt"})).contains("kout4 only"));
    assert!(error("kout4", json!({"deck": "full"})).contains("must be one of"));
    assert!(error("kout6", json!({"joker_lead": "never"})).contains("must be one of"));
    assert!(error("kout6", json!({"target": 50})).contains("unknown option"));
    assert!(GameRules::from_header("kout", Some("kout5"), &Map::new()).is_err());
}

#[test]
fn observations_show_only_the_seats_own_cards() {
    let game = four_after(
        JokerLead::Standard,
        DEAL_A,
        "bid 5, pass, pass, pass, trump S, play AS",
    );
    let obs = game.observation(Seat(1));
    assert_eq!(obs.dealt, deal(DEAL_A)[1]);
    assert_eq!(obs.actions.len(), 6);
    assert_eq!(obs.actions[5].0, Seat(0));
    let summary = game.hand_summary();
    assert_eq!(summary.declarer, Some(Seat(0)));
    assert_eq!(summary.contract, Some(Action::Bid(5)));
    assert_eq!(summary.points, None);
}
