//! Kaibosh for the bots: the knowledge an observation gives, the play position, scoring,
//! and the rules of thumb and auction model behind the conventions (1 = two or more
//! aces, 2 = a black and a red jack, 3 = block).

use calltrump_engine::kaibosh::DECK;
use calltrump_engine::{
    Action, Card, CardBag, CardOrder, CardSet, Kaibosh, KaiboshRules, Observation, Seat,
    SeenAction, Suit, ACE, JACK, KING, QUEEN,
};

use crate::calls::{best_by, fit, legal_or_forced_bid, lowest_bid};
use crate::model::BotGame;
use crate::position::Layout;
use crate::sampler::{card_plays, Knowledge};

const TRICKS: u8 = 6;

/// Layouts of the deck under each trump, built once.
fn layout(trump: Suit) -> &'static Layout {
    static LAYOUTS: std::sync::OnceLock<[Layout; 4]> = std::sync::OnceLock::new();
    &LAYOUTS.get_or_init(|| {
        Suit::ALL.map(|s| Layout::new(CardOrder::euchre(Some(s)), CardBag::from_set(DECK)))
    })[trump.index()]
}

impl BotGame for Kaibosh {
    // A failed kaibosh: -12 against up to 6 for the defenders.
    const SWING: f64 = 18.0;

    fn deck(_: &KaiboshRules) -> Vec<Card> {
        DECK.iter().collect()
    }

    fn target(rules: &KaiboshRules) -> Option<i32> {
        rules.target
    }

    fn knowledge(_: &KaiboshRules, observation: &Observation) -> Knowledge {
        let deck: Vec<Card> = DECK.iter().collect();
        let mut knowledge = Knowledge::from_plays(observation, 4, 6, &deck);
        if let Some(trump) = observation.declared.trump_suit() {
            let plays = card_plays(observation);
            let players = if observation.declared.sitting_out.is_some() {
                3
            } else {
                4
            };
            knowledge.add_voids(plays, players, CardOrder::euchre(Some(trump)));
        }
        knowledge
    }

    fn play_layout(&self) -> &'static Layout {
        layout(self.trump().expect("trump is named before the play"))
    }

    fn own_tricks(_: &KaiboshRules, hand: CardBag) -> f64 {
        best_trump(hand.faces()).1
    }

    fn call_fit(
        _: &KaiboshRules,
        seat: Seat,
        call: Action,
        before: &[(Seat, SeenAction)],
        hand: CardBag,
    ) -> f64 {
        let hand = hand.faces();
        let strength = best_trump(hand).1 + partner_help(before, seat);
        let lowest = lowest_bid(before, 1);
        match call {
            Action::Bid(1) => soft(aces(hand) >= 2, 0.25),
            Action::Bid(2) => soft(has_black_and_red_jack(hand), 0.25),
            Action::Bid(3) => soft(strength >= 2.5 || opponents_signalled(before, seat), 0.4),
            Action::Bid(n) => fit(0.9, f64::from(n) - strength - 0.5),
            Action::Kaibosh => fit(1.5, KAIBOSH_STRENGTH - best_trump(hand).1),
            Action::Pass => fit(0.8, strength - f64::from(lowest) - 0.5),
            _ => 1.0,
        }
    }

    fn rules_call(_: &KaiboshRules, observation: &Observation, legal: &[Action]) -> Action {
        let hand = observation.hand.faces();
        if legal.iter().any(|a| matches!(a, Action::Trump(_))) {
            return Action::Trump(best_trump(hand).0);
        }
        let before = &observation.actions[..];
        let seat = observation.seat;
        if legal.contains(&Action::Misdeal) && best_trump(hand).1 < 2.5 {
            return Action::Misdeal;
        }
        let own = best_trump(hand).1;
        if own >= KAIBOSH_STRENGTH && legal.contains(&Action::Kaibosh) {
            return Action::Kaibosh;
        }
        let strength = own + partner_help(before, seat);
        let lowest = lowest_bid(before, 1);
        let want = (strength + 0.2).floor() as u8;
        let real = want >= lowest.max(3) && want <= TRICKS;
        // A sure contract of 4 or more is bid at once; below that the conventions come
        // first (they tell the partner more than a 3 would).
        let pick = if real && want >= 4 {
            Action::Bid(want)
        } else if lowest == 1 && aces(hand) >= 2 {
            Action::Bid(1)
        } else if lowest <= 2 && has_black_and_red_jack(hand) {
            Action::Bid(2)
        } else if real {
            Action::Bid(want)
        } else if lowest <= 3 && opponents_signalled(before, seat) && strength >= 2.5 {
            Action::Bid(3)
        } else {
            Action::Pass
        };
        legal_or_forced_bid(pick, legal)
    }
}

/// Own estimated tricks from which a bot bids kaibosh.
const KAIBOSH_STRENGTH: f64 = 5.6;

/// Likelihood 1 when the hand fits the call's meaning, `otherwise` when it does not.
fn soft(fits: bool, otherwise: f64) -> f64 {
    if fits {
        1.0
    } else {
        otherwise
    }
}

fn aces(hand: CardSet) -> usize {
    hand.and(CardSet::ranks(ACE, ACE)).len()
}

fn has_black_and_red_jack(hand: CardSet) -> bool {
    let jack = |s| hand.contains(Card::new(JACK, s));
    (jack(Suit::Spades) || jack(Suit::Clubs)) && (jack(Suit::Hearts) || jack(Suit::Diamonds))
}

/// Whether an opponent of `seat` has made a conventional signal (bid 1 or 2).
fn opponents_signalled(before: &[(Seat, SeenAction)], seat: Seat) -> bool {
    before.iter().any(|(s, seen)| {
        s.team() != seat.team() && matches!(seen, SeenAction::Open(Action::Bid(1 | 2)))
    })
}

/// Tricks the partner is expected to add, from its call (or its silence so far).
fn partner_help(before: &[(Seat, SeenAction)], seat: Seat) -> f64 {
    let partner = seat.partner4();
    match before.iter().find(|(s, _)| *s == partner).map(|(_, c)| *c) {
        None => 1.0,
        Some(SeenAction::Open(Action::Pass)) => 0.6,
        Some(SeenAction::Open(Action::Bid(1 | 2))) => 1.8,
        Some(SeenAction::Open(Action::Bid(n))) => f64::from(n).min(3.0) * 0.6,
        Some(_) => 1.0,
    }
}

/// Estimated tricks `hand` takes by itself with `trump`: bowers and high trumps, length
/// in trumps, off-suit aces, and voids to ruff with.
pub fn trick_estimate(hand: CardSet, trump: Suit) -> f64 {
    let order = CardOrder::euchre(Some(trump));
    let trumps = hand.and(order.cards_of(trump));
    let right = trumps.contains(Card::new(JACK, trump));
    let left = trumps.contains(Card::new(JACK, trump.same_colour()));
    let mut est = 0.0;
    if right {
        est += 1.0;
    }
    if left {
        est += if right { 0.95 } else { 0.7 };
    }
    for (rank, value) in [(ACE, 0.7), (KING, 0.5), (QUEEN, 0.35)] {
        if trumps.contains(Card::new(rank, trump)) {
            est += value;
        }
    }
    let n = trumps.len();
    est += 0.3 * n.saturating_sub(2) as f64;
    for suit in Suit::ALL {
        if suit == trump {
            continue;
        }
        let cards = hand.and(order.cards_of(suit));
        if cards.contains(Card::new(ACE, suit)) {
            est += if cards.len() <= 2 { 0.8 } else { 0.6 };
            if cards.contains(Card::new(KING, suit)) {
                est += 0.3;
            }
        }
        if cards.is_empty() && n >= 2 {
            est += 0.3;
        }
    }
    est
}

/// The suit with the best estimate, and that estimate.
pub fn best_trump(hand: CardSet) -> (Suit, f64) {
    best_by(Suit::ALL, |s| trick_estimate(hand, s)).expect("four suits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_engine::HandStart;

    fn hand(cards: &str) -> CardSet {
        cards
            .split(' ')
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    /// The observation of the first seat to call, holding `cards`, with `before` called.
    fn first_call(cards: &str, before: &[(u8, Action)]) -> (Observation, Vec<Action>) {
        let held = CardBag::from_set(hand(cards));
        let obs = Observation {
            seat: Seat(before.len() as u8),
            start: HandStart {
                deals_played: 0,
                dealer: Seat(3),
                scores: [0, 0],
            },
            dealt: held,
            hand: held,
            actions: before
                .iter()
                .map(|&(s, a)| (Seat(s), SeenAction::Open(a)))
                .collect(),
            // An auction under way has settled nothing.
            declared: Default::default(),
        };
        let low = lowest_bid(&obs.actions, 1);
        let mut legal = vec![Action::Pass];
        legal.extend((low..=6).map(Action::Bid));
        legal.push(Action::Kaibosh);
        if calltrump_engine::kaibosh::can_misdeal(hand(cards)) {
            legal.push(Action::Misdeal);
        }
        (obs, legal)
    }

    fn call(cards: &str, before: &[(u8, Action)]) -> Action {
        let (obs, legal) = first_call(cards, before);
        Kaibosh::rules_call(&KaiboshRules::default(), &obs, &legal)
    }

    #[test]
    fn conventions_signal_aces_and_jacks_and_block() {
        assert_eq!(call("AS AH 9C TD QD 9H", &[]), Action::Bid(1));
        assert_eq!(call("JS JD 9H TC QH 9S", &[]), Action::Bid(2));
        // An opponent signalled; a fair hand blocks with 3.
        assert_eq!(
            call("JS KS 9D 9H TC QS", &[(0, Action::Bid(1))]),
            Action::Bid(3)
        );
        assert_eq!(call("9S TH QD KC TC 9H", &[]), Action::Pass);
    }

    #[test]
    fn sure_hands_kaibosh_and_bad_hands_misdeal() {
        assert_eq!(call("JS JC AS KS QS AH", &[]), Action::Kaibosh);
        assert_eq!(call("9S 9H 9D 9C TS KH", &[]), Action::Misdeal);
    }

    #[test]
    fn trump_is_the_strongest_suit_bowers_counted() {
        let (suit, _) = best_trump(hand("JC JS 9C AH KD TC"));
        assert_eq!(suit, Suit::Clubs);
        let (suit, _) = best_trump(hand("JH AD KD QD 9S TS"));
        assert_eq!(suit, Suit::Diamonds);
    }

    #[test]
    fn the_auction_model_reads_the_conventions() {
        let rules = KaiboshRules::default();
        let (obs, _) = first_call("9S", &[(0, Action::Bid(1)), (1, Action::Bid(2))]);
        let aces = CardBag::from_set(hand("AS AH 9C TD QD 9H"));
        let no_aces = CardBag::from_set(hand("KS QH 9C TD QD 9H"));
        let like = |i, h| Kaibosh::call_likelihood(&rules, &obs, i, h);
        assert_eq!(like(0, aces), 1.0);
        assert!(like(0, no_aces) < 0.5);
        let jacks = CardBag::from_set(hand("JS JH 9C TD QD 9H"));
        assert_eq!(like(1, jacks), 1.0);
        assert!(like(1, aces) < 0.5);
    }
}
