//! What the search bots think of every action of a decision, not only of the one they
//! pick: [`PimcBot::evaluate`] returns each action's expected points from the same
//! sampled deals and searches the bot chooses by, for reviews and hints. And what the
//! bots read into a call: [`read_call`] weighs hands by the same auction model that
//! weighs the bots' samples ([`BotGame::call_likelihood`]) and says what the call
//! shows.

use std::fmt;

use calltrump_engine::{
    Action, CardBag, CardSet, GameRng, GameRules, Observation, SeenAction, Suit,
};
use calltrump_engine::{ACE, JACK, KING};

use crate::model::{BotGame, Deals};
use crate::pimc::PimcBot;
use crate::sampler::Inconsistent;
use crate::with_game;
use crate::Decision;

/// One action's worth, averaged over the sampled deals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionValue {
    /// The action.
    pub action: Action,
    /// Expected net points on the hand: the deciding seat's team's less the other
    /// team's.
    pub points: f64,
    /// Expected utility as the bot weighs it ([`crate::utility`]: the chance of winning
    /// the game where it has a target, else the point difference).
    pub utility: f64,
}

impl ActionValue {
    /// The expected points as every hint shows them: to the hundredth, halves away from
    /// zero (a mean over 200 deals can end in an exact half, which printing alone would
    /// round by its binary value, so the terminal and the pages could differ).
    pub fn shown_points(&self) -> f64 {
        (self.points * 100.0).round() / 100.0
    }
}

/// Every judged action of a decision, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The actions, by expected points (then utility, then the order of the legal
    /// actions), best first.
    pub actions: Vec<ActionValue>,
    /// How many deals were sampled.
    pub deals: u32,
}

impl PimcBot {
    /// Scores the actions of `decision` as the bot would before choosing: every card
    /// of a play; of any other decision the actions the bot considers
    /// ([`BotGame::call_candidates`], which leaves out calls it thinks hopeless) and
    /// those of `also` (an action taken, say) that are legal. Draws from `rng` only, so
    /// the same observation and seed give the same values whatever the hidden hands.
    pub fn evaluate(
        &mut self,
        decision: &Decision<'_>,
        also: &[Action],
        rng: &mut GameRng,
    ) -> Result<Evaluation, Inconsistent> {
        with_game!(decision.rules, |r, G| self.evaluate_in::<G>(
            r,
            decision.observation,
            decision.legal,
            also,
            rng
        ))
    }

    fn evaluate_in<G: BotGame>(
        &mut self,
        rules: &G::Rules,
        observation: &Observation,
        legal: &[Action],
        also: &[Action],
        rng: &mut GameRng,
    ) -> Result<Evaluation, Inconsistent> {
        let mut candidates = match legal.first() {
            Some(Action::Play(_)) | None => legal.to_vec(),
            Some(_) => G::call_candidates(rules, observation, legal),
        };
        for action in also {
            if legal.contains(action) && !candidates.contains(action) {
                candidates.push(*action);
            }
        }
        // The legal order, so that equal values keep it.
        candidates.sort_by_key(|a| legal.iter().position(|l| l == a));
        let scores = self
            .score::<G>(rules, observation, &candidates, false, rng, &|| false)
            .ok_or(Inconsistent)?;
        let n = f64::from(scores.deals.max(1));
        let mut actions: Vec<ActionValue> = candidates
            .iter()
            .enumerate()
            .map(|(i, &action)| ActionValue {
                action,
                points: scores.points[i] / n,
                utility: scores.utility[i] / n,
            })
            .collect();
        actions.sort_by(|a, b| {
            b.points
                .total_cmp(&a.points)
                .then(b.utility.total_cmp(&a.utility))
        });
        Ok(Evaluation {
            actions,
            deals: scores.deals,
        })
    }
}

/// A trait of a hand that a call may show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    /// Aces.
    Aces,
    /// Kings.
    Kings,
    /// Jacks (the bowers' cards in Kaibosh and Bid Euchre).
    Jacks,
    /// Jokers (Kout Bo).
    Jokers,
    /// Cards of the hand's longest suit.
    Length,
    /// Aces, kings and jacks together.
    Honours,
    /// Cards of the suit the call names.
    Suit(Suit),
    /// Tricks the hand takes by itself with its best trump, by the bots' estimate
    /// ([`BotGame::own_tricks`]), rounded.
    Tricks,
}

impl Trait {
    /// How many the hand holds; `own_tricks` is the hand's own tricks.
    fn count(self, hand: CardBag, own_tricks: f64) -> usize {
        let rank = |r| hand.only_faces(CardSet::ranks(r, r)).len();
        match self {
            Trait::Tricks => own_tricks.round().max(0.0) as usize,
            Trait::Aces => rank(ACE),
            Trait::Kings => rank(KING),
            Trait::Jacks => rank(JACK),
            Trait::Jokers => hand.only_faces(CardSet::JOKERS).len(),
            Trait::Honours => [Trait::Aces, Trait::Kings, Trait::Jacks]
                .iter()
                .map(|t| t.count(hand, own_tricks))
                .sum(),
            Trait::Length => Suit::ALL
                .iter()
                .map(|&s| hand.only_faces(CardSet::suit(s)).len())
                .max()
                .unwrap_or(0),
            Trait::Suit(suit) => hand.only_faces(CardSet::suit(suit)).len(),
        }
    }

    /// The trait's name for `count` of it.
    fn name(self, count: usize) -> String {
        let (one, many) = match self {
            Trait::Aces => ("ace", "aces"),
            Trait::Kings => ("king", "kings"),
            Trait::Jacks => ("jack", "jacks"),
            Trait::Jokers => ("joker", "jokers"),
            Trait::Length => ("card in its longest suit", "cards in its longest suit"),
            Trait::Honours => ("ace, king or jack", "aces, kings and jacks"),
            Trait::Tricks => ("trick by its own cards", "tricks by its own cards"),
            Trait::Suit(suit) => {
                let name = suit.name();
                return format!("{} of {name}", if count == 1 { "card" } else { "cards" });
            }
        };
        (if count == 1 { one } else { many }).to_string()
    }
}

/// What a call shows of one trait of the caller's hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shows {
    /// A bound most of the hands the bots then expect meet: at least (or at most)
    /// `count`, met by the share `after` of them, and `before` of those expected before
    /// the call.
    Bound {
        /// At least (else at most).
        at_least: bool,
        /// The bound.
        count: usize,
        /// The share of expected hands meeting it after the call.
        after: f64,
        /// The same share before the call.
        before: f64,
    },
    /// No bound stands out: the expected count after the call, and before it.
    About {
        /// The mean over the hands expected after the call.
        after: f64,
        /// The mean before it.
        before: f64,
    },
}

/// What the bots take a call to show of the caller's hand: the trait the call says most
/// about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallReading {
    /// The trait.
    pub shown: Trait,
    /// What the call shows of it.
    pub shows: Shows,
}

impl fmt::Display for CallReading {
    /// `at least 2 aces (76% of the hands the bots expect, 44% before the call)`, or
    /// `about 3.1 cards of spades (2.0 before the call)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shows {
            Shows::Bound {
                at_least,
                count,
                after,
                before,
            } => write!(
                f,
                "{} {count} {} ({:.0}% of the hands the bots expect, {:.0}% before the call)",
                if at_least { "at least" } else { "at most" },
                self.shown.name(count),
                100.0 * after,
                100.0 * before
            ),
            Shows::About { after, before } => write!(
                f,
                "about {after:.1} {} ({before:.1} before the call)",
                self.shown.name(2)
            ),
        }
    }
}

/// Hands drawn to read a call.
const READING_DEALS: usize = 400;

/// The least share of the expected hands a reading must cover.
const READING_SHARE: f64 = 0.5;

/// The least rise of that share over the one before the call for a bound to stand out.
const READING_RISE: f64 = 0.15;

/// Without a bound, the least shift of a trait's mean, in standard deviations of the
/// hands expected before the call, for the call to show anything.
const READING_SHIFT: f64 = 0.25;

/// What the bots take the call at `observation.actions[index]` to show, reading it from
/// the observer's seat (never the caller's): hands for the caller are drawn as the
/// observer knew the deal then, weighed by the calls before (the bots' auction model)
/// and then by this one. The bound whose share rises most, if one stands out; else the
/// trait whose mean moves most; else the hand's own tricks as the bots expect them.
/// `None` where the call shows nothing (a trump named, a
/// card passed) or is the observer's own.
pub fn read_call(
    rules: &GameRules,
    observation: &Observation,
    index: usize,
    rng: &mut GameRng,
) -> Option<CallReading> {
    with_game!(rules, |r, G| read_call_in::<G>(r, observation, index, rng))
}

fn read_call_in<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    index: usize,
    rng: &mut GameRng,
) -> Option<CallReading> {
    let (caller, SeenAction::Open(call)) = *observation.actions.get(index)? else {
        return None;
    };
    if caller == observation.seat || !call.is_call() {
        return None;
    }
    // The deal as the observer knew it when the call was made: the auction so far,
    // nothing yet settled by it.
    let then = Observation {
        actions: observation.actions[..=index].to_vec(),
        hand: observation.dealt,
        declared: Default::default(),
        ..observation.clone()
    };
    let deals = Deals::<G>::new(rules, &then).ok()?;
    let mut traits = vec![
        Trait::Aces,
        Trait::Kings,
        Trait::Jacks,
        Trait::Length,
        Trait::Honours,
        Trait::Tricks,
    ];
    if G::deck(rules).iter().any(|c| c.is_joker()) {
        traits.push(Trait::Jokers);
    }
    if let Action::BidStrain(_, strain) | Action::Loner(_, strain) = call {
        traits.extend(strain.trump().map(Trait::Suit));
    }
    // Per trait, the weight of hands holding each count, before and after the call.
    let mut before = vec![[0.0f64; 16]; traits.len()];
    let mut after = before.clone();
    for _ in 0..READING_DEALS {
        let dealt = deals.sampler().sample(rng);
        let prior: f64 = then.actions[..index]
            .iter()
            .enumerate()
            .filter(|(_, (seat, seen))| {
                *seat != then.seat && matches!(seen, SeenAction::Open(a) if a.is_call())
            })
            .map(|(i, (seat, _))| G::call_likelihood(rules, &then, i, dealt[seat.index()]))
            .product();
        let hand = dealt[caller.index()];
        let posterior = prior * G::call_likelihood(rules, &then, index, hand);
        let own_tricks = G::own_tricks(rules, hand);
        for (t, shown) in traits.iter().enumerate() {
            let count = shown.count(hand, own_tricks).min(15);
            before[t][count] += prior;
            after[t][count] += posterior;
        }
    }
    let share = |weights: &[f64; 16], at_least: bool, k: usize| {
        let total: f64 = weights.iter().sum();
        let part: f64 = match at_least {
            true => weights[k..].iter().sum(),
            false => weights[..=k].iter().sum(),
        };
        part / total.max(f64::MIN_POSITIVE)
    };
    let mut bound: Option<(f64, CallReading)> = None;
    for (t, &shown) in traits.iter().enumerate() {
        for count in 0..16 {
            for at_least in [true, false] {
                let (after, before) = (
                    share(&after[t], at_least, count),
                    share(&before[t], at_least, count),
                );
                let rise = after - before;
                if after >= READING_SHARE
                    && rise >= READING_RISE
                    && bound.is_none_or(|(best, _)| rise > best)
                {
                    let shows = Shows::Bound {
                        at_least,
                        count,
                        after,
                        before,
                    };
                    bound = Some((rise, CallReading { shown, shows }));
                }
            }
        }
    }
    if let Some((_, reading)) = bound {
        return Some(reading);
    }
    // The mean and standard deviation of a trait's count.
    let moments = |weights: &[f64; 16]| {
        let total = weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        let mean = (0..16).map(|k| k as f64 * weights[k]).sum::<f64>() / total;
        let variance = (0..16)
            .map(|k| (k as f64 - mean).powi(2) * weights[k])
            .sum::<f64>()
            / total;
        (mean, variance.sqrt())
    };
    let about = |t: usize| {
        let ((after, _), (before, spread)) = (moments(&after[t]), moments(&before[t]));
        let shift = (after - before).abs() / spread.max(f64::MIN_POSITIVE);
        let reading = CallReading {
            shown: traits[t],
            shows: Shows::About { after, before },
        };
        (shift, reading)
    };
    let moved_most = (0..traits.len())
        .map(about)
        .filter(|(shift, _)| *shift >= READING_SHIFT)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    // A call that moves no trait much still says something of the hand's strength.
    let strength = || traits.iter().position(|t| *t == Trait::Tricks).map(about);
    moved_most.or_else(strength).map(|(_, reading)| reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Decision;
    use calltrump_engine::{seeded, Game, Kaibosh, KaiboshRules, Seat};

    const HANDS: [&str; 4] = [
        "AS AH 9C TD QD 9H",
        "9S TS QH KD JC TC",
        "JS JH KS QS KH AD",
        "QC KC AC JD TH 9D",
    ];

    /// A Kaibosh game dealt `hands` by seat 3, after `actions`.
    fn kaibosh(hands: [&str; 4], actions: &[Action]) -> Kaibosh {
        let hands: Vec<CardBag> = hands
            .iter()
            .map(|h| h.split(' ').map(|c| c.parse().unwrap()).collect())
            .collect();
        let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(3));
        game.deal(&hands).unwrap();
        for &action in actions {
            game.apply(action).unwrap();
        }
        game
    }

    /// Seat 1's view of a Kaibosh auction in which seat 0 made `call` first.
    fn after_call(call: Action) -> Observation {
        kaibosh(HANDS, &[call]).observation(Seat(1))
    }

    #[test]
    fn values_hang_on_the_observation_and_the_seed_only() {
        let mut other = HANDS;
        // Seats 1 and 3 swap a king of diamonds for a ten of hearts: unseen by seat 0.
        other[1] = "9S TS QH TH JC TC";
        other[3] = "QC KC AC JD KD 9D";
        let auction = [Action::Pass, Action::Bid(3), Action::Pass, Action::Pass];
        let trump = Action::Trump(Suit::Spades);
        let [a, b] = [HANDS, other].map(|hands| {
            let mut game = kaibosh(hands, &auction);
            game.apply(trump).unwrap();
            // Seat 1 named trump; seat 0, on the dealer's left, leads.
            let observation = game.observation(Seat(0));
            let legal = game.legal_action_list();
            let rules = GameRules::Kaibosh(KaiboshRules::default());
            let decision = Decision {
                rules: &rules,
                observation: &observation,
                legal: &legal,
            };
            let mut bot = PimcBot::new(12, 6);
            bot.evaluate(&decision, &[], &mut seeded(7)).unwrap()
        });
        assert_eq!(a.actions.len(), 6);
        assert!(a.actions.windows(2).all(|w| w[0].points >= w[1].points));
        assert_eq!(a, b);
    }

    #[test]
    fn the_kaibosh_conventions_are_read_from_the_auction_model() {
        let rules = GameRules::Kaibosh(KaiboshRules::default());
        let read = |call| read_call(&rules, &after_call(call), 0, &mut seeded(1));
        let one = read(Action::Bid(1)).expect("a 1 shows aces");
        assert_eq!(one.shown, Trait::Aces);
        assert!(matches!(
            one.shows,
            Shows::Bound {
                at_least: true,
                count: 2,
                ..
            }
        ));
        assert!(one.to_string().starts_with("at least 2 aces ("), "{one}");
        let two = read(Action::Bid(2)).expect("a 2 shows jacks");
        assert_eq!(two.shown, Trait::Jacks);
        // A bid of tricks shows the tricks the bidder's own cards take.
        for bid in 3..=6 {
            let tricks = read(Action::Bid(bid)).expect("a bid of tricks shows strength");
            assert_eq!(tricks.shown, Trait::Tricks, "bid {bid}: {tricks}");
            assert!(tricks.to_string().contains("by its own cards"), "{tricks}");
        }
        // The observer's own call shows it nothing.
        let mut own = after_call(Action::Bid(1));
        own.seat = Seat(0);
        assert_eq!(read_call(&rules, &own, 0, &mut seeded(1)), None);
    }
}
