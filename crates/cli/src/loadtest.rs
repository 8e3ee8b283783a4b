//! `calltrump loadtest`: many tables at once against a server on loopback, every seat a
//! `join`-style client; actions per second, round trips and the server's memory.

use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use calltrump_engine::catalog::options as spec;
use calltrump_engine::GameKind;
use calltrump_server::client::{http_request, play_seat_paced, RoundTrips, SeatLink};
use serde_json::{json, Value};

/// Most tables one run may open (four sockets each): what one machine's file limit holds.
const MAX_TABLES: usize = 4_000;

/// Arguments of `loadtest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Tables played at once (each has four seats, each seat a client socket).
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// Seconds to run; games are started until then, and the run stops by itself.
    #[arg(long, default_value_t = 20)]
    secs: u64,
    /// The bot each client plays (cheap ones load the server, not the clients).
    #[arg(long, default_value = "random")]
    level: String,
    /// Milliseconds each client thinks before an action, as people do (each pause drawn
    /// from half to one and a half times it): the offered rate is about one action per
    /// table per think time. 0 plays as fast as the server answers.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Seconds over which the tables open, one after another, as people arrive; the
    /// figures are measured from then to the end (the warm-up is not counted).
    #[arg(long, default_value_t = 5)]
    ramp_secs: u64,
    /// The server's `--sqlite-synchronous`: `full` (its default) or `normal`, to
    /// measure what FULL costs.
    #[arg(long, value_enum, default_value = "full")]
    sqlite_synchronous: crate::serve::SqliteSynchronous,
}

/// The server the load test starts: this binary's `serve` on a free loopback port.
struct Server {
    child: Child,
    addr: String,
    data: std::path::PathBuf,
}

impl Server {
    fn start(sync: crate::serve::SqliteSynchronous) -> Result<Server> {
        let data = std::env::temp_dir().join(format!("calltrump-loadtest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let mut child = Command::new(std::env::current_exe()?)
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--bot-delay-ms",
                "0",
                // Every client is on loopback: the per-address limits would stop the
                // load, not measure it.
                "--max-connections",
                "1000000",
                "--max-connections-per-address",
                "0",
                "--creates-per-minute",
                "0",
                "--sqlite-synchronous",
                match sync {
                    crate::serve::SqliteSynchronous::Full => "full",
                    crate::serve::SqliteSynchronous::Normal => "normal",
                },
                "--data",
            ])
            .arg(&data)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting the server")?;
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().context("the server's output")?),
            &mut line,
        )?;
        let addr = line
            .trim()
            .strip_prefix("calltrump is serving at http://")
            .context("the server did not start")?
            .trim_end_matches('/')
            .to_string();
        Ok(Server { child, addr, data })
    }

    /// The server's resident memory, from /proc (Linux), in bytes.
    fn memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
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
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Creates a table of four open seats: their links, or `None` once the server refuses.
async fn open_table(addr: &str) -> Option<Vec<SeatLink>> {
    let game = GameKind::Kaibosh;
    let table = json!({"game": game.name(), "options": {spec::KAIBOSH_DEALS.key: 4}});
    let Ok((201, body)) = http_request(addr, "POST", "/api/tables", Some(&table.to_string())).await
    else {
        return None;
    };
    let created: Value = serde_json::from_str(&body).ok()?;
    created["invites"]
        .as_array()?
        .iter()
        .map(|invite| SeatLink::parse(invite["url"].as_str()?).ok())
        .collect()
}

/// Runs the load test and prints its figures.
pub fn run(args: &Args) -> Result<ExitCode> {
    if args.tables == 0 || args.tables > MAX_TABLES {
        bail!("--tables must be from 1 to {MAX_TABLES}");
    }
    if args.secs == 0 || args.secs > 3_600 {
        bail!("--secs must be from 1 to 3600");
    }
    if args.think_ms > 60_000 {
        bail!("--think-ms must be at most 60000");
    }
    if args.ramp_secs >= args.secs {
        bail!("--ramp-secs must be less than --secs, to leave time to measure");
    }
    calltrump_bots::bot_by_name(&args.level)?;
    let server = Server::start(args.sqlite_synchronous)?;
    let idle_memory = server.memory();
    let runtime = tokio::runtime::Runtime::new()?;
    let round_trips = RoundTrips::default();
    let games_finished = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.secs);
    let ramp = Duration::from_secs(args.ramp_secs);
    let measured_from = started + ramp;
    let peak = runtime.block_on(async {
        for lane in 0..args.tables {
            let addr = server.addr.clone();
            let level = args.level.clone();
            let round_trips = Arc::clone(&round_trips);
            let games_finished = Arc::clone(&games_finished);
            let think = Duration::from_millis(args.think_ms);
            let arrival = ramp.mul_f64(lane as f64 / args.tables as f64);
            tokio::spawn(async move {
                tokio::time::sleep(arrival).await;
                while Instant::now() < deadline {
                    let Some(links) = open_table(&addr).await else {
                        break;
                    };
                    let seats: Vec<_> = links
                        .into_iter()
                        .enumerate()
                        .map(|(s, link)| {
                            let level = level.clone();
                            let round_trips = Arc::clone(&round_trips);
                            let seed = (lane * 4 + s) as u64;
                            tokio::spawn(async move {
                                let patience = Duration::from_secs(10);
                                play_seat_paced(&link, &level, seed, patience, think, &round_trips)
                                    .await
                            })
                        })
                        .collect();
                    for seat in seats {
                        let _ = seat.await;
                    }
                    games_finished.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // The server's memory while every table is in play; at the deadline the games
        // still running are dropped with the runtime.
        let mut peak = 0;
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
            peak = peak.max(server.memory().unwrap_or(0));
        }
        peak
    });
    runtime.shutdown_background();
    let games = games_finished.load(Ordering::Relaxed);
    let round_trips = round_trips.lock().expect("never poisoned");
    let actions = round_trips.len();
    let window = (deadline - measured_from).as_secs_f64();
    let mut trips: Vec<Duration> = round_trips
        .iter()
        .filter(|(sent, _)| (measured_from..deadline).contains(sent))
        .map(|(_, took)| *took)
        .collect();
    trips.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("tables at once     {}", args.tables);
    println!("sockets            {}", args.tables * 4);
    println!("games finished     {games}");
    println!("actions answered   {actions}");
    println!(
        "measured           from {} s to {} s (after the tables opened)",
        args.ramp_secs, args.secs
    );
    println!("actions/s          {:.0}", trips.len() as f64 / window);
    println!(
        "round trip (ms)    p50 {:.2}  p99 {:.2}  max {:.2}  over {} actions",
        ms(quantile(&trips, 0.5)),
        ms(quantile(&trips, 0.99)),
        ms(trips.last().copied().unwrap_or_default()),
        trips.len()
    );
    if let (Some(idle), true) = (idle_memory, peak > 0) {
        println!(
            "server memory      {:.1} MB idle, {:.1} MB peak: {:.0} KB per table",
            idle as f64 / 1e6,
            peak as f64 / 1e6,
            peak.saturating_sub(idle) as f64 / 1e3 / args.tables as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}
