//! Sampling of hidden hands: full deals consistent with what a seat knows, uniformly, or
//! weighted by what the auction says about each hand.
//!
//! Unknown cards fall into classes by the set of seats that may hold them (voids rule
//! some out). The number of deals that complete a partial assignment is counted once per
//! decision (a small dynamic programme over classes and the seats' remaining needs), so
//! each sample picks every class's split in exact proportion to its completions: the
//! result is uniform over consistent deals, with no rejection.

use std::collections::HashMap;

use calltrump_engine::{
    Action, Card, CardBag, CardOrder, CardSet, GameRng, Observation, Seat, SeenAction,
};
use rand::seq::SliceRandom;
use rand::Rng;

use crate::position::MAX_SEATS;

/// Most buckets of unknown cards: the seats, then up to two more (cards discarded face
/// down, cards left undealt).
pub const MAX_BUCKETS: usize = MAX_SEATS + 2;

/// The card plays of `observation`'s hand in order, with their seats (every card
/// played is seen face up).
pub fn card_plays(observation: &Observation) -> impl Iterator<Item = (Seat, Card)> + '_ {
    observation
        .actions
        .iter()
        .filter_map(|(seat, seen)| match seen {
            SeenAction::Open(Action::Play(card)) => Some((*seat, *card)),
            _ => None,
        })
}

/// What an observation reveals about the deal: the cards each seat is known to have been
/// dealt, and where the unknown cards may be. Unknown cards go to buckets: one per seat
/// (its unknown cards), then any extra buckets a game needs (cards discarded face down,
/// cards left undealt), each with a size and the cards it cannot hold (revealed voids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The observing seat.
    pub observer: Seat,
    /// Seats at the table.
    pub seats: usize,
    /// Cards each seat is known to hold or have held (the observer: all of its own).
    pub known: [CardBag; MAX_SEATS],
    /// How many unknown cards each bucket takes (the observer's: none).
    pub sizes: [usize; MAX_BUCKETS],
    /// Cards each bucket cannot hold.
    pub excluded: [CardSet; MAX_BUCKETS],
    /// Buckets in use: the seats, then the extra ones.
    pub buckets: usize,
    /// The cards whose place is unknown, one entry per copy.
    pub pool: Vec<Card>,
}

impl Knowledge {
    /// Knowledge of `observation` for a deck of `deck` (one entry per copy) and hands of
    /// `hand_size`: the observer's dealt cards, and every card seen played, as held by
    /// the seat that played it. Voids and extra buckets are added by the caller.
    pub fn from_plays(
        observation: &Observation,
        seats: usize,
        hand_size: usize,
        deck: &[Card],
    ) -> Knowledge {
        let observer = observation.seat;
        let mut known = [CardBag::EMPTY; MAX_SEATS];
        // A seat beyond the table (a faulty observation: see `check_decision`) is left
        // out rather than indexed.
        if let Some(bag) = known.get_mut(observer.index()) {
            *bag = observation.dealt;
        }
        for (seat, seen) in &observation.actions {
            if let SeenAction::Open(Action::Play(card)) = seen {
                if *seat != observer {
                    if let Some(bag) = known.get_mut(seat.index()) {
                        bag.insert(*card);
                    }
                }
            }
        }
        let mut knowledge = Knowledge {
            observer,
            seats,
            known,
            sizes: [0; MAX_BUCKETS],
            excluded: [CardSet::EMPTY; MAX_BUCKETS],
            buckets: seats,
            pool: Vec::new(),
        };
        for (s, bag) in known.iter().enumerate().take(seats) {
            if s != observer.index() {
                knowledge.sizes[s] = hand_size.saturating_sub(bag.len());
            }
        }
        knowledge.pool = knowledge.unknown(deck);
        knowledge
    }

    /// The cards of `deck` not accounted for by `known`.
    pub fn unknown(&self, deck: &[Card]) -> Vec<Card> {
        let mut all_known = CardBag::EMPTY;
        for bag in &self.known[..self.seats] {
            for card in bag.iter() {
                all_known.insert(card);
            }
        }
        let mut taken = CardBag::EMPTY;
        let mut pool = Vec::with_capacity(deck.len());
        for &card in deck {
            if taken.count(card) < all_known.count(card) {
                taken.insert(card);
            } else {
                pool.push(card);
            }
        }
        pool
    }

    /// Adds a bucket of `size` unknown cards that belong to no seat; returns its index.
    pub fn add_bucket(&mut self, size: usize) -> usize {
        let b = self.buckets;
        self.sizes[b] = size;
        self.buckets += 1;
        b
    }

    /// Marks the voids revealed by failures to follow: `plays` are the hand's card plays
    /// in order, `players` the seats in play (cards per trick), `order` the effective
    /// suits.
    pub fn add_voids(
        &mut self,
        plays: impl Iterator<Item = (Seat, Card)>,
        players: usize,
        order: &CardOrder,
    ) {
        let mut led = None;
        for (i, (seat, card)) in plays.enumerate() {
            if i % players == 0 {
                led = Some(order.suit_of(card));
            } else if let Some(suit) = led {
                if order.suit_of(card) != suit {
                    self.excluded[seat.index()] =
                        self.excluded[seat.index()].or(order.cards_of(suit));
                }
            }
        }
    }
}

/// Remaining needs of each bucket with unknown cards, one byte each.
type Needs = [u8; MAX_BUCKETS];

/// Draws deals consistent with one observation.
#[derive(Clone, Debug)]
pub struct DealSampler {
    knowledge: Knowledge,
    /// Buckets with unknown cards, in order.
    hidden: Vec<usize>,
    /// Card classes: the mask (over `hidden`) of buckets that may hold them, and the cards.
    classes: Vec<(u32, Vec<Card>)>,
    /// Completions of (class index, needs) and the index of its step in `steps`, filled
    /// for every reachable state.
    counts: HashMap<(usize, Needs), (f64, u32)>,
    /// One step per reachable (class index, needs): each split of the class with the
    /// running total of its completions, to draw from, and the step it leads to (linked
    /// by index so that drawing needs no hashing).
    steps: Vec<Vec<(Needs, f64, u32)>>,
    /// The step of the first class with every bucket's needs.
    first_step: u32,
    start: Needs,
}

/// The step after the last class.
const NO_STEP: u32 = u32::MAX;

/// No deal fits the observation (it contradicts itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistent;

impl std::fmt::Display for Inconsistent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no deal is consistent with the observation")
    }
}

impl std::error::Error for Inconsistent {}

/// n! as a float, for n up to 64 (every deck fits).
fn factorial(n: usize) -> f64 {
    static TABLE: std::sync::OnceLock<[f64; 65]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [1.0; 65];
        for i in 1..65 {
            t[i] = t[i - 1] * i as f64;
        }
        t
    })[n]
}

impl DealSampler {
    /// A sampler for `knowledge`.
    pub fn new(knowledge: Knowledge) -> Result<DealSampler, Inconsistent> {
        let hidden: Vec<usize> = (0..knowledge.buckets)
            .filter(|&b| knowledge.sizes[b] > 0)
            .collect();
        let mut start = [0; MAX_BUCKETS];
        for (i, &b) in hidden.iter().enumerate() {
            start[i] = knowledge.sizes[b] as u8;
        }
        let mut by_mask: Vec<(u32, Vec<Card>)> = Vec::new();
        for &card in &knowledge.pool {
            let mask = hidden
                .iter()
                .enumerate()
                .filter(|(_, &s)| !knowledge.excluded[s].contains(card))
                .fold(0u32, |m, (i, _)| m | 1 << i);
            match by_mask.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, cards)) => cards.push(card),
                None => by_mask.push((mask, vec![card])),
            }
        }
        let total: usize = start.iter().map(|&n| n as usize).sum();
        if total != knowledge.pool.len() {
            return Err(Inconsistent);
        }
        let mut sampler = DealSampler {
            knowledge,
            hidden,
            classes: by_mask,
            counts: HashMap::new(),
            steps: Vec::new(),
            first_step: NO_STEP,
            start,
        };
        if sampler.count(0, start) <= 0.0 {
            return Err(Inconsistent);
        }
        sampler.first_step = sampler.step(0, start);
        Ok(sampler)
    }

    /// The knowledge the sampler draws from.
    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// How many consistent deals there are (as a float: it can be large).
    pub fn deal_count(&self) -> f64 {
        // With no unknown card there is no class, and exactly one deal.
        self.counts.get(&(0, self.start)).map_or(1.0, |c| c.0)
    }

    /// Every split of `n` cards over the seats of `mask` within `needs`, with its
    /// multinomial weight.
    fn splits(&self, mask: u32, n: usize, needs: Needs, out: &mut Vec<(Needs, f64)>) {
        fn rec(
            seats: &[usize],
            left: usize,
            needs: Needs,
            take: Needs,
            weight: f64,
            out: &mut Vec<(Needs, f64)>,
        ) {
            match seats.split_first() {
                None => {
                    if left == 0 {
                        out.push((take, weight));
                    }
                }
                Some((&i, rest)) => {
                    let most = left.min(needs[i] as usize);
                    // The last seat must take all that is left.
                    let least = if rest.is_empty() { left } else { 0 };
                    for x in least..=most {
                        let mut t = take;
                        t[i] = x as u8;
                        rec(rest, left - x, needs, t, weight / factorial(x), out);
                    }
                }
            }
        }
        let seats: Vec<usize> = (0..self.hidden.len())
            .filter(|i| mask & (1 << i) != 0)
            .collect();
        rec(&seats, n, needs, [0; MAX_BUCKETS], factorial(n), out);
    }

    fn count(&mut self, class: usize, needs: Needs) -> f64 {
        if class == self.classes.len() {
            return if needs.iter().all(|&n| n == 0) {
                1.0
            } else {
                0.0
            };
        }
        if let Some(&(c, _)) = self.counts.get(&(class, needs)) {
            return c;
        }
        let (mask, n) = (self.classes[class].0, self.classes[class].1.len());
        let mut splits = Vec::new();
        self.splits(mask, n, needs, &mut splits);
        let mut total = 0.0;
        let mut running = Vec::with_capacity(splits.len());
        for (take, weight) in splits {
            let rest = sub(needs, take);
            let w = weight * self.count(class + 1, rest);
            if w > 0.0 {
                total += w;
                running.push((take, total, self.step(class + 1, rest)));
            }
        }
        self.counts
            .insert((class, needs), (total, self.steps.len() as u32));
        self.steps.push(running);
        total
    }

    /// The step of a counted state; [`NO_STEP`] past the last class.
    fn step(&self, class: usize, needs: Needs) -> u32 {
        self.counts.get(&(class, needs)).map_or(NO_STEP, |c| c.1)
    }

    /// The unknown cards drawn uniformly over the consistent placings: each seat's known
    /// and drawn cards, then each extra bucket's cards.
    pub fn sample(&self, rng: &mut GameRng) -> Vec<CardBag> {
        let k = &self.knowledge;
        let mut buckets: Vec<CardBag> = k.known[..k.seats].to_vec();
        buckets.resize(k.buckets, CardBag::EMPTY);
        self.sample_hidden(rng, |bucket, card| {
            buckets[bucket].insert(card);
        });
        buckets
    }

    /// Draws the unknown cards uniformly over the consistent placings, handing each to
    /// `give(bucket, card)`.
    pub fn sample_hidden(&self, rng: &mut GameRng, mut give: impl FnMut(usize, Card)) {
        let mut step = self.first_step;
        let mut cards = [Card::RED_JOKER; 64];
        for (_, class_cards) in &self.classes {
            let running = &self.steps[step as usize];
            let total = running.last().expect("a reachable state has a split").1;
            let u = rng.random::<f64>() * total;
            let pick = running
                .iter()
                .position(|(_, r, _)| u < *r)
                .unwrap_or(running.len() - 1);
            let (take, _, next_step) = running[pick];
            let cards = &mut cards[..class_cards.len()];
            cards.copy_from_slice(class_cards);
            cards.shuffle(rng);
            let mut next = cards.iter();
            for (i, &seat) in self.hidden.iter().enumerate() {
                for _ in 0..take[i] {
                    give(seat, *next.next().expect("split counts match the class"));
                }
            }
            step = next_step;
        }
    }

    /// Cards drawn with the auction in view: uniform candidates are accepted with
    /// probability `likelihood` (in 0..=1); after `tries` refusals the likeliest candidate
    /// seen is taken.
    pub fn sample_weighted(
        &self,
        rng: &mut GameRng,
        tries: usize,
        mut likelihood: impl FnMut(&[CardBag]) -> f64,
    ) -> Vec<CardBag> {
        let mut best: Option<(f64, Vec<CardBag>)> = None;
        for _ in 0..tries.max(1) {
            let deal = self.sample(rng);
            let w = likelihood(&deal);
            if rng.random::<f64>() < w {
                return deal;
            }
            if best.as_ref().is_none_or(|(bw, _)| w > *bw) {
                best = Some((w, deal));
            }
        }
        best.expect("at least one try").1
    }
}

fn sub(a: Needs, b: Needs) -> Needs {
    let mut out = a;
    for i in 0..MAX_BUCKETS {
        out[i] -= b[i];
    }
    out
}
