//! The `rules` bot: fast rules of thumb. Calls follow each game's conventions (see
//! [`BotGame::rules_call`]); the play is the same for every game: cash sure winners
//! (trumps first when the bot's side holds the contract), win cheaply, never take a
//! trick from the partner, and throw the lowest card otherwise.

use calltrump_engine::{Action, GameRng, Observation};

use crate::calls::in_legal;
use crate::model::{BotGame, Deals};
use crate::position::{lane, Bits, Position};
use crate::with_game;
use crate::{Bot, Decision};

/// The rules-of-thumb bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesBot;

impl Bot for RulesBot {
    fn name(&self) -> String {
        "rules".to_string()
    }

    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action {
        with_game!(decision.rules, |r, G| rules_choose::<G>(
            r,
            decision.observation,
            decision.legal,
            rng
        ))
    }
}

/// The rules-of-thumb choice for any decision of game `G`.
pub(crate) fn rules_choose<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
    rng: &mut GameRng,
) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    if !matches!(legal[0], Action::Play(_)) {
        return in_legal(G::rules_call(rules, observation, legal), legal);
    }
    // Any consistent deal shows the same own hand, table and unseen cards; only the
    // split of the unseen cards differs, and the play below never looks at it.
    let game = Deals::<G>::new(rules, observation)
        .ok()
        .and_then(|deals| deals.draw(false, 32, rng))
        .map(|(game, _)| game);
    match game.as_ref().and_then(|g| g.position().map(|p| (g, p))) {
        Some((game, (position, layout))) => {
            let makers = game.hand_summary().declarer.map(|s| s.team().index());
            let card = layout.card(rules_play(&position, makers));
            in_legal(Action::Play(card), legal)
        }
        None => legal[0],
    }
}

/// Strength of a compact card within its suit, trumps above every plain card.
fn rank_key(position: &Position, card: u8) -> u32 {
    u32::from(card & 15) + if card >> 4 == position.trump { 32 } else { 0 }
}

/// The cheapest card of `cards` (plain before trumps, low before high); the first
/// index of the seat's hand if `cards` is empty, which no consistent position has.
fn lowest(position: &Position, cards: u64) -> u8 {
    Bits(cards)
        .min_by_key(|&c| rank_key(position, c))
        .unwrap_or_else(|| position.hands[position.to_act as usize].trailing_zeros() as u8 & 63)
}

/// Whether no unseen card can beat `card` in its own suit (a twin cannot: the first of
/// two equal cards wins).
fn is_boss(position: &Position, card: u8, unseen: u64) -> bool {
    let top_copy = card | ((1 << position.shift) - 1);
    let above = lane(card >> 4) & !((2u64 << top_copy) - 1);
    unseen & above == 0
}

/// The rules-of-thumb card (compact index) for the seat to act; `makers` is the team
/// holding the contract.
pub(crate) fn rules_play(position: &Position, makers: Option<usize>) -> u8 {
    let me = position.to_act;
    let team = Position::team(me);
    let playable = position.playable();
    let unseen = position
        .hands
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != me as usize)
        .fold(0, |a, (_, h)| a | h);
    let trumps = if position.trump < 4 {
        lane(position.trump)
    } else {
        0
    };
    if position.trick_len == 0 {
        let bosses: u64 = Bits(playable)
            .filter(|&c| is_boss(position, c, unseen))
            .fold(0, |a, c| a | 1 << c);
        let boss_trumps = bosses & trumps;
        if makers == Some(team) && boss_trumps != 0 && unseen & trumps != 0 {
            return Bits(boss_trumps).last().expect("non-empty");
        }
        if bosses & !trumps != 0 {
            return Bits(bosses & !trumps).last().expect("non-empty");
        }
        if boss_trumps != 0 && makers == Some(team) {
            return Bits(boss_trumps).last().expect("non-empty");
        }
        return lowest(position, playable);
    }
    let partner_winning = Position::team(position.winner) == team;
    if partner_winning {
        return lowest(position, playable);
    }
    let winners: u64 = Bits(playable)
        .filter(|&c| position.beats(c, position.best))
        .fold(0, |a, c| a | 1 << c);
    if winners != 0 {
        return lowest(position, winners);
    }
    lowest(position, playable)
}
