//! A night's task, and on a cluster who runs it: the node holding the night's lease,
//! which takes over the nights of nodes that died or let them go.

use std::time::Duration;

use crate::hub::{Hub, HubError};
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
