//! What the player types at `calltrump play`: lines from standard input (read on a thread
//! of their own, so Ctrl-C is noticed while waiting), and the forgiving reading of a line
//! into a command, an action or a card.

use std::io::{self, BufRead, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use calltrump_engine::{Action, Card, Strain, Suit};

/// One line read, or why none was.
pub enum Line {
    /// A line of text, without its line end.
    Text(String),
    /// The input ended.
    End,
    /// Ctrl-C was pressed.
    Interrupted,
}

/// Where the player's lines come from.
pub trait Lines {
    /// The next line.
    fn next_line(&mut self) -> io::Result<Line>;

    /// Whether Ctrl-C has been pressed (checked between the bots' moves too).
    fn interrupted(&self) -> bool {
        false
    }

    /// Forgets whatever was typed before the question about to be asked: keys pressed
    /// while the bots played must not answer a menu the player has not seen. Only a
    /// terminal's input is forgotten; piped answers are all kept.
    fn discard_typed_ahead(&mut self) {}
}

/// Standard input, read on its own thread, and Ctrl-C (or the terminal closing, or
/// SIGTERM) turned into [`Line::Interrupted`]:
/// the game then saves its record and stops instead of dying. A second Ctrl-C exits at
/// once. A line is read only when one is asked for, so that between questions the
/// terminal is free for a pager (`rules`) to read its keys.
pub struct Stdin {
    lines: Receiver<io::Result<String>>,
    /// Asks the reading thread for one line.
    ask: mpsc::Sender<()>,
    /// Whether a line has been asked for and not yet received.
    asked: bool,
    interrupt: Arc<AtomicBool>,
}

impl Stdin {
    /// Starts reading standard input and watching for Ctrl-C.
    pub fn start() -> Stdin {
        let (send, lines) = mpsc::channel();
        let (ask, asked) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            while asked.recv().is_ok() {
                let mut line = String::new();
                let read = input.read_line(&mut line).map(|n| (n, line));
                let done = !matches!(read, Ok((n, _)) if n > 0);
                if send.send(read.map(|(_, line)| line)).is_err() || done {
                    break;
                }
            }
        });
        let interrupt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&interrupt);
        std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async {
                while stop_signal().await {
                    if flag.swap(true, Ordering::SeqCst) {
                        std::process::exit(130);
                    }
                }
            });
        });
        Stdin {
            lines,
            ask,
            asked: false,
            interrupt,
        }
    }
}

/// Waits for a signal that asks the game to stop: Ctrl-C, and on Unix also the terminal
/// closing (SIGHUP) and a plain `kill` (SIGTERM), so that those save the game too.
/// False once signals cannot be watched.
async fn stop_signal() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut hangup), Ok(mut terminate)) = (
            signal(SignalKind::hangup()),
            signal(SignalKind::terminate()),
        ) else {
            return tokio::signal::ctrl_c().await.is_ok();
        };
        tokio::select! {
            interrupt = tokio::signal::ctrl_c() => interrupt.is_ok(),
            _ = hangup.recv() => true,
            _ = terminate.recv() => true,
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.is_ok()
    }
}

impl Lines for Stdin {
    fn next_line(&mut self) -> io::Result<Line> {
        if !self.asked {
            // A thread that has stopped (the input ended) answers no more.
            self.asked = self.ask.send(()).is_ok();
        }
        loop {
            if self.interrupted() {
                return Ok(Line::Interrupted);
            }
            let received = self.lines.recv_timeout(Duration::from_millis(50));
            if !matches!(received, Err(RecvTimeoutError::Timeout)) {
                self.asked = false;
            }
            match received {
                Ok(Ok(line)) if line.is_empty() => return Ok(Line::End),
                Ok(Ok(line)) => {
                    return Ok(Line::Text(line.trim_end_matches(['\n', '\r']).to_string()))
                }
                Ok(Err(error)) => return Err(error),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Line::End),
            }
        }
    }

    fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::SeqCst)
    }

    fn discard_typed_ahead(&mut self) {
        // A line being read already belongs to the question before; nothing is read
        // between questions, so what was typed since waits in the terminal's queue.
        if !self.asked && io::stdin().is_terminal() {
            #[cfg(unix)]
            let _ = rustix::termios::tcflush(io::stdin(), rustix::termios::QueueSelector::IFlush);
        }
    }
}

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
