//! [`View`]: what one seat's screen shows (or a spectator's), the same type for every
//! game. It is built from the seat's [`Observation`] and the game's public state, neither
//! of which holds a card the seat may not know, so the view cannot hold one either.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Strain};
use crate::any_game::AnyGame;
use crate::card::Card;
use crate::card_set::CardBag;
use crate::game::{
    Contract, Game, Goal, HandOutcome, Observation, Outcome, Phase, SeenAction, Turn,
};
use crate::seat::Seat;

/// Who a view is for: a seat, or a spectator who sees only what every seat sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Viewer {
    /// A seat at the table.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

impl Viewer {
    /// The seat, if the viewer sits at the table.
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }
}

/// A trick on the table: who led, the cards in play order with their seats, and the seat
/// whose card is winning it (none before the lead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickView {
    /// The seat that led.
    pub leader: Seat,
    /// The cards played so far, in order, each with the seat that played it.
    pub cards: Vec<(Seat, Card)>,
    /// The seat winning the trick so far (its winner once it is complete).
    pub winning: Option<Seat>,
}

/// What one seat's screen shows (or a spectator's): the same type for every game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Whom the view is for.
    pub viewer: Viewer,
    /// Seats at the table.
    pub seats: u8,
    /// The stage of the game.
    pub phase: Phase,
    /// Who moves next.
    pub turn: Turn,
    /// The dealer of the current (or last) hand.
    pub dealer: Seat,
    /// Deals completed before the current hand (thrown-in ones included).
    pub deals_played: u32,
    /// The calls of this hand's auction, in order.
    pub auction: Vec<(Seat, Action)>,
    /// The contract, once the auction is won.
    pub contract: Option<Contract>,
    /// Kout Bo: whether the contract is Malzom, the dealer's forced bid of 5 (it scores 5
    /// made and 5 to the others if set); false in the other games and before a contract.
    #[serde(default)]
    pub malzom: bool,
    /// Trump (or no-trump), once named.
    pub trump: Option<Strain>,
    /// The seat out of play this hand (a loner's partner), if any.
    pub sitting_out: Option<Seat>,
    /// Cards given or discarded this hand, as far as this viewer saw them.
    pub exchanges: Vec<(Seat, SeenAction)>,
    /// The trick on the table: the current one, or the hand's last once it is over.
    pub trick: Option<TrickView>,
    /// The last completed trick with its winner, if one is completed this hand.
    pub last_trick: Option<TrickView>,
    /// Tricks taken this hand by each team.
    pub tricks: [u8; 2],
    /// Tricks taken this hand by each seat.
    pub tricks_by_seat: Vec<u8>,
    /// Cards each seat holds now.
    pub hand_sizes: Vec<u8>,
    /// The viewer's own cards (none for a spectator).
    pub hand: Option<CardBag>,
    /// The same cards in the order the variant shows a hand: trumps first from the
    /// highest, then the other suits (see [`HandOrder::sort`](crate::catalog::HandOrder::sort)).
    #[serde(default)]
    pub sorted_hand: Option<Vec<Card>>,
    /// The viewer's legal actions, when it is the viewer's turn.
    pub legal: Vec<Action>,
    /// The game's calls that go by a name of their own, with the name (Kout Bo: `bid 5`
    /// is Bab, `bid 9` Bawan); the same in every view of the game.
    #[serde(default)]
    pub call_names: Vec<(Action, String)>,
    /// Running totals after the last complete hand.
    pub scores: [i32; 2],
    /// How the current hand ended, or that it has not.
    pub hand_outcome: HandOutcome,
    /// Points each team scored on the hand, once it is complete.
    pub hand_points: Option<[i32; 2]>,
    /// What ends the game.
    pub goal: Goal,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
}

impl AnyGame {
    /// What `viewer` may see of the game: see [`View`].
    pub fn view(&self, viewer: Viewer) -> View {
        View::of(self, viewer)
    }
}

impl View {
    /// The view of `game` for `viewer`: the game's public state, and the rest from the
    /// viewer's observation (a spectator's hides every card passed face down).
    pub fn of(game: &AnyGame, viewer: Viewer) -> View {
        let seats = game.seats();
        let (observation, hand) = match viewer {
            Viewer::Seat(seat) => {
                let observation = game.observation(seat);
                let hand = observation.hand;
                (observation, Some(hand))
            }
            Viewer::Spectator => (spectator_observation(game.observation(Seat(0))), None),
        };
        let summary = game.hand_summary();
        let phase = game.phase();
        let sitting_out = observation.declared.sitting_out;
        let in_play = seats - usize::from(sitting_out.is_some());

        let mut auction = Vec::new();
        let mut exchanges = Vec::new();
        let mut plays: Vec<(Seat, Card)> = Vec::new();
        let dealt_size = observation.dealt.len() as i32;
        let mut sizes = vec![dealt_size; seats];
        let declarer = summary.declarer;
        // Nothing is dealt before the first hand.
        if phase == Phase::Dealing {
            sizes.fill(0);
        }
        for &(seat, seen) in &observation.actions {
            match seen {
                SeenAction::Open(Action::Play(card)) => {
                    plays.push((seat, card));
                    sizes[seat.index()] -= 1;
                }
                SeenAction::Open(action) if action.is_call() => auction.push((seat, action)),
                SeenAction::Open(Action::Trump(_)) => {}
                SeenAction::Open(Action::Give(pair)) => {
                    exchanges.push((seat, seen));
                    passed(&mut sizes, seat, declarer, pair.len());
                }
                SeenAction::HiddenGive(count) => {
                    exchanges.push((seat, seen));
                    passed(&mut sizes, seat, declarer, usize::from(count));
                }
                SeenAction::Open(Action::Discard(pair)) => {
                    exchanges.push((seat, seen));
                    sizes[seat.index()] -= pair.len() as i32;
                }
                SeenAction::HiddenDiscard(count) => {
                    exchanges.push((seat, seen));
                    sizes[seat.index()] -= i32::from(count);
                }
                SeenAction::Open(_) => {}
            }
        }

        // Completed tricks are the plays in groups of `in_play`; each one's winner leads
        // the next, and the last one's winner is the game's (its trick is kept).
        let current = game.current_trick();
        let complete = plays.len() / in_play;
        let open = plays.len() % in_play;
        let mut tricks_by_seat = vec![0u8; seats];
        let mut last_trick = None;
        for t in 0..complete {
            let cards = plays[t * in_play..(t + 1) * in_play].to_vec();
            let winner = match plays.get((t + 1) * in_play) {
                Some(&(next_leader, _)) => Some(next_leader),
                None => current
                    .and_then(|c| c.winning)
                    .or(current.map(|c| c.leader)),
            };
            if let Some(winner) = winner {
                tricks_by_seat[winner.index()] += 1;
            }
            last_trick = Some(TrickView {
                leader: cards[0].0,
                cards,
                winning: winner,
            });
        }
        let trick = current.map(|state| {
            let cards = if open == 0 && complete > 0 && summary.outcome != HandOutcome::InProgress {
                // The hand is over: its last trick stays on the table.
                plays[(complete - 1) * in_play..].to_vec()
            } else {
                plays[complete * in_play..].to_vec()
            };
            TrickView {
                leader: state.leader,
                cards,
                winning: state.winning,
            }
        });

        let variant = game.rules().kind();
        let sorted_hand =
            hand.map(|hand| variant.hand_order().sort(hand, observation.declared.trump));
        let malzom = observation.declared.contract.is_some()
            && matches!(game, AnyGame::Kout(kout, _) if kout.is_malzom());
        let call_names = variant
            .game()
            .call_names()
            .iter()
            .map(|&(call, name)| (call, name.to_string()))
            .collect();
        let legal = match (viewer, game.turn()) {
            (Viewer::Seat(seat), Turn::Seat(to_act)) if seat == to_act => {
                game.legal_action_list().to_vec()
            }
            _ => Vec::new(),
        };
        View {
            viewer,
            seats: seats as u8,
            phase,
            turn: game.turn(),
            dealer: summary.dealer,
            deals_played: observation.start.deals_played,
            auction,
            contract: observation.declared.contract,
            malzom,
            trump: observation.declared.trump,
            sitting_out,
            exchanges,
            trick,
            last_trick,
            tricks: summary.tricks,
            tricks_by_seat,
            hand_sizes: sizes.iter().map(|&n| n.clamp(0, 255) as u8).collect(),
            hand,
            sorted_hand,
            legal,
            call_names,
            scores: game.scores(),
            hand_outcome: summary.outcome,
            hand_points: summary.points,
            goal: game.goal(),
            outcome: game.outcome(),
        }
    }
}

/// Moves `count` cards from `giver` to the declarer (a loner's partner gives).
fn passed(sizes: &mut [i32], giver: Seat, declarer: Option<Seat>, count: usize) {
    sizes[giver.index()] -= count as i32;
    if let Some(declarer) = declarer {
        sizes[declarer.index()] += count as i32;
    }
}

/// What a spectator sees of a hand: every action, with every card passed face down
/// hidden, and no cards of its own.
fn spectator_observation(seat_view: Observation) -> Observation {
    let actions = seat_view
        .actions
        .into_iter()
        .map(|(seat, seen)| {
            let hidden = match seen {
                SeenAction::Open(Action::Give(pair)) => SeenAction::HiddenGive(pair.len() as u8),
                SeenAction::Open(Action::Discard(pair)) => {
                    SeenAction::HiddenDiscard(pair.len() as u8)
                }
                other => other,
            };
            (seat, hidden)
        })
        .collect();
    Observation {
        actions,
        hand: CardBag::EMPTY,
        ..seat_view
    }
}
