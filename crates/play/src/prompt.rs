//! The choices at a player's decision and what is said about what they type: the menu
//! (calls, trump suits or cards, each with its key; numbered cards to pick towards a give
//! or discard; Bid Euchre's calls as a legend), a move made for them, and why a typed
//! action is refused, in the player's words. The terminal's `calltrump play` asks with
//! these.

use anyhow::Result;
use calltrump_engine::{
    Action, AnyGame, Broken, Card, CardPair, Game, GameKind, Phase, Seat, SeenAction, Strain, Turn,
    View,
};

use crate::game_loop::Table;
use crate::local::{only_one_move, take_back};
use crate::style::{card_order, game_title, sorted_groups, Style};

/// The choices offered at a prompt.
pub enum Menu {
    /// Actions each with its key (see [`menu_key`]): calls, trump suits or cards to play.
    Actions(Vec<Action>),
    /// Numbered cards, one to pick towards a give or a discard.
    Cards(Vec<Card>),
    /// Bid Euchre's calls, too many to list: a line saying how to type them.
    Legend(String),
}

/// The menu at this point of a decision.
pub fn menu(style: &Style, game: &AnyGame, view: &View, picked: &[Card]) -> Menu {
    let exchange: Vec<&CardPair> = view
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::Give(pair) | Action::Discard(pair) => Some(pair),
            _ => None,
        })
        .collect();
    if !exchange.is_empty() {
        let mut cards: Vec<Card> = Vec::new();
        for pair in exchange {
            for &card in pair.cards() {
                let mut with = picked.to_vec();
                with.push(card);
                if !cards.contains(&card) && fits(pair, &with) {
                    cards.push(card);
                }
            }
        }
        let order = card_order(game.rules().kind(), view.trump);
        return Menu::Cards(sorted_groups(order, cards.into_iter()).concat());
    }
    // Bid Euchre's calls are typed (a number alone is never one of its calls).
    let strained = |a: &Action| matches!(a, Action::BidStrain(..) | Action::Loner(..));
    if view.phase == Phase::Auction && view.legal.iter().any(strained) {
        return Menu::Legend(legend(style, &view.legal));
    }
    let order = card_order(game.rules().kind(), view.trump);
    let cards = view.legal.iter().filter_map(|a| match a {
        Action::Play(card) => Some(*card),
        _ => None,
    });
    let mut actions: Vec<Action> = view
        .legal
        .iter()
        .copied()
        .filter(|a| !matches!(a, Action::Play(_)))
        .collect();
    actions.extend(
        sorted_groups(order, cards)
            .concat()
            .into_iter()
            .map(Action::Play),
    );
    Menu::Actions(actions)
}

/// Why `card` cannot be picked now.
pub fn not_pickable(style: &Style, game: &AnyGame, me: Seat, card: Card) -> String {
    let hand = game.observation(me).hand;
    if hand.count(card) == 0 {
        format!("you do not hold {}.", style.card(card))
    } else {
        format!("you may not pass {} now.", style.card(card))
    }
}

/// What to say about a move that was the only one possible.
pub fn forced(style: &Style, action: Action) -> String {
    match action {
        Action::Play(card) => {
            format!("Only {} can be played: played for you.", style.card(card))
        }
        Action::Give(pair) => format!(
            "You must give {}: given for you.",
            style.cards(pair.cards())
        ),
        Action::Discard(pair) => format!(
            "You must discard {}: discarded for you.",
            style.cards(pair.cards())
        ),
        other => format!("You can only {}: done for you.", style.call(other)),
    }
}

/// The key that picks `action`, item `index` of a menu at `phase`. In an auction a bid's
/// key is its own number and any other call's a letter (`p` pass, `k` kaibosh, `m`
/// misdeal), so that a number alone is always the bid of that number; elsewhere the
/// keys are the items' numbers from 1.
pub fn menu_key(phase: Phase, index: usize, action: Action) -> String {
    match (phase, action) {
        (Phase::Auction, Action::Pass) => "p".to_string(),
        (Phase::Auction, Action::Bid(n)) => n.to_string(),
        (Phase::Auction, Action::Kaibosh) => "k".to_string(),
        (Phase::Auction, Action::Misdeal) => "m".to_string(),
        _ => (index + 1).to_string(),
    }
}

/// Whether `cards` (picked so far) can all go in `pair`, copies counted.
fn fits(pair: &CardPair, cards: &[Card]) -> bool {
    let mut left: Vec<Card> = pair.cards().to_vec();
    cards
        .iter()
        .all(|card| match left.iter().position(|c| c == card) {
            Some(i) => {
                left.remove(i);
                true
            }
            None => false,
        })
}

/// Whether `cards` are exactly the cards of `pair`.
pub fn same_cards(pair: &CardPair, cards: &[Card]) -> bool {
    pair.len() == cards.len() && fits(pair, cards)
}

/// Bid Euchre's calls in one line: `pass, bid N SUIT (N from 4 to 8), call2 SUIT, ...`.
fn legend(style: &Style, legal: &[Action]) -> String {
    let mut parts: Vec<String> = Vec::new();
    if legal.contains(&Action::Pass) {
        parts.push("pass".to_string());
    }
    let levels: Vec<u8> = legal
        .iter()
        .filter_map(|a| match a {
            Action::BidStrain(n, _) => Some(*n),
            _ => None,
        })
        .collect();
    if let (Some(low), Some(high)) = (levels.iter().min(), levels.iter().max()) {
        parts.push(match low == high {
            true => format!("bid {low} SUIT"),
            false => format!("bid N SUIT (N {low}-{high})"),
        });
    }
    for loner in calltrump_engine::Loner::ALL {
        if legal
            .iter()
            .any(|a| matches!(a, Action::Loner(l, _) if *l == loner))
        {
            parts.push(format!("{} SUIT", loner.keyword()));
        }
    }
    let suits: Vec<String> = Strain::ALL.iter().map(|s| style.strain(*s)).collect();
    let example = match lowest_call(legal) {
        Some(call) => style.call(call),
        None => format!("moon {}", style.strain(Strain::ALL[1])),
    };
    format!(
        "{}. SUIT is {}, e.g. {example}. help explains.",
        parts.join(", "),
        suits.join(" "),
    )
}

/// The lowest bid level among `legal`, plain (`bid N`) or with a strain (`bid N SUIT`).
fn lowest_level(legal: &[Action]) -> Option<u8> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Bid(n) | Action::BidStrain(n, _) => Some(*n),
            _ => None,
        })
        .min()
}

/// A number alone in a Bid Euchre auction, whose calls are typed: a bid needs its
/// strain, so say how to type it, with `n` if it is a level that may be bid.
pub fn number_is_no_bid(style: &Style, legal: &[Action], n: usize) -> String {
    let level = u8::try_from(n)
        .ok()
        .filter(|n| {
            legal
                .iter()
                .any(|a| matches!(a, Action::BidStrain(l, _) if l == n))
        })
        .or_else(|| lowest_level(legal));
    let hearts = Strain::Suit(calltrump_engine::Suit::Hearts);
    match (level, lowest_call(legal)) {
        (Some(level), _) => format!(
            "A number alone is not a bid here: a bid names a suit or NT, e.g. {} or {} \
             (or pass; help explains).",
            style.call(Action::BidStrain(level, hearts)),
            style.call(Action::BidStrain(level, Strain::NoTrump)),
        ),
        (None, Some(call)) => format!(
            "A number alone is not a call here: type the call, e.g. {} (or pass; help \
             explains).",
            style.call(call)
        ),
        (None, None) => {
            "A number alone is not a call here: type the call (help explains).".to_string()
        }
    }
}

/// The lowest Bid Euchre bid or loner among `legal`, in hearts: an example to type.
fn lowest_call(legal: &[Action]) -> Option<Action> {
    let hearts = Strain::Suit(calltrump_engine::Suit::Hearts);
    legal.iter().find_map(|a| match a {
        Action::BidStrain(n, _) => Some(Action::BidStrain(*n, hearts)),
        Action::Loner(loner, _) => Some(Action::Loner(*loner, hearts)),
        _ => None,
    })
}

/// Why an action of another game's kind is refused, and what to type instead: Kaibosh
/// and Kout Bo bids are a number of tricks with no suit (trump is named after the
/// auction), Bid Euchre bids name their strain. `now` names the decision at hand.
pub fn not_in_game(
    style: &Style,
    game: &AnyGame,
    legal: &[Action],
    action: Action,
    now: &str,
) -> String {
    let title = game_title(game.rules().kind());
    let bidding = legal.iter().any(Action::is_call);
    // The level typed if it may be bid now, else the lowest that may.
    let level = |n: u8| match legal
        .iter()
        .any(|a| matches!(a, Action::Bid(l) | Action::BidStrain(l, _) if *l == n))
    {
        true => Some(n),
        false => lowest_level(legal),
    };
    let hearts = Strain::Suit(calltrump_engine::Suit::Hearts);
    let text = match (game.rules().kind().game(), action) {
        (GameKind::Kaibosh | GameKind::Kout, Action::BidStrain(n, _)) => {
            let instead = match level(n).filter(|_| bidding) {
                Some(n) => format!("type {} (or pass)", style.call(Action::Bid(n))),
                None => format!("now: {}", now.to_lowercase()),
            };
            format!(
                "{title} bids are a number of tricks, with no suit; the winner of the \
                 auction names trump after it. Instead {instead}"
            )
        }
        (GameKind::BidEuchre, Action::Bid(n)) => {
            let instead = match level(n).filter(|_| bidding) {
                Some(n) => format!(
                    "type e.g. {} or {} (or pass)",
                    style.call(Action::BidStrain(n, hearts)),
                    style.call(Action::BidStrain(n, Strain::NoTrump))
                ),
                None => format!("now: {}", now.to_lowercase()),
            };
            format!("{title} bids name a suit or NT (no trump). Instead {instead}")
        }
        (_, Action::Kaibosh | Action::Misdeal) => {
            format!("{action} is a call of Kaibosh, not of {title}. Now: {now}")
        }
        (_, Action::Loner(loner, _)) => format!(
            "{} is a loner of Bid Euchre, not of {title}. Now: {now}",
            loner.keyword()
        ),
        _ => format!("that is not a move of {title}. Now: {now}"),
    };
    format!("Not allowed: {text}.")
}

/// The bids `legal` allows, said to the player: `you may bid 5 or 6, or pass`.
pub fn legal_bids(legal: &[Action]) -> String {
    let mut levels: Vec<u8> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Bid(n) | Action::BidStrain(n, _) => Some(*n),
            _ => None,
        })
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let with_suit = legal.iter().any(|a| matches!(a, Action::BidStrain(..)));
    let mut others: Vec<String> = Vec::new();
    for loner in calltrump_engine::Loner::ALL {
        if legal
            .iter()
            .any(|a| matches!(a, Action::Loner(l, _) if *l == loner))
        {
            others.push(loner.keyword().to_string());
        }
    }
    for call in [Action::Kaibosh, Action::Misdeal] {
        if legal.contains(&call) {
            others.push(call.to_string());
        }
    }
    if legal.contains(&Action::Pass) {
        others.push("pass".to_string());
    }
    let bids = match levels.as_slice() {
        [] => "you may not bid now".to_string(),
        [only] => format!("you may bid only {only}"),
        [rest @ .., last] => format!(
            "you may bid {} or {last}",
            rest.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let bids = match with_suit {
        true => format!("{bids} (with a suit or NT)"),
        false => bids,
    };
    match others.as_slice() {
        [] => bids,
        [last] => format!("{bids}, or {last}"),
        [rest @ .., last] => format!("{bids}, {}, or {last}", rest.join(", ")),
    }
}

/// A rule broken, said to the player: `you must follow hearts`, `you do not hold AS`.
pub fn second_person(style: &Style, broken: &Broken) -> String {
    match broken {
        Broken::NotHeld(card) => format!("you do not hold {}", style.card(*card)),
        Broken::MustGiveHighestTrumps => "you must give your highest trumps".to_string(),
        other => format!("you {other}"),
    }
}

/// The decision's name, the declarer named by `name`: `Your bid`, `Name trump`, `Lead`, `Follow hearts`, ...
pub fn decision(
    game: &AnyGame,
    view: &View,
    picked: &[Card],
    name: impl Fn(Seat) -> String,
) -> String {
    match view.phase {
        Phase::Auction if crate::help::malzom_due(game, &view.legal) => {
            "Your bid (all the others passed: you must bid; 5 is Malzom)".to_string()
        }
        Phase::Auction => "Your bid".to_string(),
        Phase::TrumpNaming => "Name trump".to_string(),
        Phase::Exchange => {
            let (verb, count) = view
                .legal
                .iter()
                .find_map(|a| match a {
                    Action::Give(pair) => Some(("Give", pair.len())),
                    Action::Discard(pair) => Some(("Discard", pair.len())),
                    _ => None,
                })
                .unwrap_or(("Pass", 1));
            let to = match (verb, view.contract) {
                ("Give", Some(contract)) => {
                    format!(" to {}", name(contract.declarer))
                }
                _ => String::new(),
            };
            let cards = if count == 1 { "card" } else { "cards" };
            format!(
                "{verb} {count} {cards}{to}, card {} of {count}",
                picked.len() + 1
            )
        }
        _ => {
            let lead = view
                .trick
                .as_ref()
                .and_then(|t| t.cards.first())
                .map(|(_, card)| *card);
            let order = card_order(game.rules().kind(), view.trump);
            match (lead, order) {
                (None, _) => "Lead".to_string(),
                (Some(lead), Some(order)) => {
                    let suit = order.suit_of(lead);
                    let follows = view
                        .legal
                        .iter()
                        .any(|a| matches!(a, Action::Play(c) if order.suit_of(*c) == suit));
                    match follows {
                        true => format!("Follow {}", suit.name()),
                        false => format!("Play (you have no {})", suit.name()),
                    }
                }
                (Some(_), None) => "Play".to_string(),
            }
        }
    }
}

/// Takes back the player's last choice of the hand ([`take_back`]) and says
/// what was taken back.
pub fn undo(table: &mut Table, me: Seat, style: &Style) -> Result<String> {
    if !matches!(table.turn(), Turn::Seat(_)) {
        return Ok("Nothing to take back: the hand is over.".to_string());
    }
    let taken = take_back(table, me)?;
    let Some(&first) = taken.first() else {
        return Ok("Nothing to take back: you have not moved in this hand.".to_string());
    };
    if only_one_move(table, me) {
        return Ok(
            "Nothing to take back: each move you made in this hand was the only \
                   one possible."
                .to_string(),
        );
    }
    let others = taken.len() - 1;
    Ok(format!(
        "Taken back: your {}{}.",
        style.action(SeenAction::Open(first)),
        match others {
            0 => String::new(),
            1 => " and the move after it".to_string(),
            n => format!(" and the {n} moves after it"),
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_engine::{Loner, Suit};

    #[test]
    fn bids_are_said_in_the_players_words_and_keyed_by_their_number() {
        let hearts = Strain::Suit(Suit::Hearts);
        let legal = [
            Action::Pass,
            Action::BidStrain(5, hearts),
            Action::BidStrain(6, Strain::NoTrump),
            Action::Loner(Loner::Moon, hearts),
        ];
        assert_eq!(
            legal_bids(&legal),
            "you may bid 5 or 6 (with a suit or NT), moon, or pass"
        );
        let kaibosh = [Action::Bid(6), Action::Kaibosh, Action::Pass];
        assert_eq!(legal_bids(&kaibosh), "you may bid only 6, kaibosh, or pass");
        assert_eq!(menu_key(Phase::Auction, 3, Action::Bid(4)), "4");
        assert_eq!(menu_key(Phase::Auction, 0, Action::Pass), "p");
        assert_eq!(menu_key(Phase::Play, 2, Action::Pass), "3");
    }
}
