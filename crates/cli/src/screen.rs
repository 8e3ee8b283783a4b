//! What `calltrump play` prints: cards with suit symbols (or letters with `--ascii`, red
//! suits coloured on a terminal), seats named as the player sees them, the status block
//! before each of the player's decisions, and the lines that close a trick, a hand and
//! the game. Everything is drawn from the player's [`View`], so nothing hidden from the
//! seat can be shown; lines stay within the screen's [`width`].

use std::fmt::Write as _;

use crate::text::width;
use calltrump_play::game_loop::Event;
use calltrump_play::style::{card_order, game_title, sorted_groups, Style};
use calltrump_play::text::wrap;

use calltrump_engine::catalog::Direction;
use calltrump_engine::{
    Action, AnyGame, CardBag, CardOrder, Game, GameKind, HandOutcome, Loner, Outcome, Phase, Seat,
    SeenAction, Strain, TrickView, View, Viewer,
};

/// The style for standard output: colour only on a terminal and without `NO_COLOR`.
pub fn stdout_style(ascii: bool) -> Style {
    use std::io::IsTerminal;
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    Style { ascii, colour }
}

/// How seats are named to the player at `me`.
#[derive(Clone, Debug)]
pub struct Names {
    /// The player's seat; none for an onlooker (a replay with every hand shown).
    me: Option<Seat>,
    /// The people at each seat, by name (a night's players); empty: seats by number.
    players: Vec<String>,
    seats: usize,
    /// Kout Bo plays counter-clockwise: the next seat sits on the right.
    counter_clockwise: bool,
}

impl Names {
    /// Names for the player at `me` in `game`.
    pub fn new(game: &AnyGame, me: Seat) -> Names {
        Names {
            me: Some(me),
            players: Vec::new(),
            seats: game.seats(),
            counter_clockwise: game.rules().kind().direction() == Direction::CounterClockwise,
        }
    }

    /// Names for an onlooker of `game`, who sits nowhere: seats by number, teams by
    /// number.
    pub fn onlooker(game: &AnyGame) -> Names {
        Names {
            me: None,
            ..Names::new(game, Seat(0))
        }
    }

    /// The same names with each seat's player named: `Ann (partner)` for `seat 2
    /// (partner)`.
    pub fn with_players(self, players: Vec<String>) -> Names {
        Names { players, ..self }
    }

    /// A seat by itself: its player's name, or `seat N`.
    fn seat(&self, seat: Seat) -> String {
        match self.players.get(seat.index()) {
            Some(name) => name.clone(),
            None => format!("seat {seat}"),
        }
    }

    /// The players of team `team` by name: `Ann and Cy`.
    fn team(&self, team: u8) -> String {
        let names: Vec<&str> = (0..self.seats)
            .filter(|s| Seat(*s as u8).team().0 == team)
            .filter_map(|s| self.players.get(s).map(String::as_str))
            .collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => format!("team {team}"),
        }
    }

    /// The player's seat, if the names are a player's.
    pub fn me(&self) -> Option<Seat> {
        self.me
    }

    /// Places after `me` in the order of play.
    fn after_me(&self, me: Seat, seat: Seat) -> usize {
        (seat.index() + self.seats - me.index()) % self.seats
    }

    /// The side the seat `after` places after me sits on, if next to me.
    fn side(&self, after: usize) -> Option<&'static str> {
        let next = if self.counter_clockwise {
            "right"
        } else {
            "left"
        };
        let previous = if self.counter_clockwise {
            "left"
        } else {
            "right"
        };
        match after {
            1 => Some(next),
            a if a + 1 == self.seats => Some(previous),
            _ => None,
        }
    }

    /// A short name: `you`, `seat 2 (partner)`, `seat 1 (left)`, `seat 3 (opponent)`.
    pub fn short(&self, seat: Seat) -> String {
        let Some(me) = self.me else {
            return self.seat(seat);
        };
        let after = self.after_me(me, seat);
        if after == 0 {
            return "you".to_string();
        }
        let tag = match self.side(after) {
            _ if seat.team() == me.team() => "partner",
            Some(side) => side,
            None => "opponent",
        };
        format!("{} ({tag})", self.seat(seat))
    }

    /// A full name for the table plan: `seat 1 (opponent, on your left)`.
    pub fn full(&self, seat: Seat) -> String {
        let who = self.seat(seat);
        let Some(me) = self.me else {
            return format!("{who} (team {})", seat.team().0);
        };
        let after = self.after_me(me, seat);
        let relation = if after == 0 {
            "you"
        } else if seat.team() == me.team() {
            "partner"
        } else {
            "opponent"
        };
        let steps = after.min(self.seats - after);
        match (after, self.side(after)) {
            (0, _) => format!("{who} ({relation})"),
            _ if 2 * after == self.seats => format!("{who} ({relation}, across)"),
            (_, Some(side)) => format!("{who} ({relation}, on your {side})"),
            _ => {
                let side = match (after < self.seats - after, self.counter_clockwise) {
                    (true, false) | (false, true) => "left",
                    _ => "right",
                };
                format!("{who} ({relation}, {steps} places to your {side})")
            }
        }
    }

    /// Two numbers as `us N, them M`, the player's team first.
    pub fn us_them(&self, pair: [impl std::fmt::Display; 2]) -> String {
        let [a, b] = pair;
        match self.me.map(|me| me.team().0) {
            None if !self.players.is_empty() => {
                format!("{} {a}, {} {b}", self.team(0), self.team(1))
            }
            None => format!("team 0 {a}, team 1 {b}"),
            Some(0) => format!("us {a}, them {b}"),
            Some(_) => format!("us {b}, them {a}"),
        }
    }
}

/// A hand sorted for people: `A♥ K♥ | J♦ | T♣`.
pub fn show_hand(style: &Style, order: Option<&CardOrder>, hand: CardBag) -> String {
    sorted_groups(order, hand.iter())
        .iter()
        .map(|group| style.cards(group))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Where the game stands against its end: `to 50, hand 3`, `hand 3 of 8` (hands
/// counted from 1, as every screen for people counts them).
fn goal_text(view: &View) -> String {
    let hand = view.deals_played + 1;
    match (view.goal.target, view.goal.deals) {
        (Some(target), Some(deals)) => format!("to {target}, hand {hand} of {deals}"),
        (Some(target), None) => format!("to {target}, hand {hand}"),
        (None, Some(deals)) => format!("hand {hand} of {deals}"),
        (None, None) => format!("hand {hand}"),
    }
}

/// A contract in words: `seat 2 (partner) bid 5`, `you called kaibosh`,
/// `seat 1 (left) call1 ♥ (alone)`.
pub fn contract_text(style: &Style, names: &Names, declarer: Seat, bid: Action) -> String {
    let who = names.short(declarer);
    match bid {
        Action::Kaibosh => format!("{who} called kaibosh (alone)"),
        Action::Loner(Loner::Moon, strain) => {
            format!("{who} shot the moon in {} (alone)", style.strain(strain))
        }
        Action::Loner(..) => format!("{who} called {} (alone)", style.call(bid)),
        _ => format!("{who} {}", style.call(bid)),
    }
}

/// A call as the play screen offers and lists it: by the name the game gives it (Kout
/// Bo's `Bab` to `Bawan`, from the view), else as [`Style::call`] writes it. The
/// narration (which `replay --show` prints too) keeps [`Style::call`]'s words.
pub fn named_call(style: &Style, view: &View, action: Action) -> String {
    match view.call_names.iter().find(|(call, _)| *call == action) {
        Some((_, name)) => name.clone(),
        None => style.call(action),
    }
}

/// The contract as the status block names it: a named bid by its name (`seat 2 (left)
/// bid Seven (7)`), Malzom as such; otherwise as [`contract_of`] writes it.
fn status_contract(style: &Style, names: &Names, game: GameKind, view: &View) -> Option<String> {
    let contract = view.contract?;
    match (contract.bid, view.malzom) {
        (Action::Bid(n), false) if view.call_names.iter().any(|(c, _)| *c == contract.bid) => {
            Some(format!(
                "{} bid {} ({n})",
                names.short(contract.declarer),
                named_call(style, view, contract.bid)
            ))
        }
        _ => contract_of(style, names, game, view),
    }
}

/// The contract of `view` in words, Malzom named as such in Kout Bo.
fn contract_of(style: &Style, names: &Names, game: GameKind, view: &View) -> Option<String> {
    let contract = view.contract?;
    let text = contract_text(style, names, contract.declarer, contract.bid);
    Some(match view.malzom {
        true => format!("{text} (Malzom)"),
        // The rules name the highest bid: all nine tricks, scored 36.
        false if game == GameKind::Kout && contract.bid == Action::Bid(9) => {
            format!("{text} (Bawan)")
        }
        false => text,
    })
}

/// The trick on the table, one seat a line, the card winning it marked; a `finished`
/// trick's winner is marked as having won it.
pub fn trick_lines(style: &Style, names: &Names, trick: &TrickView, finished: bool) -> Vec<String> {
    let width = trick
        .cards
        .iter()
        .map(|(seat, _)| names.short(*seat).chars().count())
        .max()
        .unwrap_or(0);
    let arrow = if style.ascii { "<-" } else { "◀" };
    let mark = match finished {
        true => format!("{arrow} won the trick"),
        false => format!("{arrow} winning"),
    };
    trick
        .cards
        .iter()
        .map(|(seat, card)| {
            let name = names.short(*seat);
            let pad = " ".repeat(width - name.chars().count());
            let winning = if trick.winning == Some(*seat) {
                mark.as_str()
            } else {
                ""
            };
            format!("  {name}{pad}  {} {winning}", style.card(*card))
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The status block shown before each of the player's decisions.
pub fn status(style: &Style, names: &Names, game: &AnyGame, view: &View) -> String {
    let mut out = String::new();
    let rule = if style.ascii { "---" } else { "───" };
    let _ = writeln!(
        out,
        "{rule} {}, {} {rule}",
        game_title(game.rules().kind()),
        goal_text(view)
    );
    let _ = writeln!(
        out,
        "Dealer: {}.  Score: {}.",
        names.short(view.dealer),
        names.us_them(view.scores)
    );
    if let Some(contract) = status_contract(style, names, game.rules().kind().game(), view) {
        let trump = match view.trump {
            Some(Strain::NoTrump) => ", no trump".to_string(),
            Some(strain) => format!(", trump {}", style.strain(strain)),
            None => String::new(),
        };
        let _ = writeln!(out, "Contract: {contract}{trump}.");
    } else if !view.auction.is_empty() {
        let calls: Vec<String> = view
            .auction
            .iter()
            .map(|(seat, call)| {
                format!("{} {},", names.short(*seat), named_call(style, view, *call))
            })
            .collect();
        let _ = writeln!(out, "Bids so far:");
        let mut calls = calls;
        if let Some(last) = calls.last_mut() {
            last.pop();
        }
        for line in wrap(&calls, width() - 4) {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(out_seat) = view.sitting_out {
        let _ = writeln!(out, "Sitting out: {}.", names.short(out_seat));
    }
    if view.phase == Phase::Play {
        let _ = writeln!(out, "Tricks: {}.", names.us_them(view.tricks));
        if let Some(trick) = view.trick.as_ref().filter(|t| !t.cards.is_empty()) {
            let _ = writeln!(out, "Trick:");
            for line in trick_lines(style, names, trick, false) {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    if let Some(hand) = view.hand {
        let order = card_order(game.rules().kind(), view.trump);
        let _ = writeln!(out, "Your hand: {}", show_hand(style, order, hand));
    }
    out
}

/// The closing line of a trick: `Trick 3: seat 1 (left) wins with K♠. Us 2, them 1.`
pub fn trick_closed(style: &Style, names: &Names, view: &View, number: u8) -> Option<String> {
    let trick = view.last_trick.as_ref()?;
    let winner = trick.winning?;
    let card = trick.cards.iter().find(|(s, _)| *s == winner)?.1;
    Some(format!(
        "Trick {number}: {} with {}. {}.",
        match Some(winner) == names.me {
            true => "you win it".to_string(),
            false => format!("{} wins", names.short(winner)),
        },
        style.card(card),
        capitalise(&names.us_them(view.tricks))
    ))
}

/// The closing lines of a hand: `Hand 2: seat 3 (right) bid 4, took 3: set.` and
/// `  Us +3, them -4. Score: us 7, them 0.`
pub fn hand_closed(
    style: &Style,
    names: &Names,
    game: GameKind,
    view: &View,
    number: u32,
) -> String {
    let signed = |n: i32| {
        if n > 0 {
            format!("+{n}")
        } else {
            n.to_string()
        }
    };
    let (what, points) = match (view.hand_outcome, view.contract) {
        (HandOutcome::Played, Some(contract)) => {
            let team = contract.declarer.team().0 as usize;
            let points = view.hand_points.unwrap_or([0, 0]);
            let what = format!(
                "{}, took {}: {}.",
                contract_of(style, names, game, view).unwrap_or_default(),
                view.tricks[team],
                if points[team] > 0 { "made" } else { "set" },
            );
            (
                what,
                format!("{}. ", capitalise(&names.us_them(points.map(signed)))),
            )
        }
        (HandOutcome::Misdeal, _) => ("misdeal, no score.".to_string(), String::new()),
        _ => ("all passed, thrown in.".to_string(), String::new()),
    };
    format!(
        "Hand {number}: {what}\n  {points}Score: {}.",
        names.us_them(view.scores)
    )
}

/// The closing line of the game: `You win 50 to 18.`, `You lose -3 to 53.`,
/// `A draw, 20 to 20.` ("to", not a dash, which a negative score would garble).
pub fn game_closed(names: &Names, outcome: Outcome, scores: [i32; 2]) -> String {
    let Some(me) = names.me else {
        return match outcome {
            Outcome::Winner(team) => {
                let (won, lost) = (scores[team.0 as usize], scores[1 - team.0 as usize]);
                match names.players.is_empty() {
                    false => format!("{} win {won} to {lost}.", names.team(team.0)),
                    true => format!("Team {} wins {won} to {lost}.", team.0),
                }
            }
            Outcome::Draw => format!("A draw, {} to {}.", scores[0], scores[1]),
        };
    };
    let mine = me.team().0 as usize;
    let (us, them) = (scores[mine], scores[1 - mine]);
    match outcome {
        Outcome::Winner(team) if team == me.team() => format!("You win {us} to {them}."),
        Outcome::Winner(_) => format!("You lose {us} to {them}."),
        Outcome::Draw => format!("A draw, {us} to {them}."),
    }
}

/// `text` with its first letter in upper case.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The lines that tell `event` as `viewer` saw it: the running account of `play`, and
/// of `replay --show`.
pub fn narrate(
    style: &Style,
    names: &Names,
    game: &AnyGame,
    viewer: Viewer,
    event: &Event,
) -> Vec<String> {
    let view = game.view(viewer);
    let mut lines = Vec::new();
    match *event {
        Event::Dealt => {
            let deals = if names.me() == Some(view.dealer) {
                "deal"
            } else {
                "deals"
            };
            lines.push(format!(
                "\nHand {}: {} {deals}.",
                view.deals_played + 1,
                names.short(view.dealer),
            ));
        }
        Event::Acted(seat, action) => {
            let seen = view
                .exchanges
                .last()
                .filter(|_| matches!(action, Action::Give(_) | Action::Discard(_)))
                .map_or(SeenAction::Open(action), |(_, s)| *s);
            lines.push(format!("{}: {}", names.short(seat), style.action(seen)));
            let closed = view.hand_outcome != HandOutcome::InProgress
                || view.trick.as_ref().is_none_or(|t| t.cards.is_empty());
            if matches!(action, Action::Play(_)) && closed {
                let number = view.tricks[0] + view.tricks[1];
                lines.extend(trick_closed(style, names, &view, number));
            }
        }
        Event::HandOver => lines.push(hand_closed(
            style,
            names,
            game.rules().kind().game(),
            &view,
            view.deals_played + 1,
        )),
    }
    lines
}

#[cfg(test)]
mod tests {
    use calltrump_engine::{AnyGame, Game, GameRules, Outcome, Seat, Team};

    use super::{game_closed, Names};

    #[test]
    fn the_closing_line_reads_negative_scores_plainly() {
        let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
        let game = AnyGame::new(&rules, Seat(0));
        let me = Names::new(&game, Seat(0));
        assert_eq!(
            game_closed(&me, Outcome::Winner(Team(1)), [-3, 53]),
            "You lose -3 to 53."
        );
        assert_eq!(
            game_closed(&me, Outcome::Winner(Team(0)), [50, -18]),
            "You win 50 to -18."
        );
        let onlooker = Names::onlooker(&game);
        assert_eq!(
            game_closed(&onlooker, Outcome::Winner(Team(1)), [-3, 53]),
            "Team 1 wins 53 to -3."
        );
        assert_eq!(
            game_closed(&onlooker, Outcome::Draw, [20, 20]),
            "A draw, 20 to 20."
        );
    }
}
