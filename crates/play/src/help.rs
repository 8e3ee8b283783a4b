//! `help` at a player's prompt: how to type a move, and what the decision at hand means
//! in the game being played (facts from docs/rules/), in lines within a given width.

use calltrump_engine::{Action, AnyGame, Game, GameKind, Phase, VariantKind};

use crate::text::wrap_prose;

/// The commands every prompt takes.
const COMMANDS: &str = "\
Also: rules (the rules), last (the previous trick), undo
(take back your last move this hand), hint (the best
moves by the expert bot, from your cards), quit (save,
stop). An empty line shows the choices again.";

const KAIBOSH_AUCTION: &str = "\
Kaibosh bidding: one turn each. Bid how many of the 6
tricks your team will take, higher than any bid so far, or
pass. kaibosh: you take all 6 alone (made +12, set -12);
your partner sits out. misdeal: only with four 9s, or
three 9s and two 10s. Made bid: + the tricks taken; set:
- the bid, and the others score their tricks.
Partners signal with low bids: 1 = I hold two aces,
2 = a jack of each colour, 3 = usually a block.";

const BID_EUCHRE_AUCTION: &str = "\
Bid Euchre bidding: one turn each. bid N SUIT promises N
of the 8 tricks with SUIT as trump (NT: no trump). N must
be higher than any bid so far, whatever the suit. Made:
+ the tricks taken; set: - N. Above every bid come the
loners, all 8 tricks alone while your partner sits out:
call2 (partner gives you 2 cards, you discard 2; +/-12),
call1 (1 card; +/-18), moon (no exchange; +/-24).";

const BID_EUCHRE_MATCH_ALEXA: &str = "\
The dealer, last to speak, may match a loner (the same
loner in any suit) and so take the contract.";

const BID_EUCHRE_MATCH_SIMPLIFIED: &str = "\
The dealer, last to speak, may match an 8-trick bid (an 8
or a loner, in any suit) and so take the contract.";

const KOUT_AUCTION: &str = "\
Kout Bo bidding: one turn each. Bid how many of the 9
tricks your team will take, 5 (Bab) to 9 (Bawan), higher
than any bid so far, or pass; 9 ends the auction. If all
others pass, the dealer must bid: a forced 5 is Malzom
(+5 made, the others +5 if set). Made: + the bid (Bawan
36); set: the others get twice the bid. The jokers are
the top trumps: RJ, then the trump ace, then BJ.";

const KOUT_MALZOM: &str = "\
All the others passed, so you, the dealer, must bid. A
bid of 5 now is Malzom: made, your team scores 5; set,
the others score 5 (not twice the bid, as for any other
set). Or bid higher, 6 to 9, scored as usual.";

const BID_EUCHRE_NT: &str = "\
In NT (no trump) there are no bowers and no trumps: the
highest card of the suit led wins every trick.";

const NAME_TRUMP: &str = "\
You won the auction: name the trump suit (h, hearts, ♥ or
trump h).";

const EUCHRE_BOWERS: &str = "\
The jack of trump (right bower) and the other jack of the
same colour (left bower) become the two top trumps; the
left bower counts as a trump, not as its printed suit.";

const KOUT_JOKERS: &str = "\
You may play a joker to any trick, even holding the suit
led; when trump is led, play a trump or a joker if you
hold one. Leading a joker is allowed only when your team
holds a 9 (either joker) or an 8 (RJ), or once the A, K,
Q and J of trump have all been played.";

const PLAY: &str = "\
Play a card: follow the suit led if you can, otherwise
play any card. The highest trump wins the trick, or
without one the highest card of the suit led.";

/// Whether the dealer of a Kout Bo hand must bid, all the others having passed: the
/// bid of 5 they may then make is Malzom.
pub fn malzom_due(game: &AnyGame, legal: &[Action]) -> bool {
    game.rules().kind().game() == GameKind::Kout
        && legal.contains(&Action::Bid(5))
        && !legal.contains(&Action::Pass)
}

/// How to type a call in a Kaibosh or Kout Bo auction: the keys of the menu (a number
/// alone is the bid of that number) and the calls in words, for the calls in `legal`.
fn auction_keys(legal: &[Action]) -> String {
    let mut keys: Vec<String> = Vec::new();
    let mut calls: Vec<String> = Vec::new();
    if legal.contains(&Action::Pass) {
        calls.push("pass".to_string());
    }
    let low = legal
        .iter()
        .filter_map(|a| match a {
            Action::Bid(n) => Some(*n),
            _ => None,
        })
        .min();
    if let Some(low) = low {
        keys.push(format!("a number to bid it ({low} bids {low})"));
        calls.push(format!("bid {low}"));
    }
    if legal.contains(&Action::Pass) {
        keys.push("p to pass".to_string());
    }
    for (call, key) in [(Action::Kaibosh, "k"), (Action::Misdeal, "m")] {
        if legal.contains(&call) {
            keys.push(format!("{key} for {call}"));
            calls.push(call.to_string());
        }
    }
    format!(
        "Type {}, or the call itself: {}.",
        keys.join(", "),
        calls.join(", ")
    )
}

/// How to type the decision `legal` at `phase` of `game`: the keys of the menu (in a
/// Kaibosh or Kout Bo auction a number alone is a bid; Bid Euchre's calls are typed,
/// a legend says how), the action itself, and
/// the card names of the game's deck (tens only where there are tens, jokers only in
/// Kout Bo).
fn typing(game: &AnyGame, phase: Phase, legal: &[Action], width: usize) -> String {
    let name = game.rules().kind().game();
    let cards = match name {
        GameKind::Kout => "a card (AS, 10h, q♥; T or 10 for a ten; RJ, BJ the jokers)",
        GameKind::BidEuchre => "a card (AS, jh, q♥)",
        GameKind::Kaibosh => "a card (AS, 10h, q♥; T or 10 for a ten)",
    };
    let numbered = "Type a number from the list, or";
    let how = match phase {
        Phase::Auction if name == GameKind::BidEuchre => {
            let low = legal
                .iter()
                .filter_map(|a| match a {
                    Action::BidStrain(n, _) => Some(*n),
                    _ => None,
                })
                .min()
                .unwrap_or(8);
            format!(
                "Type the call itself: pass (or p), bid {low} hearts (bid {low} h, bid {low} ♥), \
                 bid {low} NT, call2 spades, call1 h, moon NT. A number alone is not a \
                 bid: it needs its suit or NT."
            )
        }
        Phase::Auction => format!(
            "{} A bid is a number of tricks with no suit: you name trump once you win \
             the auction.",
            auction_keys(legal)
        ),
        Phase::TrumpNaming => format!("{numbered} the suit: h, hearts, ♥ or trump h."),
        Phase::Exchange => format!("{numbered} {cards}, one at a time."),
        _ => format!("{numbered} {cards}, or play AS."),
    };
    let how = format!("{how} Suits: S H D C, ♠ ♥ ♦ ♣ or their names.");
    format!("{}\n{}", reflow(&how, width), reflow(COMMANDS, width))
}

/// `text` laid out in `width` columns: each paragraph (lines apart from the next by a
/// blank one) refilled, the texts above being written in lines of about 58 columns.
fn reflow(text: &str, width: usize) -> String {
    text.split("\n\n")
        .map(|paragraph| wrap_prose(&paragraph.replace('\n', " "), width, "", "").join("\n"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The help for the decision `legal` in `game`, in `width` columns: how to type it, then
/// what it means.
pub fn text(game: &AnyGame, phase: Phase, legal: &[Action], width: usize) -> String {
    let variant = game.rules().kind();
    let typed = typing(game, phase, legal, width);
    let mut parts: Vec<String> = vec![typed
        .lines()
        .map(|line| reflow(line, width))
        .collect::<Vec<_>>()
        .join("\n")];
    match phase {
        Phase::Auction => parts.push(match variant.game() {
            GameKind::Kaibosh => KAIBOSH_AUCTION.to_string(),
            GameKind::Kout if malzom_due(game, legal) => {
                format!("{KOUT_AUCTION}\n\n{KOUT_MALZOM}")
            }
            GameKind::Kout => KOUT_AUCTION.to_string(),
            GameKind::BidEuchre => format!(
                "{BID_EUCHRE_AUCTION}\n{}",
                match variant {
                    VariantKind::Alexa => BID_EUCHRE_MATCH_ALEXA,
                    _ => BID_EUCHRE_MATCH_SIMPLIFIED,
                }
            ),
        }),
        Phase::TrumpNaming => {
            parts.push(NAME_TRUMP.to_string());
            parts.push(match variant.game() {
                GameKind::Kout => KOUT_JOKERS.to_string(),
                GameKind::Kaibosh | GameKind::BidEuchre => EUCHRE_BOWERS.to_string(),
            });
        }
        Phase::Exchange => parts.push(exchange(variant, legal)),
        _ => {
            parts.push(PLAY.to_string());
            parts.push(match variant.game() {
                GameKind::Kout => KOUT_JOKERS.to_string(),
                GameKind::BidEuchre => format!("{EUCHRE_BOWERS}\n{BID_EUCHRE_NT}"),
                GameKind::Kaibosh => EUCHRE_BOWERS.to_string(),
            });
        }
    }
    parts[1..]
        .iter_mut()
        .for_each(|part| *part = reflow(part, width));
    parts.join("\n\n")
}

/// The exchange after a Bid Euchre loner, from the giving or the discarding side.
fn exchange(variant: VariantKind, legal: &[Action]) -> String {
    let giving = legal.iter().any(|a| matches!(a, Action::Give(_)));
    let count = legal
        .iter()
        .find_map(|a| match a {
            Action::Give(pair) | Action::Discard(pair) => Some(pair.len()),
            _ => None,
        })
        .unwrap_or(1);
    let cards = if count == 1 { "card" } else { "cards" };
    match (giving, variant) {
        (true, VariantKind::Alexa) => format!(
            "Your partner plays alone: give them {count} {cards}, one at\n\
             a time, then sit out the hand. In a suit contract you\n\
             must give your highest trumps (bowers first)."
        ),
        (true, _) => format!(
            "Your partner plays alone: give them {count} {cards}, one at\n\
             a time (any you like), then sit out the hand."
        ),
        (false, _) => format!(
            "You play alone: discard {count} {cards}, one at a time; the\n\
             cards your partner gave you may go too."
        ),
    }
}

/// The help at the cut, before a committed deal (docs/fair-deals.md), in `width` columns.
pub fn cut(max: u64, width: usize) -> String {
    reflow(
        &format!(
            "You cut the deck before the deal: type a number from 1 to\n\
         {max} (where the deck is split), or press Enter for a random\n\
         cut. The dealer has already committed to the shuffle (the\n\
         hash above), so the cut decides the deal and nobody can\n\
         pick the cards; the seed is shown after the hand and\n\
         calltrump verify checks it. Also: rules, last, quit."
        ),
        width,
    )
}
