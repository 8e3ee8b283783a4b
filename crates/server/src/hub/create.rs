//! Making a table: its request checked and its row made, then stored (alone, or with
//! its night in one transaction), then run.

use std::net::IpAddr;

use calltrump_engine::fair_deal::CutSide;
use calltrump_engine::{seeded, AnyGame, Game, GameRules, Seat};
use calltrump_table::Settings;

use super::{now_secs, random_hex, Capped, CreatedTable, Hub, HubError, NewTable, SeatRecord};
use crate::model::{Sitter, TableStatus};
use crate::session::{check_clock, check_sitter, player_name};
use crate::store::StoredTable;

/// A table checked and made, not yet stored nor run.
pub(crate) struct PreparedTable<'a> {
    /// Its row.
    pub(crate) stored: StoredTable,
    /// What its host is told.
    pub(crate) created: CreatedTable,
    /// The turn of making an unattended table, held until it is counted, and the
    /// address that asked for it.
    unattended_turn: Option<(tokio::sync::MutexGuard<'a, ()>, Option<IpAddr>)>,
}

impl Hub {
    /// Creates a table for the client address `from`; one whose bots are to play
    /// unattended only while fewer than [`super::HubConfig::max_unattended`] such tables are
    /// live, and fewer than [`super::HubConfig::unattended_share`] asked for from `from`.
    pub async fn create(
        &self,
        request: NewTable,
        from: Option<IpAddr>,
    ) -> Result<CreatedTable, HubError> {
        self.check_live_tables()?;
        let table = self.prepare_table(request, Capped::From(from)).await?;
        self.shared.store.create_table(&table.stored).await?;
        self.start_prepared(table)
    }

    /// Checks a new table's request and makes its row, not stored yet: the caller
    /// stores it (alone, or with its night in one transaction), refused if
    /// [`Capped::From`] an address and the table is to play unattended while the
    /// server, or the address, has all the unattended tables it takes;
    /// then runs it ([`Hub::start_prepared`]). An unattended table asked for from an
    /// address holds the turn of making one until then.
    pub(crate) async fn prepare_table(
        &self,
        request: NewTable,
        capped: Capped,
    ) -> Result<PreparedTable<'_>, HubError> {
        let rules =
            GameRules::from_header(&request.game, request.variant.as_deref(), &request.options)
                .map_err(|e| HubError::BadRequest(e.to_string()))?;
        let seat_count = AnyGame::new(&rules, Seat(0)).seats();
        if let Some(why) = request.rated_refusal() {
            return Err(HubError::BadRequest(why));
        }
        let sitters = request
            .seats
            .unwrap_or_else(|| vec![Sitter::Open; seat_count]);
        if sitters.len() != seat_count {
            return Err(HubError::BadRequest(format!(
                "{} {} has {seat_count} seats, not {}",
                rules.game(),
                rules.variant(),
                sitters.len()
            )));
        }
        for (s, sitter) in sitters.iter().enumerate() {
            check_sitter(sitter).map_err(|e| HubError::BadRequest(format!("seat {s}: {e}")))?;
        }
        let names = request.names.unwrap_or_default();
        if !names.is_empty() && names.len() != seat_count {
            return Err(HubError::BadRequest(format!(
                "names: {} names for {seat_count} seats: give one per seat, in seat order (\"\" for a seat without one)",
                names.len()
            )));
        }
        if let Some(dealer) = request.first_dealer.filter(|d| d.index() >= seat_count) {
            return Err(HubError::BadRequest(format!(
                "first_dealer: there is no seat {dealer} at a table of {seat_count}"
            )));
        }
        if let Some(clock) = &request.turn_clock {
            check_clock(clock).map_err(|e| HubError::BadRequest(format!("turn_clock: {e}")))?;
        }
        if let Some(seat) = request.host_seat {
            if sitters.get(seat.index()) != Some(&Sitter::Open) {
                return Err(HubError::BadRequest(format!(
                    "host_seat: seat {seat} is not an open seat of this table's {seat_count}"
                )));
            }
        }
        // Unattended tables are made one at a time: each is counted before the next
        // is checked against the caps.
        let unattended_turn = match capped {
            Capped::From(from) if request.unattended => {
                let turn = self.shared.unattended.creating.lock().await;
                self.check_unattended(from)?;
                Some((turn, from))
            }
            _ => None,
        };
        let id = random_hex()[..16].to_string();
        let mut deal_rng = match self.shared.config.seed {
            Some(seed) => seeded(seed),
            None => {
                let mut seed = [0u8; 8];
                getrandom::fill(&mut seed).expect("the OS's random source works");
                seeded(u64::from_le_bytes(seed))
            }
        };
        let drawn = Seat(rand::Rng::random_range(&mut deal_rng, 0..seat_count) as u8);
        let first_dealer = request.first_dealer.unwrap_or(drawn);
        let seats: Vec<SeatRecord> = sitters
            .iter()
            .enumerate()
            .map(|(s, sitter)| SeatRecord {
                token: random_hex(),
                name: names.get(s).and_then(|n| player_name(n)),
                sitter: sitter.clone(),
                stand_in: false,
                // A rated night's people, or the signed-in host's own seat, are their
                // accounts' from the start.
                account: request.accounts.get(s).cloned().flatten().or_else(|| {
                    request
                        .host_account
                        .clone()
                        .filter(|_| request.host_seat == Some(Seat(s as u8)))
                }),
                deadline_ms: None,
                former: Vec::new(),
                invited_by: request
                    .accounts
                    .get(s)
                    .cloned()
                    .flatten()
                    .and(request.invited_by.clone()),
            })
            .collect();
        // The `cut` option (read above with the rules) moves who cuts a committed deal.
        let cut_side = CutSide::from_options(&rules, &request.options)
            .map_err(|e| HubError::BadRequest(e.to_string()))?;
        let settings = Settings {
            cut_side: (cut_side != CutSide::default_for(&rules)).then_some(cut_side),
            rules,
            first_dealer,
            humans: seats.iter().map(|s| s.bot_level().is_none()).collect(),
            undo: request.undo,
            // Shared tables deal committed hands; a seeded server deals reproducibly.
            committed: self.shared.config.seed.is_none().then(|| id.clone()),
        };
        let stored = StoredTable {
            id: id.clone(),
            settings: settings.clone(),
            hints: request.hints,
            unattended: request.unattended,
            turn_clock: request.turn_clock,
            rated: request.rated,
            night: request.night.clone(),
            deal_rng,
            seats: seats.clone(),
            host_token: random_hex(),
            status: TableStatus::Open,
            created_at: now_secs(),
        };
        let created = CreatedTable {
            id: id.clone(),
            host_token: stored.host_token.clone(),
            seat_tokens: seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.sitter == Sitter::Open)
                .map(|(i, s)| (Seat(i as u8), s.token.clone()))
                .collect(),
        };
        Ok(PreparedTable {
            stored,
            created,
            unattended_turn,
        })
    }

    /// Runs table `table`, now stored: its task, its count against its address's
    /// unattended tables, and its bots at once if nobody is to wait for.
    pub(crate) fn start_prepared(
        &self,
        table: PreparedTable<'_>,
    ) -> Result<CreatedTable, HubError> {
        let PreparedTable {
            stored,
            created,
            unattended_turn,
        } = table;
        let id = &stored.id;
        let settings = &stored.settings;
        tracing::info!(
            "table {id}: {} {}, seats {}",
            settings.rules.game(),
            settings.rules.variant(),
            stored
                .seats
                .iter()
                .map(|s| s.sitter.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let actor = self.actor(&stored, &[], Vec::new())?;
        self.spawn(actor);
        if let Some((_, Some(from))) = &unattended_turn {
            self.shared.unattended.asked(&created.id, *from);
        }
        // Bots alone with nobody to wait for: they start at once.
        if stored.unattended && created.seat_tokens.is_empty() {
            self.start_table(&created.id);
        }
        Ok(created)
    }
}
