//! How tables run: pacing, grace, limits.

use std::time::Duration;

/// Longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 500;
/// The level that fills empty seats when the host starts.
pub const FILL_LEVEL: &str = "medium";
/// How long a person who must cut may take before the server cuts at random
/// ([`HubConfig::cut_wait`]).
pub const DEFAULT_CUT_WAIT: Duration = Duration::from_secs(15);
/// The most deals a table plays unless the server says otherwise (`--max-deals`): far
/// more than a game between people lasts, a bound on bots that never finish.
pub const DEFAULT_MAX_DEALS: usize = 200;
/// How long a table whose game is over stays in memory once nobody is connected.
pub const DEFAULT_KEEP_OVER: Duration = Duration::from_secs(10 * 60);
/// How long a table waiting for players may stay with nobody connected before it is
/// closed as abandoned ([`HubConfig::abandon_open`]).
pub const DEFAULT_ABANDON_OPEN: Duration = Duration::from_secs(24 * 60 * 60);

/// Tables of bots alone that may play with nobody watching at once, unless the server
/// says otherwise (`--max-unattended-tables`).
pub const DEFAULT_MAX_UNATTENDED: usize = 10;

/// Tables open or in play that a server holds at once, by default: above `loadtest
/// --tables 2500`, and far below what made the lobby list megabytes long.
pub const DEFAULT_MAX_LIVE_TABLES: usize = 5000;

/// How the tables run.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// The pause before a bot acts or the next hand is dealt, so people can follow.
    pub bot_delay: Duration,
    /// How long a person may be away before a bot stands in.
    pub grace: Duration,
    /// Deal every table from this seed (tests, demonstrations); otherwise from the OS.
    pub seed: Option<u64>,
    /// The most deals a table plays: when the next deal would pass it, the game ends as
    /// a draw ([`DEFAULT_MAX_DEALS`]).
    pub max_deals: usize,
    /// How long a table whose game is over stays in memory after its last connection
    /// left ([`DEFAULT_KEEP_OVER`]); it is loaded again from the store when asked for.
    pub keep_over: Duration,
    /// How long a table whose game has not started may have nobody connected before it
    /// is ended as abandoned ([`DEFAULT_ABANDON_OPEN`]), so that it is not resumed at
    /// every start for ever.
    pub abandon_open: Duration,
    /// How long a person who must cut the deck may take before the server cuts at
    /// random for them ([`DEFAULT_CUT_WAIT`]).
    pub cut_wait: Duration,
    /// How many tables whose host asked for their bots to play unattended may be in
    /// play or waiting at once ([`DEFAULT_MAX_UNATTENDED`]); a table of bots alone
    /// otherwise plays only while someone is connected.
    pub max_unattended: usize,
    /// How many of those one client address may hold ([`HubConfig::unattended_share`]);
    /// `None`: a quarter of [`HubConfig::max_unattended`], at least one.
    pub max_unattended_per_address: Option<usize>,
    /// How many tables may be open or in play at once ([`DEFAULT_MAX_LIVE_TABLES`]):
    /// past it a new table or night is refused, saying why (a night's next set is not).
    pub max_live_tables: usize,
}

impl HubConfig {
    /// The defaults of `calltrump serve`, with these bot pacing and grace.
    pub fn new(bot_delay: Duration, grace: Duration) -> HubConfig {
        HubConfig {
            bot_delay,
            grace,
            seed: None,
            max_deals: DEFAULT_MAX_DEALS,
            keep_over: DEFAULT_KEEP_OVER,
            abandon_open: DEFAULT_ABANDON_OPEN,
            cut_wait: DEFAULT_CUT_WAIT,
            max_unattended: DEFAULT_MAX_UNATTENDED,
            max_unattended_per_address: None,
            max_live_tables: DEFAULT_MAX_LIVE_TABLES,
        }
    }

    /// The unattended tables one client address may hold at once: so that one address
    /// cannot take every slot of [`HubConfig::max_unattended`].
    pub fn unattended_share(&self) -> usize {
        self.max_unattended_per_address
            .unwrap_or((self.max_unattended / 4).max(1))
    }
}
