//! Whoever sits at a seat: one of calltrump's bots, or an outside program speaking the
//! bot protocol (`ext:COMMAND`), one process per seat.

use crate::bot_protocol::HostMessage;
use anyhow::Result;
use calltrump_bots::{bot_by_name, Bot, Decision};
use calltrump_engine::{Action, ActionList, AnyGame, Game, GameRng, Seat, SeenAction, Viewer};
use rand::Rng;
use serde_json::{json, Value};

use crate::external::{ExternalBot, Terms};
use crate::game_loop::Stop;

/// A seated player.
pub enum Player {
    /// A built-in bot.
    Builtin(Box<dyn Bot>),
    /// An outside program, playing one seat.
    External(Box<ExternalBot>),
}

impl Player {
    /// A bot name (`random`, `rules`, `hard`, ...) or `ext:COMMAND`, to play `seat` of a
    /// game under `rules`. An outside program is started, and told its seat.
    pub fn from_spec(spec: &str, seat: Seat, game: &AnyGame, terms: Terms) -> Result<Player> {
        match spec.strip_prefix("ext:") {
            Some(command) => Ok(Player::External(Box::new(ExternalBot::start(
                command,
                seat,
                game.rules(),
                terms,
            )?))),
            None => Ok(Player::Builtin(bot_by_name(spec)?)),
        }
    }

    /// Whether `spec` names an outside program.
    pub fn is_external(spec: &str) -> bool {
        spec.starts_with("ext:")
    }

    /// The name of the player `spec` names, without starting anything: a built-in bot's
    /// own name, an outside program's command (its handshake may give a better one).
    pub fn spec_name(spec: &str) -> Result<String> {
        match spec.strip_prefix("ext:") {
            Some(command) => Ok(command.to_string()),
            None => Ok(bot_by_name(spec)?.name()),
        }
    }

    /// The player's name for reports.
    pub fn name(&self) -> String {
        match self {
            Player::Builtin(bot) => bot.name(),
            Player::External(bot) => bot.name().to_string(),
        }
    }

    /// The player's action at `seat`, from that seat's observation only. `deal` names
    /// the deal in messages about an outside bot, which gets a seed drawn from `rng`.
    pub fn act(
        &mut self,
        game: &AnyGame,
        seat: Seat,
        legal: &ActionList,
        rng: &mut GameRng,
        deal: u64,
    ) -> Result<Action> {
        let observation = game.observation(seat);
        let decision = Decision {
            rules: game.rules(),
            observation: &observation,
            legal,
        };
        match self {
            Player::Builtin(bot) => Ok(bot.choose(&decision, rng)),
            // Below 2^53, so that every JSON reader holds it exactly.
            Player::External(bot) => bot.decide(
                &decision,
                game.view(Viewer::Seat(seat)),
                deal,
                rng.random::<u64>() >> 11,
            ),
        }
    }

    /// Tells an outside program a `result`; a built-in bot needs no telling.
    pub fn tell(&mut self, message: &HostMessage, deal: u64) -> Result<()> {
        match self {
            Player::Builtin(_) => Ok(()),
            Player::External(bot) => bot.tell(message, deal),
        }
    }
}

/// Who plays each seat of a table: seat `s` is played by `players[at[s]]`. A built-in
/// bot may play several seats (it sees only the observation it is given); an outside
/// program plays one.
pub struct Seating<'a> {
    /// The players.
    pub players: &'a mut [Player],
    /// Each seat's player, by index into `players`.
    pub at: &'a [usize],
}

impl Seating<'_> {
    /// The player at `seat`, to ask for its action there ([`Player::act`]).
    pub fn at_seat(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[self.at[seat.index()]]
    }

    /// Tells every outside program at the table how the hand just finished went.
    pub fn tell_hand(&mut self, game: &AnyGame, deal: u64) -> Result<()> {
        self.tell(&hand_result(game, deal), deal)
    }

    /// Tells every outside program at the table how the game ended (or stopped).
    pub fn tell_game(&mut self, game: &AnyGame, deals: usize, stop: Stop, deal: u64) -> Result<()> {
        self.tell(&game_result(game, deals, stop, deal), deal)
    }

    fn tell(&mut self, message: &HostMessage, deal: u64) -> Result<()> {
        for (i, player) in self.players.iter_mut().enumerate() {
            if self.at.contains(&i) {
                player.tell(message, deal)?;
            }
        }
        Ok(())
    }
}

/// The `result` of the hand just finished in `game`: its start, its actions as every
/// seat may see them (cards passed face down written `??`), how it ended and the points.
pub fn hand_result(game: &AnyGame, deal: u64) -> HostMessage {
    let views: Vec<Vec<(Seat, SeenAction)>> = (0..game.seats())
        .map(|s| game.observation(Seat(s as u8)).actions)
        .collect();
    // An action hidden from any seat is written as that seat saw it.
    let actions: Vec<(Seat, SeenAction)> = views[0]
        .iter()
        .enumerate()
        .map(|(i, &open)| {
            views
                .iter()
                .filter_map(|view| view.get(i).copied())
                .find(|(_, seen)| !matches!(seen, SeenAction::Open(_)))
                .unwrap_or(open)
        })
        .collect();
    let mut hand = match serde_json::to_value(game.hand_summary()) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    hand.insert("start".into(), json!(game.hand_start()));
    hand.insert("actions".into(), json!(actions));
    hand.insert("scores".into(), json!(game.scores()));
    HostMessage::Result {
        deal,
        hand: Some(Value::Object(hand)),
        game: None,
    }
}

/// The `result` of a game that ended (or stopped at the deal limit, a draw) after
/// `deals` deals.
pub fn game_result(game: &AnyGame, deals: usize, stop: Stop, deal: u64) -> HostMessage {
    let (ended, winner) = match stop {
        Stop::GameOver => ("game-over", json!(game.outcome())),
        Stop::DealLimit => ("deal-limit", json!("draw")),
        Stop::Quit => ("stopped", Value::Null),
    };
    HostMessage::Result {
        deal,
        hand: None,
        game: Some(json!({
            "scores": game.scores(),
            "winner": winner,
            "deals": deals,
            "ended": ended,
        })),
    }
}
