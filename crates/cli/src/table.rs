//! Running a game: deals from a seeded generator, actions from whoever sits at each seat,
//! and the record kept as it goes.

use anyhow::Result;
use calltrump_engine::fair_deal::{self, DealSource};
use calltrump_engine::{
    stream, Action, ActionList, AnyGame, CardBag, Game, GameRng, GameRules, Record, Seat, Turn,
};

/// What happened at the table, for whoever is watching.
pub enum Event {
    /// A hand was dealt.
    Dealt,
    /// A seat acted.
    Acted(Seat, Action),
    /// The hand is over (right after the action that ended it).
    HandOver,
}

/// Why [`Table::play`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The game is over.
    GameOver,
    /// A player quit.
    Quit,
    /// The deal limit was reached before the game ended.
    DealLimit,
}

/// A game in progress with its record.
pub struct Table {
    /// The game.
    pub game: AnyGame,
    /// Everything dealt and done so far.
    pub record: Record,
}

impl Table {
    /// A new game under `rules` dealt from the seeded generator `stream(seed, index)`,
    /// which draws the first dealer first; the record says so. Returns the generator for
    /// the deals.
    pub fn seeded(rules: &GameRules, seed: u64, index: u64) -> (Table, GameRng) {
        let mut rng = stream(seed, index);
        let mut table = Table::with_dealer(rules, fair_deal::draw_first_dealer(rules, &mut rng));
        table.record.deal_source = Some(DealSource::Seeded {
            seed,
            stream: index,
            first_dealer_drawn: true,
        });
        (table, rng)
    }

    /// A new game under `rules` with `first_dealer` dealing first.
    pub fn with_dealer(rules: &GameRules, first_dealer: Seat) -> Table {
        Table {
            game: AnyGame::new(rules, first_dealer),
            record: Record::new(rules, first_dealer),
        }
    }

    /// Plays until the game ends, `choose` returns `None` (a player quit) or `max_deals`
    /// hands have been dealt. Deals come from `deal_rng`; `choose` gets the game, the seat
    /// to act and its legal actions; `watch` sees every event, and an error from it
    /// stops the game.
    pub fn play(
        &mut self,
        deal_rng: &mut GameRng,
        max_deals: usize,
        mut choose: impl FnMut(&AnyGame, Seat, &ActionList) -> Result<Option<Action>>,
        mut watch: impl FnMut(&AnyGame, Event) -> Result<()>,
    ) -> Result<Stop> {
        let mut legal = ActionList::new();
        loop {
            match self.game.turn() {
                Turn::Over => return Ok(Stop::GameOver),
                Turn::Chance if self.record.hands.len() >= max_deals => return Ok(Stop::DealLimit),
                Turn::Chance => {
                    self.game.deal_random(deal_rng);
                    let deal: Vec<CardBag> = (0..self.game.seats())
                        .map(|s| self.game.observation(Seat(s as u8)).dealt)
                        .collect();
                    self.record.push_deal(&deal);
                    watch(&self.game, Event::Dealt)?;
                }
                Turn::Seat(seat) => {
                    legal.clear();
                    self.game.legal_actions(&mut legal);
                    let Some(action) = choose(&self.game, seat, &legal)? else {
                        return Ok(Stop::Quit);
                    };
                    self.game.apply(action)?;
                    self.record.push_action(action);
                    watch(&self.game, Event::Acted(seat, action))?;
                    // The action that ends a hand hands the turn to chance or ends the game.
                    if !matches!(self.game.turn(), Turn::Seat(_)) {
                        watch(&self.game, Event::HandOver)?;
                    }
                }
            }
        }
    }
}
