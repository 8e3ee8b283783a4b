//! The table: a game, its full log, and the record it projects to.

use calltrump_engine::fair_deal::{self, CutSide, DealSource, FairDeal, Seed};
use calltrump_engine::{
    Action, AnyGame, CardBag, Game, GameRng, GameRules, Outcome, Phase, PlayError, Record,
    RecordError, Seat, SeenAction, Turn, View, Viewer,
};
use serde::{Deserialize, Serialize};

use crate::client::{face_down, DealCheck, SeenEvent, Snapshot, Update};
use crate::log::{Entry, Event};

/// How a table is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The game, variant and options.
    pub rules: GameRules,
    /// The dealer of the first hand.
    pub first_dealer: Seat,
    /// Which seats people sit at (the others are bots): undo needs to know.
    pub humans: Vec<bool>,
    /// Whether a person may take back an action (games against bots).
    pub undo: bool,
    /// Committed deals (docs/fair-deals.md) under this table id: every hand's seed is
    /// committed to before the cut and revealed after the hand. Without it, deals come
    /// from the table's seeded generator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub committed: Option<String>,
    /// Committed deals: the side of the dealer whose player cuts, when not the rules'
    /// (the record's `cut` option says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_side: Option<CutSide>,
}

impl Settings {
    /// Bots at every seat but `people`'s, who may take back their actions; deals from
    /// the table's generator.
    pub fn new(rules: GameRules, first_dealer: Seat, people: &[Seat]) -> Settings {
        let seats = AnyGame::new(&rules, first_dealer).seats();
        Settings {
            rules,
            first_dealer,
            humans: (0..seats)
                .map(|s| people.contains(&Seat(s as u8)))
                .collect(),
            undo: !people.is_empty(),
            committed: None,
            cut_side: None,
        }
    }

    /// The side whose player cuts committed deals.
    fn cut_side(&self) -> CutSide {
        self.cut_side
            .unwrap_or_else(|| CutSide::default_for(&self.rules))
    }
}

/// An action or deal the table refused; the table is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The seat is not at this table.
    #[error("there is no seat {seat} at this table of {seats}")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        seats: usize,
    },
    /// Another seat is to act.
    #[error("seat {seat} may not act: it is seat {to_act}'s turn")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
        /// The seat whose turn it is.
        to_act: Seat,
    },
    /// No seat is to act: a deal is due or the game is over.
    #[error("seat {seat} may not act: {why}")]
    NoOneToAct {
        /// The seat that tried.
        seat: Seat,
        /// "the next hand has not been dealt" or "the game is over".
        why: &'static str,
    },
    /// The action breaks a rule.
    #[error("{0}")]
    Illegal(#[from] PlayError),
    /// A deal was asked for when none is due.
    #[error("no deal is due now")]
    NoDealDue,
    /// A log or record that does not replay.
    #[error("the log does not replay: {0}")]
    BadLog(String),
    /// Committed deals: the deal waits for a commitment, or for the cut.
    #[error("{0}")]
    Deal(String),
}

/// Why an undo was refused; the table is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// The table was created without undo.
    #[error("this table does not allow undo")]
    NotAllowed,
    /// Undo is for people's seats.
    #[error("seat {0} is not a person's seat")]
    NotHuman(Seat),
    /// The seat has not acted in this hand.
    #[error("seat {0} has nothing to undo in this hand")]
    Nothing(Seat),
    /// The hand is over: its result stands.
    #[error("the hand is over")]
    HandOver,
    /// Another person acted since.
    #[error("seat {0}, a person, has acted since")]
    OtherPersonActed(Seat),
    /// A person of the other team saw a card played since.
    #[error("the other team saw a card played since")]
    CardSeen,
}

/// One game at a table: the game, its log and its record.
#[derive(Clone, Debug)]
pub struct Table {
    settings: Settings,
    game: AnyGame,
    record: Record,
    deal_rng: GameRng,
    log: Vec<Entry>,
    /// The current hand's actions with their seats.
    hand_actions: Vec<(Seat, Action)>,
    /// Committed deals: the next hand's seed, drawn and committed to, not yet cut.
    next_seed: Option<Seed>,
    /// Committed deals: the current hand's seed, revealed when the hand ends.
    hand_seed: Option<Seed>,
    /// Committed deals: what everyone knows of the latest hand's deal.
    deal_check: Option<DealCheck>,
    /// The game was stopped between hands with this outcome ([`Table::end_as_draw`]).
    stopped: Option<Outcome>,
}

impl Table {
    /// A new table, before the first deal; deals are drawn from `deal_rng`.
    pub fn new(settings: Settings, deal_rng: GameRng) -> Table {
        let game = AnyGame::new(&settings.rules, settings.first_dealer);
        let mut record = Record::new(&settings.rules, settings.first_dealer);
        if let Some(table) = &settings.committed {
            record.deal_source = Some(DealSource::Committed {
                table: table.clone(),
            });
            let side = settings.cut_side();
            if side != CutSide::default_for(&settings.rules) {
                record
                    .options
                    .insert(CutSide::OPTION.into(), side.name().into());
            }
        }
        Table {
            settings,
            game,
            record,
            deal_rng,
            log: Vec::new(),
            hand_actions: Vec::new(),
            next_seed: None,
            hand_seed: None,
            deal_check: None,
            stopped: None,
        }
    }

    /// The same table, its record saying where the deals come from (a seeded generator).
    pub fn with_deal_source(mut self, source: DealSource) -> Table {
        self.record.deal_source = Some(source);
        self
    }

    /// Goes on with the game `record` holds, as the record leaves it (a saved game of the
    /// terminal); the log starts empty, and committed deals go on under `settings`.
    pub fn resume(
        settings: Settings,
        record: Record,
        deal_rng: GameRng,
    ) -> Result<Table, TableError> {
        let (_, game) = record
            .replay()
            .map_err(|e| TableError::BadLog(e.to_string()))?;
        let mut table = Table::new(settings, deal_rng);
        // The current hand's actions with their seats: the seats from what any seat saw,
        // the actions from the record.
        let seats = game
            .observation(Seat(0))
            .actions
            .into_iter()
            .map(|(seat, _)| seat);
        let texts = record
            .hands
            .last()
            .map_or(&[][..], |hand| &hand.actions[..]);
        for (seat, text) in seats.zip(texts) {
            let action: Action = text
                .parse()
                .map_err(|e| TableError::BadLog(format!("\"{text}\": {e}")))?;
            table.hand_actions.push((seat, action));
        }
        table.game = game;
        table.record = record;
        Ok(table)
    }

    /// Rebuilds a table from its settings, its first deal generator and its log, as the
    /// table was after the log's last entry.
    pub fn restore(
        settings: Settings,
        deal_rng: GameRng,
        log: &[Entry],
    ) -> Result<Table, TableError> {
        let mut table = Table::new(settings, deal_rng);
        for (i, entry) in log.iter().enumerate() {
            let expected = i as u64 + 1;
            if entry.version != expected {
                return Err(TableError::BadLog(format!(
                    "entry {i} has version {}, not {expected}",
                    entry.version
                )));
            }
            match &entry.event {
                Event::Dealt { hands, rng, .. } => {
                    table
                        .game
                        .deal(hands)
                        .map_err(|e| TableError::BadLog(format!("version {expected}: {e}")))?;
                    table.deal_rng = rng.clone();
                    table.push_deal(hands);
                    table.hand_actions.clear();
                }
                Event::Committed {
                    seed,
                    commitment,
                    cutter,
                } => {
                    let seed: Seed = seed
                        .parse()
                        .map_err(|e| TableError::BadLog(format!("version {expected}: {e}")))?;
                    table.next_seed = Some(seed);
                    table.deal_check = Some(DealCheck {
                        commitment: commitment.clone(),
                        cutter: *cutter,
                        cut: None,
                        seed: None,
                    });
                }
                Event::Cut { cut, .. } => {
                    table.hand_seed = table.next_seed.take();
                    if let Some(check) = &mut table.deal_check {
                        check.cut = Some(*cut);
                    }
                }
                Event::Revealed { .. } => {
                    table.reveal();
                }
                Event::Acted { seat, action } => {
                    table.check_turn(*seat)?;
                    table.game.apply(*action)?;
                    table.record.push_action(*action);
                    table.hand_actions.push((*seat, *action));
                }
                Event::Undone { actions, .. } => table.take_back(*actions)?,
                // A game that ended between hands was stopped there.
                Event::GameEnded { outcome, .. } if table.game.turn() == Turn::Chance => {
                    table.stopped = Some(*outcome);
                    table.record.result = Some(*outcome);
                }
                Event::HandEnded { .. } | Event::GameEnded { .. } => {}
            }
            table.log.push(entry.clone());
        }
        Ok(table)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game as it stands.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.game.seats()
    }

    /// Who moves next: [`Turn::Over`] once the game is over, or stopped between hands.
    pub fn turn(&self) -> Turn {
        match self.stopped {
            Some(_) => Turn::Over,
            None => self.game.turn(),
        }
    }

    /// How the game ended: the game's own outcome, or the one it was stopped with.
    pub fn outcome(&self) -> Option<Outcome> {
        self.stopped.or_else(|| self.game.outcome())
    }

    /// What `recipient` sees of the game now: the game's view, that of a finished game
    /// once the table stopped it between hands.
    pub fn view(&self, recipient: Viewer) -> View {
        let mut view = self.game.view(recipient);
        if let Some(outcome) = self.stopped {
            view.phase = Phase::GameOver;
            view.turn = Turn::Over;
            view.outcome = Some(outcome);
            view.legal.clear();
        }
        view
    }

    /// Ends the game between hands as a draw, as the deal limit does (`calltrump play
    /// --max-deals`): the game's end is logged, and nothing more is dealt. The record
    /// stops after the last hand played, its `result` a draw.
    pub fn end_as_draw(&mut self) -> Result<Vec<Entry>, TableError> {
        if self.turn() != Turn::Chance {
            return Err(TableError::NoDealDue);
        }
        if self.next_seed.is_some() {
            return Err(TableError::Deal(
                "the next hand is committed already: it is dealt first".into(),
            ));
        }
        self.stopped = Some(Outcome::Draw);
        self.record.result = Some(Outcome::Draw);
        Ok(vec![self.log_event(Event::GameEnded {
            outcome: Outcome::Draw,
            scores: self.game.scores(),
        })])
    }

    /// The version: how many events the log holds.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// The full log. Server side only: it holds every card.
    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    /// The game record: the log's projection (undone actions left out).
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record as every player may see it now: finished hands in full; of the hand
    /// in play, no deal, and its actions as a spectator saw them: cards passed face
    /// down (a loner's partner's `give`, the loner's `discard`) written `??`, as the
    /// notation writes an action not seen (`give ?? ??`). Such a record does not replay
    /// until its hand is over.
    pub fn public_record(&self) -> Record {
        let mut record = self.record.clone();
        let hand_open = !matches!(self.game.turn(), Turn::Chance | Turn::Over);
        if hand_open {
            if let Some(hand) = record.hands.last_mut() {
                for cards in &mut hand.deal {
                    cards.clear();
                }
                for (text, (_, action)) in hand.actions.iter_mut().zip(&self.hand_actions) {
                    *text = face_down(*action).to_string();
                }
            }
        }
        record
    }

    /// The whole record of a table its host ended: every hand as dealt, and the seed of
    /// a hand left unfinished revealed, so that the record verifies.
    pub fn ended_record(&self) -> Record {
        let mut record = self.record.clone();
        let unfinished = record
            .hands
            .last_mut()
            .and_then(|hand| hand.fair_deal.as_mut());
        if let (Some(seed), Some(block)) = (&self.hand_seed, unfinished) {
            block.reveal(seed);
        }
        record
    }

    /// Hands dealt so far.
    pub fn deals(&self) -> usize {
        self.record.hands.len()
    }

    /// The deal generator: its state goes with a saved table.
    pub fn deal_rng(&self) -> &GameRng {
        &self.deal_rng
    }

    /// Deals the next hand from the table's generator.
    pub fn deal(&mut self) -> Result<Vec<Entry>, TableError> {
        if self.turn() != Turn::Chance {
            return Err(TableError::NoDealDue);
        }
        if self.settings.committed.is_some() {
            return Err(TableError::Deal(
                "this table deals committed hands: a seed is committed, then the deck is cut"
                    .into(),
            ));
        }
        self.game.deal_random(&mut self.deal_rng);
        let hands: Vec<CardBag> = (0..self.seats())
            .map(|s| self.game.observation(Seat(s as u8)).dealt)
            .collect();
        self.push_deal(&hands);
        self.hand_actions.clear();
        let dealer = self.game.hand_summary().dealer;
        Ok(vec![self.log_event(Event::Dealt {
            dealer,
            hands,
            rng: self.deal_rng.clone(),
        })])
    }

    /// The dealer of the next hand, while a deal is due.
    pub fn next_dealer(&self) -> Seat {
        self.settings
            .first_dealer
            .after(self.record.hands.len(), self.seats())
    }

    /// Committed deals: the seat that must cut now, if a commitment waits for the cut.
    pub fn cutter(&self) -> Option<Seat> {
        self.next_seed
            .as_ref()
            .and(self.deal_check.as_ref())
            .map(|check| check.cutter)
    }

    /// Committed deals: what everyone knows of the latest hand's deal (its commitment,
    /// who cuts, the cut, and the seed once revealed).
    pub fn deal_check(&self) -> Option<&DealCheck> {
        self.deal_check.as_ref()
    }

    /// Committed deals: commits to `seed` for the next hand, before the cut. Draw the
    /// seed from the operating system's secure generator.
    pub fn commit(&mut self, seed: Seed) -> Result<Vec<Entry>, TableError> {
        let Some(table_id) = self.settings.committed.clone() else {
            return Err(TableError::Deal(
                "this table deals from its seeded generator".into(),
            ));
        };
        if self.turn() != Turn::Chance {
            return Err(TableError::NoDealDue);
        }
        if self.next_seed.is_some() {
            return Err(TableError::Deal(
                "the next hand is committed already".into(),
            ));
        }
        let hand = self.record.hands.len() as u64;
        let commitment = fair_deal::commit(&seed, &table_id, hand).to_string();
        let side = self.settings.cut_side();
        let cutter = fair_deal::cutting_seat(&self.settings.rules, side, self.next_dealer());
        self.next_seed = Some(seed);
        self.deal_check = Some(DealCheck {
            commitment: commitment.clone(),
            cutter,
            cut: None,
            seed: None,
        });
        Ok(vec![self.log_event(Event::Committed {
            seed: seed.to_hex(),
            commitment,
            cutter,
        })])
    }

    /// Committed deals: `seat` cuts `cut` cards from the top of the shuffled deck, and
    /// the hand is dealt.
    pub fn cut(&mut self, seat: Seat, cut: u64) -> Result<Vec<Entry>, TableError> {
        let Some(cutter) = self.cutter() else {
            return Err(TableError::Deal("no deck waits for a cut".into()));
        };
        if seat != cutter {
            return Err(TableError::Deal(format!(
                "seat {seat} may not cut: seat {cutter} cuts"
            )));
        }
        let seed = self.next_seed.expect("a cutter means a committed seed");
        let dealer = self.next_dealer();
        let hands = fair_deal::deal(&self.settings.rules, dealer, &seed, cut)
            .map_err(|e| TableError::Deal(e.to_string()))?;
        self.game
            .deal(&hands)
            .map_err(|e| TableError::Deal(e.to_string()))?;
        self.next_seed = None;
        self.hand_seed = Some(seed);
        if let Some(check) = &mut self.deal_check {
            check.cut = Some(cut);
        }
        self.push_deal(&hands);
        self.hand_actions.clear();
        let cut_entry = self.log_event(Event::Cut { seat, cut });
        let dealt = self.log_event(Event::Dealt {
            dealer,
            hands,
            rng: self.deal_rng.clone(),
        });
        Ok(vec![cut_entry, dealt])
    }

    /// Adds a deal to the record, with its fair-deal block on a committed hand.
    fn push_deal(&mut self, hands: &[CardBag]) {
        match (&self.hand_seed, &self.deal_check) {
            (Some(_), Some(check)) => self.record.push_fair_deal(
                hands,
                FairDeal {
                    commitment: check.commitment.clone(),
                    cut: check.cut,
                    seed: None,
                },
            ),
            _ => self.record.push_deal(hands),
        }
    }

    /// Reveals the seed of a hand left unfinished (a terminal game saved mid-hand, whose
    /// record holds the deal anyway), so that the record checks out whenever it ends.
    /// `None` if no seed is held.
    pub fn reveal_unfinished(&mut self) -> Option<String> {
        self.reveal()
    }

    /// Reveals the current hand's seed in the record, once the hand is over.
    fn reveal(&mut self) -> Option<String> {
        let seed = self.hand_seed.take()?;
        if let Some(block) = self
            .record
            .hands
            .last_mut()
            .and_then(|hand| hand.fair_deal.as_mut())
        {
            block.reveal(&seed);
        }
        if let Some(check) = &mut self.deal_check {
            check.seed = Some(seed.to_hex());
        }
        Some(seed.to_hex())
    }

    /// Applies `action` from `seat` if it is that seat's turn and the action is legal;
    /// returns the events it caused. Otherwise returns why not and changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Entry>, TableError> {
        self.check_turn(seat)?;
        self.game.apply(action)?;
        self.record.push_action(action);
        self.hand_actions.push((seat, action));
        let mut entries = vec![self.log_event(Event::Acted { seat, action })];
        if matches!(self.game.turn(), Turn::Chance | Turn::Over) {
            entries.push(self.log_event(Event::HandEnded {
                summary: self.game.hand_summary(),
                scores: self.game.scores(),
            }));
            if let Some(seed) = self.reveal() {
                entries.push(self.log_event(Event::Revealed { seed }));
            }
        }
        if let Some(outcome) = self.game.outcome() {
            entries.push(self.log_event(Event::GameEnded {
                outcome,
                scores: self.game.scores(),
            }));
        }
        Ok(entries)
    }

    /// Takes back `seat`'s last action of this hand and the bot actions after it.
    pub fn undo(&mut self, seat: Seat) -> Result<Vec<Entry>, UndoError> {
        if !self.settings.undo {
            return Err(UndoError::NotAllowed);
        }
        if !self.is_human(seat) {
            return Err(UndoError::NotHuman(seat));
        }
        if matches!(self.game.turn(), Turn::Chance | Turn::Over) {
            return Err(UndoError::HandOver);
        }
        let from = self
            .hand_actions
            .iter()
            .rposition(|(s, _)| *s == seat)
            .ok_or(UndoError::Nothing(seat))?;
        let since = &self.hand_actions[from..];
        if let Some((other, _)) = since[1..].iter().find(|(s, _)| self.is_human(*s)) {
            return Err(UndoError::OtherPersonActed(*other));
        }
        let opponents_watch = (0..self.seats())
            .map(|s| Seat(s as u8))
            .any(|s| s.team() != seat.team() && self.is_human(s));
        if opponents_watch && since.iter().any(|(_, a)| matches!(a, Action::Play(_))) {
            return Err(UndoError::CardSeen);
        }
        let actions = self.hand_actions.len() - from;
        self.take_back(actions)
            .expect("a prefix of a hand that was played replays");
        Ok(vec![self.log_event(Event::Undone { seat, actions })])
    }

    /// The update `recipient` receives for `entries`, the events of the latest step: the
    /// one choke point between the full log and anything sent.
    pub fn update_for(&self, entries: &[Entry], recipient: Viewer) -> Update {
        Update {
            version: self.version(),
            events: entries
                .iter()
                .map(|entry| SeenEvent::of(entry, &self.game, recipient))
                .collect(),
            view: self.view(recipient),
        }
    }

    /// What `recipient` draws on joining or reconnecting now.
    pub fn snapshot(&self, recipient: Viewer) -> Snapshot {
        let observation = self.game.observation(recipient.seat().unwrap_or(Seat(0)));
        let actions = observation
            .actions
            .iter()
            .copied()
            .map(|(seat, seen)| match (recipient, seen) {
                (Viewer::Spectator, SeenAction::Open(action)) => (seat, face_down(action)),
                _ => (seat, seen),
            })
            .collect();
        let dealt = recipient
            .seat()
            .filter(|_| self.deals() > 0)
            .map(|_| observation.dealt);
        Snapshot {
            version: self.version(),
            view: self.view(recipient),
            actions,
            dealt,
            deal_check: self.deal_check().cloned(),
        }
    }

    /// The snapshot at an earlier `version`, rebuilt from the log.
    pub fn snapshot_at(
        &self,
        initial_rng: GameRng,
        version: u64,
        recipient: Viewer,
    ) -> Result<Snapshot, TableError> {
        let upto = (version as usize).min(self.log.len());
        let past = Table::restore(self.settings.clone(), initial_rng, &self.log[..upto])?;
        Ok(past.snapshot(recipient))
    }

    /// The current hand's actions with their seats (undone ones left out).
    pub fn hand_actions(&self) -> &[(Seat, Action)] {
        &self.hand_actions
    }

    fn is_human(&self, seat: Seat) -> bool {
        self.settings
            .humans
            .get(seat.index())
            .copied()
            .unwrap_or(false)
    }

    fn check_turn(&self, seat: Seat) -> Result<(), TableError> {
        if seat.index() >= self.seats() {
            return Err(TableError::NoSuchSeat {
                seat,
                seats: self.seats(),
            });
        }
        match self.turn() {
            Turn::Seat(to_act) if to_act == seat => Ok(()),
            Turn::Seat(to_act) => Err(TableError::NotYourTurn { seat, to_act }),
            Turn::Chance => Err(TableError::NoOneToAct {
                seat,
                why: "the next hand has not been dealt",
            }),
            Turn::Over => Err(TableError::NoOneToAct {
                seat,
                why: "the game is over",
            }),
        }
    }

    /// Removes the current hand's last `actions` actions by replaying the rest.
    fn take_back(&mut self, actions: usize) -> Result<(), TableError> {
        let keep = self
            .hand_actions
            .len()
            .checked_sub(actions)
            .ok_or_else(|| TableError::BadLog(format!("cannot take back {actions} actions")))?;
        let mut record = self.record.clone();
        let hand = record
            .hands
            .last_mut()
            .ok_or_else(|| TableError::BadLog("nothing dealt to take back".into()))?;
        hand.actions.truncate(keep);
        let (_, game) = record
            .replay()
            .map_err(|e: RecordError| TableError::BadLog(e.to_string()))?;
        self.game = game;
        self.record = record;
        self.hand_actions.truncate(keep);
        Ok(())
    }

    fn log_event(&mut self, event: Event) -> Entry {
        let entry = Entry {
            version: self.version() + 1,
            event,
        };
        self.log.push(entry.clone());
        entry
    }
}
