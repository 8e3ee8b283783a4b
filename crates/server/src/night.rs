//! The alexa Bid Euchre night at the server: named players (people or bots) play sets of
//! 8 deals, each set at a table of its own with the partners and sit-outs of the
//! engine's rotation ([`calltrump_engine::night`]); each player's score sheet is kept.
//!
//! A night is a small state machine over ordinary tables: it starts set 0's table, waits
//! for its game to be over, takes its final scores, starts the next set's table, and so
//! on. Its state (players, their tokens, each set's table and seat tokens, the results)
//! is stored whole after every change, so a restarted server picks every night up where
//! it was.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Extension, Path as AxumPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use calltrump_engine::catalog::options as spec;
use calltrump_engine::night::{set_rules, set_table, SET_VARIANT};
use calltrump_engine::{Night, NightSheet, Seat};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::accounts::client_address;
use crate::hub::{Capped, Hub, HubError, NewTable, PreparedTable};
use crate::model::{NightStatus, Sitter, TurnClock};
use crate::request;
use crate::session::check_sitter;
use crate::store::{StoreError, StoredNight};
use crate::Edge;

mod rated;
mod run;

pub use run::resume_nights;
use run::spawn_night;

/// Most players in a night, and most sets.
const MAX_PLAYERS: usize = 16;
const MAX_SETS: usize = 50;

/// A night to start, as `POST /api/nights` takes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewNight {
    /// The players in order (at least four): the sit-outs and partners rotate over it.
    pub players: Vec<NewNightPlayer>,
    /// How many sets of 8 deals.
    pub sets: usize,
    /// Options of alexa Bid Euchre that differ from the defaults (a set is always 8
    /// deals).
    #[serde(default)]
    pub options: Map<String, Value>,
    /// Whether a night of bots alone plays with nobody watching (within the server's
    /// `--max-unattended-tables`); otherwise its sets play while someone watches. A
    /// night with a person plays the sets they sit out unattended.
    #[serde(default)]
    pub unattended: bool,
    /// Whether the night is rated: its host signed in, each person an account of that
    /// name, every set's game rated (Bid Euchre) as any rated table's.
    #[serde(default)]
    pub rated: bool,
    /// A turn clock for every set's table, as a table takes it (`{"seconds", "level"}`):
    /// a person who has not decided in time has a bot decide that once; none, no clock.
    #[serde(default)]
    pub turn_clock: Option<TurnClock>,
    /// The signed-in host's name, who names a rated night's people (from the request's
    /// session, never its body).
    #[serde(skip)]
    pub host: Option<String>,
}

/// One player of a new night.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewNightPlayer {
    /// The name on the score sheet.
    pub name: String,
    /// `person` (the default) or `bot:LEVEL`.
    #[serde(default = "person")]
    pub sitter: Sitter,
}

fn person() -> Sitter {
    Sitter::Person
}

/// A night's state as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct NightState {
    players: Vec<NightPlayer>,
    sets: usize,
    options: Map<String, Value>,
    /// Each set started so far: its table and the token of each seat a person plays.
    tables: Vec<SetTableRef>,
    /// Each finished set's final team scores (team `seat % 2` of that set's table).
    results: Vec<[i32; 2]>,
    /// Whether the host asked for a night of bots alone to play unattended.
    #[serde(default)]
    unattended: bool,
    /// Whether every set is rated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
    /// The sets' turn clock (none in a night stored before there was one).
    #[serde(default)]
    turn_clock: Option<TurnClock>,
    /// At a rated night, the signed-in host who named its people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct NightPlayer {
    name: String,
    sitter: Sitter,
    /// The player's own link to the night.
    token: String,
    /// At a rated night, a person's account: their seat at each set is kept for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    account: Option<String>,
    /// The set the player declined (left before its start): a bot plays them from then
    /// on, for no account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    declined: Option<usize>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct SetTableRef {
    table: String,
    /// By seat: the seat's token if a person plays it.
    seat_tokens: Vec<Option<String>>,
}

impl NightState {
    /// The engine's night with the results so far.
    fn night(&self) -> Night {
        let names = self.players.iter().map(|p| p.name.clone()).collect();
        let mut night = Night::new(names, self.sets).expect("a stored night was valid");
        for (set, scores) in self.results.iter().enumerate() {
            night
                .record_set(set, *scores)
                .expect("each set is recorded once");
        }
        night
    }
}

/// A night just made: its id and each player's token.
#[derive(Clone, Debug, Serialize)]
pub struct CreatedNight {
    /// The night's id.
    pub id: String,
    /// Each player's name and token, in the night's order.
    pub players: Vec<(String, String)>,
}

impl CreatedNight {
    /// The answer to `POST /api/nights`: the night's page, and each player's own link
    /// on server `base`.
    fn answer(&self, base: &str) -> Value {
        let players: Vec<Value> = self
            .players
            .iter()
            .map(|(name, token)| {
                let url = format!("{base}/night/{}#player={token}", self.id);
                json!({"name": name, "token": token, "url": url})
            })
            .collect();
        json!({"id": self.id, "url": format!("{base}/night/{}", self.id), "players": players})
    }
}

/// What anyone may see of a night; with a player's token, also where that player goes.
#[derive(Clone, Debug, Serialize)]
pub struct NightView {
    /// The night's id.
    pub id: String,
    /// `playing`, `over` or `ended` (a set's table was ended).
    pub status: NightStatus,
    /// Sets in the night.
    pub sets: usize,
    /// The set being played, from 0 (none once the night is over).
    pub set: Option<usize>,
    /// The players' names and whether a bot plays them.
    pub players: Vec<NightPlayerView>,
    /// The score sheets (the engine's).
    pub sheet: NightSheet,
    /// The table of each set started so far, by set.
    pub tables: Vec<String>,
    /// Who sits where in the set being played.
    pub seating: Option<SeatingView>,
    /// The player whose token was given.
    pub you: Option<YouView>,
}

/// One player of a night, as everyone sees it.
#[derive(Clone, Debug, Serialize)]
pub struct NightPlayerView {
    /// The name.
    pub name: String,
    /// Whether a bot plays this player.
    pub bot: bool,
    /// The set this person declined, if any: a bot plays them from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declined: Option<usize>,
}

impl NightPlayer {
    fn view(&self) -> NightPlayerView {
        NightPlayerView {
            name: self.name.clone(),
            bot: self.sitter.bot_level().is_some(),
            declined: self.declined,
        }
    }
}

/// The seating of one set.
#[derive(Clone, Debug, Serialize)]
pub struct SeatingView {
    /// The set, from 0.
    pub set: usize,
    /// The set's table.
    pub table: String,
    /// The player at each seat (seat 0 deals first; 0 and 2 are partners, 1 and 3).
    pub seats: Vec<String>,
    /// Who sits this set out (30 points each).
    pub sitting_out: Vec<String>,
}

/// Where a player goes now.
#[derive(Clone, Debug, Serialize)]
pub struct YouView {
    /// The player's name.
    pub name: String,
    /// The player's seat in the set being played, or none when sitting out.
    pub seat: Option<Seat>,
    /// The link to follow: the seat's at the set's table, or the table's to watch.
    pub link: Option<String>,
}

/// A night still being played, as the lobby lists it (`GET /api/nights`): no token.
#[derive(Clone, Debug, Serialize)]
pub struct NightSummary {
    /// The night's id.
    pub id: String,
    /// Sets in the night.
    pub sets: usize,
    /// The set being played, from 0.
    pub set: usize,
    /// The players' names and whether a bot plays them.
    pub players: Vec<NightPlayerView>,
    /// The table of the set being played, to watch.
    pub table: Option<String>,
}

fn night_error(message: impl Into<String>) -> HubError {
    HubError::BadRequest(message.into())
}

impl Hub {
    /// Starts a night asked for from the client address `from`: checks it, stores it
    /// and opens its first set's table (one of `from`'s unattended tables, if the night
    /// is to play unattended). `accounts`: at a rated night, each player's account (a
    /// person's), else empty.
    pub async fn create_night(
        &self,
        request: NewNight,
        accounts: Vec<Option<String>>,
        from: Option<IpAddr>,
    ) -> Result<CreatedNight, HubError> {
        if request.players.len() > MAX_PLAYERS {
            return Err(night_error(format!(
                "a night has at most {MAX_PLAYERS} players, not {}",
                request.players.len()
            )));
        }
        if request.sets > MAX_SETS {
            return Err(night_error(format!(
                "a night has at most {MAX_SETS} sets, not {}",
                request.sets
            )));
        }
        for key in [spec::BID_EUCHRE_DEALS.key, spec::ROUNDS.key] {
            if request.options.contains_key(key) {
                return Err(night_error(format!(
                    "options: {key}: a night's sets are always {} deals",
                    set_rules().deals
                )));
            }
        }
        let mut players = Vec::new();
        for (i, player) in request.players.iter().enumerate() {
            let Some(name) = crate::hub::player_name(&player.name) else {
                return Err(night_error(format!("player {}: no name", i + 1)));
            };
            if player.sitter == Sitter::Open {
                return Err(night_error(format!(
                    "player {name}: \"{}\" is neither \"person\" nor \"bot:LEVEL\"",
                    player.sitter
                )));
            }
            // Every level now, not when its player's first set comes.
            if let Sitter::Bot(_) = &player.sitter {
                check_sitter(&player.sitter)
                    .map_err(|e| night_error(format!("player {name}: {e}")))?;
            }
            players.push(NightPlayer {
                name,
                sitter: player.sitter.clone(),
                token: crate::hub::random_hex(),
                account: accounts.get(i).cloned().flatten(),
                declined: None,
            });
        }
        let names = players.iter().map(|p| p.name.clone()).collect();
        Night::new(names, request.sets).map_err(|e| night_error(e.to_string()))?;
        let mut state = NightState {
            players,
            sets: request.sets,
            options: request.options,
            tables: Vec::new(),
            results: Vec::new(),
            unattended: request.unattended,
            rated: request.rated,
            turn_clock: request.turn_clock,
            host: request.host,
        };
        let id = crate::hub::random_hex()[..16].to_string();
        self.check_live_tables()?;
        // The first set's table checks the options and the bots' levels.
        let capped = if state.unattended {
            Capped::From(from)
        } else {
            Capped::No
        };
        let table = self.start_set(&id, &mut state, capped).await?;
        let stored = StoredNight {
            id: id.clone(),
            state: serde_json::to_string(&state).expect("a night serializes"),
            status: NightStatus::Playing,
            created_at: crate::hub::now_secs(),
        };
        self.shared()
            .store
            .create_set_table(&table.stored, &stored)
            .await?;
        self.start_prepared(table)?;
        spawn_night(self.clone(), id.clone());
        Ok(CreatedNight {
            id,
            players: state
                .players
                .iter()
                .map(|p| (p.name.clone(), p.token.clone()))
                .collect(),
        })
    }

    /// Makes the table of the next set, `state.tables.len()`, and names it in `state`:
    /// the caller stores both in one transaction, then runs the table.
    async fn start_set(
        &self,
        night: &str,
        state: &mut NightState,
        capped: Capped,
    ) -> Result<PreparedTable<'_>, HubError> {
        let set = state.tables.len();
        let seating = set_table(state.players.len(), set);
        let sitters: Vec<Sitter> = seating
            .seats
            .iter()
            .map(|&p| match &state.players[p].sitter {
                Sitter::Person | Sitter::Open => Sitter::Open,
                bot @ Sitter::Bot(_) => bot.clone(),
            })
            .collect();
        let mut options = state.options.clone();
        options.insert(spec::BID_EUCHRE_DEALS.key.into(), set_rules().deals.into());
        // A person was invited: the sets they sit out go on without them.
        let invited = state.players.iter().any(|p| p.sitter == Sitter::Person);
        let table = self
            .prepare_table(
                NewTable {
                    game: SET_VARIANT.game().name().into(),
                    variant: Some(SET_VARIANT.name().into()),
                    options,
                    seats: Some(sitters.clone()),
                    undo: false,
                    hints: false,
                    names: Some(
                        seating
                            .seats
                            .iter()
                            .map(|&p| state.players[p].name.clone())
                            .collect(),
                    ),
                    // Seat 0 of each set's table deals first.
                    first_dealer: Some(Seat(0)),
                    unattended: state.unattended || invited,
                    turn_clock: state.turn_clock.clone(),
                    rated: state.rated,
                    accounts: seating
                        .seats
                        .iter()
                        .map(|&p| state.players[p].account.clone())
                        .collect(),
                    host_seat: None,
                    host_account: None,
                    night: Some(night.to_string()),
                    invited_by: state.host.clone(),
                },
                capped,
            )
            .await?;
        let mut seat_tokens = vec![None; sitters.len()];
        for (seat, token) in &table.created.seat_tokens {
            seat_tokens[seat.index()] = Some(token.clone());
        }
        state.tables.push(SetTableRef {
            table: table.created.id.clone(),
            seat_tokens,
        });
        Ok(table)
    }

    /// The nights still being played, oldest first, as anyone may see them.
    pub async fn open_nights(&self) -> Result<Vec<NightSummary>, HubError> {
        let mut nights = Vec::new();
        for stored in self.shared().store.live_nights().await? {
            let state = read_state(&stored)?;
            let set = state.results.len();
            nights.push(NightSummary {
                id: stored.id,
                sets: state.sets,
                set,
                players: state.players.iter().map(NightPlayer::view).collect(),
                table: state.tables.get(set).map(|t| t.table.clone()),
            });
        }
        Ok(nights)
    }

    /// A night as anyone may see it; with `player` (a player's token), where that
    /// player goes now.
    pub async fn night_view(&self, id: &str, player: Option<&str>) -> Result<NightView, HubError> {
        let stored = self
            .shared()
            .store
            .night(id)
            .await?
            .ok_or_else(|| HubError::NoNight(id.to_string()))?;
        let state = read_state(&stored)?;
        let playing = stored.status == NightStatus::Playing;
        let set = playing.then_some(state.results.len());
        let seating = set.and_then(|set| {
            let table = state.tables.get(set)?;
            let seats = set_table(state.players.len(), set);
            let name = |p: &usize| state.players[*p].name.clone();
            Some((
                SeatingView {
                    set,
                    table: table.table.clone(),
                    seats: seats.seats.iter().map(name).collect(),
                    sitting_out: seats.sitting_out.iter().map(name).collect(),
                },
                seats,
                table,
            ))
        });
        let you = player
            .and_then(|token| state.players.iter().position(|p| p.token == token))
            .map(|p| {
                let (seat, link) = match &seating {
                    Some((_, seats, table)) => match seats.seat_of(p) {
                        // A seat a bot plays (one declined too): the table, to watch.
                        Some(seat) => (
                            Some(Seat(seat as u8)),
                            Some(match &table.seat_tokens[seat] {
                                Some(token) => format!("/table/{}#token={token}", table.table),
                                None => format!("/table/{}", table.table),
                            }),
                        ),
                        None => (None, Some(format!("/table/{}", table.table))),
                    },
                    None => (None, None),
                };
                YouView {
                    name: state.players[p].name.clone(),
                    seat,
                    link,
                }
            });
        if player.is_some() && you.is_none() {
            return Err(night_error(
                "this link's token is not a player's of this night",
            ));
        }
        Ok(NightView {
            id: stored.id.clone(),
            status: stored.status,
            sets: state.sets,
            set,
            players: state.players.iter().map(NightPlayer::view).collect(),
            sheet: state.night().sheet(),
            tables: state.tables.iter().map(|t| t.table.clone()).collect(),
            seating: seating.map(|(view, _, _)| view),
            you,
        })
    }
}

fn read_state(stored: &StoredNight) -> Result<NightState, HubError> {
    serde_json::from_str(&stored.state).map_err(|e| corrupt_night(&stored.id, &e.to_string()))
}

fn corrupt_night(id: &str, message: &str) -> HubError {
    HubError::Store(StoreError::Corrupt {
        table: format!("night {id}"),
        message: message.to_string(),
    })
}

/// The night's routes: `POST /api/nights`, `GET /api/nights` (the nights being played),
/// `GET /api/nights/{id}` (`?player=TOKEN` for that player's link), and the page:
/// `/night` to start one, `/night/{id}` to follow it.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/nights", post(create).get(list))
        .route("/api/nights/{id}", get(view))
        .route("/night", get(page))
        .route("/night/{id}", get(page))
}

async fn create(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let request: NewNight = match request::json_request(&headers, &body, "night") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let mut request = request;
    let accounts = match rated::night_accounts(&hub, &headers, &request).await {
        Ok((accounts, host)) => {
            request.host = host;
            accounts
        }
        Err(refused) => return refused,
    };
    let from = client_address(&edge, &headers, peer);
    match hub.create_night(request, accounts, from).await {
        Ok(created) => (
            StatusCode::CREATED,
            Json(created.answer(&request::base_url(&headers))),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

async fn list(State(hub): State<Hub>) -> Response {
    match hub.open_nights().await {
        Ok(nights) => Json(json!({ "nights": nights })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The query of a night's view.
#[derive(Deserialize)]
struct ViewQuery {
    player: Option<String>,
}

async fn view(
    State(hub): State<Hub>,
    request::NightId(id): request::NightId,
    Query(query): Query<ViewQuery>,
) -> Response {
    match hub.night_view(&id, query.player.as_deref()).await {
        Ok(view) => Json(view).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn page() -> Response {
    crate::pages::asset(AxumPath("night.html".to_string())).await
}
