//! Bid Euchre for the bots: the double deck in the compact position, what an observation
//! reveals (loner exchanges face down included), scoring, and rules of thumb for level
//! and loner bids, gives and discards.

use calltrump_engine::bid_euchre::{highest_trumps, DECK};
use calltrump_engine::{
    Action, BidEuchre, BidEuchreRules, BidEuchreVariant, Card, CardBag, CardOrder, CardPair, Game,
    GameRng, Loner, Observation, Seat, SeenAction, Strain, Suit, ACE, JACK, KING, QUEEN,
};
use rand::seq::SliceRandom;

use crate::calls::{best_by, fit, in_legal};
use crate::model::{BotGame, Completion, Lookahead};
use crate::position::Layout;
use crate::sampler::{card_plays, Knowledge};

const HAND_SIZE: usize = 8;
const TRICKS: u8 = 8;

/// Layouts of the double deck per strain (the four suits, then no-trump), built once.
fn layout(trump: Option<Suit>) -> &'static Layout {
    static LAYOUTS: std::sync::OnceLock<[Layout; 5]> = std::sync::OnceLock::new();
    let deck: CardBag = DECK.iter().chain(DECK.iter()).collect();
    &LAYOUTS.get_or_init(|| {
        [0, 1, 2, 3, 4].map(|i| {
            let trump = (i < 4).then(|| Suit::from_index(i));
            Layout::new(CardOrder::euchre(trump), deck)
        })
    })[trump.map_or(4, Suit::index)]
}

/// A loner's exchange as seen: the declarer, the cards exchanged, the give if seen
/// (`None` if hidden), whether the give and the discard have happened.
struct Exchange {
    declarer: Seat,
    count: usize,
    given: Option<CardBag>,
    gave: bool,
    discarded: bool,
}

fn exchange_of(observation: &Observation) -> Option<Exchange> {
    let contract = observation.declared.contract?;
    let declarer = contract.declarer;
    let Action::Loner(loner, _) = contract.bid else {
        return None;
    };
    if loner.exchange() == 0 {
        return None;
    }
    let mut exchange = Exchange {
        declarer,
        count: loner.exchange(),
        given: None,
        gave: false,
        discarded: false,
    };
    for (_, seen) in &observation.actions {
        match seen {
            SeenAction::Open(Action::Give(pair)) => {
                exchange.gave = true;
                exchange.given = Some(pair.cards().iter().copied().collect());
            }
            SeenAction::HiddenGive(_) => exchange.gave = true,
            SeenAction::Open(Action::Discard(_)) | SeenAction::HiddenDiscard(_) => {
                exchange.discarded = true
            }
            _ => {}
        }
    }
    Some(exchange)
}

fn pair_of(cards: &CardBag) -> Option<CardPair> {
    let list: Vec<Card> = cards.iter().collect();
    match list[..] {
        [a] => Some(CardPair::one(a)),
        [a, b] => Some(CardPair::two(a, b)),
        _ => None,
    }
}

fn minus(mut bag: CardBag, cards: CardBag) -> Option<CardBag> {
    for card in cards.iter() {
        if !bag.remove(card) {
            return None;
        }
    }
    Some(bag)
}

fn union(mut bag: CardBag, cards: CardBag) -> CardBag {
    for card in cards.iter() {
        bag.insert(card);
    }
    bag
}

impl BotGame for BidEuchre {
    // A failed moon: -24 against 8 for the defenders.
    const SWING: f64 = 32.0;
    // Three tricks ahead, then the rest played out by the rules of thumb: 32 cards are
    // slow to solve for every call. At the first lead this errs by about 0.4 tricks, at
    // the cost four tricks ahead with a static count of high cards had (which erred by
    // 0.7). The same for every level.
    fn search_depth(_: &BidEuchreRules, _: Lookahead) -> Option<u32> {
        Some(3)
    }

    fn deck(_: &BidEuchreRules) -> Vec<Card> {
        DECK.iter().flat_map(|c| [c, c]).collect()
    }

    fn target(_: &BidEuchreRules) -> Option<i32> {
        None
    }

    fn knowledge(rules: &BidEuchreRules, observation: &Observation) -> Knowledge {
        let deck = BidEuchre::deck(rules);
        let mut knowledge = Knowledge::from_plays(observation, 4, HAND_SIZE, &deck);
        let observer = observation.seat;
        let declared = observation.declared;
        if let Some(ex) = exchange_of(observation).filter(|e| e.gave) {
            let partner = ex.declarer.partner4();
            let d = ex.declarer.index();
            if observer == ex.declarer {
                // The declarer saw the give: those cards were the partner's.
                knowledge.known[partner.index()] = union(
                    knowledge.known[partner.index()],
                    ex.given.unwrap_or_default(),
                );
                knowledge.sizes[partner.index()] =
                    HAND_SIZE - knowledge.known[partner.index()].len();
                knowledge.pool = knowledge.unknown(&deck);
                if let (BidEuchreVariant::Alexa, Some(Strain::Suit(trump)), Some(given)) =
                    (rules.variant, declared.trump, ex.given)
                {
                    // The partner gave its highest trumps: it kept none higher, and none
                    // at all if it gave anything else.
                    let order = CardOrder::euchre(Some(trump));
                    let trumps = order.cards_of(trump);
                    let lowest = given
                        .iter()
                        .map(|c| (order.is_trump(c), order.strength(c)))
                        .min();
                    let barred = match lowest {
                        Some((true, low)) => {
                            trumps.iter().filter(|&c| order.strength(c) > low).collect()
                        }
                        _ => trumps,
                    };
                    let p = partner.index();
                    knowledge.excluded[p] = knowledge.excluded[p].or(barred);
                }
            } else {
                if observer == partner {
                    // The given cards left the observer's hand: where they are now (the
                    // declarer's hand or discards) is unknown.
                    let given = ex.given.unwrap_or_default();
                    let kept = minus(observation.dealt, given).unwrap_or(observation.dealt);
                    let saved = knowledge.known[partner.index()];
                    knowledge.known[partner.index()] = kept;
                    knowledge.pool = knowledge.unknown(&deck);
                    knowledge.known[partner.index()] = saved;
                } else {
                    // The partner kept all but the given cards.
                    knowledge.sizes[partner.index()] = HAND_SIZE - ex.count;
                }
                if ex.discarded {
                    knowledge.add_bucket(ex.count);
                } else {
                    knowledge.sizes[d] += ex.count;
                }
            }
        }
        if let Some(strain) = declared.trump {
            let plays = card_plays(observation);
            let players = if declared.sitting_out.is_some() { 3 } else { 4 };
            knowledge.add_voids(plays, players, CardOrder::euchre(strain.trump()));
        }
        knowledge
    }

    fn complete(
        rules: &BidEuchreRules,
        observation: &Observation,
        knowledge: &Knowledge,
        buckets: Vec<CardBag>,
        rng: &mut GameRng,
    ) -> Option<Completion> {
        let ex = exchange_of(observation).filter(|e| e.gave);
        let Some(ex) = ex.filter(|e| observation.seat != e.declarer) else {
            let mut dealt = buckets;
            dealt.truncate(4);
            return Some(Completion {
                dealt,
                hidden: Vec::new(),
            });
        };
        let (d, p) = (ex.declarer.index(), ex.declarer.partner4().index());
        // Everything the declarer held after the give: hand, plays and discards.
        let discards = if ex.discarded {
            buckets[knowledge.seats]
        } else {
            CardBag::EMPTY
        };
        let all = union(buckets[d], discards);
        let given = match ex.given {
            Some(given) => given,
            None => choose_give(rules, observation, buckets[p], all, ex.count, rng)?,
        };
        let mut dealt = buckets;
        dealt.truncate(4);
        dealt[d] = minus(all, given)?;
        if observation.seat.index() != p {
            dealt[p] = union(dealt[p], given);
        }
        let mut hidden = Vec::new();
        if ex.given.is_none() {
            hidden.push(Action::Give(pair_of(&given)?));
        }
        if ex.discarded {
            hidden.push(Action::Discard(pair_of(&discards)?));
        }
        Some(Completion { dealt, hidden })
    }

    fn play_layout(&self) -> &'static Layout {
        let strain = self.declared().trump;
        layout(strain.expect("the contract names the strain").trump())
    }

    fn own_tricks(_: &BidEuchreRules, hand: CardBag) -> f64 {
        Strain::ALL
            .iter()
            .map(|&strain| estimate(hand, strain))
            .fold(0.0, f64::max)
    }

    fn call_fit(
        _: &BidEuchreRules,
        seat: Seat,
        call: Action,
        before: &[(Seat, SeenAction)],
        hand: CardBag,
    ) -> f64 {
        let help = partner_help(before, seat);
        match call {
            Action::BidStrain(level, strain) => {
                let strength = estimate(hand, strain) + help;
                fit(0.8, f64::from(level) - strength - 0.5)
            }
            Action::Loner(loner, strain) => {
                let strength = estimate(hand, strain) + exchange_help(loner);
                fit(1.2, f64::from(TRICKS) - 0.5 - strength)
            }
            Action::Pass => {
                let best = best_strain(hand).1 + help;
                let lowest = lowest_level(before);
                fit(0.7, best - f64::from(lowest) - 0.5)
            }
            _ => 1.0,
        }
    }

    fn call_candidates(
        rules: &BidEuchreRules,
        observation: &Observation,
        legal: &[Action],
    ) -> Vec<Action> {
        let hand = observation.hand;
        let help = partner_help(&observation.actions, observation.seat);
        let pick = in_legal(Self::rules_call(rules, observation, legal), legal);
        let mut scored: Vec<(f64, Action)> = legal
            .iter()
            .map(|&a| {
                // How far the call is from what the hand seems worth (lower is closer).
                let score = match a {
                    Action::Pass => 0.0,
                    Action::BidStrain(level, strain) => {
                        (f64::from(level) - estimate(hand, strain) - help).abs()
                    }
                    Action::Loner(loner, strain) => {
                        (7.5 - estimate(hand, strain) - exchange_help(loner)).max(0.0)
                    }
                    Action::Discard(pair) => {
                        let strain = observation.declared.trump.unwrap_or(Strain::NoTrump);
                        let left: CardBag =
                            minus(hand, pair.cards().iter().copied().collect()).unwrap_or(hand);
                        -estimate(left, strain)
                    }
                    _ => 0.0,
                };
                (score, a)
            })
            .collect();
        // Simulation with every hand open overrates the high levels (hard made 36% of
        // its 7s and none of its 8s): no level above what the hand seems worth.
        scored.retain(|&(_, a)| match a {
            Action::BidStrain(level, strain) => {
                f64::from(level) <= (estimate(hand, strain) + help).floor().max(1.0)
            }
            _ => true,
        });
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut out: Vec<Action> = scored.into_iter().take(8).map(|(_, a)| a).collect();
        // A raise of the partner's strain is always weighed: the hand's own estimate
        // there leaves out the trumps the partner's bid promises.
        let raise = partner_call(&observation.actions, observation.seat).and_then(|call| {
            legal
                .iter()
                .copied()
                .find(|a| matches!((a, call), (Action::BidStrain(_, s), Action::BidStrain(_, t)) if *s == t))
        });
        for call in [Some(pick), raise].into_iter().flatten() {
            if !out.contains(&call) {
                out.push(call);
            }
        }
        out
    }

    /// Over the partner's standing contract (a bid or a loner nobody has overcalled),
    /// a call must beat passing by a standard error over the sampled deals: taking the
    /// contract from the partner on a small simulated edge lost points (a `call2 NT`
    /// over the partner's `call2 clubs`, set for -12).
    fn call_baseline(
        _: &BidEuchreRules,
        observation: &Observation,
        legal: &[Action],
    ) -> Option<(Action, f64)> {
        let partner_holds = partner_call(&observation.actions, observation.seat).is_some();
        (partner_holds && legal.contains(&Action::Pass)).then_some((Action::Pass, PARTNER_MARGIN))
    }

    fn rules_call(_: &BidEuchreRules, observation: &Observation, legal: &[Action]) -> Action {
        let hand = observation.hand;
        let strain = observation.declared.trump;
        let order = CardOrder::euchre(strain.and_then(Strain::trump));
        let by_score = |score: &dyn Fn(&Action) -> f64| {
            legal
                .iter()
                .copied()
                .max_by(|a, b| score(a).total_cmp(&score(b)))
                .unwrap_or(legal[0])
        };
        match legal[0] {
            // Give the strongest cards; discard what leaves the strongest hand.
            Action::Give(_) => by_score(&|a| match a {
                Action::Give(pair) => pair
                    .cards()
                    .iter()
                    .map(|&c| f64::from(order.strength(c)))
                    .sum(),
                _ => f64::MIN,
            }),
            Action::Discard(_) => by_score(&|a| match (a, strain) {
                (Action::Discard(pair), Some(strain)) => {
                    let left = minus(hand, pair.cards().iter().copied().collect()).unwrap_or(hand);
                    estimate(left, strain)
                }
                _ => f64::MIN,
            }),
            _ => auction_call(observation, legal),
        }
    }
}

/// Standard errors by which an overcall of the partner's contract must beat passing.
const PARTNER_MARGIN: f64 = 1.0;

/// The partner's call if it is the auction's standing one (the last bid or loner made).
fn partner_call(before: &[(Seat, SeenAction)], seat: Seat) -> Option<Action> {
    let (caller, call) = before.iter().rev().find_map(|(s, seen)| match seen {
        SeenAction::Open(call @ (Action::BidStrain(..) | Action::Loner(..))) => Some((*s, *call)),
        _ => None,
    })?;
    (caller == seat.partner4()).then_some(call)
}

/// Tricks the partner's cards add to a loner.
fn exchange_help(loner: Loner) -> f64 {
    match loner {
        Loner::Call2 => 1.2,
        Loner::Call1 => 0.7,
        Loner::Moon => 0.0,
    }
}

fn lowest_level(before: &[(Seat, SeenAction)]) -> u8 {
    before
        .iter()
        .filter_map(|(_, seen)| match seen {
            SeenAction::Open(Action::BidStrain(level, _)) => Some(level + 1),
            SeenAction::Open(Action::Loner(..)) => Some(9),
            _ => None,
        })
        .max()
        .unwrap_or(1)
}

/// Tricks the partner is expected to add, from its call (or its silence so far).
fn partner_help(before: &[(Seat, SeenAction)], seat: Seat) -> f64 {
    let partner = seat.partner4();
    match before.iter().find(|(s, _)| *s == partner).map(|(_, c)| *c) {
        None => 2.0,
        Some(SeenAction::Open(Action::Pass)) => 1.3,
        Some(SeenAction::Open(Action::BidStrain(level, _))) => 1.5 + f64::from(level.min(6)) * 0.25,
        Some(_) => 2.0,
    }
}

/// A rule-of-thumb auction call: the best strain's estimate with the partner's help.
fn auction_call(observation: &Observation, legal: &[Action]) -> Action {
    let hand = observation.hand;
    let (strain, own) = best_strain(hand);
    let strength = own + partner_help(&observation.actions, observation.seat);
    for (loner, need) in [(Loner::Moon, 7.6), (Loner::Call1, 7.4), (Loner::Call2, 7.2)] {
        let call = Action::Loner(loner, strain);
        if own + exchange_help(loner) >= need && legal.contains(&call) {
            return call;
        }
    }
    let want = (strength.floor() as u8).min(TRICKS);
    let lowest = lowest_level(&observation.actions);
    let call = Action::BidStrain(want, strain);
    if want >= lowest && legal.contains(&call) {
        return call;
    }
    if legal.contains(&Action::Pass) {
        return Action::Pass;
    }
    // Forced to bid: the lowest level in the best strain, else the first bid listed.
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::BidStrain(_, s) if *s == strain))
        .unwrap_or(legal[0])
}

/// Estimated tricks `hand` takes by itself in `strain`.
pub fn estimate(hand: CardBag, strain: Strain) -> f64 {
    let Strain::Suit(trump) = strain else {
        let mut est = 0.0;
        for suit in Suit::ALL {
            for (rank, value) in [(ACE, 0.85), (KING, 0.4), (QUEEN, 0.15)] {
                est += value * hand.count(Card::new(rank, suit)) as f64;
            }
        }
        return est;
    };
    let order = CardOrder::euchre(Some(trump));
    let mut est = 0.0;
    for (card, value) in [
        (Card::new(JACK, trump), 1.0),
        (Card::new(JACK, trump.same_colour()), 0.85),
        (Card::new(ACE, trump), 0.65),
        (Card::new(KING, trump), 0.4),
        (Card::new(QUEEN, trump), 0.25),
    ] {
        est += value * hand.count(card) as f64;
    }
    let trumps = hand.only_faces(order.cards_of(trump)).len();
    est += 0.35 * trumps.saturating_sub(3) as f64;
    for suit in Suit::ALL {
        if suit != trump {
            let aces = hand.count(Card::new(ACE, suit));
            est += [0.0, 0.7, 1.05][aces];
        }
    }
    est
}

fn best_strain(hand: CardBag) -> (Strain, f64) {
    best_by(Strain::ALL, |s| estimate(hand, s)).expect("five strains")
}

/// The partner's give behind a drawing, for an opponent who did not see it: `count`
/// cards of what the declarer held after the give (`declarer_all`), such that (in
/// alexa, with trumps) they are the partner's highest trumps.
fn choose_give(
    rules: &BidEuchreRules,
    observation: &Observation,
    partner_rest: CardBag,
    declarer_all: CardBag,
    count: usize,
    rng: &mut GameRng,
) -> Option<CardBag> {
    let strain = observation.declared.trump?;
    let mut cards: Vec<Card> = declarer_all.iter().collect();
    let alexa_trump = match (rules.variant, strain) {
        (BidEuchreVariant::Alexa, Strain::Suit(trump)) => Some(trump),
        _ => None,
    };
    if let Some(trump) = alexa_trump {
        let order = CardOrder::euchre(Some(trump));
        let kept_trumps = partner_rest.only_faces(order.cards_of(trump));
        if let Some(top) = kept_trumps.iter().map(|c| order.strength(c)).max() {
            // The partner kept trumps: it gave trumps at least as high.
            cards.retain(|&c| order.is_trump(c) && order.strength(c) >= top);
        }
    }
    if cards.len() < count {
        return None;
    }
    cards.shuffle(rng);
    let given: CardBag = cards[..count].iter().copied().collect();
    if let Some(trump) = alexa_trump {
        let partner = union(partner_rest, given);
        if highest_trumps(partner, trump, count) != highest_trumps(given, trump, count) {
            return None;
        }
    }
    Some(given)
}
