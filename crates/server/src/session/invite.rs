//! The host invites a signed-in player by name to an open seat: the seat is bound to
//! the player's account (taken by them alone, from any device) and "My tables" shows
//! them the invitation.

use std::time::Instant;

use calltrump_engine::Seat;

use super::Session;
use crate::model::{SignedIn, Sitter};

/// An invitation to a seat, as the host asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The host's token: only the host invites.
    pub host_token: String,
    /// The seat.
    pub seat: Seat,
    /// The invited account.
    pub invitee: SignedIn,
    /// The name of the account that invites (the signed-in host).
    pub by: String,
}

/// Why an invitation is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InviteRefused {
    /// The token is not the host's.
    NotHost,
    /// The seat or the table cannot take it, and why.
    Seat(String),
}

impl std::fmt::Display for InviteRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InviteRefused::NotHost => f.write_str(
                "host_token: only the table's host invites (the token of the host's link)",
            ),
            InviteRefused::Seat(why) => f.write_str(why),
        }
    }
}

impl Session {
    /// Why `invitation` is refused, or none: a wrong host token, a table over, a seat
    /// that is not there, not open for a person (a bot's, or taken), or kept for another
    /// account; an account holding (or invited to) another seat.
    pub fn invite_refusal(&self, invitation: &Invitation) -> Option<InviteRefused> {
        if invitation.host_token != self.host_token {
            return Some(InviteRefused::NotHost);
        }
        self.seat_refusal(invitation).map(InviteRefused::Seat)
    }

    /// Why the invitation's seat cannot take it, or none.
    fn seat_refusal(&self, invitation: &Invitation) -> Option<String> {
        let seat = invitation.seat;
        if !self.status.is_live() {
            return Some(format!(
                "the table is {}: nobody is invited to it any more",
                self.status
            ));
        }
        let Some(record) = self.seats.get(seat.index()) else {
            return Some(format!(
                "seat: there is no seat {seat} (the table has {})",
                self.seats.len()
            ));
        };
        if record.sitter != Sitter::Open {
            return Some(format!(
                "seat {seat} is not open: only a seat waiting for a person takes an invitation"
            ));
        }
        match record.account.as_deref() {
            Some(kept) if kept != invitation.invitee.id => {
                return Some(format!("seat {seat} is kept for another account"));
            }
            _ => {}
        }
        // One seat an account: a second invitation to the same table is a slip.
        let held = self.seats.iter().enumerate().find(|(i, s)| {
            *i != seat.index() && s.account.as_deref() == Some(invitation.invitee.id.as_str())
        });
        if let Some((held, _)) = held {
            let name = &invitation.invitee.name;
            return Some(if self.rated {
                format!(
                    "{name} holds seat {held} at this rated table already: one account, one seat"
                )
            } else {
                format!("{name} holds or is invited to seat {held} at this table already")
            });
        }
        None
    }

    /// Binds the invitation's seat to its account (after [`Session::invite_refusal`]
    /// found nothing wrong): kept, then everyone at the table told.
    pub(super) fn invite(&mut self, invitation: Invitation, now: Instant) {
        if let Some(why) = self.invite_refusal(&invitation) {
            tracing::warn!("table {}: an invitation refused late: {why}", self.id);
            return;
        }
        let record = &mut self.seats[invitation.seat.index()];
        record.account = Some(invitation.invitee.id);
        record.name = Some(invitation.invitee.name.clone());
        record.invited_by = Some(invitation.by);
        tracing::info!(
            "table {}: seat {} is kept for {}, invited",
            self.id,
            invitation.seat,
            invitation.invitee.name
        );
        self.save_seats();
        self.broadcast_seats(now);
    }
}
