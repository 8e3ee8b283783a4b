//! The host side of the bot protocol: an outside program seated as a bot (`ext:COMMAND`),
//! one process per seat.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::bot_protocol::{to_line, BotMessage, HostMessage, OLDEST_VERSION, PROTOCOL_VERSION};
use anyhow::{anyhow, Result};
use calltrump_bots::Decision;
use calltrump_engine::{Action, GameRules, Seat, View};

/// How long a bot has to start and answer the handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// The longest a host waits for a bot to exit after `bye`, in milliseconds.
pub const MAX_BYE_GRACE_MS: u64 = 60_000;

/// The longest time limit per decision, in milliseconds (an hour).
pub const MAX_TIME_LIMIT_MS: u64 = 3_600_000;

/// How outside bots are held: the time each decision may take and the time to exit
/// after `bye` before being killed.
#[derive(Clone, Copy, Debug)]
pub struct Terms {
    /// Time for each decision.
    pub time_limit: Duration,
    /// Time to exit after `bye`.
    pub bye_grace: Duration,
}

impl Terms {
    /// The terms of `--time-limit-ms` and `--bye-grace-ms`.
    pub fn from_ms(time_limit_ms: u64, bye_grace_ms: u64) -> Terms {
        Terms {
            time_limit: Duration::from_millis(time_limit_ms),
            bye_grace: Duration::from_millis(bye_grace_ms),
        }
    }
}

/// An outside program seated as a bot at one seat. It runs in its own process group (on
/// Unix), and whatever ends it (a fault, a timeout, the end of the match) kills that
/// whole group, so nothing the program started outlives it.
pub struct ExternalBot {
    command: String,
    name: String,
    child: Child,
    /// The bot's input; `None` once the bot has been stopped.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    terms: Terms,
    /// The version agreed in the handshake.
    version: u32,
}

impl ExternalBot {
    /// Starts `command` through the shell to play `seat` of a game under `rules`, and
    /// makes the handshake.
    pub fn start(
        command: &str,
        seat: Seat,
        rules: &GameRules,
        terms: Terms,
    ) -> Result<ExternalBot> {
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
            .map_err(|e| anyhow!("starting outside bot `{command}`: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(anyhow!("outside bot `{command}`: no pipes to talk through"));
        };
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
            stdin: Some(stdin),
            lines,
            terms,
            version: PROTOCOL_VERSION,
        };
        match bot.handshake(seat, rules) {
            Ok(()) => Ok(bot),
            Err(e) => {
                bot.stop(Duration::ZERO);
                Err(e)
            }
        }
    }

    /// Sends `hello` and checks the answer; takes the bot's name and version from it.
    fn handshake(&mut self, seat: Seat, rules: &GameRules) -> Result<()> {
        self.send(&HostMessage::Hello {
            protocol: PROTOCOL_VERSION,
            seat: Some(seat),
            game: Some(rules.game().to_string()),
            variant: Some(rules.variant().to_string()),
            options: Some(rules.options()),
        })
        .map_err(|e| self.fault(None, &format!("could not be sent the handshake: {e}")))?;
        // Starting a program can take longer than a decision may.
        let line = self.receive(None, self.terms.time_limit.max(HANDSHAKE_TIME))?;
        match serde_json::from_str::<BotMessage>(&line) {
            Ok(BotMessage::Hello { protocol, name })
                if (OLDEST_VERSION..=PROTOCOL_VERSION).contains(&protocol) =>
            {
                self.name = name;
                self.version = protocol;
                Ok(())
            }
            Ok(BotMessage::Hello { protocol, .. }) => Err(self.fault(
                None,
                &format!(
                    "speaks protocol {protocol}; this host speaks {OLDEST_VERSION} to {PROTOCOL_VERSION}"
                ),
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
        writeln!(stdin, "{}", to_line(message))?;
        stdin.flush()
    }

    /// Tells the bot that a hand or game is over (a `result`); version 1 bots are not
    /// told. A bot that cannot be told is stopped, and the error names it.
    pub fn tell(&mut self, message: &HostMessage, deal: u64) -> Result<()> {
        if self.version < 2 {
            return Ok(());
        }
        self.send(message).map_err(|e| {
            self.stop(Duration::ZERO);
            self.fault(Some(deal), &format!("could not be sent a result: {e}"))
        })
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
    /// and the bot is killed at once. `view` (the seat's view of the table) and `seed` go
    /// to version 2 bots.
    pub fn decide(
        &mut self,
        decision: &Decision<'_>,
        view: View,
        deal: u64,
        seed: u64,
    ) -> Result<Action> {
        let answer = self.ask(decision, view, deal, seed);
        if answer.is_err() {
            self.stop(Duration::ZERO);
        }
        answer
    }

    fn ask(&mut self, decision: &Decision<'_>, view: View, deal: u64, seed: u64) -> Result<Action> {
        let v2 = self.version >= 2;
        let message = HostMessage::Decide {
            game: decision.rules.game().to_string(),
            variant: decision.rules.variant().to_string(),
            options: decision.rules.options(),
            seat: decision.observation.seat.0,
            deal,
            observation: decision.observation.clone(),
            legal: decision.legal.to_vec(),
            view: v2.then(|| Box::new(view)),
            time_limit_ms: self.terms.time_limit.as_millis() as u64,
            seed: v2.then_some(seed),
        };
        self.send(&message)
            .map_err(|e| self.fault(Some(deal), &format!("could not be sent a decision: {e}")))?;
        let line = self.receive(Some(deal), self.terms.time_limit)?;
        let text = match serde_json::from_str::<BotMessage>(&line) {
            Ok(BotMessage::Action { action }) => action,
            Ok(BotMessage::Hello { .. }) => {
                return Err(self.fault(
                    Some(deal),
                    &format!("sent a handshake instead of an action: {line}"),
                ))
            }
            Ok(BotMessage::Error { message }) => {
                return Err(self.fault(
                    Some(deal),
                    &format!("refused the decision as faulty: {message}"),
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
        self.stop(self.terms.bye_grace);
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
