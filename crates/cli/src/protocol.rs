//! The bot protocol: an outside program plays as a bot by reading and writing JSON lines
//! on its standard input and output. See `docs/bot-protocol.md`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use calltrump_bots::{bot_by_name, Decision};
use calltrump_engine::{stream, Action, GameRules, Observation};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The protocol version both sides must speak.
pub const PROTOCOL_VERSION: u32 = 1;

/// How long a bot has to start and answer the handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// How long a bot has to exit by itself at the end of a match before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// What the host sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum HostMessage {
    /// The handshake: the host's protocol version.
    Hello {
        /// Protocol version.
        protocol: u32,
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
        /// How long the bot has to answer.
        time_limit_ms: u64,
    },
    /// The match is over: the bot should exit.
    Bye,
}

/// What the bot sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum BotMessage {
    /// The handshake answer.
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
}

/// An outside program seated as a bot. It runs in its own process group (on Unix), and
/// whatever ends it (a fault, a timeout, the end of the match) kills that whole group, so
/// nothing the program started outlives it.
pub struct ExternalBot {
    command: String,
    name: String,
    child: Child,
    /// The bot's input; `None` once the bot has been stopped.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    time_limit: Duration,
}

impl ExternalBot {
    /// Starts `command` through the shell and makes the handshake.
    pub fn start(command: &str, time_limit: Duration) -> Result<ExternalBot> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // A group of its own, so that stopping the bot reaches whatever the shell starts.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut shell, 0);
        let mut child = shell
            .spawn()
            .with_context(|| format!("starting outside bot `{command}`"))?;
        let stdin = Some(child.stdin.take().expect("stdin is piped"));
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        // A reader thread lets the host wait for a line with a time limit.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut bot = ExternalBot {
            command: command.to_string(),
            name: command.to_string(),
            child,
            stdin,
            lines,
            time_limit,
        };
        match bot.handshake() {
            Ok(()) => Ok(bot),
            Err(e) => {
                bot.stop(Duration::ZERO);
                Err(e)
            }
        }
    }

    /// Sends `hello` and checks the answer; takes the bot's name from it.
    fn handshake(&mut self) -> Result<()> {
        self.send(&HostMessage::Hello {
            protocol: PROTOCOL_VERSION,
        })
        .map_err(|e| self.fault(None, &format!("could not be sent the handshake: {e}")))?;
        // Starting a program can take longer than a decision may.
        let line = self.receive(None, self.time_limit.max(HANDSHAKE_TIME))?;
        match serde_json::from_str::<BotMessage>(&line) {
            Ok(BotMessage::Hello { protocol, name }) if protocol == PROTOCOL_VERSION => {
                self.name = name;
                Ok(())
            }
            Ok(BotMessage::Hello { protocol, .. }) => Err(self.fault(
                None,
                &format!("speaks protocol {protocol}, not {PROTOCOL_VERSION}"),
            )),
            _ => Err(self.fault(None, &format!("answered the handshake with {line:?}"))),
        }
    }

    /// The name the bot gave in the handshake.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn fault(&self, deal: Option<u64>, what: &str) -> anyhow::Error {
        match deal {
            Some(deal) => anyhow!("outside bot `{}`, deal {deal}: {what}", self.command),
            None => anyhow!("outside bot `{}`: {what}", self.command),
        }
    }

    fn send(&mut self, message: &HostMessage) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("the bot was stopped"))?;
        let line = serde_json::to_string(message).expect("messages serialize");
        writeln!(stdin, "{line}")?;
        stdin.flush()
    }

    /// Ends the bot: closes its input, gives it `grace` to exit by itself, then kills
    /// its process group and reaps it. Only the first call does anything.
    fn stop(&mut self, grace: Duration) {
        if self.stdin.take().is_none() {
            return;
        }
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Even a bot that exited may have left something running in its group.
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }

    fn receive(&mut self, deal: Option<u64>, limit: Duration) -> Result<String> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(self.fault(
                deal,
                &format!("sent nothing within {} ms", limit.as_millis()),
            )),
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.fault(deal, "closed its output (exited?) without answering"))
            }
        }
    }

    /// Asks the bot for an action; an answer that is not JSON, not an action, or not
    /// legal, or no answer in time, is an error naming the bot, the deal and what it sent,
    /// and the bot is killed at once.
    pub fn decide(&mut self, decision: &Decision<'_>, deal: u64) -> Result<Action> {
        let answer = self.ask(decision, deal);
        if answer.is_err() {
            self.stop(Duration::ZERO);
        }
        answer
    }

    fn ask(&mut self, decision: &Decision<'_>, deal: u64) -> Result<Action> {
        let message = HostMessage::Decide {
            game: decision.rules.game().to_string(),
            variant: decision.rules.variant().to_string(),
            options: decision.rules.options(),
            seat: decision.observation.seat.0,
            deal,
            observation: decision.observation.clone(),
            legal: decision.legal.to_vec(),
            time_limit_ms: self.time_limit.as_millis() as u64,
        };
        self.send(&message)
            .map_err(|e| self.fault(Some(deal), &format!("could not be sent a decision: {e}")))?;
        let line = self.receive(Some(deal), self.time_limit)?;
        let text = match serde_json::from_str::<BotMessage>(&line) {
            Ok(BotMessage::Action { action }) => action,
            Ok(BotMessage::Hello { .. }) => {
                return Err(self.fault(
                    Some(deal),
                    &format!("sent a handshake instead of an action: {line}"),
                ))
            }
            Err(e) => return Err(self.fault(Some(deal), &format!("sent bad JSON ({e}): {line}"))),
        };
        let action: Action = text.parse().map_err(|e| {
            self.fault(
                Some(deal),
                &format!("sent \"{text}\", which is not an action: {e}"),
            )
        })?;
        if !decision.legal.contains(&action) {
            return Err(self.fault(
                Some(deal),
                &format!(
                    "sent the illegal action \"{text}\" (legal: {})",
                    join(decision.legal)
                ),
            ));
        }
        Ok(action)
    }
}

fn join(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        // A stopped bot is not sent `bye`: sending fails and is ignored.
        let _ = self.send(&HostMessage::Bye);
        self.stop(EXIT_GRACE);
    }
}

/// Kills the bot's process group: the shell and everything started in it.
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    use rustix::process::{kill_process_group, Pid, Signal};
    if let Some(group) = Pid::from_raw(child.id() as i32) {
        // An error only means that the group has no process left.
        let _ = kill_process_group(group, Signal::KILL);
    }
}

/// Kills the bot's shell; without process groups, what it started may live on.
#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

/// `calltrump bot`: serves one of calltrump's bots over the protocol on standard input
/// and output until `bye` or the end of input.
pub fn serve(bot_name: &str, seed: u64, input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut bot = bot_by_name(bot_name).map_err(anyhow::Error::msg)?;
    let mut decisions = 0u64;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let message: HostMessage = serde_json::from_str(&line)
            .with_context(|| format!("the host sent a line that is not a message: {line}"))?;
        let reply = match message {
            HostMessage::Hello { protocol } if protocol == PROTOCOL_VERSION => BotMessage::Hello {
                protocol: PROTOCOL_VERSION,
                name: format!("calltrump {bot_name}"),
            },
            HostMessage::Hello { protocol } => {
                bail!("the host speaks protocol {protocol}; this bot speaks {PROTOCOL_VERSION}")
            }
            HostMessage::Decide {
                game,
                variant,
                options,
                observation,
                legal,
                ..
            } => {
                let rules = GameRules::from_header(&game, Some(&variant), &options)
                    .map_err(|e| anyhow!("{e}"))?;
                if legal.is_empty() {
                    bail!("the host sent a decision with no legal action");
                }
                let decision = Decision {
                    rules: &rules,
                    observation: &observation,
                    legal: &legal,
                };
                // One stream per decision: the answer depends only on the seed and the
                // decision's place in the session.
                let mut rng = stream(seed, decisions);
                decisions += 1;
                BotMessage::Action {
                    action: bot.choose(&decision, &mut rng).to_string(),
                }
            }
            HostMessage::Bye => return Ok(()),
        };
        writeln!(output, "{}", serde_json::to_string(&reply)?)?;
        output.flush()?;
    }
    Ok(())
}
