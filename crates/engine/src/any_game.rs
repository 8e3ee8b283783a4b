//! [`AnyGame`]: one type for a game of any family, for code that must hold "any game"
//! (records, the command line, bots that serve every game).

use crate::action::Action;
use crate::bid_euchre::BidEuchre;
use crate::card_set::CardBag;
use crate::game::{
    ActionList, Broken, DealError, Game, Goal, HandStart, HandSummary, Observation, Outcome, Phase,
    TrickState, Turn,
};
use crate::kaibosh::Kaibosh;
use crate::kout::Kout;
use crate::rules::GameRules;
use crate::seat::Seat;
use crate::trick::Trick;
use crate::GameRng;

/// A game of any family; every call goes to the game inside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Kaibosh.
    Kaibosh(Kaibosh, GameRules),
    /// Kout Bo.
    Kout(Kout, GameRules),
    /// Bid Euchre.
    BidEuchre(BidEuchre, GameRules),
}

/// Calls the same method on whichever game is inside.
macro_rules! each_game {
    ($self:expr, $game:ident => $body:expr) => {
        match $self {
            AnyGame::Kaibosh($game, _) => $body,
            AnyGame::Kout($game, _) => $body,
            AnyGame::BidEuchre($game, _) => $body,
        }
    };
}

impl Game for AnyGame {
    type Rules = GameRules;

    fn resume(rules: &GameRules, start: HandStart) -> AnyGame {
        match rules {
            GameRules::Kaibosh(r) => AnyGame::Kaibosh(Kaibosh::resume(r, start), rules.clone()),
            GameRules::Kout(r) => AnyGame::Kout(Kout::resume(r, start), rules.clone()),
            GameRules::BidEuchre(r) => {
                AnyGame::BidEuchre(BidEuchre::resume(r, start), rules.clone())
            }
        }
    }

    fn rules(&self) -> &GameRules {
        match self {
            AnyGame::Kaibosh(_, rules) => rules,
            AnyGame::Kout(_, rules) => rules,
            AnyGame::BidEuchre(_, rules) => rules,
        }
    }

    fn seats(&self) -> usize {
        each_game!(self, g => g.seats())
    }

    fn turn(&self) -> Turn {
        each_game!(self, g => g.turn())
    }

    fn hand(&self, seat: Seat) -> CardBag {
        each_game!(self, g => g.hand(seat))
    }

    fn trick(&self) -> &Trick {
        each_game!(self, g => g.trick())
    }

    fn legal_actions(&self, out: &mut ActionList) {
        each_game!(self, g => g.legal_actions(out))
    }

    fn check(&self, action: Action) -> Result<(), Broken> {
        each_game!(self, g => g.check(action))
    }

    fn apply_unchecked(&mut self, action: Action) {
        each_game!(self, g => g.apply_unchecked(action))
    }

    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError> {
        each_game!(self, g => g.deal(hands))
    }

    fn deal_random(&mut self, rng: &mut GameRng) {
        each_game!(self, g => g.deal_random(rng))
    }

    fn observation(&self, seat: Seat) -> Observation {
        each_game!(self, g => g.observation(seat))
    }

    fn hand_start(&self) -> HandStart {
        each_game!(self, g => g.hand_start())
    }

    fn hand_summary(&self) -> HandSummary {
        each_game!(self, g => g.hand_summary())
    }

    fn scores(&self) -> [i32; 2] {
        each_game!(self, g => g.scores())
    }

    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2] {
        each_game!(self, g => g.hand_points(tricks))
    }

    fn outcome(&self) -> Option<Outcome> {
        each_game!(self, g => g.outcome())
    }

    fn phase(&self) -> Phase {
        each_game!(self, g => g.phase())
    }

    fn goal(&self) -> Goal {
        each_game!(self, g => g.goal())
    }

    fn sitting_out(&self) -> Option<Seat> {
        each_game!(self, g => g.sitting_out())
    }

    fn current_trick(&self) -> Option<TrickState> {
        each_game!(self, g => g.current_trick())
    }
}
