//! Running a game in the terminal and in simulations: a [`Table`] of the table library,
//! driven by asking whoever sits at the seat to act.

use anyhow::Result;
use calltrump_engine::fair_deal::{self, DealSource};
use calltrump_engine::{
    stream, Action, ActionList, AnyGame, Game, GameRules, RecordHand, Seat, Turn,
};
use calltrump_table::Settings;
pub use calltrump_table::Table;

/// What happened at the table, for whoever is watching.
pub enum Event {
    /// A hand was dealt.
    Dealt,
    /// A seat acted.
    Acted(Seat, Action),
    /// The hand is over (right after the action that ended it).
    HandOver,
}

/// Why [`play`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The game is over.
    GameOver,
    /// A player quit.
    Quit,
    /// The deal limit was reached before the game ended.
    DealLimit,
}

/// A new game under `rules` dealt from the seeded generator `stream(seed, index)`, which
/// draws the first dealer first; the record says so. `people` are the seats persons
/// play: they may take back their actions.
pub fn seeded(rules: &GameRules, seed: u64, index: u64, people: &[Seat]) -> Table {
    let mut rng = stream(seed, index);
    let first_dealer = fair_deal::draw_first_dealer(rules, &mut rng);
    Table::new(Settings::new(rules.clone(), first_dealer, people), rng).with_deal_source(
        DealSource::Seeded {
            seed,
            stream: index,
            first_dealer_drawn: true,
        },
    )
}

/// A new game under `rules` with `first_dealer` dealing first, dealt from the seeded
/// generator `stream(seed, index)`; `people` as for [`seeded`].
pub fn seeded_with_dealer(
    rules: &GameRules,
    first_dealer: Seat,
    seed: u64,
    index: u64,
    people: &[Seat],
) -> Table {
    let settings = Settings::new(rules.clone(), first_dealer, people);
    Table::new(settings, stream(seed, index)).with_deal_source(DealSource::Seeded {
        seed,
        stream: index,
        first_dealer_drawn: false,
    })
}

/// Plays `table` until the game ends, `choose` returns `None` (a player quit) or
/// `max_deals` hands have been dealt. Deals come from the table's generator; `choose`
/// gets the game, the seat to act and its legal actions; `watch` sees every event, and
/// an error from it stops the game.
pub fn play(
    table: &mut Table,
    max_deals: usize,
    mut choose: impl FnMut(&AnyGame, Seat, &ActionList) -> Result<Option<Action>>,
    mut watch: impl FnMut(&AnyGame, Event) -> Result<()>,
) -> Result<Stop> {
    let mut legal = ActionList::new();
    loop {
        match table.turn() {
            Turn::Over => return Ok(Stop::GameOver),
            Turn::Chance if table.deals() >= max_deals => return Ok(Stop::DealLimit),
            Turn::Chance => {
                table.deal()?;
                watch(table.game(), Event::Dealt)?;
            }
            Turn::Seat(seat) => {
                legal.clear();
                table.game().legal_actions(&mut legal);
                let Some(action) = choose(table.game(), seat, &legal)? else {
                    return Ok(Stop::Quit);
                };
                table.apply(seat, action)?;
                watch(table.game(), Event::Acted(seat, action))?;
                // The action that ends a hand hands the turn to chance or ends the game.
                if !matches!(table.turn(), Turn::Seat(_)) {
                    watch(table.game(), Event::HandOver)?;
                }
            }
        }
    }
}

/// Plays again on `table` the actions of the `hands` of a saved game (as far as they
/// go), to go on with it from where it was saved.
pub fn play_again(table: &mut Table, hands: &[RecordHand]) -> Result<Stop> {
    let next = |game: &AnyGame, seat: Seat| -> Option<Action> {
        let hand = hands.get(game.hand_start().deals_played as usize)?;
        hand.actions
            .get(game.observation(seat).actions.len())?
            .parse()
            .ok()
    };
    play(
        table,
        hands.len(),
        |game, seat, _| Ok(next(game, seat)),
        |_, _| Ok(()),
    )
}

/// Seconds since 1970: the seed when none is given.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
