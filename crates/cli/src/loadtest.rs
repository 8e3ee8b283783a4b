//! `calltrump loadtest`: many tables at once against running servers (`--url`, several
//! for a cluster) or a `serve` it starts on loopback; the run is
//! `calltrump_server::loadtest`.

use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use calltrump_server::loadtest::{self, Plan};

/// Arguments of `loadtest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A running server to load, `http://HOST:PORT` (its limits on creates and
    /// connections per address off); several for a cluster's nodes: tables are made on
    /// each in turn and the clients spread over them. None: a `serve` on loopback.
    #[arg(long = "url")]
    urls: Vec<String>,
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
    /// The started server's `--sqlite-synchronous`: `full` (its default) or `normal`,
    /// to measure what FULL costs.
    #[arg(long, value_enum, default_value = "full", conflicts_with = "urls")]
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
        let sync = match sync {
            crate::serve::SqliteSynchronous::Full => "full",
            crate::serve::SqliteSynchronous::Normal => "normal",
        };
        // Every client is on loopback: the per-address limits would stop the load, not
        // measure it.
        let mut child = Command::new(std::env::current_exe()?)
            .args(["serve", "--addr", "127.0.0.1:0", "--bot-delay-ms", "0"])
            .args([
                "--max-connections",
                "1000000",
                "--max-connections-per-address",
                "0",
            ])
            .args([
                "--creates-per-minute",
                "0",
                "--sqlite-synchronous",
                sync,
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
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// Runs the load test and prints its figures.
pub fn run(args: &Args) -> Result<ExitCode> {
    let mut plan = Plan {
        nodes: args
            .urls
            .iter()
            .map(|url| loadtest::node_address(url))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow!(e))?,
        tables: args.tables,
        run: Duration::from_secs(args.secs),
        ramp: Duration::from_secs(args.ramp_secs),
        level: args.level.clone(),
        think: Duration::from_millis(args.think_ms),
    };
    plan.check().map_err(|e| anyhow!(e))?;
    let started = match plan.nodes.is_empty() {
        true => Some(Server::start(args.sqlite_synchronous)?),
        false => None,
    };
    plan.nodes.extend(started.iter().map(|s| s.addr.clone()));
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime
        .block_on(loadtest::run(&plan))
        .map_err(|e| anyhow!(e))?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
