//! The counters of `GET /metrics`, in Prometheus' text format.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The least time between two log lines of one kind of refusal or failure: a flood of
/// them is one line now and then, with how many came between (the counters have all).
pub const LOG_EVERY: Duration = Duration::from_secs(10);

/// A log of something that may happen thousands of times a second (refusals, store
/// failures): the first is logged, then at most one a [`LOG_EVERY`].
#[derive(Debug, Default)]
pub struct SampledLog {
    last: Mutex<Option<Instant>>,
    /// Hits not logged since the last line.
    skipped: AtomicU64,
}

impl SampledLog {
    /// Whether this hit is logged, and if so how many were not since the last line.
    pub fn sample(&self) -> Option<u64> {
        let now = Instant::now();
        // Another thread logging now: this hit is one of those skipped.
        if let Ok(mut last) = self.last.try_lock() {
            if last.is_none_or(|at| now.saturating_duration_since(at) >= LOG_EVERY) {
                *last = Some(now);
                return Some(self.skipped.swap(0, Ordering::Relaxed));
            }
        }
        self.skipped.fetch_add(1, Ordering::Relaxed);
        None
    }
}

/// Upper bounds of the action latency histogram, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Tables running.
    pub tables: AtomicU64,
    /// Connections open.
    pub connections: AtomicU64,
    /// Actions and deals applied since start.
    pub actions: AtomicU64,
    /// Writes the store failed (steps, chat lines, seats): nothing of them was told.
    pub store_errors: AtomicU64,
    /// Tables paused because the store failed their last write.
    pub tables_paused: AtomicU64,
    /// Tables and nights this node took over from a node that died or let them go (a
    /// cluster).
    pub takeovers: AtomicU64,
    /// Tables this node lost the lease of while it ran them (paused past the lease).
    pub leases_lost: AtomicU64,
    /// Sockets this node relayed to the node that runs their table.
    pub relayed: AtomicU64,
    /// Actions per latency bucket (the last: slower than every bound).
    latency: [AtomicU64; BUCKETS.len() + 1],
    /// The sum of latencies, in microseconds.
    latency_micros: AtomicU64,
    /// The log of failed writes.
    store_errors_log: SampledLog,
}

impl Metrics {
    /// Counts a write of table `table` the store failed, and logs it (sampled: a full
    /// disk fails every table's retry every half second).
    pub fn store_error(&self, table: &str, error: &str) {
        self.store_errors.fetch_add(1, Ordering::Relaxed);
        if let Some(skipped) = self.store_errors_log.sample() {
            tracing::error!(
                %table,
                %error,
                unlogged_since = skipped,
                "the store failed a write: the table is paused and tries again (sampled: one line every 10 s; calltrump_store_errors_total counts them all)"
            );
        }
    }

    /// Counts one action's time from arrival to every client told.
    pub fn observe_latency(&self, time: Duration) {
        let seconds = time.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|&b| seconds <= b)
            .unwrap_or(BUCKETS.len());
        self.latency[bucket].fetch_add(1, Ordering::Relaxed);
        self.latency_micros
            .fetch_add(time.as_micros() as u64, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let gauge = |out: &mut String, name: &str, help: &str, kind: &str, value: u64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        gauge(
            &mut out,
            "calltrump_tables",
            "Tables running.",
            "gauge",
            self.tables.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_connections",
            "WebSocket connections open.",
            "gauge",
            self.connections.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_actions_total",
            "Actions and deals applied.",
            "counter",
            self.actions.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_store_errors_total",
            "Writes the store failed (nothing of them was told; the table tries again).",
            "counter",
            self.store_errors.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_tables_paused",
            "Tables paused: the store failed their last write (/readyz answers 503).",
            "gauge",
            self.tables_paused.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_lease_takeovers_total",
            "Tables and nights this node took over (their node died, or let them go).",
            "counter",
            self.takeovers.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_leases_lost_total",
            "Tables whose lease this node lost while running them (it was paused past it).",
            "counter",
            self.leases_lost.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "calltrump_relayed_sockets_total",
            "WebSockets this node relayed to the node that runs their table.",
            "counter",
            self.relayed.load(Ordering::Relaxed),
        );
        let name = "calltrump_action_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time from an action's arrival until it is stored and sent."
        );
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (i, bound) in BUCKETS.iter().enumerate() {
            cumulative += self.latency[i].load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        cumulative += self.latency[BUCKETS.len()].load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let sum = self.latency_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {cumulative}");
        if let Some(seconds) = cpu_seconds() {
            let name = "process_cpu_seconds_total";
            let _ = writeln!(
                out,
                "# HELP {name} CPU time this process used, user and system, in seconds."
            );
            let _ = writeln!(out, "# TYPE {name} counter\n{name} {seconds}");
        }
        if let Some(bytes) = resident_memory() {
            gauge(
                &mut out,
                "process_resident_memory_bytes",
                "Resident memory of this process, in bytes.",
                "gauge",
                bytes,
            );
        }
        out
    }
}

/// The CPU time this process used so far (every thread, user and system), in seconds
/// (`None` off Unix).
fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let time = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        Some(time.tv_sec as f64 + time.tv_nsec as f64 / 1e9)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// This process's resident memory, from /proc (Linux; `None` elsewhere).
fn resident_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}
