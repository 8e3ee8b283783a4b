//! One test per rule of `rules/kaibosh.txt` and per Kaibosh ruling of `RULINGS.md`, through
//! the public API. Expected results are worked out by hand from the rules, in the comments.

use crate::common;

use calltrump_engine::kaibosh::{can_misdeal, DECK};
use calltrump_engine::{
    Action, AllPass, Broken, Card, CardSet, DealError, Game, GameRules, HandOutcome, Kaibosh,
    KaiboshRules, Outcome, Record, Seat, Strain, Suit, Team, Turn,
};
use common::{apply_all as acts, assert_won, bag, card, check_cases, deal, seat_to_act};

// ---- helpers -------------------------------------------------------------------------

/// A game under `rules`, seat `dealer` dealing `hands` (seat by seat, split by `|`).
fn game(rules: KaiboshRules, dealer: u8, hands: &str) -> Kaibosh {
    let mut game = Kaibosh::new(&rules, Seat(dealer));
    game.deal(&deal(hands)).unwrap();
    game
}

fn default_game(hands: &str) -> Kaibosh {
    game(KaiboshRules::default(), 0, hands)
}

/// The default rules but for the dealer's duty to bid when all others pass.
fn dealer_must_bid() -> KaiboshRules {
    KaiboshRules {
        all_pass: AllPass::DealerMustBid,
        ..KaiboshRules::default()
    }
}

/// [`default_game`] after `actions`.
fn after(hands: &str, actions: &[&str]) -> Kaibosh {
    after_with(KaiboshRules::default(), 0, hands, actions)
}

/// [`game`] after `actions`.
fn after_with(rules: KaiboshRules, dealer: u8, hands: &str, actions: &[&str]) -> Kaibosh {
    let mut game = game(rules, dealer, hands);
    acts(&mut game, actions);
    game
}

fn act(game: &mut Kaibosh, text: &str) {
    acts(game, &[text]);
}

/// The rule `text` breaks; the game must be left as it was.
fn refused(game: &Kaibosh, text: &str) -> Broken {
    common::refused(game, text).broken
}

/// The legal actions are exactly `texts`, in any order.
fn assert_legal(game: &Kaibosh, texts: &[&str]) {
    let legal = game.legal_action_list();
    let expected: Vec<Action> = texts.iter().map(|t| t.parse().unwrap()).collect();
    assert_eq!(legal.len(), expected.len(), "legal: {legal:?}");
    for action in expected {
        assert!(legal.contains(&action), "{action} missing from {legal:?}");
    }
}

/// Plays the hand out: each seat plays the first card of its preference list (seat by
/// seat, split by `|`) that the engine accepts. Only the choice of card is ours; legality
/// and winners are the engine's.
fn play_out(game: &mut Kaibosh, prefs: &str) {
    let prefs: Vec<&str> = prefs.split('|').collect();
    while let Turn::Seat(seat) = game.turn() {
        let list = prefs[seat.index()];
        let choice = list
            .split_whitespace()
            .map(|c| Action::Play(card(c)))
            .find(|a| game.is_legal(*a))
            .unwrap_or_else(|| panic!("seat {seat}: nothing in \"{list}\" is legal"));
        game.apply(choice).unwrap();
    }
}

/// Each seat holds one suit: spades, hearts, diamonds, clubs, listed from the top.
const SUITED: &str =
    "JS AS KS QS TS 9S | JH AH KH QH TH 9H | JD AD KD QD TD 9D | JC AC KC QC TC 9C";

/// A mixed deal (the data cases' deal M).
const MIXED: &str = "JS AS KH 9D AC KC | JC QS AH QH 9C TC | TS 9S AD KD QD JH | KS TH 9H JD TD QC";

/// Seat 1 holds the four nines: it may call a misdeal.
const FOUR_NINES: &str =
    "JS QS KS JH QH KH | 9S 9H 9D 9C AS AH | TS TH TD TC JD QD | KD AD JC QC KC AC";

fn record(json: serde_json::Value) -> Record {
    Record::parse(&json.to_string()).unwrap()
}

// ---- deck and deal -------------------------------------------------------------------

#[test]
fn deck_is_nine_to_ace_in_four_suits() {
    assert_eq!(DECK.len(), 24);
    for suit in Suit::ALL {
        for rank in 9..=14 {
            assert!(DECK.contains(Card::new(rank, suit)));
        }
        assert!(!DECK.contains(Card::new(8, suit)));
    }
}

#[test]
fn a_card_below_nine_may_not_be_dealt() {
    let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(0));
    let hands = SUITED.replace("9S", "8S");
    assert_eq!(
        game.deal(&deal(&hands)),
        Err(DealError::NotInDeck(card("8S")))
    );
}

#[test]
fn every_seat_is_dealt_six_cards() {
    let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(0));
    let hands = "JS AS KS QS TS 9S JH | AH KH QH TH 9H | JD AD KD QD TD 9D | JC AC KC QC TC 9C";
    assert!(matches!(
        game.deal(&deal(hands)),
        Err(DealError::HandSize { found: 7, .. })
    ));
    // A refused deal leaves the game waiting for a deal.
    assert_eq!(game.turn(), Turn::Chance);
}

#[test]
fn a_card_may_be_dealt_only_once() {
    let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(0));
    let hands = SUITED.replacen("9S", "9H", 1);
    assert_eq!(
        game.deal(&deal(&hands)),
        Err(DealError::TooMany(card("9H")))
    );
}

#[test]
fn partners_sit_across_the_table() {
    assert_eq!(Seat(0).team(), Seat(2).team());
    assert_eq!(Seat(1).team(), Seat(3).team());
    assert_ne!(Seat(0).team(), Seat(1).team());
}

// ---- auction -------------------------------------------------------------------------

#[test]
fn auction_starts_with_the_seat_after_the_dealer() {
    for dealer in 0..4 {
        let game = game(KaiboshRules::default(), dealer, MIXED);
        assert_eq!(seat_to_act(&game), Seat((dealer + 1) % 4));
    }
}

#[test]
fn every_player_calls_exactly_once_and_a_pass_is_final() {
    let mut game = default_game(MIXED);
    // Seat 1 passes; after seat 2 bids, seat 1 has no second turn: after four calls the
    // auction is over and the high bidder names trump.
    acts(&mut game, &["pass", "bid 1", "pass"]);
    assert_eq!(seat_to_act(&game), Seat(0));
    act(&mut game, "pass");
    assert_eq!(seat_to_act(&game), Seat(2));
    assert!(matches!(refused(&game, "bid 2"), Broken::NotNow { .. }));
    assert!(matches!(refused(&game, "pass"), Broken::NotNow { .. }));
}

#[test]
fn bids_range_from_one_to_six() {
    let game = default_game(MIXED);
    for n in 1..=6 {
        assert!(game.is_legal(Action::Bid(n)), "bid {n}");
    }
    for n in [0, 7, 12] {
        assert_eq!(
            refused(&game, &format!("bid {n}")),
            Broken::BidOutOfRange { low: 1, high: 6 }
        );
    }
}

#[test]
fn a_bid_must_exceed_the_high_bid() {
    let mut game = default_game(MIXED);
    act(&mut game, "bid 3");
    for n in [1, 2, 3] {
        assert_eq!(
            refused(&game, &format!("bid {n}")),
            Broken::BidTooLow {
                high: Action::Bid(3)
            }
        );
    }
    act(&mut game, "pass");
    // A pass does not lower the bar.
    assert!(matches!(refused(&game, "bid 3"), Broken::BidTooLow { .. }));
    act(&mut game, "bid 4");
    assert_legal(&game, &["pass", "bid 5", "bid 6", "kaibosh"]);
}

#[test]
fn every_bid_is_legal_whatever_the_hand_holds() {
    // Ruling 4: the conventions are not rules. Seat 1 has no ace and no jack, yet may
    // bid 1 ("two aces") and 2 ("a black and a red jack") alike.
    let hands = "JS AS KS QS JH AH | 9S TS 9H TH KH QH | JD AD KD QD TD 9D | JC AC KC QC TC 9C";
    let game = default_game(hands);
    for text in ["bid 1", "bid 2", "bid 3", "kaibosh"] {
        assert!(game.is_legal(text.parse().unwrap()), "{text}");
    }
}

#[test]
fn high_bidder_names_trump_and_the_seat_after_the_dealer_leads() {
    let mut game = game(KaiboshRules::default(), 2, MIXED);
    // Dealer 2: seats 3, 0, 1, 2 call; seat 1 has the high bid.
    acts(&mut game, &["bid 1", "pass", "bid 2", "pass"]);
    assert_eq!(seat_to_act(&game), Seat(1));
    let summary = game.hand_summary();
    assert_eq!(summary.declarer, Some(Seat(1)));
    assert_eq!(summary.contract, Some(Action::Bid(2)));
    assert_eq!(summary.trump, None);
    assert!(matches!(refused(&game, "play QS"), Broken::NotNow { .. }));
    act(&mut game, "trump S");
    assert_eq!(game.trump(), Some(Suit::Spades));
    assert_eq!(seat_to_act(&game), Seat(3));
    assert_eq!(game.trick().leader, Seat(3));
}

// ---- kaibosh -------------------------------------------------------------------------

#[test]
fn kaibosh_ends_the_auction_at_once() {
    let mut game = default_game(MIXED);
    act(&mut game, "kaibosh");
    // Seats 2, 3 and 0 never call: seat 1 names trump next.
    assert_eq!(seat_to_act(&game), Seat(1));
    assert_eq!(game.hand_summary().contract, Some(Action::Kaibosh));
    assert_eq!(game.hand_summary().declarer, Some(Seat(1)));
    assert_legal(&game, &["trump S", "trump H", "trump D", "trump C"]);
}

#[test]
fn kaibosh_outranks_a_bid_of_six() {
    let mut game = default_game(MIXED);
    act(&mut game, "bid 6");
    assert!(game.is_legal(Action::Kaibosh));
    act(&mut game, "kaibosh");
    assert_eq!(game.hand_summary().declarer, Some(Seat(2)));
    assert_eq!(game.hand_summary().contract, Some(Action::Kaibosh));
}

#[test]
fn kaiboshing_player_names_trump_and_leads() {
    let mut game = after(MIXED, &["pass", "pass", "kaibosh"]);
    assert_eq!(seat_to_act(&game), Seat(3));
    act(&mut game, "trump D");
    // Seat 3 leads, not seat 1 (the seat after the dealer).
    assert_eq!(seat_to_act(&game), Seat(3));
    assert_eq!(refused(&game, "play JC"), Broken::NotHeld(card("JC")));
}

#[test]
fn kaibosh_partner_sits_out_and_tricks_have_three_cards() {
    let mut game = after(SUITED, &["kaibosh", "trump H"]);
    assert_eq!(game.out(), Some(Seat(3)));
    // Seat 1 leads, then seat 2, then seat 0: seat 3 is skipped.
    act(&mut game, "play JH");
    assert_eq!(seat_to_act(&game), Seat(2));
    act(&mut game, "play JD");
    assert_eq!(seat_to_act(&game), Seat(0));
    assert_eq!(refused(&game, "play 9C"), Broken::NotHeld(card("9C")));
    act(&mut game, "play 9S");
    // Three cards complete the trick; the right bower wins it for team 1.
    assert_won(&game, [0, 1], 1);
    // The partner never plays: after the hand seat 3 still holds all six clubs.
    play_out(&mut game, SUITED);
    assert_eq!(game.hand(Seat(3)).len(), 6);
    assert_eq!(game.hand_summary().tricks, [0, 6]);
}

#[test]
fn kaibosh_made_scores_twelve() {
    let mut game = after(SUITED, &["kaibosh", "trump H"]);
    // Seat 1 leads JH, AH, KH...: nobody can beat them.
    play_out(&mut game, SUITED);
    let summary = game.hand_summary();
    assert_eq!(summary.outcome, HandOutcome::Played);
    assert_eq!(summary.tricks, [0, 6]);
    assert_eq!(summary.points, Some([0, 12]));
    assert_eq!(game.scores(), [0, 12]);
}

#[test]
fn kaibosh_failed_loses_twelve_and_defenders_score_their_tricks() {
    let mut game = after(SUITED, &["kaibosh", "trump H"]);
    // Seat 1 leads 9H; seat 2 must play its only trump, JD (the left bower), and wins.
    // Seat 2 then leads 9D: seat 0 discards, seat 1 trumps and takes the rest: 1 trick
    // to team 0, five to the kaiboshing player.
    let prefs = "9S TS QS KS AS JS | 9H TH JH QH KH AH | 9D TD JD QD KD AD | JC AC KC QC TC 9C";
    play_out(&mut game, prefs);
    let summary = game.hand_summary();
    assert_eq!(summary.tricks, [1, 5]);
    assert_eq!(summary.points, Some([1, -12]));
    assert_eq!(game.scores(), [1, -12]);
}

#[test]
fn kaibosh_ends_the_auction_before_later_misdeal() {
    // Seat 2 holds four 9s, but seat 1 kaiboshes first: seat 2 never gets a turn.
    let hands = "JS QS KS JH QH KH | TS TH TD TC JD QD | 9S 9H 9D 9C AS AH | KD AD JC QC KC AC";
    let mut game = default_game(hands);
    assert!(game.is_legal(Action::Bid(1)));
    act(&mut game, "kaibosh");
    assert!(matches!(refused(&game, "misdeal"), Broken::NotNow { .. }));
}

// ---- misdeal -------------------------------------------------------------------------

#[test]
fn misdeal_needs_four_nines_or_three_nines_and_two_tens() {
    assert!(can_misdeal(bag("9S 9H 9D 9C AS KS").faces()));
    assert!(can_misdeal(bag("9S 9H 9D 9C TS TH").faces()));
    assert!(can_misdeal(bag("9S 9H 9D TS TH AC").faces()));
    assert!(can_misdeal(bag("9S 9H 9D TS TH TC").faces()));
    assert!(!can_misdeal(bag("9S 9H 9D TS AH AC").faces()));
    assert!(!can_misdeal(bag("9S 9H TD TS TH TC").faces()));
    assert!(!can_misdeal(CardSet::EMPTY));
}

#[test]
fn misdeal_is_declared_on_the_holders_own_turn_after_earlier_bids() {
    let hands = "JS QS KS JH QH KH | AS AH 9C TC AD KD | 9S 9H 9D TS TH AC | TD JD QD JC QC KC";
    let mut game = default_game(hands);
    // Seat 1 may not: it lacks the cards.
    assert_eq!(refused(&game, "misdeal"), Broken::NoMisdeal);
    act(&mut game, "bid 1");
    assert!(game.legal_action_list().contains(&Action::Misdeal));
    act(&mut game, "misdeal");
    let summary = game.hand_summary();
    assert_eq!(summary.outcome, HandOutcome::Misdeal);
    assert_eq!(summary.declarer, None);
    assert_eq!(summary.contract, None);
    assert_eq!(summary.points, Some([0, 0]));
}

#[test]
fn three_nines_and_one_ten_is_no_misdeal() {
    let hands = "JS QS KS JH QH KH | 9S 9H 9D TS AH AS | TH TD TC JD QD KD | 9C AD JC QC KC AC";
    let game = default_game(hands);
    assert_eq!(refused(&game, "misdeal"), Broken::NoMisdeal);
    assert!(!game.legal_action_list().contains(&Action::Misdeal));
}

#[test]
fn misdeal_ends_the_hand_and_the_deal_passes_on() {
    let mut game = default_game(FOUR_NINES);
    act(&mut game, "misdeal");
    assert_eq!(game.turn(), Turn::Chance);
    assert_eq!(game.scores(), [0, 0]);
    game.deal(&deal(MIXED)).unwrap();
    assert_eq!(game.hand_summary().dealer, Seat(1));
    assert_eq!(seat_to_act(&game), Seat(2));
}

#[test]
fn holder_of_four_nines_may_bid_instead() {
    let mut game = default_game(FOUR_NINES);
    act(&mut game, "bid 1");
    // The misdeal was a choice on that turn only.
    acts(&mut game, &["pass", "pass", "pass"]);
    assert_eq!(seat_to_act(&game), Seat(1));
    assert!(!game.legal_action_list().contains(&Action::Misdeal));
}

// ---- all pass ------------------------------------------------------------------------

#[test]
fn all_pass_redeal_throws_the_hand_in() {
    let mut game = after(MIXED, &["pass", "pass", "pass"]);
    assert!(game.is_legal(Action::Pass));
    act(&mut game, "pass");
    let summary = game.hand_summary();
    assert_eq!(summary.outcome, HandOutcome::ThrownIn);
    assert_eq!(summary.points, Some([0, 0]));
    assert_eq!(game.turn(), Turn::Chance);
    game.deal(&deal(MIXED)).unwrap();
    assert_eq!(game.hand_summary().dealer, Seat(1));
}

#[test]
fn dealer_must_bid_forbids_the_dealers_pass_after_three_passes() {
    let mut game = after_with(dealer_must_bid(), 3, MIXED, &["pass", "pass", "pass"]);
    assert_eq!(seat_to_act(&game), Seat(3));
    assert_eq!(refused(&game, "pass"), Broken::DealerMustBid);
    assert!(!game.legal_action_list().contains(&Action::Pass));
    assert!(game.is_legal(Action::Bid(1)));
    assert!(game.is_legal(Action::Kaibosh));
    act(&mut game, "bid 1");
    assert_eq!(game.hand_summary().declarer, Some(Seat(3)));
}

#[test]
fn dealer_must_bid_lets_the_dealer_pass_over_a_bid() {
    let game = after_with(
        dealer_must_bid(),
        0,
        MIXED,
        &["pass", "bid 2", "pass", "pass"],
    );
    assert_eq!(game.hand_summary().declarer, Some(Seat(2)));
}

#[test]
fn dealer_must_bid_allows_the_dealers_misdeal() {
    let mut game = after_with(dealer_must_bid(), 1, FOUR_NINES, &["pass", "pass", "pass"]);
    assert!(game.legal_action_list().contains(&Action::Misdeal));
    act(&mut game, "misdeal");
    assert_eq!(game.hand_summary().outcome, HandOutcome::Misdeal);
}

// ---- bowers and following --------------------------------------------------------------

#[test]
fn right_bower_beats_every_card_and_left_bower_every_other() {
    let mut game = after(MIXED, &["pass", "pass", "pass", "bid 1", "trump C"]);
    // JC (right), JH, QC, JS (left): the right bower wins for seat 1.
    acts(&mut game, &["play JC", "play JH", "play QC", "play JS"]);
    assert_won(&game, [0, 1], 1);
}

#[test]
fn left_bower_beats_the_trump_ace() {
    // Dealer 1: seat 2 bids, names diamonds and leads AD. Seat 1 holds hearts only, so
    // its JH, the left bower, is its only diamond: it must be played, and it wins.
    let mut game = after_with(
        KaiboshRules::default(),
        1,
        SUITED,
        &["bid 1", "pass", "pass", "pass", "trump D"],
    );
    acts(&mut game, &["play AD", "play JC", "play JS"]);
    assert_legal(&game, &["play JH"]);
    act(&mut game, "play JH");
    assert_won(&game, [0, 1], 1);
}

#[test]
fn off_colour_jacks_rank_between_queen_and_ten() {
    // Spades trump: JH is a plain heart between QH and TH.
    let hands = "JS JC JD QD KD AD | TH 9S TS QS KS AS | JH 9C TC QC KC AC | 9H QH KH AH 9D TD";
    let calls = ["bid 1", "pass", "pass", "bid 2", "trump S"];
    let mut game = after(hands, &calls);
    acts(&mut game, &["play TH", "play JH", "play 9H", "play AD"]);
    assert_eq!(game.hand_summary().tricks, [1, 0], "JH beats TH");
    let mut game = after(hands, &calls);
    acts(&mut game, &["play TH", "play JH", "play QH", "play AD"]);
    assert_eq!(game.hand_summary().tricks, [0, 1], "QH beats JH");
}

/// A card of another suit is refused while the seat can follow; with trump, the left
/// bower belongs to trump's suit and not to its printed one.
#[test]
fn a_seat_that_can_follow_must_follow() {
    struct Case {
        hands: &'static str,
        actions: &'static [&'static str],
        refused: Vec<(&'static str, Broken)>,
        /// The only legal plays, where the case pins them down.
        legal: Option<&'static [&'static str]>,
    }
    let cases = [
        (
            // Seat 2 holds diamonds only, but JD is a heart now: it must be played.
            "the left bower must follow a trump lead",
            Case {
                hands: SUITED,
                actions: &["bid 1", "pass", "pass", "pass", "trump H", "play JH"],
                refused: vec![("play 9D", Broken::MustFollow(Suit::Hearts))],
                legal: Some(&["play JD"]),
            },
        ),
        (
            // Hearts trump: seat 2 holds JD and TD; to a diamond lead it must play TD.
            "the left bower does not follow its printed suit",
            Case {
                hands:
                    "9H TH QH KH AH 9D | AD KD 9S TS QS KS | JD TD JH AS 9C TC | QD JS JC QC KC AC",
                actions: &["pass", "bid 1", "pass", "bid 2", "trump H", "play AD"],
                refused: vec![("play JD", Broken::MustFollow(Suit::Diamonds))],
                legal: Some(&["play TD"]),
            },
        ),
        (
            "the led suit when able",
            Case {
                hands: MIXED,
                actions: &[
                    "pass", "pass", "pass", "bid 3", "trump C", "play JC", "play TS", "play QC",
                    "play JS", "play QS",
                ],
                refused: vec![
                    ("play AD", Broken::MustFollow(Suit::Spades)),
                    ("play AS", Broken::NotHeld(card("AS"))),
                ],
                legal: None,
            },
        ),
    ];
    check_cases(cases, |case| {
        let game = after(case.hands, case.actions);
        for (action, broken) in case.refused {
            assert_eq!(refused(&game, action), broken, "{action}");
        }
        if let Some(legal) = case.legal {
            assert_legal(&game, legal);
        }
    });
}

#[test]
fn player_void_but_for_the_left_bower_may_trump_with_it() {
    // Hearts trump: seat 2's only diamond-faced card is JD, a trump: it is void in
    // diamonds, may play anything, and JD takes the diamond ace.
    let mut game = after(
        "9H TH QH KH AH 9S | AD KD QD 9D TS QS | JD JH AS KS 9C TC | TD JS JC QC KC AC",
        &["pass", "bid 1", "pass", "bid 2", "trump H", "play AD"],
    );
    assert_eq!(game.legal_action_list().len(), 6);
    acts(&mut game, &["play JD", "play TD", "play 9S"]);
    assert_won(&game, [1, 0], 2);
}

#[test]
fn leading_the_left_bower_leads_trump() {
    let mut game = after(
        "TH JH QH KH AH 9D | JD AD 9S TS QS KS | 9H KD QD AS 9C TC | TD JS JC QC KC AC",
        &["bid 1", "pass", "pass", "bid 2", "trump H", "play JD"],
    );
    // Seat 2 holds 9H and diamonds: it must play the heart.
    assert_eq!(refused(&game, "play KD"), Broken::MustFollow(Suit::Hearts));
    act(&mut game, "play 9H");
    // Seat 3 has no heart: a diamond is a discard, not a follow.
    assert_eq!(game.legal_action_list().len(), 6);
    act(&mut game, "play TD");
    // Seat 0 must follow hearts too; TH is below the left bower, which wins.
    assert_eq!(refused(&game, "play 9D"), Broken::MustFollow(Suit::Hearts));
    act(&mut game, "play TH");
    assert_won(&game, [0, 1], 1);
}

#[test]
fn void_player_may_trump_or_throw_any_card() {
    let mut game = after(SUITED, &["pass", "pass", "bid 2", "pass", "trump C"]);
    // Seat 1 leads 9H. Seat 2 (void) throws AD, seat 3 (void) trumps with 9C, seat 0
    // (void) throws AS: the lowest trump beats both aces.
    act(&mut game, "play 9H");
    assert_eq!(game.legal_action_list().len(), 6);
    acts(&mut game, &["play AD", "play 9C", "play AS"]);
    assert_won(&game, [0, 1], 3);
    // Seat 3 leads AC: JS (left bower) is seat 0's only club and must be played; it
    // beats the ace of trumps.
    act(&mut game, "play AC");
    assert_legal(&game, &["play JS"]);
    acts(&mut game, &["play JS", "play AH", "play KD"]);
    assert_won(&game, [1, 1], 0);
}

#[test]
fn highest_card_of_the_led_suit_wins_without_trumps() {
    // Dealer 3: seat 0 kaiboshes in diamonds (seat 2 is out) and leads 9S; seats 1 and 3
    // are void in spades and throw aces: the 9 of the led suit wins.
    let mut game = after_with(KaiboshRules::default(), 3, SUITED, &["kaibosh", "trump D"]);
    act(&mut game, "play 9S");
    assert_eq!(seat_to_act(&game), Seat(1));
    act(&mut game, "play AH");
    assert_eq!(seat_to_act(&game), Seat(3));
    act(&mut game, "play AC");
    assert_won(&game, [1, 0], 0);
}

#[test]
fn winner_of_a_trick_leads_the_next() {
    let mut game = after(MIXED, &["pass", "pass", "pass", "bid 3", "trump C"]);
    acts(&mut game, &["play JC", "play TS", "play QC", "play JS"]);
    assert_eq!(seat_to_act(&game), Seat(1));
    acts(&mut game, &["play QS", "play 9S", "play KS", "play AS"]);
    assert_eq!(seat_to_act(&game), Seat(0));
    assert_eq!(game.trick().leader, Seat(0));
}

// ---- scoring -------------------------------------------------------------------------

/// Deal MIXED, dealer 0, all seats play their first legal card in dealt order.
fn mixed_hand(calls: &[&str], trump: &str) -> Kaibosh {
    let mut game = default_game(MIXED);
    acts(&mut game, calls);
    act(&mut game, &format!("trump {trump}"));
    play_out(&mut game, MIXED);
    game
}

#[test]
fn bid_made_exactly_scores_the_tricks() {
    // Clubs trump: JC wins for seat 1, AS for seat 0, AH and QH for seat 1, AC and KC
    // for seat 0: three tricks each.
    let game = mixed_hand(&["pass", "pass", "pass", "bid 3"], "C");
    assert_eq!(game.hand_summary().tricks, [3, 3]);
    assert_eq!(game.hand_summary().points, Some([3, 0]));
}

#[test]
fn bid_made_with_overtricks_scores_every_trick() {
    // Spades trump: JS, AS, AC and KC take four tricks for team 0 against AH and QH.
    let game = mixed_hand(&["pass", "bid 2", "pass", "pass"], "S");
    assert_eq!(game.hand_summary().tricks, [4, 2]);
    assert_eq!(game.hand_summary().points, Some([4, 0]));
}

#[test]
fn bid_failed_loses_the_bid_and_defenders_score_their_tricks() {
    let game = mixed_hand(&["bid 3", "pass", "pass", "pass"], "S");
    assert_eq!(game.hand_summary().tricks, [4, 2]);
    assert_eq!(game.hand_summary().points, Some([4, -3]));
    assert_eq!(game.scores(), [4, -3]);
}

#[test]
fn scores_may_go_negative_and_accumulate() {
    let mut game = mixed_hand(&["bid 3", "pass", "pass", "pass"], "S");
    // Dealer 1: seats 2, 3, 0, 1 call; seat 3 bids 6 and fails: team 1 loses 6 more.
    game.deal(&deal(MIXED)).unwrap();
    acts(&mut game, &["pass", "bid 6", "pass", "pass", "trump S"]);
    play_out(&mut game, MIXED);
    let summary = game.hand_summary();
    assert_eq!(summary.dealer, Seat(1));
    assert_eq!(summary.points.unwrap()[1], -6);
    let defenders = summary.points.unwrap()[0];
    assert_eq!(defenders, i32::from(summary.tricks[0]));
    assert_eq!(game.scores(), [4 + defenders, -9]);
}

// ---- game end ------------------------------------------------------------------------

/// The default rules but for what ends the game: a target score, a number of deals.
fn ending(target: Option<i32>, deals: Option<u32>) -> KaiboshRules {
    KaiboshRules {
        target,
        deals,
        ..KaiboshRules::default()
    }
}

/// Plays one hand in which seat 1 kaiboshes in hearts on SUITED and takes all six.
fn seat1_kaibosh(game: &mut Kaibosh) {
    game.deal(&deal(SUITED)).unwrap();
    while seat_to_act(game) != Seat(1) {
        act(game, "pass");
    }
    acts(game, &["kaibosh", "trump H"]);
    play_out(game, SUITED);
}

#[test]
fn game_ends_after_the_hand_that_reaches_fifty() {
    let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(0));
    for hand in 0..5 {
        assert_eq!(game.turn(), Turn::Chance, "hand {hand}");
        seat1_kaibosh(&mut game);
    }
    // 48 after four hands, 60 after five.
    assert_eq!(game.scores(), [0, 60]);
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.outcome(), Some(Outcome::Winner(Team(1))));
    let mut over = game.clone();
    assert!(over.deal(&deal(SUITED)).is_err());
}

#[test]
fn game_to_another_target_ends_on_reaching_it() {
    let mut game = Kaibosh::new(&ending(Some(24), None), Seat(2));
    seat1_kaibosh(&mut game);
    assert_eq!(game.outcome(), None);
    seat1_kaibosh(&mut game);
    assert_eq!(game.scores(), [0, 24]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(Team(1))));
}

#[test]
fn fixed_deals_count_every_deal_and_ignore_the_score() {
    let mut game = Kaibosh::new(&ending(None, Some(6)), Seat(0));
    for _ in 0..5 {
        seat1_kaibosh(&mut game);
    }
    assert_eq!(game.scores(), [0, 60]);
    assert_eq!(game.turn(), Turn::Chance);
    // A thrown-in sixth deal ends the game.
    game.deal(&deal(MIXED)).unwrap();
    acts(&mut game, &["pass", "pass", "pass", "pass"]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(Team(1))));
}

#[test]
fn fixed_deals_with_a_target_end_at_whichever_comes_first() {
    let mut game = Kaibosh::new(&ending(Some(24), Some(5)), Seat(0));
    seat1_kaibosh(&mut game);
    seat1_kaibosh(&mut game);
    assert_eq!(game.turn(), Turn::Over, "the target first");
    let mut game = Kaibosh::new(&ending(Some(24), Some(1)), Seat(0));
    seat1_kaibosh(&mut game);
    assert_eq!(game.turn(), Turn::Over, "the deals first");
    assert_eq!(game.scores(), [0, 12]);
}

#[test]
fn fixed_deals_ending_level_is_a_draw() {
    let mut game = Kaibosh::new(&ending(None, Some(2)), Seat(0));
    seat1_kaibosh(&mut game);
    // Dealer 1: seat 2 calls first and kaiboshes in diamonds; it leads JD, AD, ...
    game.deal(&deal(SUITED)).unwrap();
    acts(&mut game, &["kaibosh", "trump D"]);
    play_out(&mut game, SUITED);
    assert_eq!(game.scores(), [12, 12]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn deal_passes_to_the_next_seat_after_every_hand() {
    let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(3));
    let mut dealers = Vec::new();
    for _ in 0..5 {
        game.deal(&deal(MIXED)).unwrap();
        dealers.push(game.hand_summary().dealer.0);
        acts(&mut game, &["pass", "pass", "pass", "pass"]);
    }
    assert_eq!(dealers, [3, 0, 1, 2, 3]);
}

// ---- options read from a record ----------------------------------------------------------

#[test]
fn record_options_default_to_redeal_and_target_fifty() {
    let rec = record(serde_json::json!({"game": "kaibosh"}));
    let (rules, first_dealer) = rec.rules().unwrap();
    assert_eq!(rules, GameRules::Kaibosh(KaiboshRules::default()));
    assert_eq!(first_dealer, Seat(0));
}

#[test]
fn record_options_set_all_pass_target_and_deals() {
    let read = |options: serde_json::Value| {
        let rec = record(serde_json::json!({"game": "kaibosh", "options": options}));
        match rec.rules().unwrap().0 {
            GameRules::Kaibosh(rules) => rules,
            other => panic!("a kaibosh header read as {other:?}"),
        }
    };
    assert_eq!(
        read(serde_json::json!({"all_pass": "dealer-must-bid"})).all_pass,
        AllPass::DealerMustBid
    );
    assert_eq!(read(serde_json::json!({"target": 100})).target, Some(100));
    let deals = read(serde_json::json!({"deals": 8}));
    assert_eq!((deals.deals, deals.target), (Some(8), None));
    let both = read(serde_json::json!({"deals": 8, "target": 30}));
    assert_eq!((both.deals, both.target), (Some(8), Some(30)));
}

#[test]
fn record_header_writes_back_the_options_it_read() {
    for options in [
        serde_json::json!({}),
        serde_json::json!({"all_pass": "dealer-must-bid"}),
        serde_json::json!({"target": 100}),
        serde_json::json!({"deals": 8}),
        serde_json::json!({"deals": 8, "target": 50}),
        serde_json::json!({"deals": 3, "target": 12, "all_pass": "dealer-must-bid"}),
    ] {
        let rec = record(serde_json::json!({"game": "kaibosh", "options": options}));
        let (rules, _) = rec.rules().unwrap();
        let written = Record::new(&rules, Seat(2));
        assert_eq!(written.rules().unwrap(), (rules, Seat(2)), "{options}");
        assert_eq!(written.options, *options.as_object().unwrap(), "{options}");
    }
}

#[test]
fn record_rejects_unknown_options_and_counts_below_one() {
    for options in [
        serde_json::json!({"trumps": "no"}),
        serde_json::json!({"target": 0}),
        serde_json::json!({"deals": 0}),
        serde_json::json!({"target": -50}),
        serde_json::json!({"target": 50.5}),
        serde_json::json!({"all_pass": "redeal-twice"}),
        serde_json::json!({"all_pass": 1}),
    ] {
        let rec = record(serde_json::json!({"game": "kaibosh", "options": options}));
        let error = rec.replay().expect_err(&options.to_string()).to_string();
        assert!(!error.starts_with("hand"), "{options}: {error}");
    }
}

#[test]
fn replay_reports_the_trump_as_a_strain_and_the_kaibosh_contract() {
    let rec = record(serde_json::json!({
        "game": "kaibosh",
        "hands": [{"deal": SUITED.split('|').map(|h| h.split_whitespace().collect::<Vec<_>>()).collect::<Vec<_>>(), "actions": ["kaibosh", "trump H"]}]
    }));
    let (replay, _) = rec.replay().unwrap();
    let hand = replay.hands[0];
    assert_eq!(hand.trump, Some(Strain::Suit(Suit::Hearts)));
    assert_eq!(hand.contract, Some(Action::Kaibosh));
    assert_eq!(hand.outcome, HandOutcome::InProgress);
    assert_eq!(hand.points, None);
}
