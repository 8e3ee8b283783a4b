//! calltrump's rules engine: exact rules for card games in which the auction names trump
//! (Kaibosh, Bid Euchre, Kout Bo), game records, and replay.
//!
//! The engine does no I/O and owns no randomness: every random deal takes a [`GameRng`]
//! seeded from a `u64` (see [`seeded`]), so every game can be reproduced. A fair deal
//! ([`fair_deal`]) takes instead a secret seed that the caller draws and commits to, and
//! anyone can recompute it once the seed is revealed.
//!
//! Every game implements [`Game`]: whose turn it is ([`Turn`]), the legal actions, a
//! checked [`Game::apply`] that names the rule an action breaks and leaves the game as it
//! was, [`Game::apply_unchecked`] for search, and a per-seat [`Observation`] that holds
//! exactly what that seat may know. [`AnyGame`] holds a game of any family; a
//! [`Record`] replays into one.

mod action;
mod any_game;
pub mod bid_euchre;
mod card;
mod card_set;
pub mod catalog;
mod deal_source;
pub mod fair_deal;
mod game;
mod hand;
pub mod kaibosh;
pub mod kout;
pub mod night;
mod record;
mod rng;
mod rules;
mod seat;
mod shuffle;
mod table;
mod trick;
mod view;

pub use action::{Action, CardPair, Loner, ParseActionError, Strain};
pub use any_game::AnyGame;
pub use bid_euchre::{BidEuchre, BidEuchreRules, Variant as BidEuchreVariant};
pub use card::{Card, ParseCardError, Rank, Suit, ACE, JACK, KING, QUEEN};
pub use card_set::{CardBag, CardSet, CardSetIter};
pub use catalog::{GameKind, HeaderError, VariantKind};
pub use game::{
    ActionList, AllPass, Broken, Contract, DealError, Declared, Game, Goal, HandOutcome, HandStart,
    HandSummary, Observation, Outcome, Phase, PlayError, SeenAction, TrickState, Turn, MAX_ACTIONS,
};
pub use kaibosh::{Kaibosh, KaiboshRules};
pub use kout::{JokerLead, Kout, Kout4Deck, KoutRules, Variant as KoutVariant};
pub use night::{Night, NightError, NightSheet, SetTable};
pub use record::{Record, RecordError, RecordHand, Replay};
pub use rng::{seeded, stream, GameRng};
pub use rules::{GameRules, OptionReader};
pub use seat::{Seat, Team};
pub use trick::{CardOrder, Trick};
pub use view::{TrickView, View, Viewer};
