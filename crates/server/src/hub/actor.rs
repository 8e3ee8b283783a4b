//! A table's task: the asynchronous shell of its [`Session`]. It owns the mailbox, the
//! connections' outboxes, the timers and the blocking tasks (bots, hints), and carries
//! out the session's effects in order: every persist is committed before anything
//! after it is sent, so that nobody hears of what the store has not kept.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use calltrump_engine::{Action, AnyGame, Game, Record, Seat, Viewer};
use calltrump_table::{Budget, Player, Request};
use tokio::sync::{mpsc, oneshot};
use tokio::task::AbortHandle;

use super::Shared;
use crate::model::{random_bytes, SignedIn, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ServerMessage};
use crate::rating::RatedGame;
use crate::session::{
    Effect, HintJob, Input, Invitation, InviteRefused, Outside, Persist, Session, TableSummary,
    Timer, TimerKey,
};
use crate::store::StoreError;

/// Longest time a bot may think over one decision.
const BOT_BUDGET: Duration = Duration::from_secs(5);

pub use crate::outbox::Outbox;

/// A table's connections by number, as its supervisor reaches them.
pub(super) type Listeners = Arc<Mutex<HashMap<u64, Outbox>>>;

/// What a table's task is asked to do.
pub enum Command {
    /// A client connected: `hello` is its first message.
    Connect {
        /// The connection's number.
        conn: u64,
        /// Its first message.
        hello: ClientMessage,
        /// Where its messages go.
        outbox: Outbox,
        /// The address the client reached (`http://HOST`), for the links sent to it.
        base: String,
        /// The account it came signed in with, if any.
        account: Option<SignedIn>,
    },
    /// The game record as every player may see it now.
    Record {
        /// Where the record goes.
        reply: oneshot::Sender<Record>,
    },
    /// The host invites an account to a seat: answered once the seat is kept (or why
    /// not).
    Invite {
        /// The invitation.
        invitation: Invitation,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<(), InviteRefused>>,
    },
    /// A player leaves or declines a seat, or the host closes the table, from outside it:
    /// answered once it is kept (or why not).
    Outside {
        /// What is asked.
        request: Outside,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<(), InviteRefused>>,
    },
    /// The server is shutting down.
    Shutdown {
        /// Answered once the table has closed its connections.
        done: oneshot::Sender<()>,
    },
    /// This node lost the table's lease (another node runs it now): its connections are
    /// told to come again, and the task stops without writing anything more.
    Lost,
    /// Anything else the session handles: a client's message or departure, the host's
    /// start from a night, a timer firing, a bot's or a hint's answer.
    Input(Input),
}

/// One table's task.
pub(super) struct TableActor {
    session: Session,
    shared: Arc<Shared>,
    /// Every connection's outbox, shared with the table's supervisor: if the task
    /// panics, its connections are told all the same.
    pub(super) listeners: Listeners,
    /// Raised when the table's task ends: a bot still thinking stops.
    pub(super) stop: Arc<AtomicBool>,
    timers: HashMap<TimerKey, AbortHandle>,
    mailbox: Option<mpsc::UnboundedSender<Command>>,
}

impl TableActor {
    pub(super) fn new(shared: &Arc<Shared>, session: Session) -> TableActor {
        TableActor {
            session,
            shared: Arc::clone(shared),
            listeners: Listeners::default(),
            stop: Arc::default(),
            timers: HashMap::new(),
            mailbox: None,
        }
    }

    pub(super) fn id(&self) -> &str {
        self.session.id()
    }

    pub(super) fn summary(&self) -> TableSummary {
        self.session.summary(Instant::now())
    }

    pub(super) async fn run(
        mut self,
        mut inbox: mpsc::UnboundedReceiver<Command>,
        mailbox: mpsc::UnboundedSender<Command>,
    ) {
        self.mailbox = Some(mailbox);
        let mut running = self.apply(Input::Resume).await;
        while running {
            let Some(command) = inbox.recv().await else {
                break;
            };
            running = match command {
                Command::Shutdown { done } => {
                    self.apply(Input::Shutdown).await;
                    // The lease let go at once: another node takes the table over now,
                    // not once it lapses.
                    let id = self.session.id().to_string();
                    release(&self.shared, &id).await;
                    let _ = done.send(());
                    false
                }
                Command::Lost => {
                    self.lose();
                    false
                }
                Command::Record { reply } => {
                    let _ = reply.send(self.session.record());
                    true
                }
                Command::Invite { invitation, reply } => self.invite(invitation, reply).await,
                Command::Outside { request, reply } => self.outside(request, reply).await,
                Command::Connect {
                    conn,
                    hello,
                    outbox,
                    base,
                    account,
                } => {
                    self.listeners
                        .lock()
                        .expect("never poisoned")
                        .insert(conn, outbox);
                    self.shared
                        .metrics
                        .connections
                        .fetch_add(1, Ordering::Relaxed);
                    self.apply(Input::Connect {
                        conn,
                        hello,
                        base,
                        account,
                    })
                    .await
                }
                Command::Input(input) => self.apply(input).await,
            };
            self.publish_summary();
        }
        self.stop.store(true, Ordering::Relaxed);
        for (_, timer) in self.timers.drain() {
            timer.abort();
        }
        let id = self.session.id().to_string();
        release(&self.shared, &id).await;
        self.shared
            .tables
            .lock()
            .expect("the table map is never poisoned")
            .remove(self.session.id());
        let mut unsaved = self.shared.unsaved.lock().expect("never poisoned");
        unsaved.remove(self.session.id());
        self.shared
            .metrics
            .tables_paused
            .store(unsaved.len() as u64, Ordering::Relaxed);
        drop(unsaved);
        self.shared.metrics.tables.fetch_sub(1, Ordering::Relaxed);
        // Whoever reached the mailbox as the task ended: told, so that they come again
        // to a table that only left memory, and not to one that ended.
        inbox.close();
        let kind = if self.session.status() == TableStatus::Ended {
            CloseKind::TableGone
        } else {
            CloseKind::Retry
        };
        while let Ok(command) = inbox.try_recv() {
            match command {
                Command::Connect { outbox, .. } => {
                    let _ = outbox.send(ServerMessage::closing(kind, "the table has closed"));
                }
                Command::Shutdown { done } => {
                    let _ = done.send(());
                }
                _ => {}
            }
        }
    }

    /// Keeps `invitation` (through the session, as any input) and answers: refused, or
    /// kept; a seat the store did not keep is refused as such.
    async fn invite(
        &mut self,
        invitation: Invitation,
        reply: oneshot::Sender<Result<(), InviteRefused>>,
    ) -> bool {
        if let Some(refused) = self.session.invite_refusal(&invitation) {
            let _ = reply.send(Err(refused));
            return true;
        }
        let (seat, account) = (invitation.seat, invitation.invitee.id.clone());
        let running = self.apply(Input::Invite(invitation)).await;
        let kept = self.session.seats()[seat.index()].account.as_deref() == Some(&account);
        let _ = reply.send(if kept {
            Ok(())
        } else {
            Err(InviteRefused::Seat(
                "the table could not save the invitation: try again".into(),
            ))
        });
        running
    }

    /// Carries out `request` (through the session, as any input) and answers: refused, or
    /// kept; one the store did not keep is refused as such.
    async fn outside(
        &mut self,
        request: Outside,
        reply: oneshot::Sender<Result<(), InviteRefused>>,
    ) -> bool {
        if let Some(refused) = self.session.outside_refusal(&request) {
            let _ = reply.send(Err(refused));
            return true;
        }
        let leaver = match &request {
            Outside::Leave { account } => Some(account.clone()),
            Outside::Close { .. } => None,
        };
        let running = self.apply(Input::Outside(request)).await;
        let kept = match leaver {
            Some(account) => !self
                .session
                .seats()
                .iter()
                .any(|s| s.account.as_deref() == Some(account.as_str())),
            None => !self.session.status().is_live(),
        };
        let _ = reply.send(if kept {
            Ok(())
        } else {
            Err(InviteRefused::Seat(
                "the table could not save it: try again".into(),
            ))
        });
        running
    }

    /// Hands `input` to the session and carries out its effects in order; a persist
    /// that fails stops the rest, and the session is told. Whether the table runs on.
    async fn apply(&mut self, input: Input) -> bool {
        let started = Instant::now();
        let mut effects = self.session.handle(input, started);
        let mut running = true;
        loop {
            let mut failed = None;
            let mut stepped = false;
            let mut kept = 0;
            for effect in effects {
                match effect {
                    Effect::Persist(persist) => {
                        match persist_one(&self.shared, self.session.id(), persist).await {
                            Ok(step) => {
                                stepped |= step;
                                kept += 1;
                            }
                            Err(StoreError::LeaseLost { .. }) => {
                                // Fenced: another node runs the table. Nothing after this
                                // write is told; this node lets the table go.
                                self.shared
                                    .metrics
                                    .leases_lost
                                    .fetch_add(1, Ordering::Relaxed);
                                self.lose();
                                return false;
                            }
                            Err(error) => {
                                failed = Some(error);
                                break;
                            }
                        }
                    }
                    Effect::Send { conn, message } => self.send(conn, message),
                    Effect::Close { conn, closing } => self.close(conn, closing),
                    Effect::StartTimer { timer, after } => self.start_timer(timer, after),
                    Effect::CancelTimer(key) => {
                        if let Some(timer) = self.timers.remove(&key) {
                            timer.abort();
                        }
                    }
                    Effect::AskBot {
                        seat,
                        version,
                        player,
                        game,
                        after,
                        fallback,
                    } => self.ask_bot(seat, version, player, *game, after, fallback),
                    Effect::ComputeHint(job) => self.compute_hint(*job),
                    Effect::Stop => running = false,
                }
            }
            if stepped {
                self.shared.metrics.actions.fetch_add(1, Ordering::Relaxed);
                self.shared.metrics.observe_latency(started.elapsed());
            }
            let Some(error) = failed else {
                return running;
            };
            let error = error.to_string();
            effects = self
                .session
                .handle(Input::NotSaved { error, kept }, Instant::now());
        }
    }

    /// Tells every connection that the table moved to another node (they come again,
    /// through any node, to the one that runs it now), and drops them.
    fn lose(&self) {
        tracing::warn!(table = %self.session.id(), "this node lost the table's lease: another node runs it");
        let outboxes: Vec<Outbox> = self
            .listeners
            .lock()
            .expect("never poisoned")
            .drain()
            .map(|(_, outbox)| outbox)
            .collect();
        self.shared
            .metrics
            .connections
            .fetch_sub(outboxes.len() as u64, Ordering::Relaxed);
        let closing = ServerMessage::closing(
            CloseKind::Retry,
            "the table moved to another server node; reconnect",
        );
        for outbox in outboxes {
            let _ = outbox.send(closing.clone());
        }
    }

    fn send(&self, conn: u64, message: ServerMessage) {
        if let Some(outbox) = self.listeners.lock().expect("never poisoned").get(&conn) {
            let _ = outbox.send(message);
        }
    }

    fn close(&self, conn: u64, closing: Option<ServerMessage>) {
        let outbox = self.listeners.lock().expect("never poisoned").remove(&conn);
        if let Some(outbox) = outbox {
            self.shared
                .metrics
                .connections
                .fetch_sub(1, Ordering::Relaxed);
            if let Some(closing) = closing {
                let _ = outbox.send(closing);
            }
        }
    }

    fn start_timer(&mut self, timer: Timer, after: Duration) {
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        let task = tokio::spawn(async move {
            tokio::time::sleep(after).await;
            let entropy = random_bytes();
            let _ = mailbox.send(Command::Input(Input::Timer { timer, entropy }));
        });
        if let Some(old) = self.timers.insert(timer.key(), task.abort_handle()) {
            old.abort();
        }
    }

    fn ask_bot(
        &self,
        seat: Seat,
        version: u64,
        player: Box<dyn Player>,
        game: AnyGame,
        after: Duration,
        fallback: bool,
    ) {
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        let stop = Arc::clone(&self.stop);
        tokio::spawn(async move {
            if !after.is_zero() {
                tokio::time::sleep(after).await;
            }
            let budget = Budget::within(BOT_BUDGET).stopped_by(stop);
            let answer =
                tokio::task::spawn_blocking(move || decide(player, &game, seat, &budget)).await;
            // A bot whose thread panicked is answered as one that failed.
            let (action, player) = match answer {
                Ok((action, player)) => (action, Some(player)),
                Err(_) => (None, None),
            };
            let _ = mailbox.send(Command::Input(Input::BotAnswer {
                version,
                seat,
                action,
                player,
                fallback,
            }));
        });
    }

    fn compute_hint(&self, job: HintJob) {
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        let slots = Arc::clone(&self.shared.hint_slots);
        let (seat, version) = (job.seat, job.version);
        tokio::spawn(async move {
            // The semaphore is never closed; a hint's thread that panics is answered
            // all the same, so that nobody waits for it for ever.
            let message = match slots.acquire_owned().await {
                Ok(_slot) => tokio::task::spawn_blocking(move || job.work()).await.ok(),
                Err(_) => None,
            };
            let _ = mailbox.send(Command::Input(Input::HintReady {
                seat,
                version,
                message: message.map(Box::new),
            }));
        });
    }

    fn publish_summary(&self) {
        let summary = self.summary();
        let mut tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        if let Some(entry) = tables.get_mut(self.session.id()) {
            entry.1 = summary;
        }
    }
}

/// Keeps `persist` of table `id`; whether it was a step. A write not kept is an error,
/// counted in the metrics, and the table is listed as unable to save (for `/readyz`)
/// until a write of it is kept.
async fn persist_one(shared: &Shared, id: &str, persist: Persist) -> Result<bool, StoreError> {
    let kept = keep(shared, id, persist).await;
    let mut unsaved = shared.unsaved.lock().expect("never poisoned");
    match &kept {
        Ok(_) | Err(StoreError::LeaseLost { .. }) => {
            unsaved.remove(id);
        }
        Err(error) => {
            shared.metrics.store_error(id, &error.to_string());
            unsaved.insert(id.to_string(), error.to_string());
        }
    }
    let paused = unsaved.len() as u64;
    shared
        .metrics
        .tables_paused
        .store(paused, Ordering::Relaxed);
    kept
}

/// Keeps `persist` of table `id`; whether it was a step.
async fn keep(shared: &Shared, id: &str, persist: Persist) -> Result<bool, StoreError> {
    let store = &shared.store;
    match persist {
        Persist::Step {
            entries,
            table,
            rated,
        } => {
            let table = table.as_ref().map(|(status, seats)| (&seats[..], *status));
            store.append(id, &entries, table).await?;
            if let Some(game) = rated {
                rate(shared, &game).await;
            }
            Ok(true)
        }
        Persist::Seats { status, seats } => {
            store.update_table(id, &seats, status).await?;
            Ok(false)
        }
        Persist::Chat { line, place } => {
            store.chat(id, &line, place).await?;
            Ok(false)
        }
    }
}

/// Rates the rated game a kept step ended, before anyone is told of the end. A failure
/// is logged; the game stays over, and the next start rates it (`rate_missed`).
async fn rate(shared: &Shared, game: &RatedGame) {
    let at = super::now_secs();
    if let Err(error) = shared.store.ratings().rate_game(game, at).await {
        tracing::error!(table = %game.table, %error, "the game's ratings could not be saved");
    }
}

/// Lets table `id`'s lease go, if the store has leases (a cluster).
async fn release(shared: &Shared, id: &str) {
    if let Some(cluster) = shared.store.cluster() {
        if let Err(error) = cluster.release(id).await {
            tracing::warn!(table = %id, %error, "the table's lease could not be let go: it lapses");
        }
    }
}

/// A bot's decision at `seat` of `game`, from that seat's observation only.
fn decide(
    mut player: Box<dyn Player>,
    game: &AnyGame,
    seat: Seat,
    budget: &Budget,
) -> (Option<Action>, Box<dyn Player>) {
    let observation = game.observation(seat);
    let view = game.view(Viewer::Seat(seat));
    let legal = game.legal_action_list();
    let request = Request {
        rules: game.rules(),
        observation: &observation,
        view: &view,
        legal: &legal,
        deal: 0,
    };
    let action = player.decide(&request, budget).ok();
    (action, player)
}
