//! Thinking time: a search bot given a duration (`expert@2s`, `hard@300ms`) samples and
//! searches until the time is spent instead of for a fixed number of deals or
//! iterations, and may stop sooner once the best action is clearly ahead.
//!
//! The time is the deciding thread's CPU time where the system keeps one (Unix), else
//! the wall clock: on a machine shared with other work a bot then thinks as much as it
//! would alone, and two bots compared in the arena get what their names say however
//! busy the machine is. A decision checks the clock between deals (or between a few
//! iterations), so it ends within one deal's work of its time. A PIMC bot that stops
//! early carries the time left to its next calls ([`crate::PimcBot::allowance`]), so
//! its time bounds what a decision takes on average, not each call. Every reading goes through
//! a [`TimeSource`]; a test gives a bot a [`SteppingClock`] to make its thinking the
//! same on every machine.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The shortest thinking time a name may give.
pub const MIN_THINKING: Duration = Duration::from_millis(1);
/// The longest thinking time a name may give.
pub const MAX_THINKING: Duration = Duration::from_secs(600);

/// The duration `text` gives: a number of milliseconds (`300ms`) or seconds (`2s`,
/// `1.5s`), from [`MIN_THINKING`] to [`MAX_THINKING`], in whole milliseconds.
pub fn parse_thinking_time(text: &str) -> Option<Duration> {
    let (number, per_unit) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1.0)
    } else {
        (text.strip_suffix('s')?, 1000.0)
    };
    // Digits and at most one point: no signs, exponents, "inf" or "nan".
    let digits = number.chars().filter(char::is_ascii_digit).count();
    if digits == 0 || number.chars().any(|c| !c.is_ascii_digit() && c != '.') {
        return None;
    }
    let millis = number.parse::<f64>().ok()? * per_unit;
    if millis.fract() != 0.0 {
        return None;
    }
    let time = Duration::from_millis(millis as u64);
    (MIN_THINKING..=MAX_THINKING)
        .contains(&time)
        .then_some(time)
}

/// A thinking time as a name shows it: whole seconds as `2s`, else milliseconds.
pub fn format_thinking_time(time: Duration) -> String {
    let ms = time.as_millis();
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// Where a thinking bot reads its time: the one seam its clock passes through, so that a
/// test can give it a clock of its own ([`SteppingClock`]).
pub trait TimeSource: Send + Sync + std::fmt::Debug {
    /// A reading: only the difference between two readings counts.
    fn now(&self) -> Duration;
}

/// The deciding thread's CPU time (the wall clock where the system keeps none): the
/// clock of every bot named with a thinking time.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadTime;

impl TimeSource for ThreadTime {
    fn now(&self) -> Duration {
        Duration::from_nanos(now_ns())
    }
}

/// A clock that moves by a fixed step at each reading and at no other time. A bot
/// thinking by it samples the same deals (or runs the same iterations) on any machine,
/// however fast or busy, so its decisions are reproducible from the seed.
#[derive(Debug)]
pub struct SteppingClock {
    step: Duration,
    readings: AtomicU32,
}

impl SteppingClock {
    /// A clock that moves by `step` at each reading.
    pub fn new(step: Duration) -> SteppingClock {
        SteppingClock {
            step,
            readings: AtomicU32::new(0),
        }
    }

    /// How many times it has been read.
    pub fn readings(&self) -> u32 {
        self.readings.load(Ordering::Relaxed)
    }
}

impl TimeSource for SteppingClock {
    fn now(&self) -> Duration {
        let n = self.readings.fetch_add(1, Ordering::Relaxed) + 1;
        self.step * n
    }
}

/// The time one decision has used since it started, by a [`TimeSource`].
pub(crate) struct Clock<'a> {
    source: &'a dyn TimeSource,
    started: Duration,
}

impl<'a> Clock<'a> {
    /// A clock started now.
    pub(crate) fn start(source: &'a dyn TimeSource) -> Clock<'a> {
        Clock {
            source,
            started: source.now(),
        }
    }

    /// Time used since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.source.now().saturating_sub(self.started)
    }
}

/// Nanoseconds of CPU time this thread has used.
#[cfg(unix)]
fn now_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Nanoseconds of wall time since the first reading, where there is no thread clock.
#[cfg(not(unix))]
fn now_ns() -> u64 {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    EPOCH
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_milliseconds_or_seconds() {
        let ms = Duration::from_millis;
        for (text, time) in [
            ("300ms", ms(300)),
            ("2s", ms(2000)),
            ("1.5s", ms(1500)),
            ("0.001s", ms(1)),
            ("1ms", ms(1)),
            ("600s", ms(600_000)),
            ("007ms", ms(7)),
        ] {
            assert_eq!(parse_thinking_time(text), Some(time), "{text}");
        }
        for bad in [
            "", "s", "ms", "2", "2m", "2 s", "-1s", "+1s", "0ms", "0s", "0.5ms", "1.0005s", "601s",
            "1e3ms", "infs", "NaNs", "1..2s", ".s", "2sec",
        ] {
            assert_eq!(parse_thinking_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations_show_as_they_are_written() {
        for text in ["300ms", "2s", "1500ms", "1ms", "600s"] {
            let time = parse_thinking_time(text).unwrap();
            assert_eq!(format_thinking_time(time), text);
        }
        assert_eq!(
            format_thinking_time(parse_thinking_time("1.5s").unwrap()),
            "1500ms"
        );
    }

    #[test]
    fn the_clock_moves_with_work() {
        let clock = Clock::start(&ThreadTime);
        let mut x = 0u64;
        while clock.elapsed() < Duration::from_millis(2) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        assert!(clock.elapsed() >= Duration::from_millis(2));
    }

    #[test]
    fn a_stepping_clock_moves_only_when_read() {
        let source = SteppingClock::new(Duration::from_millis(3));
        let clock = Clock::start(&source);
        assert_eq!(clock.elapsed(), Duration::from_millis(3));
        assert_eq!(clock.elapsed(), Duration::from_millis(6));
        assert_eq!(source.readings(), 3);
    }
}
