//! What a player types at a prompt: the forgiving reading of a line into a command, an
//! action, a card or a suit (any case, any spaces, suit symbols or names for suit
//! letters, `10` for `T`).

use calltrump_engine::{Action, Card, Strain, Suit};

/// A word of the player's, if it names a strain: `h`, `hearts`, `♥`, `nt`, `no-trump`.
pub fn strain_word(word: &str) -> Option<Strain> {
    let word = word.to_lowercase();
    let suit = match word.as_str() {
        "nt" | "notrump" | "no-trump" | "notrumps" => return Some(Strain::NoTrump),
        "s" | "spade" | "spades" | "♠" | "♤" => Suit::Spades,
        "h" | "heart" | "hearts" | "♥" | "♡" => Suit::Hearts,
        "d" | "diamond" | "diamonds" | "♦" | "♢" => Suit::Diamonds,
        "c" | "club" | "clubs" | "♣" | "♧" => Suit::Clubs,
        _ => return None,
    };
    Some(Strain::Suit(suit))
}

/// A word of the player's, if it names a card: `AS`, `a♠`, `10h`, `th`, `rj`.
pub fn card_word(word: &str) -> Option<Card> {
    if let Ok(card) = word.parse::<Card>() {
        return Some(card);
    }
    // A suit symbol at the end: the rank before it.
    let (last_at, last) = word.char_indices().last()?;
    let suit = strain_word(&last.to_string())?.trump()?;
    format!("{}{}", &word[..last_at], suit.letter())
        .parse()
        .ok()
}

/// What a line typed at the prompt asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// An empty line: show the choices again.
    Repeat,
    /// A number alone: a bid in a Kaibosh or Kout Bo auction, else a number from the
    /// menu.
    Number(usize),
    /// `help` or `?`.
    Help,
    /// `rules`.
    Rules,
    /// `last`: the previous trick.
    Last,
    /// `hint`: the expert's best actions.
    Hint,
    /// `undo`.
    Undo,
    /// `quit` or `q`.
    Quit,
    /// A whole action (`bid 3 hearts`, `trump h`, `play 10h`, `pass`).
    Action(Action),
    /// A card alone: played, given or discarded, whichever the moment asks for.
    Card(Card),
    /// A strain alone: trump to name (`h`, `hearts`).
    Strain(Strain),
    /// `N STRAIN` without the word `bid`: a Bid Euchre bid.
    Level(u8, Strain),
    /// Nothing that could be read; the text says why.
    Unknown(String),
}

/// Reads a line: words separated by any spaces, any case, suit symbols or names for
/// suit letters, `10` for `T`.
pub fn read(line: &str) -> Typed {
    let words: Vec<&str> = line.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    match lower[..] {
        [] => return Typed::Repeat,
        ["help" | "?" | "h?"] => return Typed::Help,
        ["rules"] => return Typed::Rules,
        ["last"] => return Typed::Last,
        ["hint"] => return Typed::Hint,
        ["undo"] => return Typed::Undo,
        ["quit" | "q" | "exit"] => return Typed::Quit,
        ["p"] => return Typed::Action(Action::Pass),
        [word] => {
            if let Ok(n) = word.parse::<usize>() {
                return Typed::Number(n);
            }
            if let Some(strain) = strain_word(word) {
                return Typed::Strain(strain);
            }
            if let Some(card) = card_word(word) {
                return Typed::Card(card);
            }
        }
        [level, strain] => {
            if let (Ok(level), Some(strain)) = (level.parse::<u8>(), strain_word(strain)) {
                return Typed::Level(level, strain);
            }
        }
        _ => {}
    }
    // The notation, each word put right: suits as letters, cards in notation.
    let canonical: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, word)| match (i, strain_word(word), card_word(word)) {
            (0, ..) => word.to_string(),
            (_, Some(strain), _) => strain.to_string(),
            (_, None, Some(card)) => card.to_string(),
            _ => word.to_string(),
        })
        .collect();
    match canonical.join(" ").parse::<Action>() {
        Ok(action) => Typed::Action(action),
        Err(error) => Typed::Unknown(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suits_cards_and_bids_are_read_in_many_forms() {
        let hearts = Strain::Suit(Suit::Hearts);
        assert_eq!(
            read("  bid   3   hearts "),
            Typed::Action(Action::BidStrain(3, hearts))
        );
        assert_eq!(read("bid 3 ♥"), Typed::Action(Action::BidStrain(3, hearts)));
        assert_eq!(
            read("BID 4 nt"),
            Typed::Action(Action::BidStrain(4, Strain::NoTrump))
        );
        assert_eq!(read("3 h"), Typed::Level(3, hearts));
        assert_eq!(read("trump h"), Typed::Action(Action::Trump(Suit::Hearts)));
        assert_eq!(
            read("trump Spades"),
            Typed::Action(Action::Trump(Suit::Spades))
        );
        assert_eq!(
            read("diamonds"),
            Typed::Strain(Strain::Suit(Suit::Diamonds))
        );
        let ten = Card::new(10, Suit::Hearts);
        assert_eq!(read("10h"), Typed::Card(ten));
        assert_eq!(read("10♥"), Typed::Card(ten));
        assert_eq!(read("play 10h"), Typed::Action(Action::Play(ten)));
        assert_eq!(read("rj"), Typed::Card(Card::RED_JOKER));
        assert_eq!(read(" 2 "), Typed::Number(2));
        assert_eq!(read("P"), Typed::Action(Action::Pass));
        assert_eq!(read(""), Typed::Repeat);
        assert_eq!(read("?"), Typed::Help);
        assert_eq!(read(" Hint"), Typed::Hint);
        assert!(matches!(read("bid three"), Typed::Unknown(_)));
        assert!(matches!(read("11x"), Typed::Unknown(_)));
    }
}
