//! How cards, suits, strains and actions are written for a reader: suit symbols or
//! letters, red suits in ANSI colour or plain. The terminal's screens, the analysis in
//! words and the HTML review all write cards through [`Style`].

use calltrump_engine::{Action, Card, SeenAction, Strain, Suit};

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

/// The name of `game` in `variant` as headers show it: `Kaibosh`, `Bid Euchre (alexa)`,
/// `Kout Bo 6`.
pub fn game_title(game: &str, variant: &str) -> String {
    match (game, variant) {
        ("kaibosh", _) => "Kaibosh".to_string(),
        ("bid-euchre", variant) => format!("Bid Euchre ({variant})"),
        ("kout", variant) => format!("Kout Bo {}", variant.trim_start_matches("kout")),
        (game, variant) => format!("{game} ({variant})"),
    }
}
