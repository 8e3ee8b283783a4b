//! Arbitrary actions applied to a game of any variant, from a random deal or a resumed
//! start: the checked apply never panics, takes exactly the listed legal actions, and
//! leaves the game as it was when it refuses one.

#![no_main]

use calltrump_engine::{
    seeded, Action, AnyGame, Card, CardPair, Game, GameRules, HandStart, Loner, Seat, Strain,
    Turn, GAMES,
};
use libfuzzer_sys::fuzz_target;

/// Reads the fuzzer's bytes one at a time, zeros past the end.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.next(), self.next(), self.next(), self.next()])
    }

    fn card(&mut self) -> Card {
        Card::from_index(self.next() % 64).unwrap_or(Card::RED_JOKER)
    }

    /// Any action of any game, legal or not.
    fn action(&mut self) -> Action {
        let strain = |b: u8| Strain::ALL[usize::from(b) % 5];
        let suit = |b: u8| calltrump_engine::Suit::ALL[usize::from(b) % 4];
        match self.next() % 10 {
            0 => Action::Pass,
            1 => Action::Bid(self.next() % 12),
            2 => Action::BidStrain(self.next() % 10, strain(self.next())),
            3 => Action::Loner(Loner::ALL[usize::from(self.next()) % 3], strain(self.next())),
            4 => Action::Kaibosh,
            5 => Action::Misdeal,
            6 => Action::Trump(suit(self.next())),
            7 => Action::Give(self.pair()),
            8 => Action::Discard(self.pair()),
            _ => Action::Play(self.card()),
        }
    }

    fn pair(&mut self) -> CardPair {
        if self.next() % 2 == 0 {
            CardPair::one(self.card())
        } else {
            CardPair::two(self.card(), self.card())
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let variants: Vec<(&str, &str)> = GAMES
        .iter()
        .flat_map(|(game, variants)| variants.iter().map(move |v| (*game, *v)))
        .collect();
    let (game, variant) = variants[usize::from(bytes.next()) % variants.len()];
    let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
    let mut game = if bytes.next() % 4 == 0 {
        // A start no real game need reach: what a bad observation may claim.
        AnyGame::resume(
            &rules,
            HandStart {
                deals_played: bytes.u32(),
                dealer: Seat(bytes.next()),
                scores: [bytes.u32() as i32, bytes.u32() as i32],
            },
        )
    } else {
        AnyGame::new(&rules, Seat(bytes.next() % 6))
    };
    let mut rng = seeded(u64::from(bytes.u32()));
    for _ in 0..400 {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => game.deal_random(&mut rng),
            Turn::Seat(_) => {}
        }
        let legal = game.legal_action_list();
        for seat in 0..game.seats() {
            let _ = game.observation(Seat(seat as u8));
        }
        let _ = (game.hand_summary(), game.hand_start(), game.outcome());
        if bytes.0.is_empty() {
            break;
        }
        // Half the time one of the legal actions, else anything at all.
        let action = match bytes.next() % 2 {
            0 if !legal.is_empty() => legal[usize::from(bytes.next()) % legal.len()],
            _ => bytes.action(),
        };
        let before = game.clone();
        match game.apply(action) {
            Ok(()) => assert!(legal.contains(&action), "{action} taken, not listed"),
            Err(e) => {
                assert!(!legal.contains(&action), "{action} listed, refused: {e}");
                assert_eq!(game, before, "a refused {action} changed the game");
            }
        }
    }
});
