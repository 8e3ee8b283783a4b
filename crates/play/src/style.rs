//! How cards, suits, strains and actions are written for a reader: suit symbols or
//! letters, red suits in ANSI colour or plain. The terminal's screens, the analysis in
//! words and the HTML review all write cards through [`Style`].

use calltrump_engine::catalog::HandOrder;
use calltrump_engine::{Action, Card, CardOrder, SeenAction, Strain, Suit, VariantKind};

/// How cards and suits are drawn.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Suit letters (`AS`) instead of symbols (`A♠`).
    pub ascii: bool,
    /// Hearts and diamonds in red (ANSI colour).
    pub colour: bool,
}

impl Style {
    /// Red text on a terminal when `red` (and colour is on), else the text as it is.
    pub fn paint(&self, text: String, red: bool) -> String {
        if self.colour && red {
            format!("\x1b[31m{text}\x1b[0m")
        } else {
            text
        }
    }

    /// A suit: `♥` (or `H`).
    pub fn suit(&self, suit: Suit) -> String {
        let text = match self.ascii {
            true => suit.letter().to_string(),
            false => suit.symbol().to_string(),
        };
        self.paint(text, matches!(suit, Suit::Hearts | Suit::Diamonds))
    }

    /// A card: `A♥`, `T♣`, `RJ` (or `AH`, `TC`).
    pub fn card(&self, card: Card) -> String {
        match card.suit() {
            Some(suit) => {
                let text = match self.ascii {
                    true => card.to_string(),
                    false => card.pretty(),
                };
                self.paint(text, matches!(suit, Suit::Hearts | Suit::Diamonds))
            }
            None => card.to_string(),
        }
    }

    /// A strain: a suit, or `NT`.
    pub fn strain(&self, strain: Strain) -> String {
        match strain {
            Strain::Suit(suit) => self.suit(suit),
            Strain::NoTrump => "NT".to_string(),
        }
    }

    /// An action as the log shows it: `bid 4 ♥`, `trump ♠`, `A♣` (a card played),
    /// `give ?? ??`.
    pub fn action(&self, seen: SeenAction) -> String {
        let cards = |cards: &[Card]| {
            cards
                .iter()
                .map(|c| self.card(*c))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match seen {
            SeenAction::HiddenGive(n) => format!("give {}", vec!["??"; n.into()].join(" ")),
            SeenAction::HiddenDiscard(n) => {
                format!("discard {}", vec!["??"; n.into()].join(" "))
            }
            SeenAction::Open(action) => match action {
                Action::Play(card) => self.card(card),
                Action::Give(pair) => format!("give {}", cards(pair.cards())),
                Action::Discard(pair) => format!("discard {}", cards(pair.cards())),
                other => self.call(other),
            },
        }
    }

    /// A call or trump naming: `pass`, `bid 4`, `bid 3 ♥`, `call2 NT`, `trump ♠`.
    pub fn call(&self, action: Action) -> String {
        match action {
            Action::BidStrain(n, strain) => format!("bid {n} {}", self.strain(strain)),
            Action::Loner(loner, strain) => format!("{} {}", loner.keyword(), self.strain(strain)),
            Action::Trump(suit) => format!("trump {}", self.suit(suit)),
            other => other.to_string(),
        }
    }

    /// Cards in one line, space separated.
    pub fn cards(&self, cards: &[Card]) -> String {
        cards
            .iter()
            .map(|c| self.card(*c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The name of `variant` as headers show it, from the catalogue: the game's title alone
/// when it has one variant (`Kaibosh`), with the seats when they tell its variants apart
/// (`Kout Bo 6`), else with the variant's name (`Bid Euchre (alexa)`).
pub fn game_title(variant: VariantKind) -> String {
    let game = variant.game();
    let variants = game.variants();
    let seats_differ = variants
        .iter()
        .all(|v| variants.iter().filter(|w| w.seats() == v.seats()).count() == 1);
    match (variants.len(), seats_differ) {
        (1, _) => game.title().to_string(),
        (_, true) => format!("{} {}", game.title(), variant.seats()),
        (_, false) => format!("{} ({})", game.title(), variant.name()),
    }
}

/// The card order once trump is known (suits and strengths for sorting and following):
/// Kout Bo's with its jokers, the others' with their bowers.
pub fn card_order(variant: VariantKind, trump: Option<Strain>) -> Option<&'static CardOrder> {
    Some(match (variant.hand_order(), trump?) {
        (HandOrder::Jokers, Strain::Suit(suit)) => CardOrder::kout(suit),
        (_, strain) => CardOrder::euchre(strain.trump()),
    })
}

/// Cards grouped by (effective) suit, trumps first, strongest first; jokers before
/// trump is named make a group of their own.
pub fn sorted_groups(
    order: Option<&CardOrder>,
    cards: impl Iterator<Item = Card>,
) -> Vec<Vec<Card>> {
    let suit_of = |card: Card| match order {
        Some(order) => Some(order.suit_of(card)),
        None => card.suit(),
    };
    let strength = |card: Card| order.map_or(card.rank(), |o| o.strength(card));
    let mut suits: Vec<Option<Suit>> = Suit::ALL.iter().map(|s| Some(*s)).collect();
    suits.push(None);
    if let Some(trump) = order.and_then(|o| o.trump()) {
        suits.retain(|s| *s != Some(trump));
        suits.insert(0, Some(trump));
    }
    let cards: Vec<Card> = cards.collect();
    suits
        .into_iter()
        .map(|suit| {
            let mut group: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|c| suit_of(*c) == suit)
                .collect();
            group.sort_by_key(|c| std::cmp::Reverse(strength(*c)));
            group
        })
        .filter(|group| !group.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_come_from_the_catalogue() {
        let titles: Vec<String> = VariantKind::ALL.into_iter().map(game_title).collect();
        assert_eq!(
            titles,
            [
                "Kaibosh",
                "Bid Euchre (alexa)",
                "Bid Euchre (simplified)",
                "Kout Bo 6",
                "Kout Bo 4"
            ]
        );
    }
}
