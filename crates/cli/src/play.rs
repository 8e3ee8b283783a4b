//! `calltrump play`: a game in the terminal, you against bots. Reads standard input line
//! by line, so a script can play through a pipe. Before each of your decisions a status
//! block (the contract, trump, tricks, scores, the trick with its winning card) and a
//! short menu; at the prompt also `help`, `rules`, `last`, `undo` and `quit`. The record
//! is saved after every hand, on quit, on Ctrl-C and at the end, and `--resume` goes on
//! with a saved game.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use calltrump_engine::fair_deal::DealSource;
use calltrump_engine::{
    Action, ActionList, AnyGame, Broken, Card, Game, Phase, Record, Seat, Strain, Turn, View,
    Viewer,
};

use crate::game_args::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS};
use crate::input::{self, Line, Lines};
use crate::screen::{self, Names};
use crate::text;
use calltrump_play::committed;
use calltrump_play::game_loop::{self, Event, Stop, Table};
use calltrump_play::help;
use calltrump_play::local::{self, Dice, Start};
use calltrump_play::player::{Player, Seating};
use calltrump_play::prompt::{
    self, legal_bids, menu, menu_key, not_in_game, number_is_no_bid, same_cards, second_person,
    Menu,
};
use calltrump_play::save;
use calltrump_play::style::{game_title, Style};
use calltrump_play::text::wrap;
use calltrump_play::typed::{self, Typed};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Your seat (0 by default; seat 0's partners are the even seats; a resumed game
    /// keeps the seat it was saved with).
    #[arg(long)]
    seat: Option<u8>,
    /// The seed of the deals and the bots (default: from the clock, printed so the game
    /// can be played again).
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// The bot or level in every other seat (`--level` is the same flag), or one per
    /// seat separated by commas: every seat's (your own entry is ignored), or only the
    /// others' in seat order.
    #[arg(long, alias = "level", default_value = "hard")]
    bots: String,
    /// Where to save the game record (default: calltrump-GAME-VARIANT-SEED.json in the
    /// data folder, $XDG_DATA_HOME/calltrump or ~/.local/share/calltrump, or -2, -3, ...
    /// added when that holds an unfinished game; with --resume, the resumed file). A
    /// file holding an unfinished game is never written over.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Continue the game saved in FILE (by `quit`, Ctrl-C or the end of the input): its
    /// game, options, seed and your seat come from the save (a night goes on with
    /// `night --resume`).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// End the game as a draw once this many deals have been played without a winner
    /// (1 to 1,000,000; default: no limit, as a person is playing).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_DEALS))]
    max_deals: Option<u64>,
    /// How long the bots pause before each move on a terminal (none when the output is
    /// not a terminal).
    #[arg(long, value_enum, default_value = "normal")]
    speed: Speed,
    /// Suit letters (AS, TH) instead of suit symbols.
    #[arg(long)]
    ascii: bool,
    #[command(flatten)]
    external: ExternalArgs,
}

/// The bots' pace, `--speed`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Speed {
    /// 1.5 s a move.
    Slow,
    /// 0.7 s a move.
    Normal,
    /// 0.25 s a move.
    Fast,
    /// No pause.
    #[value(name = "0")]
    Zero,
}

impl Speed {
    /// The pause before a bot's move, none unless standard output is a terminal.
    fn pause(self) -> Duration {
        use std::io::IsTerminal;
        let millis = match self {
            Speed::Slow => 1500,
            Speed::Normal => 700,
            Speed::Fast => 250,
            Speed::Zero => 0,
        };
        match io::stdout().is_terminal() {
            true => Duration::from_millis(millis),
            false => Duration::ZERO,
        }
    }
}

/// The longest line read as an answer at a prompt: any call, card or command is
/// shorter.
const LONGEST_ANSWER: usize = 80;

/// What the player asked for instead of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    /// `undo`: take back the last move of this hand.
    Undo,
    /// `quit`.
    Quit,
    /// The input ended.
    End,
    /// Ctrl-C.
    Interrupted,
}

/// How a game at the terminal stopped.
struct Ended {
    stop: Stop,
    /// Why the player stopped it, when they did.
    by: Option<Request>,
}

/// Prints to standard output, wrapped at word boundaries to the terminal's width (at
/// most [`text::MOST_COLUMNS`]); a closed output is an error, not a panic.
fn say(text: impl std::fmt::Display) -> io::Result<()> {
    writeln!(
        io::stdout().lock(),
        "{}",
        text::fill_screen(&text.to_string())
    )
}

/// The player's side of the table: what they see and what they type.
struct Session<'a> {
    me: Seat,
    style: Style,
    names: Names,
    input: &'a mut dyn Lines,
    pause: Duration,
    /// What the player asked for instead of a move, until the game loop deals with it.
    request: Option<Request>,
    /// The hand (by deals played before it) whose result the player was told is
    /// decided.
    decided_told: Option<u32>,
}

impl Session<'_> {
    /// Waits `pause` unless Ctrl-C comes; returns whether it did.
    fn wait(&mut self) -> bool {
        let mut left = self.pause;
        while !left.is_zero() && !self.input.interrupted() {
            let step = left.min(Duration::from_millis(50));
            std::thread::sleep(step);
            left -= step;
        }
        self.input.interrupted()
    }

    /// Reads the player's action, or `None` once they ask for something else (see
    /// `request`).
    fn ask(&mut self, game: &AnyGame, legal: &ActionList) -> Result<Option<Action>> {
        let view = game.view(Viewer::Seat(self.me));
        if let [only] = legal[..] {
            say(prompt::forced(&self.style, only))?;
            return Ok(Some(only));
        }
        let mut picked: Vec<Card> = Vec::new();
        // Keys pressed while the bots played were not meant for this menu.
        self.input.discard_typed_ahead();
        self.show_choices(game, &view, &picked, true)?;
        loop {
            let line = match self.input.next_line()? {
                Line::Text(text) => text,
                Line::End => return self.stop(Request::End),
                Line::Interrupted => return self.stop(Request::Interrupted),
            };
            // A line far longer than any answer is not echoed back whole.
            let length = line.chars().count();
            if length > LONGEST_ANSWER {
                say(format!(
                    "Not understood: a line of {length} characters; type a choice (help \
                     explains)."
                ))?;
                self.reprompt()?;
                continue;
            }
            let menu = menu(&self.style, game, &view, &picked);
            let keyed = match &menu {
                Menu::Actions(actions) => actions.iter().enumerate().find_map(|(i, a)| {
                    let key = menu_key(view.phase, i, *a);
                    key.eq_ignore_ascii_case(line.trim()).then_some(*a)
                }),
                _ => None,
            };
            let typed = match keyed {
                Some(action) => Typed::Action(action),
                None => typed::read(&line),
            };
            let action = match typed {
                Typed::Repeat => {
                    self.show_choices(game, &view, &picked, true)?;
                    continue;
                }
                Typed::Help => {
                    say(help::text(game, view.phase, &view.legal, text::width()))?;
                    self.show_choices(game, &view, &picked, false)?;
                    continue;
                }
                Typed::Rules => {
                    let rules = self.rules_text(game)?;
                    if !rules.is_empty() {
                        say(rules)?;
                    }
                    self.show_choices(game, &view, &picked, false)?;
                    continue;
                }
                Typed::Last => {
                    say(self.last_trick(&view))?;
                    self.show_choices(game, &view, &picked, false)?;
                    continue;
                }
                Typed::Hint => {
                    say(crate::hint::text(game, self.me, &self.style, &self.names))?;
                    self.show_choices(game, &view, &picked, false)?;
                    continue;
                }
                Typed::Undo if !picked.is_empty() => {
                    picked.clear();
                    say("Picked cards put back.")?;
                    self.show_choices(game, &view, &picked, false)?;
                    continue;
                }
                Typed::Undo => return self.stop(Request::Undo),
                Typed::Quit => return self.stop(Request::Quit),
                Typed::Number(n) => match &menu {
                    // A number alone is a bid (one that may not be made now is refused
                    // below, with the reason).
                    Menu::Actions(_) if view.phase == Phase::Auction => {
                        Action::Bid(u8::try_from(n).unwrap_or(u8::MAX))
                    }
                    Menu::Actions(actions) if (1..=actions.len()).contains(&n) => actions[n - 1],
                    Menu::Cards(cards) if (1..=cards.len()).contains(&n) => {
                        match self.pick(game, &view, &mut picked, cards[n - 1])? {
                            Some(action) => return Ok(Some(action)),
                            None => {
                                self.show_choices(game, &view, &picked, false)?;
                                continue;
                            }
                        }
                    }
                    Menu::Actions(items) if !items.is_empty() => {
                        say(format!("Choose a number from 1 to {}.", items.len()))?;
                        self.reprompt()?;
                        continue;
                    }
                    Menu::Cards(items) => {
                        say(format!("Choose a number from 1 to {}.", items.len()))?;
                        self.reprompt()?;
                        continue;
                    }
                    _ => {
                        say(number_is_no_bid(&self.style, &view.legal, n))?;
                        self.reprompt()?;
                        continue;
                    }
                },
                Typed::Card(card) => match (&menu, view.phase) {
                    (Menu::Cards(cards), _) if cards.contains(&card) => {
                        match self.pick(game, &view, &mut picked, card)? {
                            Some(action) => return Ok(Some(action)),
                            None => {
                                self.show_choices(game, &view, &picked, false)?;
                                continue;
                            }
                        }
                    }
                    (Menu::Cards(_), _) => {
                        say(format!(
                            "Not allowed: {}",
                            prompt::not_pickable(&self.style, game, self.me, card)
                        ))?;
                        self.reprompt()?;
                        continue;
                    }
                    _ => Action::Play(card),
                },
                Typed::Strain(strain) => match (view.phase, strain) {
                    (Phase::TrumpNaming, Strain::Suit(suit)) => Action::Trump(suit),
                    _ => {
                        say("A suit alone names trump; to bid, type e.g. bid 4 h.")?;
                        self.reprompt()?;
                        continue;
                    }
                },
                Typed::Level(level, strain) => Action::BidStrain(level, strain),
                Typed::Action(action) => action,
                Typed::Unknown(why) => {
                    say(format!("Not understood: {why}; help explains."))?;
                    self.reprompt()?;
                    continue;
                }
            };
            match game.check(action) {
                Ok(()) => return Ok(Some(action)),
                Err(Broken::NotInGame) => {
                    let now = self.decision(game, &view, &picked);
                    say(not_in_game(&self.style, game, &view.legal, action, &now))?;
                    self.reprompt()?;
                }
                Err(Broken::BidOutOfRange { .. }) => {
                    say(format!("Not allowed: {}.", legal_bids(&view.legal)))?;
                    self.reprompt()?;
                }
                Err(broken) => {
                    say(format!(
                        "Not allowed: {}.",
                        second_person(&self.style, &broken)
                    ))?;
                    self.reprompt()?;
                }
            }
        }
    }

    /// The rules of the game being played, for `rules` at a prompt: paged on a
    /// terminal (then nothing is left to print), else rendered for the terminal.
    fn rules_text(&self, game: &AnyGame) -> Result<String> {
        let rules = game.rules();
        crate::rules::show(rules.game(), Some(rules.variant()))
    }

    /// The prompt again after a message that showed no choices.
    fn reprompt(&self) -> io::Result<()> {
        let mut out = io::stdout().lock();
        write!(out, "> ")?;
        out.flush()
    }

    /// Records `request` and ends the question.
    fn stop(&mut self, request: Request) -> Result<Option<Action>> {
        self.request = Some(request);
        Ok(None)
    }

    /// Adds `card` to the cards picked for a give or discard; the action once complete.
    /// A card that is the only one left to pick is picked for the player, and said so.
    fn pick(
        &self,
        game: &AnyGame,
        view: &View,
        picked: &mut Vec<Card>,
        card: Card,
    ) -> Result<Option<Action>> {
        picked.push(card);
        loop {
            let complete = view.legal.iter().copied().find(|action| match action {
                Action::Give(pair) | Action::Discard(pair) => same_cards(pair, picked),
                _ => false,
            });
            if complete.is_some() {
                return Ok(complete);
            }
            match menu(&self.style, game, view, picked) {
                Menu::Cards(left) if left.len() == 1 => {
                    say(format!(
                        "Only {} can go with {}: picked for you.",
                        self.style.card(left[0]),
                        self.style.cards(picked)
                    ))?;
                    picked.push(left[0]);
                }
                _ => {
                    say(format!(
                        "Picked {} (undo puts it back).",
                        self.style.cards(picked)
                    ))?;
                    return Ok(None);
                }
            }
        }
    }

    /// The previous trick, or that there is none this hand.
    fn last_trick(&self, view: &View) -> String {
        match &view.last_trick {
            Some(trick) => {
                let mut lines = vec!["Previous trick:".to_string()];
                lines.extend(screen::trick_lines(&self.style, &self.names, trick, true));
                lines.join("\n")
            }
            None => "No trick has been completed in this hand yet.".to_string(),
        }
    }

    /// The decision's name: `Your bid`, `Name trump`, `Lead`, `Follow hearts`, ...
    fn decision(&self, game: &AnyGame, view: &View, picked: &[Card]) -> String {
        prompt::decision(game, view, picked, |seat| self.names.short(seat))
    }

    /// Shows the status block (when `status`), the decision and its menu, and the prompt.
    fn show_choices(
        &self,
        game: &AnyGame,
        view: &View,
        picked: &[Card],
        status: bool,
    ) -> io::Result<()> {
        let mut out = io::stdout().lock();
        if status {
            write!(
                out,
                "\n{}",
                text::fill_screen(&screen::status(&self.style, &self.names, game, view))
            )?;
        }
        let decision = self.decision(game, view, picked);
        let items: Vec<String> = match menu(&self.style, game, view, picked) {
            Menu::Legend(legend) => legend.split(' ').map(str::to_string).collect(),
            Menu::Cards(cards) => cards
                .iter()
                .enumerate()
                .map(|(i, c)| format!("[{}] {}", i + 1, self.style.card(*c)))
                .collect(),
            Menu::Actions(actions) => actions
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let key = menu_key(view.phase, i, *a);
                    match a {
                        Action::Play(card) => format!("[{key}] {}", self.style.card(*card)),
                        Action::Trump(suit) => format!("[{key}] {}", self.style.suit(*suit)),
                        other => {
                            format!("[{key}] {}", screen::named_call(&self.style, view, *other))
                        }
                    }
                })
                .collect(),
        };
        writeln!(out, "{decision}:")?;
        for line in wrap(&items, text::width() - 2) {
            writeln!(out, "  {line}")?;
        }
        write!(out, "> ")?;
        out.flush()
    }

    /// Prints what just happened at the table.
    fn show(&self, game: &AnyGame, event: Event) -> io::Result<()> {
        let viewer = Viewer::Seat(self.me);
        for line in screen::narrate(&self.style, &self.names, game, viewer, &event) {
            say(line)?;
        }
        Ok(())
    }
}

/// The person at a table of bots: their seat, what each seat is called, where their
/// lines come from, how cards are drawn and how long the bots pause.
pub struct Person<'a> {
    /// The person's seat.
    pub me: Seat,
    /// Each seat's player by name.
    pub players: Vec<String>,
    /// Where the person's lines come from.
    pub input: &'a mut dyn Lines,
    /// Suit symbols or letters.
    pub ascii: bool,
    /// The bots' pace.
    pub speed: Speed,
}

/// How a game with a person in it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// It did not: it ended, or reached the deal limit.
    No,
    /// The person quit.
    Quit,
    /// The input ended.
    InputEnded,
    /// Ctrl-C.
    Interrupted,
}

/// Plays `table` with `person` answering and `seating` at every other seat, showing
/// everything the person may see as it happens, until the game ends, the person stops
/// it or `max_deals` deals have been played; `save` keeps it after every hand.
pub fn play_interactive(
    table: &mut Table,
    person: Person<'_>,
    seating: &mut Seating<'_>,
    dice: Dice,
    max_deals: Option<usize>,
    save: &mut dyn FnMut(&Table) -> Result<()>,
) -> Result<(Stop, Stopped)> {
    let mut session = Session {
        me: person.me,
        style: crate::screen::stdout_style(person.ascii),
        names: Names::new(table.game(), person.me).with_players(person.players),
        input: person.input,
        pause: person.speed.pause(),
        request: None,
        decided_told: None,
    };
    let ended = play_with_deals(table, &mut session, seating, dice, max_deals, save)?;
    let stopped = match (ended.stop, ended.by) {
        (Stop::Quit, Some(Request::End)) => Stopped::InputEnded,
        (Stop::Quit, Some(Request::Interrupted)) => Stopped::Interrupted,
        (Stop::Quit, _) => Stopped::Quit,
        _ => Stopped::No,
    };
    Ok((ended.stop, stopped))
}

/// [`play_interactive`], with committed deals where the table deals them: each hand's
/// commitment shown, the cut asked of the player when it is theirs, and the seed shown
/// once the hand is over. `save` keeps the game after every hand.
fn play_with_deals(
    table: &mut Table,
    session: &mut Session<'_>,
    seating: &mut Seating<'_>,
    mut dice: Dice,
    max_deals: Option<usize>,
    save: &mut dyn FnMut(&Table) -> Result<()>,
) -> Result<Ended> {
    let me = session.me;
    let max_deals = max_deals.unwrap_or(usize::MAX);
    loop {
        // One hand a pass, so that the record is saved after each. Committed deals are
        // dealt here; seeded ones by the table.
        let committed_deals = table.settings().committed.is_some();
        let next = match table.turn() {
            Turn::Chance if committed_deals => {
                if table.deals() >= max_deals {
                    return finish(table, seating, Stop::DealLimit, None);
                }
                let dealer = table.next_dealer();
                let announced = committed::announce(table)?;
                let deals = match dealer == me {
                    true => "deal",
                    false => "deals",
                };
                say(format!(
                    "\nHand {}: {} {deals}, committed to the deal {} (in full in the \
                     record).",
                    announced.hand + 1,
                    session.names.short(dealer),
                    fingerprint(&announced.commitment),
                ))?;
                let cut = if announced.cutter == me {
                    match ask_cut(
                        session,
                        table.game(),
                        announced.max_cut,
                        announced.hand,
                        &mut dice,
                    )? {
                        Some(cut) => cut,
                        None => return finish(table, seating, Stop::Quit, session.request),
                    }
                } else {
                    dice.cut(announced.max_cut, announced.hand)
                };
                let cutter = session.names.short(announced.cutter);
                let cuts = if announced.cutter == me {
                    "cut"
                } else {
                    "cuts"
                };
                say(format!(
                    "{} {cuts} the deck at {cut}.",
                    screen::capitalise(&cutter)
                ))?;
                table.cut(announced.cutter, cut)?;
                table.deals()
            }
            _ => table.deals() + usize::from(table.turn() == Turn::Chance),
        };
        let seating_cell = std::cell::RefCell::new(&mut *seating);
        let session_cell = std::cell::RefCell::new(&mut *session);
        let stop = game_loop::play(
            table,
            next.min(max_deals),
            |game, seat, legal| {
                let mut session = session_cell.borrow_mut();
                // A decided Kout Bo hand is played out at once, the player's cards too:
                // the tricks left count for nothing, so nothing is asked.
                let decided = local::kout_decided(game, me).is_some();
                let interrupted = match decided {
                    true => session.input.interrupted(),
                    false => session.wait(),
                };
                if seat == me && !decided {
                    session.ask(game, legal)
                } else if interrupted {
                    session.stop(Request::Interrupted)
                } else {
                    dice.act(&mut seating_cell.borrow_mut(), game, seat, legal)
                        .map(Some)
                }
            },
            |game, event| {
                if matches!(event, Event::HandOver) {
                    seating_cell.borrow_mut().tell_hand(game, 0)?;
                }
                let mut session = session_cell.borrow_mut();
                session.show(game, event)?;
                let hand = game.hand_start().deals_played;
                if let Some(result) = local::kout_decided(game, me) {
                    if session.decided_told != Some(hand) {
                        session.decided_told = Some(hand);
                        say(format!(
                            "The hand is decided: {result}. The tricks left count for \
                             nothing and are played out at once."
                        ))?;
                    }
                }
                Ok(())
            },
        )?;
        if session.request == Some(Request::Undo) {
            session.request = None;
            say(prompt::undo(table, me, &session.style)?)?;
            continue;
        }
        // The hand is over (or the game stopped): a committed deal's seed may be told,
        // from the record, where a hand resumed midway holds it too.
        let hand_over = !matches!(table.turn(), Turn::Seat(_));
        let seed = table
            .record()
            .hands
            .last()
            .and_then(|hand| hand.fair_deal.as_ref()?.seed.clone());
        if let (Some(seed), true) = (seed, committed_deals && hand_over) {
            say(format!(
                "Hand {}'s seed: {} (verify checks the deal against it).",
                table.deals(),
                fingerprint(&seed),
            ))?;
        }
        save(table)?;
        let at_limit = table.deals() >= max_deals;
        if stop != Stop::DealLimit || at_limit {
            return finish(table, seating, stop, session.request);
        }
    }
}

/// The first 8 hex digits of a commitment or seed, to tell it on screen (the record
/// holds all 64).
fn fingerprint(hex: &str) -> String {
    format!("{}…", hex.get(..8).unwrap_or(hex))
}

/// Tells the outside bots how the game ended and says why it stopped.
fn finish(
    table: &Table,
    seating: &mut Seating<'_>,
    stop: Stop,
    by: Option<Request>,
) -> Result<Ended> {
    seating.tell_game(table.game(), table.deals(), stop, 0)?;
    Ok(Ended { stop, by })
}

/// Reads the player's cut: a number from 1 to `max`, or a random one on an empty line;
/// `help`, `rules` and `last` answered as at any prompt; `None` when the player quits,
/// the input ends or Ctrl-C is pressed.
fn ask_cut(
    session: &mut Session<'_>,
    game: &AnyGame,
    max: u64,
    hand: usize,
    dice: &mut Dice,
) -> Result<Option<u64>> {
    let prompt = format!("You cut the deck: a number from 1 to {max} (Enter: a random cut)");
    // An Enter pressed while the last hand ended is no random cut asked for.
    session.input.discard_typed_ahead();
    say(&prompt)?;
    loop {
        session.reprompt()?;
        let text = match session.input.next_line()? {
            Line::Text(text) => text,
            Line::End => return session.stop(Request::End).map(|_| None),
            Line::Interrupted => return session.stop(Request::Interrupted).map(|_| None),
        };
        let answer = match typed::read(&text) {
            Typed::Repeat => return Ok(Some(dice.cut(max, hand))),
            Typed::Number(n) if (1..=max).contains(&(n as u64)) => return Ok(Some(n as u64)),
            Typed::Quit => return session.stop(Request::Quit).map(|_| None),
            Typed::Help => help::cut(max, text::width()),
            // Paged on a terminal: nothing is left to print.
            Typed::Rules => session.rules_text(game)?,
            Typed::Last => session.last_trick(&game.view(Viewer::Seat(session.me))),
            Typed::Undo | Typed::Hint => {
                "Nothing to take back or hint at before the deal.".to_string()
            }
            _ => format!("Choose a number from 1 to {max}, or Enter for a random cut."),
        };
        if !answer.is_empty() {
            say(answer)?;
        }
        say(&prompt)?;
    }
}

/// The whole record of the game saved at `path` (the hand in play unsealed from its
/// companion) and the seat it was saved with, if it says.
fn read_save(path: &Path) -> Result<(Record, Option<Seat>)> {
    let text = calltrump_play::records::read_record(path)?;
    if calltrump_play::records::is_night_record(&text) {
        bail!(
            "{} is the record of a night: go on with it with {} night --resume {}",
            path.display(),
            crate::program(),
            path.display()
        );
    }
    let shown = Record::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let companion = save::read_companion(path)?.unwrap_or_default();
    let whole = save::whole_record(path, shown, companion.sealed.as_deref())?;
    Ok((whole, companion.seat.map(Seat)))
}

/// The seat to play a resumed game from: the one it was saved with (a different
/// `--seat` is refused), else `--seat` or 0; the game, variant and options must be the
/// record's when given.
fn resumed_seat(args: &Args, path: &Path) -> Result<Seat> {
    let (saved, seat) = read_save(path)?;
    if args.game.given() {
        let (rules, _) = saved
            .rules()
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        if args.game.rules()? != rules {
            bail!(
                "{} holds a game of {}{}: --resume goes on with it as it was saved; leave \
                 out --game, --variant and --option",
                path.display(),
                game_title(rules.kind()),
                match saved.options.is_empty() {
                    true => String::new(),
                    false => format!(
                        " (options {})",
                        saved
                            .options
                            .iter()
                            .map(|(key, value)| format!("{key}={value}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            );
        }
    }
    if let Some(given) = args.seed {
        let saved_seed = match &saved.deal_source {
            Some(DealSource::Seeded { seed, .. }) => Some(*seed),
            _ => None,
        };
        if saved_seed != Some(given) {
            bail!(
                "{} goes on with its own deals{}: --resume takes no other --seed (leave it out)",
                path.display(),
                match saved_seed {
                    Some(seed) => format!(" (seed {seed})"),
                    None => " (committed, no seed)".to_string(),
                }
            );
        }
    }
    match (seat, args.seat) {
        (Some(saved), Some(given)) if saved.0 != given => bail!(
            "{} was saved with you at seat {saved}: a resumed game keeps its seat (leave \
             out --seat)",
            path.display()
        ),
        (Some(saved), _) => Ok(saved),
        (None, given) => Ok(Seat(given.unwrap_or(0))),
    }
}

/// The folder records go to by default: `$XDG_DATA_HOME/calltrump` or
/// `~/.local/share/calltrump`.
fn data_dir() -> Result<PathBuf> {
    save::default_data_dir().context("finding the folder for game records: give --record")
}

/// Plays one game with the player at `--seat` and bots elsewhere.
pub fn run(args: &Args) -> Result<ExitCode> {
    let seat = match &args.resume {
        Some(path) => resumed_seat(args, path)?,
        None => Seat(args.seat.unwrap_or(0)),
    };
    let start = match &args.resume {
        Some(path) => local::resume(path, read_save(path)?.0, seat)?,
        None => {
            let rules = args.game.rules()?;
            let cut_side = args.game.cut_side(&rules)?;
            local::new_game(rules, cut_side, args.seed, seat)?
        }
    };
    let Start {
        mut table,
        seed,
        bots_seed,
    } = start;
    let rules = table.game().rules().clone();
    let seats = table.seats();
    if seat.index() >= seats {
        bail!(
            "--seat {seat} does not exist: this game has seats 0 to {}",
            seats - 1
        );
    }
    let me = seat;
    let names = local::bot_names(&args.bots, seats, me)?;
    let mut bots: Vec<Player> = (0..seats)
        .map(|s| {
            let name = if s == me.index() { "random" } else { &names[s] };
            Player::from_spec(name, Seat(s as u8), table.game(), args.external.terms())
        })
        .collect::<Result<_>>()?;
    let at: Vec<usize> = (0..seats).collect();
    let mut seating = Seating {
        players: &mut bots,
        at: &at,
    };
    let resume_command = format!("{} play --resume", crate::program());
    let new_path = |wanted: &Path, given: bool| -> Result<PathBuf> {
        let (path, note) = save::new_save_path(wanted, given, "game", &resume_command)?;
        if let Some(note) = note {
            say(note)?;
        }
        Ok(path)
    };
    let record_path = match (&args.record, &args.resume) {
        (Some(path), None) => new_path(path, true)?,
        (Some(path), Some(from)) if path != from => new_path(path, true)?,
        (Some(path), _) | (None, Some(path)) => path.clone(),
        (None, None) => {
            let name = format!("calltrump-{}-{}-{bots_seed}", rules.game(), rules.variant());
            new_path(&data_dir()?.join(format!("{name}.json")), false)?
        }
    };
    // One calltrump at a time goes on with a save; the lock goes when this one stops.
    let _lock = save::lock(&record_path)?;
    // Nothing is dealt before the record is known to be writable.
    save::save_game(&record_path, &table, me)?;

    let style = crate::screen::stdout_style(args.ascii);
    let seat_names = Names::new(table.game(), me);
    let mut input = input::Stdin::start();
    let mut session = Session {
        me,
        style,
        names: seat_names.clone(),
        input: &mut input,
        pause: args.speed.pause(),
        request: None,
        decided_told: None,
    };
    let others: Vec<&str> = (0..seats)
        .filter(|s| *s != me.index())
        .map(|s| names[s].as_str())
        .collect();
    let bots_text = match others.iter().all(|n| *n == others[0]) {
        true => others[0].to_string(),
        false => others.join(", "),
    };
    let deals = match seed {
        Some(seed) => format!("seed {seed}"),
        None => format!("committed deals, bots' seed {bots_seed}"),
    };
    say(format!(
        "calltrump: {}, {deals}, bots: {bots_text}.",
        game_title(rules.kind())
    ))?;
    if seed.is_none() {
        say("Each hand's commitment is shown before the cut, its seed\nafter the hand.")?;
    }
    if args.resume.is_some() {
        say(format!(
            "Resuming after {}; scores: {}.",
            match table.deals() - usize::from(matches!(table.turn(), Turn::Seat(_))) {
                1 => "1 hand".to_string(),
                n => format!("{n} hands"),
            },
            seat_names.us_them(table.game().scores())
        ))?;
    }
    say(format!(
        "You are seat {me}. Type help (or ?) at any prompt.\nIn order of play:"
    ))?;
    for s in 0..seats {
        say(format!("  {}", seat_names.full(Seat(s as u8))))?;
    }
    let played = play_with_deals(
        &mut table,
        &mut session,
        &mut seating,
        Dice(bots_seed),
        args.max_deals.map(|n| n as usize),
        &mut |table| save::save_game(&record_path, table, me),
    );
    // A game stopped at the deal limit is over, a draw, and its record says so.
    if matches!(&played, Ok(ended) if ended.stop == Stop::DealLimit) {
        table
            .end_as_draw()
            .map_err(|e| anyhow!("ending the game at the deal limit: {e}"))?;
    }
    // The record is saved whatever stopped the game, a closed terminal included; of a
    // hand stopped midway, the cards and seed go to the companion, sealed.
    save::save_game(&record_path, &table, me)?;
    let ended = played?;
    let scores = table.game().scores();
    let mut code = ExitCode::SUCCESS;
    match (ended.stop, table.game().outcome()) {
        (Stop::GameOver, Some(outcome)) => {
            say(format!(
                "\nGame over. {}",
                screen::game_closed(&seat_names, outcome, scores)
            ))?;
            // Commands to copy: on lines of their own, never wrapped.
            say("Look back over it, every decision judged, or trick by trick:")?;
            let program = crate::program();
            let path = record_path.display();
            writeln!(
                io::stdout().lock(),
                "  {program} analyze {path} --html review.html\n  {program} replay --show {path}"
            )?;
        }
        (Stop::DealLimit, _) => {
            let deals = table.deals();
            say(format!(
                "\nGame over at the deal limit ({deals} deal{}): a draw.\nScore: {}.",
                if deals == 1 { "" } else { "s" },
                seat_names.us_them(scores)
            ))?
        }
        _ => {
            let why = match ended.by {
                Some(Request::End) => {
                    code = ExitCode::FAILURE;
                    "The input ended before the game did: game stopped."
                }
                Some(Request::Interrupted) => {
                    code = ExitCode::from(130);
                    "Interrupted: game stopped."
                }
                _ => "Game stopped.",
            };
            say(format!("\n{why}"))?;
            // A command to copy: on a line of its own, never wrapped.
            say("Go on with:")?;
            writeln!(
                io::stdout().lock(),
                "  {resume_command} {}",
                record_path.display()
            )?;
        }
    }
    say(format!("Record saved to {}", record_path.display()))?;
    Ok(code)
}
