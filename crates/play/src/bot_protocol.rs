//! The bot protocol's messages, and the bot side of it (`calltrump bot`): an outside
//! program plays as a bot by reading and writing JSON lines on its standard input and
//! output. See `docs/bot-protocol.md`.

use std::io::{BufRead, Write};

use calltrump_bots::{bot_by_name, check_decision, Bot, Decision};
use calltrump_engine::{stream, Action, GameRules, Observation, Seat, View};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The newest protocol version, which hosts offer and `calltrump bot` speaks.
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest version a host still serves to a bot that asks for it.
pub const OLDEST_VERSION: u32 = 1;

/// What the host sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum HostMessage {
    /// The handshake: the newest version the host speaks and, from version 2, the seat
    /// the process plays and the game.
    Hello {
        /// Protocol version.
        protocol: u32,
        /// The one seat this process plays (version 2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The game (version 2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        /// The variant (version 2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        variant: Option<String>,
        /// Options that differ from the defaults (version 2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Map<String, Value>>,
    },
    /// A decision to make: answer with one of `legal`.
    Decide {
        /// `kaibosh`, `bid-euchre` or `kout`.
        game: String,
        /// The variant.
        variant: String,
        /// Options that differ from the defaults.
        options: Map<String, Value>,
        /// The deciding seat.
        seat: u8,
        /// Which deal of the match this is (for messages and logs).
        deal: u64,
        /// What the seat knows, with unseen cards written `??`.
        observation: Observation,
        /// The legal actions in notation.
        legal: Vec<Action>,
        /// What the seat's screen shows (version 2): phase, trump, contract, the trick
        /// on the table, tricks won, scores, so that a bot need not rebuild them from
        /// `observation`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<Box<View>>,
        /// How long the bot has to answer.
        time_limit_ms: u64,
        /// A number below 2^53 to draw the decision's random choices from, so that the
        /// same decision with the same seed gets the same answer (version 2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    /// A hand or a game is over (version 2): what everyone may know of it.
    Result {
        /// Which deal of the match the hand belonged to.
        deal: u64,
        /// After a hand: its start, its actions as every seat may see them, how it ended
        /// and the points.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<Value>,
        /// After a game: the final scores, the winner and why it ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Value>,
    },
    /// The match is over: the bot should exit.
    Bye,
}

/// What the bot sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum BotMessage {
    /// The handshake answer: the version the bot speaks, at most the host's.
    Hello {
        /// Protocol version.
        protocol: u32,
        /// The bot's name for reports.
        name: String,
    },
    /// The chosen action, in notation.
    Action {
        /// The action text, such as `bid 3` or `play JS`.
        action: String,
    },
    /// The bot could not take the host's message (version 2): what is wrong with it.
    Error {
        /// What is wrong, such as `action 5 "play KS": seat 3 must follow hearts`.
        message: String,
    },
}

/// The bot side of a session: one of calltrump's bots answering the host's messages
/// line by line. A message that cannot be taken is answered with an `error` naming
/// what is wrong, and the next one is served as if it had not come.
pub struct BotServer {
    bot: Box<dyn Bot>,
    bot_name: String,
    seed: u64,
    /// The version agreed in the handshake (the newest until then).
    version: u32,
    /// Decisions answered, for the random stream of a decision without a seed.
    decisions: u64,
}

/// What the server does with one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Write this message.
    Send(BotMessage),
    /// Nothing to answer (a result, a blank line).
    Nothing,
    /// The session is over (`bye`).
    End,
}

impl BotServer {
    /// A server of the bot named `bot_name` (see [`calltrump_bots::BOT_NAMES`]) whose
    /// decisions derive from `seed`.
    pub fn new(bot_name: &str, seed: u64) -> Result<BotServer, String> {
        Ok(BotServer {
            bot: bot_by_name(bot_name).map_err(|e| e.to_string())?,
            bot_name: bot_name.to_string(),
            seed,
            version: PROTOCOL_VERSION,
            decisions: 0,
        })
    }

    /// The answer to one line from the host. Never panics, whatever the line.
    pub fn answer(&mut self, line: &str) -> Reply {
        if line.trim().is_empty() {
            return Reply::Nothing;
        }
        let message: HostMessage = match serde_json::from_str(line) {
            Ok(message) => message,
            Err(e) => return error(format!("not a message of the protocol: {e}")),
        };
        match message {
            HostMessage::Hello { protocol, .. } if protocol >= OLDEST_VERSION => {
                self.version = protocol.min(PROTOCOL_VERSION);
                Reply::Send(BotMessage::Hello {
                    protocol: self.version,
                    name: format!("calltrump {}", self.bot_name),
                })
            }
            HostMessage::Hello { protocol, .. } => error(format!(
                "the host speaks protocol {protocol}; this bot speaks {OLDEST_VERSION} to {PROTOCOL_VERSION}"
            )),
            HostMessage::Decide {
                game,
                variant,
                options,
                seat,
                observation,
                legal,
                seed,
                ..
            } => {
                let rules = match GameRules::from_header(&game, Some(&variant), &options) {
                    Ok(rules) => rules,
                    Err(e) => return error(e.to_string()),
                };
                if Seat(seat) != observation.seat {
                    return error(format!(
                        "the decision is for seat {seat}, the observation seat {}'s",
                        observation.seat
                    ));
                }
                let mut observation = observation;
                let unchecked = Decision {
                    rules: &rules,
                    observation: &observation,
                    legal: &legal,
                };
                // Nothing of the bots runs on a decision that does not add up.
                observation.declared = match check_decision(&unchecked) {
                    Ok(declared) => declared,
                    Err(e) => return error(e.to_string()),
                };
                let decision = Decision {
                    rules: &rules,
                    observation: &observation,
                    legal: &legal,
                };
                // With a seed the answer depends on the decision alone; without one, on
                // the decision's place in the session.
                let mut rng = stream(self.seed, seed.unwrap_or(self.decisions));
                self.decisions += 1;
                let action = self.bot.choose(&decision, &mut rng);
                // A bot answers from `legal`; should one ever not, the first is safe.
                let action = if legal.contains(&action) {
                    action
                } else {
                    legal[0]
                };
                Reply::Send(BotMessage::Action {
                    action: action.to_string(),
                })
            }
            HostMessage::Result { .. } => Reply::Nothing,
            HostMessage::Bye => Reply::End,
        }
    }

    /// Serves the host on `input` and `output` until `bye` or the end of input.
    pub fn serve(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            match self.answer(&line?) {
                Reply::Send(message) => {
                    writeln!(output, "{}", to_line(&message))?;
                    output.flush()?;
                }
                Reply::Nothing => {}
                Reply::End => break,
            }
        }
        Ok(())
    }
}

fn error(message: String) -> Reply {
    Reply::Send(BotMessage::Error { message })
}

/// A message as one line of JSON.
pub fn to_line<T: Serialize>(message: &T) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| {
        // Messages hold only strings, numbers and maps: this cannot happen.
        format!(r#"{{"type":"error","message":"unwritable message: {e}"}}"#)
    })
}
