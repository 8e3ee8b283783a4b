//! The load test (`calltrump loadtest`): many tables at once against running servers
//! (one, or the nodes of a cluster), every seat a `join`-style client; actions per
//! second and round trips in all and by node, and each node's own `/metrics`.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use calltrump_engine::catalog::options as spec;
use calltrump_engine::GameKind;
use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::client::{http_request, play_seat_paced, RoundTrips, SeatLink};

/// Most tables one run may open (four sockets each): what one machine's file limit holds.
pub const MAX_TABLES: usize = 4_000;

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The servers, `host:port` each: table `i` is made on node `i % n`, and the clients
    /// take the nodes in turn (seat `s` of table `i` on node `(4 i + s) % n`), as a load
    /// balancer without stickiness would spread them.
    pub nodes: Vec<String>,
    /// Tables played at once.
    pub tables: usize,
    /// How long the run lasts; games are started until then.
    pub run: Duration,
    /// Over how long the tables open; the figures are measured from then to the end.
    pub ramp: Duration,
    /// The bot each client plays.
    pub level: String,
    /// How long each client thinks before an action (from half to one and a half times).
    pub think: Duration,
}

impl Plan {
    /// Checks the plan but for its nodes ([`run`] checks those): what is wrong with it,
    /// named by its flag.
    pub fn check(&self) -> Result<(), String> {
        if self.tables == 0 || self.tables > MAX_TABLES {
            return Err(format!("--tables must be from 1 to {MAX_TABLES}"));
        }
        if self.run.is_zero() || self.run > Duration::from_secs(3_600) {
            return Err("--secs must be from 1 to 3600".into());
        }
        if self.think > Duration::from_secs(60) {
            return Err("--think-ms must be at most 60000".into());
        }
        if self.ramp >= self.run {
            return Err("--ramp-secs must be less than --secs, to leave time to measure".into());
        }
        calltrump_bots::bot_by_name(&self.level).map_err(|e| format!("--level: {e}"))?;
        Ok(())
    }
}

/// Reads a `--url`: `http://HOST:PORT` (a trailing `/` allowed) or `HOST:PORT`, as
/// `host:port`.
pub fn node_address(url: &str) -> Result<String, String> {
    if url.starts_with("https://") {
        return Err(format!(
            "--url {url}: the load test speaks plain HTTP; give a node's own http:// address"
        ));
    }
    let addr = url
        .strip_prefix("http://")
        .unwrap_or(url)
        .trim_end_matches('/');
    match addr.rsplit_once(':') {
        Some((host, port))
            if !host.is_empty() && !addr.contains('/') && port.parse::<u16>().is_ok() =>
        {
            Ok(addr.to_string())
        }
        _ => Err(format!("--url {url}: expected http://HOST:PORT")),
    }
}

/// The counters of one scrape of a node's `/metrics` the report uses.
#[derive(Clone, Copy, Debug, Default)]
struct Scrape {
    actions: u64,
    tables: u64,
    connections: u64,
    relayed: u64,
    takeovers: u64,
    latency_count: u64,
    latency_sum: f64,
    memory: u64,
    cpu_seconds: f64,
}

impl Scrape {
    fn parse(text: &str) -> Scrape {
        let value = |name: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0.0)
        };
        Scrape {
            actions: value("calltrump_actions_total") as u64,
            tables: value("calltrump_tables") as u64,
            connections: value("calltrump_connections") as u64,
            relayed: value("calltrump_relayed_sockets_total") as u64,
            takeovers: value("calltrump_lease_takeovers_total") as u64,
            latency_count: value("calltrump_action_latency_seconds_count") as u64,
            latency_sum: value("calltrump_action_latency_seconds_sum"),
            memory: value("process_resident_memory_bytes") as u64,
            cpu_seconds: value("process_cpu_seconds_total"),
        }
    }

    async fn of(addr: &str) -> Option<Scrape> {
        match http_request(addr, "GET", "/metrics", None).await {
            Ok((200, text)) => Some(Scrape::parse(&text)),
            _ => None,
        }
    }
}

/// One node's figures.
#[derive(Clone, Debug)]
pub struct NodeReport {
    /// Its address.
    pub addr: String,
    /// The clients' round trips through it in the measured window, sorted.
    pub round_trips: Vec<Duration>,
    /// Actions it applied in the window (its `calltrump_actions_total`).
    pub actions: u64,
    /// The mean time it took from an action's arrival to every client told, in the
    /// window (its latency histogram's sum over its count).
    pub mean_action: Option<Duration>,
    /// The most tables and sockets it ran at once (sampled twice a second).
    pub peak_tables: u64,
    /// See `peak_tables`.
    pub peak_connections: u64,
    /// Sockets it relayed to another node, and tables it took over, in the whole run.
    pub relayed: u64,
    /// See `relayed`.
    pub takeovers: u64,
    /// Its resident memory before the run and at its peak, in bytes (0 if unknown).
    pub idle_memory: u64,
    /// See `idle_memory`.
    pub peak_memory: u64,
    /// The CPU time the node's process used in the window, over the actions it applied
    /// then (none if it applied none, or gives no `process_cpu_seconds_total`). On
    /// PostgreSQL the database's own work is in its processes, not here.
    pub cpu_per_action: Option<Duration>,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plan it ran.
    pub plan: Plan,
    /// Games played to their end.
    pub games: u64,
    /// Actions answered in the whole run (warm-up included).
    pub actions: usize,
    /// Tables a server refused to make, and the first refusal.
    pub refused: u64,
    /// See `refused`.
    pub first_refusal: Option<String>,
    /// Every node's figures, in the plan's order.
    pub nodes: Vec<NodeReport>,
}

/// The figures of every node as one run watches them.
struct Watch {
    first: Vec<Option<Scrape>>,
    at_measure: Vec<Option<Scrape>>,
    peak: Vec<Scrape>,
}

impl Watch {
    async fn scrape(nodes: &[String]) -> Vec<Option<Scrape>> {
        let mut all = Vec::with_capacity(nodes.len());
        for addr in nodes {
            all.push(Scrape::of(addr).await);
        }
        all
    }

    fn peaks(&mut self, now: &[Option<Scrape>]) {
        for (peak, now) in self.peak.iter_mut().zip(now) {
            if let Some(now) = now {
                peak.tables = peak.tables.max(now.tables);
                peak.connections = peak.connections.max(now.connections);
                peak.memory = peak.memory.max(now.memory);
            }
        }
    }
}

/// Creates a table of four open seats on `addr`: its seats' tokens and table id, or the
/// server's refusal.
async fn open_table(addr: &str) -> Result<Vec<SeatLink>, String> {
    let game = GameKind::Kaibosh;
    let table = json!({"game": game.name(), "options": {spec::KAIBOSH_DEALS.key: 4}});
    let (status, body) = http_request(addr, "POST", "/api/tables", Some(&table.to_string()))
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    if status != 201 {
        return Err(format!("{addr} answered {status}: {}", body.trim()));
    }
    let created: Value = serde_json::from_str(&body).map_err(|e| format!("{addr}: {e}"))?;
    created["invites"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|invite| SeatLink::parse(invite["url"].as_str().unwrap_or_default()))
        .collect()
}

/// Runs `plan` against its nodes, then stops every client (games in play or not) and
/// reports; what is wrong with the plan, if anything is.
pub async fn run(plan: &Plan) -> Result<Report, String> {
    plan.check()?;
    let nodes = &plan.nodes;
    if nodes.is_empty() {
        return Err("give at least one --url".into());
    }
    let trips: Vec<RoundTrips> = nodes.iter().map(|_| RoundTrips::default()).collect();
    let games = Arc::new(AtomicU64::new(0));
    let refusals = Arc::new(Mutex::new((0, None::<String>)));
    let first = Watch::scrape(nodes).await;
    let mut watch = Watch {
        peak: first.iter().map(|s| s.unwrap_or_default()).collect(),
        at_measure: first.clone(),
        first,
    };
    let started = Instant::now();
    let deadline = started + plan.run;
    let measured_from = started + plan.ramp;
    let mut lanes = JoinSet::new();
    for lane in 0..plan.tables {
        let maker = nodes[lane % nodes.len()].clone();
        let seat_nodes: Vec<usize> = (0..4).map(|s| (lane * 4 + s) % nodes.len()).collect();
        let (nodes, trips) = (nodes.clone(), trips.clone());
        let (games, refusals, level) = (games.clone(), refusals.clone(), plan.level.clone());
        let think = plan.think;
        let arrival = plan.ramp.mul_f64(lane as f64 / plan.tables as f64);
        lanes.spawn(async move {
            tokio::time::sleep(arrival).await;
            while Instant::now() < deadline {
                let links = match open_table(&maker).await {
                    Ok(links) => links,
                    Err(why) => {
                        let mut refused = refusals.lock().expect("never poisoned");
                        refused.0 += 1;
                        refused.1.get_or_insert(why);
                        break;
                    }
                };
                // Dropped at the deadline, the set stops its seats' clients.
                let mut seats = JoinSet::new();
                for (s, mut link) in links.into_iter().enumerate() {
                    let node = seat_nodes[s % 4];
                    // The invite names the server's public address; this client goes
                    // to its own node, as through a load balancer.
                    link.base = nodes[node].clone();
                    link.secure = false;
                    let (trips, level) = (trips[node].clone(), level.clone());
                    let seed = (lane * 4 + s) as u64;
                    seats.spawn(async move {
                        let patience = Duration::from_secs(10);
                        let _ = play_seat_paced(&link, &level, seed, patience, think, &trips).await;
                    });
                }
                while seats.join_next().await.is_some() {}
                games.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
    let mut measuring = false;
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(500).min(deadline - Instant::now())).await;
        let now = Watch::scrape(nodes).await;
        if !measuring && Instant::now() >= measured_from {
            measuring = true;
            watch.at_measure = now.clone();
        }
        watch.peaks(&now);
    }
    let last = Watch::scrape(nodes).await;
    lanes.abort_all();
    while lanes.join_next().await.is_some() {}
    let window = measured_from..deadline;
    let actions = trips
        .iter()
        .map(|t| t.lock().expect("never poisoned").len())
        .sum();
    let nodes = nodes
        .iter()
        .enumerate()
        .map(|(i, addr)| {
            let mut round_trips: Vec<Duration> = trips[i]
                .lock()
                .expect("never poisoned")
                .iter()
                .filter(|(sent, _)| window.contains(sent))
                .map(|(_, took)| *took)
                .collect();
            round_trips.sort();
            let start = watch.first[i].unwrap_or_default();
            let from = watch.at_measure[i].unwrap_or(start);
            let to = last[i].unwrap_or(from);
            let count = to.latency_count.saturating_sub(from.latency_count);
            NodeReport {
                addr: addr.clone(),
                round_trips,
                actions: to.actions.saturating_sub(from.actions),
                mean_action: (count > 0).then(|| {
                    Duration::from_secs_f64(
                        (to.latency_sum - from.latency_sum).max(0.0) / count as f64,
                    )
                }),
                peak_tables: watch.peak[i].tables,
                peak_connections: watch.peak[i].connections,
                relayed: to.relayed.saturating_sub(start.relayed),
                takeovers: to.takeovers.saturating_sub(start.takeovers),
                idle_memory: watch.first[i].map_or(0, |s| s.memory),
                peak_memory: watch.peak[i].memory,
                cpu_per_action: cpu_per_action(&from, &to),
            }
        })
        .collect();
    let (refused, first_refusal) = refusals.lock().expect("never poisoned").clone();
    Ok(Report {
        plan: plan.clone(),
        games: games.load(Ordering::Relaxed),
        actions,
        refused,
        first_refusal,
        nodes,
    })
}

/// The CPU time a node used between scrapes `from` and `to`, over the actions it
/// applied between them.
fn cpu_per_action(from: &Scrape, to: &Scrape) -> Option<Duration> {
    let actions = to.actions.saturating_sub(from.actions);
    let cpu = to.cpu_seconds - from.cpu_seconds;
    (actions > 0 && to.cpu_seconds > 0.0 && cpu >= 0.0)
        .then(|| Duration::from_secs_f64(cpu / actions as f64))
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `p50 … p99 … max … over N actions` of sorted round trips.
fn trips_line(sorted: &[Duration]) -> String {
    format!(
        "p50 {:.2}  p99 {:.2}  max {:.2}  over {} actions",
        ms(quantile(sorted, 0.5)),
        ms(quantile(sorted, 0.99)),
        ms(sorted.last().copied().unwrap_or_default()),
        sorted.len()
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plan = &self.plan;
        let window = (plan.run - plan.ramp).as_secs_f64();
        let mut all: Vec<Duration> = self
            .nodes
            .iter()
            .flat_map(|n| n.round_trips.iter().copied())
            .collect();
        all.sort();
        writeln!(f, "tables at once     {}", plan.tables)?;
        writeln!(f, "sockets            {}", plan.tables * 4)?;
        writeln!(f, "games finished     {}", self.games)?;
        writeln!(f, "actions answered   {}", self.actions)?;
        if let Some(why) = &self.first_refusal {
            writeln!(f, "tables refused     {} (the first: {why})", self.refused)?;
        }
        writeln!(
            f,
            "measured           from {} s to {} s (after the tables opened)",
            plan.ramp.as_secs(),
            plan.run.as_secs()
        )?;
        writeln!(f, "actions/s          {:.0}", all.len() as f64 / window)?;
        write!(f, "round trip (ms)    {}", trips_line(&all))?;
        for node in &self.nodes {
            writeln!(f)?;
            writeln!(f, "node {}", node.addr)?;
            writeln!(f, "  round trip (ms)  {}", trips_line(&node.round_trips))?;
            write!(
                f,
                "  server           {:.0} actions/s, {} tables and {} sockets at most, {} relayed, {} taken over",
                node.actions as f64 / window,
                node.peak_tables,
                node.peak_connections,
                node.relayed,
                node.takeovers
            )?;
            if let Some(mean) = node.mean_action {
                write!(f, ", {:.2} ms an action (mean, arrival to told)", ms(mean))?;
            }
            if let Some(cpu) = node.cpu_per_action {
                write!(
                    f,
                    "\n  CPU              {:.3} ms of the node's CPU an action",
                    ms(cpu)
                )?;
            }
            if node.peak_memory > 0 {
                write!(
                    f,
                    "\n  memory           {:.1} MB idle, {:.1} MB peak: {:.0} KB per table it ran",
                    node.idle_memory as f64 / 1e6,
                    node.peak_memory as f64 / 1e6,
                    node.peak_memory.saturating_sub(node.idle_memory) as f64
                        / 1e3
                        / node.peak_tables.max(1) as f64
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_a_nodes_plain_http_address() {
        assert_eq!(
            node_address("http://127.0.0.1:8080/").unwrap(),
            "127.0.0.1:8080"
        );
        assert_eq!(node_address("10.0.0.2:80").unwrap(), "10.0.0.2:80");
        for bad in [
            "https://a:1",
            "http://a",
            "http://a:1/x",
            "http://:1",
            "a:port",
        ] {
            let err = node_address(bad).unwrap_err();
            assert!(err.starts_with(&format!("--url {bad}: ")), "{err}");
        }
    }

    #[test]
    fn a_scrape_reads_the_counters_it_uses() {
        let text = "# HELP calltrump_tables x\ncalltrump_tables 3\ncalltrump_tables_paused 9\ncalltrump_actions_total 40\ncalltrump_action_latency_seconds_sum 0.5\ncalltrump_action_latency_seconds_count 10\nprocess_resident_memory_bytes 2048\nprocess_cpu_seconds_total 1.5\n";
        let s = Scrape::parse(text);
        assert_eq!(
            (s.tables, s.actions, s.latency_count, s.memory),
            (3, 40, 10, 2048)
        );
        assert_eq!((s.latency_sum, s.cpu_seconds), (0.5, 1.5));
        assert_eq!(s.relayed, 0);
        let later = Scrape {
            actions: 240,
            cpu_seconds: 1.9,
            ..s
        };
        let per = cpu_per_action(&s, &later).unwrap();
        assert!((per.as_secs_f64() - 0.002).abs() < 1e-9, "{per:?}");
        assert_eq!(cpu_per_action(&s, &s), None);
    }
}
