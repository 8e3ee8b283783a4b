//! What the search bots need to know of a game family beyond [`Game`]: one small impl of
//! [`BotGame`] per family, plus the dispatch from [`GameRules`] to the concrete type.

use calltrump_engine::{
    Action, Card, CardBag, Game, GameRng, Observation, Phase, Seat, SeenAction,
};

use rand::Rng;

use crate::position::{Bits, JokerRules, Layout, Position, MAX_SEATS};
use crate::sampler::{DealSampler, Inconsistent, Knowledge};

/// A full deal consistent with an observation, and the cards of the actions the
/// observer saw face down, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Every seat's dealt cards.
    pub dealt: Vec<CardBag>,
    /// The actions behind the observation's hidden gives and discards, in order.
    pub hidden: Vec<Action>,
}

/// How far a search looks ahead where a game is not searched to the end of the hand:
/// the stronger levels afford to look further ([`BotGame::search_depth`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lookahead {
    /// The game's cheap horizon.
    #[default]
    Near,
    /// Further, at several times the cost, where that plays measurably better.
    Far,
}

/// One game family as the bots see it. Adding a game to the bots is one impl of this.
pub trait BotGame: Game + Sized + 'static {
    /// Largest point swing between the teams on one hand, to scale search rewards.
    const SWING: f64;

    /// How sure a simulation must be to overrule the rules-of-thumb call: the gain, in
    /// standard errors of the paired differences over the sampled deals, that the best
    /// simulated call needs over the rules' call. 0 takes the best mean.
    const CALL_MARGIN: f64 = 0.0;

    /// How many tricks ahead the solver searches in this game before estimating
    /// (`None`: to the end, exactly), looking as far as `lookahead` allows.
    fn search_depth(_rules: &Self::Rules, _lookahead: Lookahead) -> Option<u32> {
        None
    }

    /// The deck, one entry per copy.
    fn deck(rules: &Self::Rules) -> Vec<Card>;

    /// The score that ends the game, if any.
    fn target(rules: &Self::Rules) -> Option<i32>;

    /// Points each team would still need to win the game if the current hand scored
    /// `points` on top of `scores` (0 or less: that team has won; `None`: the game has
    /// no target and the point difference is what counts). By default the target's.
    fn points_to_win(&self, scores: [i32; 2], points: [i32; 2]) -> Option<[i32; 2]> {
        Self::target(self.rules()).map(|target| {
            [
                target - scores[0] - points[0],
                target - scores[1] - points[1],
            ]
        })
    }

    /// What `observation` reveals about the deal, voids included.
    fn knowledge(rules: &Self::Rules, observation: &Observation) -> Knowledge;

    /// The deal (and hidden actions) behind one drawing of the unknown cards: `buckets`
    /// holds each seat's known and drawn cards, then the extra buckets' cards. `None`
    /// if the drawing fits no deal (the caller draws again). By default each seat was
    /// dealt its bucket and nothing was hidden.
    fn complete(
        _rules: &Self::Rules,
        _observation: &Observation,
        knowledge: &Knowledge,
        buckets: Vec<CardBag>,
        _rng: &mut GameRng,
    ) -> Option<Completion> {
        let mut dealt = buckets;
        dealt.truncate(knowledge.seats);
        Some(Completion {
            dealt,
            hidden: Vec::new(),
        })
    }

    /// The layout of the card play under the trump named (called only in the play).
    fn play_layout(&self) -> &'static Layout;

    /// The joker rules of the card play under `layout` (Kout Bo); none by default.
    fn joker_rules(&self, _layout: &Layout) -> Option<JokerRules> {
        None
    }

    /// The card play as a compact position, when a card is to be played: every seat's
    /// cards, the seat out, the trick so far and the tricks taken, the same in every
    /// game.
    fn position(&self) -> Option<(Position, Layout)> {
        if self.phase() != Phase::Play {
            return None;
        }
        let layout = self.play_layout();
        let seats = self.seats();
        let mut hands = [CardBag::EMPTY; MAX_SEATS];
        for (s, hand) in hands.iter_mut().enumerate().take(seats) {
            *hand = self.hand(Seat(s as u8));
        }
        let position = Position::build(
            layout,
            &hands[..seats],
            self.sitting_out(),
            self.trick(),
            self.hand_summary().tricks,
            self.joker_rules(layout),
        );
        Some((position, layout.clone()))
    }

    /// The team and tricks the hand's points hang on, when they hang on nothing else:
    /// whether that team takes that many (Kout Bo: the makers and their bid). The
    /// search then asks only that, which is cheaper than counting every trick.
    fn contract_tricks(&self) -> Option<(usize, u8)> {
        None
    }

    /// How well `call`, made by `seat` after the actions `before`, fits `hand` (that
    /// seat's dealt cards), from 0 to 1: the auction model behind inference.
    fn call_fit(
        rules: &Self::Rules,
        seat: Seat,
        call: Action,
        before: &[(Seat, SeenAction)],
        hand: CardBag,
    ) -> f64;

    /// How well the action at `observation.actions[index]` fits `hand` (that seat's
    /// dealt cards), from 0 to 1: [`BotGame::call_fit`] for an action seen face up, 1
    /// for one seen face down (it tells nothing of the hand).
    fn call_likelihood(
        rules: &Self::Rules,
        observation: &Observation,
        index: usize,
        hand: CardBag,
    ) -> f64 {
        let (seat, seen) = observation.actions[index];
        match seen {
            SeenAction::Open(call) => {
                Self::call_fit(rules, seat, call, &observation.actions[..index], hand)
            }
            _ => 1.0,
        }
    }

    /// The actions of a decision that is not a card play worth simulating (all of them
    /// by default); games with many calls prune the hopeless ones.
    fn call_candidates(
        _rules: &Self::Rules,
        _observation: &Observation,
        legal: &[Action],
    ) -> Vec<Action> {
        legal.to_vec()
    }

    /// A rule-of-thumb choice for a decision that is not a card play.
    fn rules_call(rules: &Self::Rules, observation: &Observation, legal: &[Action]) -> Action;

    /// The call a simulated call must beat, and by how many standard errors of the
    /// paired differences over the sampled deals, to be taken instead: by default the
    /// rules' call by [`BotGame::CALL_MARGIN`], where that is above 0.
    fn call_baseline(
        rules: &Self::Rules,
        observation: &Observation,
        legal: &[Action],
    ) -> Option<(Action, f64)> {
        (Self::CALL_MARGIN > 0.0).then(|| {
            let pick = crate::calls::in_legal(Self::rules_call(rules, observation, legal), legal);
            (pick, Self::CALL_MARGIN)
        })
    }

    /// The tricks `hand` takes by itself with its best trump (or strain), by the
    /// estimate the bots bid by: what a call tells of a hand's strength.
    fn own_tricks(rules: &Self::Rules, hand: CardBag) -> f64;
}

/// Rebuilds the full state of the game from the observation and a completion of it:
/// resume at the hand's start, deal, replay the actions (checked), the hidden ones from
/// the completion.
pub fn rebuild<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    completion: &Completion,
) -> Result<G, String> {
    let mut game = G::resume(rules, observation.start);
    game.deal(&completion.dealt).map_err(|e| e.to_string())?;
    let mut hidden = completion.hidden.iter();
    for (i, (_, seen)) in observation.actions.iter().enumerate() {
        let action = match seen {
            SeenAction::Open(action) => *action,
            _ => *hidden
                .next()
                .ok_or_else(|| format!("action {i}: no cards for the hidden \"{seen}\""))?,
        };
        game.apply(action).map_err(|e| format!("action {i}: {e}"))?;
    }
    Ok(game)
}

/// The deals consistent with one seat's observation, for one decision: what it reveals
/// and the sampler over it are worked out once, then full states are drawn from them.
pub struct Deals<'a, G: BotGame> {
    rules: &'a G::Rules,
    observation: &'a Observation,
    sampler: DealSampler,
}

impl<'a, G: BotGame> Deals<'a, G> {
    /// The deals behind `observation`, or [`Inconsistent`] if none fits it.
    pub fn new(rules: &'a G::Rules, observation: &'a Observation) -> Result<Self, Inconsistent> {
        Ok(Deals {
            rules,
            observation,
            sampler: DealSampler::new(G::knowledge(rules, observation))?,
        })
    }

    /// The sampler of the unknown cards.
    pub fn sampler(&self) -> &DealSampler {
        &self.sampler
    }

    /// The likelihood of the auction seen given each seat's cards: the product of
    /// [`BotGame::call_likelihood`] over the calls of the other seats.
    pub fn auction_likelihood(&self, dealt: &[CardBag]) -> f64 {
        let observation = self.observation;
        let mut w = 1.0;
        for (i, (seat, seen)) in observation.actions.iter().enumerate() {
            if *seat == observation.seat {
                continue;
            }
            if let SeenAction::Open(action) = seen {
                if action.is_call() {
                    w *= G::call_likelihood(self.rules, observation, i, dealt[seat.index()]);
                }
            }
        }
        w
    }

    /// Draws completions until one replays: a full state consistent with the
    /// observation (weighted by the auction if `auction`), or `None` after `tries`
    /// failures.
    pub fn draw(&self, auction: bool, tries: usize, rng: &mut GameRng) -> Option<(G, Completion)> {
        for _ in 0..tries {
            let buckets = if auction {
                self.sampler
                    .sample_weighted(rng, AUCTION_TRIES, |d| self.auction_likelihood(d))
            } else {
                self.sampler.sample(rng)
            };
            let knowledge = self.sampler.knowledge();
            let Some(completion) =
                G::complete(self.rules, self.observation, knowledge, buckets, rng)
            else {
                continue;
            };
            if let Ok(game) = rebuild::<G>(self.rules, self.observation, &completion) {
                return Some((game, completion));
            }
        }
        None
    }

    /// Draws as [`Deals::draw`] does, then weighs the deal by how likely the other
    /// seats' card plays are with its cards ([`Deals::play_likelihood`]): of up to
    /// 8 deals drawn, each is kept with that likelihood, else the likeliest.
    /// A deal that explains every play is kept at once, at no extra cost.
    pub fn draw_reading_play(
        &self,
        auction: bool,
        tries: usize,
        rng: &mut GameRng,
    ) -> Option<(G, Completion)> {
        let mut likeliest: Option<(f64, (G, Completion))> = None;
        for _ in 0..PLAY_TRIES {
            let Some(drawn) = self.draw(auction, tries, rng) else {
                break;
            };
            let w = self.play_likelihood(&drawn.1);
            if w >= 1.0 || rng.random::<f64>() < w {
                return Some(drawn);
            }
            if likeliest.as_ref().is_none_or(|(lw, _)| w > *lw) {
                likeliest = Some((w, drawn));
            }
        }
        likeliest.map(|(_, drawn)| drawn)
    }

    /// How likely the card plays of the seats other than the observer are if they held
    /// the cards of `completion` (a completion that [`rebuild`]s): the product, over
    /// those plays, of how likely each is as the bots and most players play (a trick
    /// the other team holds is taken if it can be, and as cheaply as it can be).
    pub fn play_likelihood(&self, completion: &Completion) -> f64 {
        let observation = self.observation;
        let mut game = G::resume(self.rules, observation.start);
        if game.deal(&completion.dealt).is_err() {
            return 0.0;
        }
        let mut hidden = completion.hidden.iter();
        let mut w = 1.0;
        for (seat, seen) in &observation.actions {
            let action = match seen {
                SeenAction::Open(action) => *action,
                _ => match hidden.next() {
                    Some(action) => *action,
                    None => return w,
                },
            };
            if let (Action::Play(card), true) = (action, *seat != observation.seat) {
                if let Some((position, layout)) = game.position() {
                    w *= card_play_likelihood(&position, &layout, card);
                }
            }
            game.apply_unchecked(action);
        }
        w
    }
}

/// Candidate deals tried per accepted sample when weighting by the auction.
const AUCTION_TRIES: usize = 24;

/// Deals drawn, at most, for one kept when weighing them by the play.
const PLAY_TRIES: usize = 8;

/// The likelihood of a seat letting the other team's card hold a trick it could have
/// taken, as the last to play (a plain gift) and earlier (where playing low may be a
/// plan).
const DUCK_LAST: f64 = 0.2;
const DUCK_EARLY: f64 = 0.6;
/// The likelihood of a seat taking a trick with a dearer card than it had to (a trump
/// where a card of the suit led would do, or a higher card of the same suit): players,
/// and the bots' ties, take a trick as cheaply as they can.
const DEAR_WIN: f64 = 0.4;

/// How likely the seat to act in `before` plays `card` with the cards `before` gives it
/// (see [`likelihood_of_play`]).
fn card_play_likelihood(before: &Position, layout: &Layout, card: Card) -> f64 {
    let held = before.hands[before.to_act as usize] & layout.copies(card);
    if held == 0 {
        return 1.0;
    }
    likelihood_of_play(before, held.trailing_zeros() as u8)
}

/// How likely the seat to act in `before` plays `played` (a compact index) with the
/// cards `before` gives it, as the bots and most players play: a trick the other team
/// holds is taken if it can be, and taken as cheaply as it can be. 1 when the play says
/// nothing (a lead, no card that could take the trick, the partner holding it).
fn likelihood_of_play(before: &Position, played: u8) -> f64 {
    let seat = before.to_act;
    if before.trick_len == 0 {
        return 1.0;
    }
    let takes = |c: u8| {
        let mut after = *before;
        after.play(c);
        after.winner == seat
    };
    let is_joker = |c: u8| {
        before
            .jokers
            .as_ref()
            .is_some_and(|j| j.jokers & 1 << c != 0)
    };
    // Cheapest: a card of a plain suit before a trump, then the lowest face.
    let cost = |c: u8| (c >> 4 == before.trump, c >> before.shift);
    let Some(cheapest) = Bits(before.playable())
        .filter(|&c| takes(c))
        .min_by_key(|&c| cost(c))
    else {
        return 1.0;
    };
    if !takes(played) {
        let partner_holds = Position::team(before.winner) == Position::team(seat);
        return match (partner_holds, before.next(seat) == before.leader) {
            (true, _) => 1.0,
            (false, true) => DUCK_LAST,
            (false, false) => DUCK_EARLY,
        };
    }
    if is_joker(played) || is_joker(cheapest) || cost(played) == cost(cheapest) {
        1.0
    } else {
        DEAR_WIN
    }
}

/// Calls a generic function with the concrete game type of some [`calltrump_engine::GameRules`]:
/// `with_game!(rules, |r, G| body)` binds `r` to that family's rules and `G` to its type.
/// Exported so tests and tools dispatch on the game the same way the bots do.
#[macro_export]
macro_rules! with_game {
    ($rules:expr, |$r:ident, $g:ident| $body:expr) => {
        match $rules {
            calltrump_engine::GameRules::Kaibosh($r) => {
                type $g = calltrump_engine::Kaibosh;
                $body
            }
            calltrump_engine::GameRules::BidEuchre($r) => {
                type $g = calltrump_engine::BidEuchre;
                $body
            }
            calltrump_engine::GameRules::Kout($r) => {
                type $g = calltrump_engine::Kout;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::NO_LANE;

    /// Four seats, trump in lane 3; seat 3 holds `hand` and plays last to a trick of
    /// lane 0 where seat 0 led 5, seat 1 played `second` and seat 2 played `third`.
    fn last_to_play(second: u8, third: u8, hand: &[u8]) -> Position {
        let mut hands = [0u64; MAX_SEATS];
        hands[0] = 1 << 5;
        hands[1] = 1 << second;
        hands[2] = 1 << third;
        hands[3] = hand.iter().fold(0, |h, c| h | 1 << c);
        let mut position = Position {
            hands,
            seats: 4,
            in_play: 0b1111,
            trump: 3,
            shift: 0,
            leader: 0,
            to_act: 0,
            trick: [0; MAX_SEATS],
            trick_len: 0,
            winner: 0,
            best: 0,
            tricks: [0, 0],
            led: NO_LANE,
            jokers: None,
        };
        for card in [5, second, third] {
            position.play(card);
        }
        position
    }

    #[test]
    fn a_trick_left_to_the_other_team_or_taken_dear_is_unlikely() {
        let trump = |rank: u8| 48 + rank;
        // Seat 2 (the other team) holds the trick with 8.
        let theirs = last_to_play(3, 8, &[2, 10, 12]);
        assert_eq!(likelihood_of_play(&theirs, 2), DUCK_LAST);
        assert_eq!(likelihood_of_play(&theirs, 10), 1.0);
        assert_eq!(likelihood_of_play(&theirs, 12), DEAR_WIN);
        // Void in the suit led: a trump takes it; a discard gives it away.
        let void = last_to_play(3, 8, &[trump(1), 20]);
        assert_eq!(likelihood_of_play(&void, trump(1)), 1.0);
        assert_eq!(likelihood_of_play(&void, 20), DUCK_LAST);
        // A trump where a card of the suit would do is dear.
        let both = last_to_play(3, 8, &[9, trump(0)]);
        assert_eq!(likelihood_of_play(&both, trump(0)), DEAR_WIN);
        // The partner (seat 1) holds it: playing low says nothing; nor does having no
        // card that takes it.
        let partners = last_to_play(8, 3, &[2, 10]);
        assert_eq!(likelihood_of_play(&partners, 2), 1.0);
        let beaten = last_to_play(3, 14, &[2, 10]);
        assert_eq!(likelihood_of_play(&beaten, 2), 1.0);
    }

    #[test]
    fn a_duck_before_the_last_seat_says_less() {
        // Seat 1 to play second to seat 0's 5, holding 2 and 9.
        let mut hands = [0u64; MAX_SEATS];
        hands[0] = 1 << 5;
        hands[1] = 1 << 2 | 1 << 9;
        let mut position = last_to_play(3, 8, &[]);
        position.hands = hands;
        position.trick_len = 0;
        position.to_act = 0;
        position.leader = 0;
        position.play(5);
        assert_eq!(likelihood_of_play(&position, 2), DUCK_EARLY);
        assert_eq!(likelihood_of_play(&position, 9), 1.0);
    }
}
