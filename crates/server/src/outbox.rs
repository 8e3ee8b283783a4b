//! A connection's outgoing queue, bounded: a client that does not read holds at most
//! [`OUTBOX_MESSAGES`] of the server's messages. One more, and the connection is too
//! slow: the message is dropped, and its writer is told to close it (`too_slow`). A
//! sender never waits, so a table's task is never held by a connection.

use std::sync::Arc;

use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, Notify};

use crate::protocol::ServerMessage;

/// Most messages waiting to be written to one connection. A client that reads keeps
/// the queue near empty: the most it meets at once is joining (welcome, snapshot, seats
/// and 50 chat lines), and a fast bot table sends a few updates a second.
pub const OUTBOX_MESSAGES: usize = 256;

/// Sends to one connection (cloned for everyone who sends to it).
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: mpsc::Sender<ServerMessage>,
    too_slow: Arc<Notify>,
}

/// What a connection's writer takes from its queue.
#[derive(Debug)]
pub enum Outgoing {
    /// A message to write.
    Message(ServerMessage),
    /// The queue overflowed: close the connection as too slow.
    TooSlow,
    /// Nobody sends to this connection any more.
    Done,
}

/// The writer's end of an [`Outbox`].
#[derive(Debug)]
pub struct Queue {
    queue: mpsc::Receiver<ServerMessage>,
    too_slow: Arc<Notify>,
}

impl Outbox {
    /// A queue of at most `capacity` messages: its sending and its writing end.
    pub fn bounded(capacity: usize) -> (Outbox, Queue) {
        let (sender, receiver) = mpsc::channel(capacity);
        let too_slow = Arc::new(Notify::new());
        let outbox = Outbox {
            queue: sender,
            too_slow: Arc::clone(&too_slow),
        };
        (
            outbox,
            Queue {
                queue: receiver,
                too_slow,
            },
        )
    }

    /// Queues `message` without waiting; whether it was queued. A full queue makes the
    /// connection too slow: the message is dropped and the writer told to close.
    pub fn send(&self, message: ServerMessage) -> bool {
        match self.queue.try_send(message) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.too_slow.notify_one();
                false
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }
}

impl Queue {
    /// The next thing to do: write a message, close as too slow (before any message
    /// still queued), or stop.
    pub async fn next(&mut self) -> Outgoing {
        tokio::select! {
            biased;
            () = self.too_slow.notified() => Outgoing::TooSlow,
            message = self.queue.recv() => message.map_or(Outgoing::Done, Outgoing::Message),
        }
    }

    /// Waits until the queue overflows (at once if it did since the last [`Queue::next`]
    /// said so): for a writer blocked on a socket that takes nothing.
    pub async fn overflowed(&self) {
        self.too_slow.notified().await;
    }

    /// How many messages wait.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether no message waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full queue holds [`OUTBOX_MESSAGES`] messages of the enum's size whatever they
    /// carry, so the size of one is what a slow connection costs: the large views are
    /// boxed (a snapshot alone is several hundred bytes).
    #[test]
    fn a_queued_message_is_small_whatever_its_view() {
        let size = std::mem::size_of::<ServerMessage>();
        assert!(size <= 160, "a ServerMessage takes {size} bytes");
    }

    #[tokio::test]
    async fn a_queue_never_holds_more_than_its_capacity_and_overflowing_it_closes() {
        let (outbox, mut queue) = Outbox::bounded(3);
        for _ in 0..3 {
            assert!(outbox.send(ServerMessage::Pong));
        }
        // Nobody reads: whatever else is sent is dropped, the queue stays at 3.
        for _ in 0..1000 {
            assert!(!outbox.send(ServerMessage::Pong));
        }
        assert_eq!(queue.len(), 3);
        // The writer is told to close before it writes what waits.
        assert!(matches!(queue.next().await, Outgoing::TooSlow));
    }

    #[tokio::test]
    async fn a_queue_read_in_time_is_written_in_order_then_done() {
        let (outbox, mut queue) = Outbox::bounded(2);
        for round in 0..10u64 {
            assert!(outbox.send(ServerMessage::Pong));
            assert!(outbox.send(ServerMessage::Status {
                status: crate::model::TableStatus::Playing,
            }));
            assert!(
                matches!(queue.next().await, Outgoing::Message(ServerMessage::Pong)),
                "{round}"
            );
            assert!(matches!(
                queue.next().await,
                Outgoing::Message(ServerMessage::Status { .. })
            ));
        }
        assert!(queue.is_empty());
        drop(outbox);
        assert!(matches!(queue.next().await, Outgoing::Done));
    }
}
