//! Lines from standard input for `calltrump play` and `night`, read on a thread of their
//! own so that Ctrl-C is noticed while waiting (what a line means is
//! [`calltrump_play::typed`]'s).

use std::io::{self, BufRead, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// One line read, or why none was.
pub enum Line {
    /// A line of text, without its line end.
    Text(String),
    /// The input ended.
    End,
    /// Ctrl-C was pressed.
    Interrupted,
}

/// Where the player's lines come from.
pub trait Lines {
    /// The next line.
    fn next_line(&mut self) -> io::Result<Line>;

    /// Whether Ctrl-C has been pressed (checked between the bots' moves too).
    fn interrupted(&self) -> bool {
        false
    }

    /// Forgets whatever was typed before the question about to be asked: keys pressed
    /// while the bots played must not answer a menu the player has not seen. Only a
    /// terminal's input is forgotten; piped answers are all kept.
    fn discard_typed_ahead(&mut self) {}
}

/// Standard input, read on its own thread, and Ctrl-C (or the terminal closing, or
/// SIGTERM) turned into [`Line::Interrupted`]:
/// the game then saves its record and stops instead of dying. A second Ctrl-C exits at
/// once. A line is read only when one is asked for, so that between questions the
/// terminal is free for a pager (`rules`) to read its keys.
pub struct Stdin {
    lines: Receiver<io::Result<String>>,
    /// Asks the reading thread for one line.
    ask: mpsc::Sender<()>,
    /// Whether a line has been asked for and not yet received.
    asked: bool,
    interrupt: Arc<AtomicBool>,
}

impl Stdin {
    /// Starts reading standard input and watching for Ctrl-C.
    pub fn start() -> Stdin {
        let (send, lines) = mpsc::channel();
        let (ask, asked) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            while asked.recv().is_ok() {
                let mut line = String::new();
                let read = input.read_line(&mut line).map(|n| (n, line));
                let done = !matches!(read, Ok((n, _)) if n > 0);
                if send.send(read.map(|(_, line)| line)).is_err() || done {
                    break;
                }
            }
        });
        let interrupt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&interrupt);
        std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async {
                while stop_signal().await {
                    if flag.swap(true, Ordering::SeqCst) {
                        std::process::exit(130);
                    }
                }
            });
        });
        Stdin {
            lines,
            ask,
            asked: false,
            interrupt,
        }
    }
}

/// Waits for a signal that asks the game to stop: Ctrl-C, and on Unix also the terminal
/// closing (SIGHUP) and a plain `kill` (SIGTERM), so that those save the game too.
/// False once signals cannot be watched.
async fn stop_signal() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut hangup), Ok(mut terminate)) = (
            signal(SignalKind::hangup()),
            signal(SignalKind::terminate()),
        ) else {
            return tokio::signal::ctrl_c().await.is_ok();
        };
        tokio::select! {
            interrupt = tokio::signal::ctrl_c() => interrupt.is_ok(),
            _ = hangup.recv() => true,
            _ = terminate.recv() => true,
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.is_ok()
    }
}

impl Lines for Stdin {
    fn next_line(&mut self) -> io::Result<Line> {
        if !self.asked {
            // A thread that has stopped (the input ended) answers no more.
            self.asked = self.ask.send(()).is_ok();
        }
        loop {
            if self.interrupted() {
                return Ok(Line::Interrupted);
            }
            let received = self.lines.recv_timeout(Duration::from_millis(50));
            if !matches!(received, Err(RecvTimeoutError::Timeout)) {
                self.asked = false;
            }
            match received {
                Ok(Ok(line)) if line.is_empty() => return Ok(Line::End),
                Ok(Ok(line)) => {
                    return Ok(Line::Text(line.trim_end_matches(['\n', '\r']).to_string()))
                }
                Ok(Err(error)) => return Err(error),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Line::End),
            }
        }
    }

    fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::SeqCst)
    }

    fn discard_typed_ahead(&mut self) {
        // A line being read already belongs to the question before; nothing is read
        // between questions, so what was typed since waits in the terminal's queue.
        if !self.asked && io::stdin().is_terminal() {
            #[cfg(unix)]
            let _ = rustix::termios::tcflush(io::stdin(), rustix::termios::QueueSelector::IFlush);
        }
    }
}
