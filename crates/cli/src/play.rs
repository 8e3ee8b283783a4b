//! `calltrump play`: a game in the terminal, you against bots. Reads standard input line
//! by line, so a script can play through a pipe.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use calltrump_engine::{
    stream, Action, ActionList, AnyGame, Card, CardBag, CardOrder, Game, GameRng, HandOutcome,
    Seat, Strain, Suit, Turn,
};
use rand::Rng;

use crate::committed::CommittedDeals;
use crate::external::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS};
use crate::player::{Player, Seating};
use crate::table::{Event, Stop, Table};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Your seat (0 by default; seat 0's partners are the even seats).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The seed of the deals and the bots (default: from the clock, printed so the game
    /// can be played again).
    #[arg(long)]
    seed: Option<u64>,
    /// The bot or level in every other seat (`--level` is the same flag), or one per
    /// seat separated by commas (your own seat's entry is ignored).
    #[arg(long, alias = "level", default_value = "hard")]
    bots: String,
    /// Where to save the game record (default: calltrump-GAME-SEED.json).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// End the game as a draw once this many deals have been played without a winner
    /// (1 to 1,000,000; default: no limit, as a person is playing).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_DEALS))]
    max_deals: Option<u64>,
    #[command(flatten)]
    external: ExternalArgs,
}

/// How a seat is named to the player at `me`.
fn seat_label(game: &AnyGame, seat: Seat, me: Seat) -> String {
    let seats = game.seats();
    let after_me = (seat.index() + seats - me.index()) % seats;
    // Kaibosh and Bid Euchre go clockwise (the next seat is on your left); Kout Bo goes
    // counter-clockwise (the next seat is on your right).
    let (next_side, previous_side) = if game.rules().game() == "kout" {
        ("right", "left")
    } else {
        ("left", "right")
    };
    let relation = if seat == me {
        "you"
    } else if seat.team() == me.team() {
        "partner"
    } else {
        "opponent"
    };
    let steps = after_me.min(seats - after_me);
    let side = if after_me < seats - after_me {
        next_side
    } else {
        previous_side
    };
    match (after_me, steps) {
        (0, _) => format!("seat {seat} ({relation})"),
        _ if 2 * after_me == seats => format!("seat {seat} ({relation}, across)"),
        (_, 1) => format!("seat {seat} ({relation}, on your {side})"),
        _ => format!("seat {seat} ({relation}, {steps} places to your {side})"),
    }
}

/// The trump order to sort and explain cards by, once trump is known.
fn card_order(game: &AnyGame) -> Option<&'static CardOrder> {
    let strain = game.hand_summary().trump?;
    Some(match (game.rules().game(), strain) {
        ("kout", Strain::Suit(suit)) => CardOrder::kout(suit),
        (_, strain) => CardOrder::euchre(strain.trump()),
    })
}

/// Cards grouped by (effective) suit, trumps first, strongest first.
fn sorted_groups(game: &AnyGame, cards: impl Iterator<Item = Card>) -> Vec<Vec<Card>> {
    let order = card_order(game);
    let suit_of = |card: Card| match order {
        Some(order) => Some(order.suit_of(card)),
        None => card.suit(),
    };
    let strength = |card: Card| order.map_or(card.rank(), |o| o.strength(card));
    let mut suits: Vec<Option<Suit>> = Suit::ALL.iter().map(|s| Some(*s)).collect();
    suits.push(None); // jokers, before trump is named
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

/// A hand sorted for people, with suit symbols.
fn show_hand(game: &AnyGame, hand: CardBag) -> String {
    sorted_groups(game, hand.iter())
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|c| c.pretty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("  |  ")
}

/// The legal actions in the order they are offered: calls as listed, cards as the
/// hand is sorted.
fn offered(game: &AnyGame, legal: &ActionList) -> Vec<Action> {
    let cards = legal.iter().filter_map(|a| match a {
        Action::Play(card) => Some(*card),
        _ => None,
    });
    let mut actions: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| !matches!(a, Action::Play(_)))
        .collect();
    actions.extend(
        sorted_groups(game, cards)
            .concat()
            .into_iter()
            .map(Action::Play),
    );
    actions
}

/// Reads the player's choice: a number from the list, an action, `hand`, or `quit`.
fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    game: &AnyGame,
    me: Seat,
    legal: &ActionList,
) -> Result<Option<Action>> {
    loop {
        let hand = game.observation(me).hand;
        writeln!(out, "Your hand: {}", show_hand(game, hand))?;
        let offered = offered(game, legal);
        let options: Vec<String> = offered
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Action::Play(card) => format!("[{}] {}", i + 1, card.pretty()),
                other => format!("[{}] {other}", i + 1),
            })
            .collect();
        writeln!(out, "Your turn: {}", options.join("  "))?;
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let line = line.trim();
        if line.eq_ignore_ascii_case("quit") || line.eq_ignore_ascii_case("q") {
            return Ok(None);
        }
        if let Ok(n) = line.parse::<usize>() {
            if (1..=offered.len()).contains(&n) {
                return Ok(Some(offered[n - 1]));
            }
            writeln!(out, "Choose a number from 1 to {}.", legal.len())?;
            continue;
        }
        // A bare card means playing it.
        let parsed = line
            .parse::<Action>()
            .or_else(|e| line.parse::<Card>().map(Action::Play).map_err(|_| e));
        match parsed {
            Ok(action) => match game.check(action) {
                Ok(()) => return Ok(Some(action)),
                Err(broken) => writeln!(out, "Not allowed: you {broken}.")?,
            },
            Err(e) => writeln!(
                out,
                "Not understood: {e}. Type a number, an action or quit."
            )?,
        }
    }
}

/// What the player has been shown of the game so far.
#[derive(Default)]
struct Screen {
    hand_number: u32,
    /// Each team's tricks in the hand as last shown.
    team_tricks: [u8; 2],
}

impl Screen {
    /// Prints what just happened at the table, as the player at `me` sees it.
    fn show(&mut self, game: &AnyGame, event: Event, me: Seat) -> io::Result<()> {
        let mut out = io::stdout().lock();
        match event {
            Event::Dealt => {
                self.hand_number += 1;
                self.team_tricks = [0, 0];
                let dealer = game.hand_summary().dealer;
                writeln!(
                    out,
                    "\n=== Hand {}: {} deals. Scores: team 0 {}, team 1 {} ===",
                    self.hand_number,
                    seat_label(game, dealer, me),
                    game.scores()[0],
                    game.scores()[1]
                )?;
            }
            Event::Acted(seat, action) => {
                let seen = game
                    .observation(me)
                    .actions
                    .last()
                    .map_or_else(|| action.to_string(), |(_, seen)| seen.to_string());
                let shown = match action {
                    Action::Play(card) => format!("plays {}", card.pretty()),
                    _ => seen,
                };
                writeln!(out, "{}: {shown}", seat_label(game, seat, me))?;
                let hand = game.hand_summary();
                if hand.tricks != self.team_tricks {
                    let tricks: u8 = hand.tricks.iter().sum();
                    // The winner leads the next trick; after the last one, the team
                    // whose count went up is all there is to tell.
                    let winner = match game.turn() {
                        Turn::Seat(leader) => seat_label(game, leader, me),
                        _ => {
                            let team = usize::from(hand.tricks[1] > self.team_tricks[1]);
                            format!("team {team}")
                        }
                    };
                    self.team_tricks = hand.tricks;
                    writeln!(
                        out,
                        "  -- trick {tricks} to {winner}; tricks: team 0 {}, team 1 {}",
                        hand.tricks[0], hand.tricks[1]
                    )?;
                }
                if hand.outcome != HandOutcome::InProgress {
                    let points = hand.points.unwrap_or([0, 0]);
                    let what = match (hand.outcome, hand.contract, hand.declarer) {
                        (HandOutcome::Played, Some(contract), Some(declarer)) => {
                            format!("{} played \"{contract}\"", seat_label(game, declarer, me))
                        }
                        (HandOutcome::Misdeal, ..) => "misdeal".to_string(),
                        _ => "all passed: thrown in".to_string(),
                    };
                    writeln!(
                        out,
                        "Hand {} over: {what}. Points: team 0 {}, team 1 {}. Scores: team 0 {}, team 1 {}.",
                        self.hand_number,
                        points[0],
                        points[1],
                        game.scores()[0],
                        game.scores()[1]
                    )?;
                }
            }
            Event::HandOver => {}
        }
        Ok(())
    }
}

/// Plays `table` with the person at `me` answering from `input` and `seating` at every
/// other seat, showing everything `me` may see as it happens, until the game ends, the
/// person quits or `max_deals` deals have been played.
pub fn play_interactive(
    table: &mut Table,
    me: Seat,
    seating: &mut Seating<'_>,
    deal_rng: &mut GameRng,
    bot_rng: &mut GameRng,
    input: &mut impl BufRead,
    max_deals: Option<usize>,
) -> Result<Stop> {
    play_with_deals(
        table, me, seating, deal_rng, None, bot_rng, input, max_deals,
    )
}

/// [`play_interactive`] with committed deals when `committed` is given (`deal_rng` then
/// deals nothing): each hand's commitment shown, the cut asked of `me` when it is mine,
/// and the seed shown and revealed in the record once the hand is over.
#[allow(clippy::too_many_arguments)]
fn play_with_deals(
    table: &mut Table,
    me: Seat,
    seating: &mut Seating<'_>,
    deal_rng: &mut GameRng,
    mut committed: Option<&mut CommittedDeals>,
    bot_rng: &mut GameRng,
    input: &mut impl BufRead,
    max_deals: Option<usize>,
) -> Result<Stop> {
    let mut screen = Screen::default();
    // Both the players' turns and the results go to the same seating.
    let seating = std::cell::RefCell::new(seating);
    loop {
        // Committed deals are dealt here, one hand per pass; seeded ones by the table.
        let limit = match committed.as_deref_mut() {
            Some(deals) if table.game.turn() == Turn::Chance => {
                let announced = deals.announce(table)?;
                let mut out = io::stdout().lock();
                writeln!(
                    out,
                    "\nHand {}: the dealer commits to the deal {}",
                    announced.hand + 1,
                    announced.commitment
                )?;
                let cut = if announced.cutter == me {
                    ask_cut(input, &mut out, announced.max_cut, bot_rng)?
                } else {
                    bot_rng.random_range(1..=announced.max_cut)
                };
                writeln!(
                    out,
                    "{} cuts the deck at {cut}.",
                    seat_label(&table.game, announced.cutter, me)
                )?;
                drop(out);
                deals.deal(table, &announced, cut)?;
                screen.show(&table.game, Event::Dealt, me)?;
                table.record.hands.len()
            }
            Some(_) => table.record.hands.len(),
            None => usize::MAX,
        }
        .min(max_deals.unwrap_or(usize::MAX));
        let mut display = Ok(());
        let stop = table.play(
            deal_rng,
            limit,
            |game, seat, legal| {
                if seat == me {
                    ask(input, &mut io::stdout().lock(), game, me, legal)
                } else {
                    seating
                        .borrow_mut()
                        .act(game, seat, legal, bot_rng, 0)
                        .map(Some)
                }
            },
            |game, event| {
                if matches!(event, Event::HandOver) {
                    seating.borrow_mut().tell_hand(game, 0)?;
                }
                // Keep playing only while the screen can be written to.
                if display.is_ok() {
                    display = screen.show(game, event, me);
                }
                Ok(())
            },
        )?;
        display?;
        let at_limit = max_deals.is_some_and(|max| table.record.hands.len() >= max);
        let Some(deals) = committed.as_deref_mut().filter(|_| !at_limit) else {
            seating
                .borrow_mut()
                .tell_game(&table.game, table.record.hands.len(), stop, 0)?;
            return Ok(stop);
        };
        // The hand is over (or the game stopped): the seed may be told.
        if let Some(seed) = deals.reveal(table) {
            writeln!(
                io::stdout().lock(),
                "Hand {}'s seed: {} (calltrump verify checks the deal against it)",
                table.record.hands.len(),
                seed.to_hex()
            )?;
        }
        if stop != Stop::DealLimit {
            seating
                .borrow_mut()
                .tell_game(&table.game, table.record.hands.len(), stop, 0)?;
            return Ok(stop);
        }
    }
}

/// Reads the player's cut: a number from 1 to `max`, or a random one on an empty line or
/// at the end of the input.
fn ask_cut(
    input: &mut impl BufRead,
    out: &mut impl Write,
    max: u64,
    rng: &mut GameRng,
) -> Result<u64> {
    loop {
        write!(
            out,
            "You cut the deck: a number from 1 to {max} (Enter: a random cut)> "
        )?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(rng.random_range(1..=max));
        }
        match line.trim() {
            "" => return Ok(rng.random_range(1..=max)),
            text => match text.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => return Ok(n),
                _ => writeln!(out, "Choose a number from 1 to {max}.")?,
            },
        }
    }
}

/// Plays one game with the player at `--seat` and bots elsewhere.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let cut_side = args.game.cut_side(&rules)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let (mut table, mut deal_rng) = Table::seeded(&rules, seed, 0);
    let mut bot_rng = stream(seed, 1);
    // Without --seed the deals are committed: secret, cut, and checkable afterwards.
    let mut committed = match args.seed {
        Some(_) => None,
        None => Some(CommittedDeals::start(&mut table, cut_side)?),
    };
    let seats = table.game.seats();
    if usize::from(args.seat) >= seats {
        bail!(
            "--seat {} does not exist: this game has seats 0 to {}",
            args.seat,
            seats - 1
        );
    }
    let me = Seat(args.seat);
    let names: Vec<&str> = args.bots.split(',').collect();
    if names.len() != 1 && names.len() != seats {
        bail!(
            "--bots names {} bots; this game has {seats} seats (give 1 or {seats})",
            names.len()
        );
    }
    // One player per seat; the person's own seat gets a bot that is never asked (and no
    // outside program is started for it).
    let mut bots: Vec<Player> = (0..seats)
        .map(|s| {
            let name = match names.get(s).unwrap_or(&names[0]) {
                _ if s == me.index() => "random",
                name => name,
            };
            Player::from_spec(name, Seat(s as u8), &table.game, args.external.terms())
        })
        .collect::<Result<_>>()?;
    let at: Vec<usize> = (0..seats).collect();
    let mut seating = Seating {
        players: &mut bots,
        at: &at,
    };
    let record_path = args
        .record
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("calltrump-{}-{seed}.json", rules.game())));

    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let order: Vec<String> = (0..seats)
        .map(|s| seat_label(&table.game, Seat(s as u8), me))
        .collect();
    let mut play = || -> Result<Stop> {
        let deals = match committed {
            Some(_) => format!(
                "committed deals (each hand's commitment shown before the cut, its seed \
                 after the hand), bots' seed {seed}"
            ),
            None => format!("seed {seed}"),
        };
        writeln!(
            out,
            "calltrump: {} ({}), {deals}. You are seat {me}; your partners are the seats of team {}.",
            rules.game(),
            rules.variant(),
            me.team()
        )?;
        writeln!(out, "Table in order of play: {}", order.join(" -> "))?;
        play_with_deals(
            &mut table,
            me,
            &mut seating,
            &mut deal_rng,
            committed.as_mut(),
            &mut bot_rng,
            &mut input,
            args.max_deals.map(|n| n as usize),
        )
    };
    let played = play();
    // The record is saved whatever stopped the game, a closed terminal included.
    std::fs::write(&record_path, table.record.to_json() + "\n")
        .with_context(|| format!("saving the record to {}", record_path.display()))?;
    let stop = played?;
    match (stop, table.game.outcome()) {
        (Stop::GameOver, Some(outcome)) => {
            let text = match outcome {
                calltrump_engine::Outcome::Winner(team) if team == me.team() => {
                    "Your team wins!".to_string()
                }
                calltrump_engine::Outcome::Winner(team) => format!("Team {team} wins."),
                calltrump_engine::Outcome::Draw => "A draw.".to_string(),
            };
            writeln!(out, "\nGame over. {text}")?;
        }
        (Stop::DealLimit, _) => writeln!(
            out,
            "\nGame over at the deal limit ({} deals): a draw. Scores: team 0 {}, team 1 {}.",
            table.record.hands.len(),
            table.game.scores()[0],
            table.game.scores()[1]
        )?,
        _ => writeln!(out, "\nGame stopped.")?,
    }
    writeln!(out, "Record saved to {}", record_path.display())?;
    Ok(ExitCode::SUCCESS)
}
