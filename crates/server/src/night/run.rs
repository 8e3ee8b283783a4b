//! A night's task, and on a cluster who runs it: the node holding the night's lease,
//! which takes over the nights of nodes that died or let them go.

use std::time::Duration;

use calltrump_engine::night::set_table;

use super::{corrupt_night, read_state, NightState};
use crate::hub::{Capped, Hub, HubError};
use crate::model::{NightStatus, Sitter, TableStatus};
use crate::session::FILL_LEVEL;
use crate::store::StoreError;

/// How often a night looks whether its set's game is over.
const POLL: Duration = Duration::from_millis(300);

/// Runs night `id` until it is over (or, on a cluster, until this node loses its
/// lease): a task that looks at its set's table. Whether the task was started (none is
/// if one runs the night already).
pub(super) fn spawn_night(hub: Hub, id: String) -> bool {
    if !hub
        .shared()
        .nights
        .lock()
        .expect("never poisoned")
        .insert(id.clone())
    {
        return false;
    }
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(POLL).await;
            match hub.advance_night(&id).await {
                Ok(true) => {}
                Ok(false) => break,
                // Stored state that does not read back will not get better.
                Err(error @ HubError::Store(StoreError::Corrupt { .. })) => {
                    tracing::error!(night = %id, %error, "a night stops");
                    break;
                }
                // Another node runs the night now.
                Err(HubError::Store(StoreError::LeaseLost { .. })) => {
                    tracing::info!(night = %id, "the night's lease was lost: another node runs it");
                    break;
                }
                // The database may come back: try again at the next look.
                Err(error) => tracing::error!(night = %id, %error, "a night could not go on"),
            }
        }
        hub.shared()
            .nights
            .lock()
            .expect("never poisoned")
            .remove(&id);
    });
    true
}

/// Picks up the nights still playing at the server's start: every one on a store of its
/// own; on a cluster's node, those no live node runs, and from then on, every fifth of
/// `lease`, those whose node died or let them go.
pub async fn resume_nights(hub: &Hub, lease: Duration) -> Result<(), HubError> {
    if hub.shared().store.cluster().is_none() {
        for stored in hub.shared().store.live_nights().await? {
            spawn_night(hub.clone(), stored.id);
        }
        return Ok(());
    }
    take_orphan_nights(hub).await?;
    hub.repeat(
        lease / 5,
        "the nights of dead nodes could not be taken over",
        |hub| async move { take_orphan_nights(&hub).await },
    );
    Ok(())
}

/// Takes over every night no live node of the cluster runs.
async fn take_orphan_nights(hub: &Hub) -> Result<(), HubError> {
    let Some(cluster) = hub.shared().store.cluster() else {
        return Ok(());
    };
    for id in cluster.orphan_nights().await? {
        if cluster.claim_night(&id).await? && spawn_night(hub.clone(), id.clone()) {
            hub.shared()
                .metrics
                .takeovers
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::info!(night = %id, "took the night over: its node died or let it go");
        }
    }
    Ok(())
}

impl Hub {
    /// One step of night `id`: if its set's game is over, takes the result and opens
    /// the next set. Returns whether the night goes on.
    async fn advance_night(&self, id: &str) -> Result<bool, HubError> {
        let Some(mut stored) = self.shared().store.night(id).await? else {
            return Ok(false);
        };
        if stored.status != NightStatus::Playing {
            return Ok(false);
        }
        // A hub shut down starts no set; on a cluster, only the node holding the
        // night's lease does.
        if self.stopping() {
            return Ok(false);
        }
        if let Some(cluster) = self.shared().store.cluster() {
            if !cluster.holds_night(id) {
                return Ok(false);
            }
        }
        let mut state = read_state(&stored)?;
        let set = state.results.len();
        if self.take_decliners(&mut state).await? {
            stored.state = serde_json::to_string(&state).expect("a night serializes");
            self.shared().store.save_night(&stored).await?;
        }
        let Some(current) = state.tables.get(set) else {
            return Err(corrupt_night(id, "no table for the set being played"));
        };
        let mut next = None;
        match self.status(&current.table).await? {
            Some(TableStatus::Over) => {
                let record = self.record(&current.table).await?;
                let (replay, _) = record
                    .replay()
                    .map_err(|e| corrupt_night(id, &format!("set {set}: {e}")))?;
                state.results.push(replay.scores);
                if state.results.len() == state.sets {
                    stored.status = NightStatus::Over;
                } else {
                    next = Some(self.start_set(id, &mut state, Capped::No).await?);
                }
            }
            // The set's table was ended (or is gone): so is the night.
            Some(TableStatus::Ended) | None => stored.status = NightStatus::Ended,
            _ => return Ok(true),
        }
        stored.state = serde_json::to_string(&state).expect("a night serializes");
        // The next set's table and the night that names it are kept together (on a
        // cluster, only while this node holds the night), and only then run.
        match next {
            Some(table) => {
                let store = &self.shared().store;
                store.create_set_table(&table.stored, &stored).await?;
                self.start_prepared(table)?;
            }
            None => self.shared().store.save_night(&stored).await?,
        }
        Ok(stored.status == NightStatus::Playing)
    }

    /// The people who left (declined) the set being played from "My tables": its table
    /// gave their seat to a bot under a new token. From then on a bot plays them, for no
    /// account, and the night hands out no link to that seat. Whether any was found.
    async fn take_decliners(&self, state: &mut NightState) -> Result<bool, HubError> {
        let set = state.results.len();
        let Some(current) = state.tables.get(set) else {
            return Ok(false);
        };
        let Some(table) = self.shared().store.table(&current.table).await? else {
            return Ok(false);
        };
        let seating = set_table(state.players.len(), set);
        let mut found = false;
        for (seat, record) in table.seats.iter().enumerate() {
            let Some(token) = &state.tables[set].seat_tokens[seat] else {
                continue;
            };
            // Only a leave hands a night's seat to a bot under a new token.
            if *token == record.token || record.bot_level().is_none() {
                continue;
            }
            let player = &mut state.players[seating.seats[seat]];
            player.sitter = Sitter::Bot(FILL_LEVEL.into());
            player.account = None;
            player.declined = Some(set);
            state.tables[set].seat_tokens[seat] = None;
            found = true;
        }
        Ok(found)
    }
}
