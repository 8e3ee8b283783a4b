//! Fair deals anyone can check (`docs/fair-deals.md`): a secret seed committed to before
//! the hand, the cut of the seat the rules name, a documented shuffle, and the seed
//! revealed after the hand, so that anyone can recompute the deal.
//!
//! The protocol, for a table that deals hand `h` of the game `table_id`:
//! 1. the server draws a fresh 32-byte [`Seed`] from the operating system's secure
//!    generator (outside the engine, which does no I/O) and announces
//!    [`commit`]`(seed, table_id, h)`;
//! 2. the [`cutting_seat`] cuts: a number from 1 to the deck size less one;
//! 3. the server deals [`deal`]`(rules, dealer, seed, cut)`: the game's [`deck`] in its
//!    fixed order, [`shuffled_deck`] by the seed, [`cut`], and [`deal_hands`] one card at
//!    a time from the seat after the dealer;
//! 4. after the hand it reveals the seed; the record keeps the commitment, the cut and
//!    the seed in the hand's [`FairDeal`] block, and [`verify`] checks them all.
//!
//! Every step is a pure function of its inputs, the same on every platform.

use std::fmt;

use hmac::{Hmac, Mac};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::any_game::AnyGame;
use crate::card::Card;
use crate::card_set::CardBag;
use crate::catalog::{options, Direction, HeaderError};
pub use crate::deal_source::{Commitment, DealSource, FairDeal, ParseHexError, Seed};
use crate::game::Game;
use crate::record::{parse_deal, Record, RecordError};
use crate::rules::{GameRules, OptionReader};
use crate::seat::Seat;
use crate::{bid_euchre, kaibosh, GameRng};

/// The bytes hashed before the seed in a commitment.
const COMMIT_LABEL: &[u8] = b"calltrump fair deal v1 commit";
/// The bytes that start every block of the shuffle's stream.
const SHUFFLE_LABEL: &[u8] = b"calltrump fair deal v1 shuffle";

/// The commitment to `seed` for hand `hand` (the hand's index in the game's record, from
/// 0) of the game `table_id`: SHA-256 of the label `calltrump fair deal v1 commit`, the
/// 32 seed bytes, the hand as 8 big-endian bytes, then the table id's UTF-8 bytes.
pub fn commit(seed: &Seed, table_id: &str, hand: u64) -> Commitment {
    let mut hash = Sha256::new();
    hash.update(COMMIT_LABEL);
    hash.update(seed.0);
    hash.update(hand.to_be_bytes());
    hash.update(table_id.as_bytes());
    Commitment(hash.finalize().into())
}

/// The shuffle's random words: block `i` is HMAC-SHA256 keyed by the seed of the label
/// `calltrump fair deal v1 shuffle` followed by `i` as 8 big-endian bytes; each block
/// gives eight 32-bit big-endian words in order.
struct Stream {
    mac: Hmac<Sha256>,
    block: [u8; 32],
    counter: u64,
    used: usize,
}

impl Stream {
    fn new(seed: &Seed) -> Stream {
        Stream {
            mac: Hmac::new_from_slice(&seed.0).expect("HMAC takes a key of any length"),
            block: [0; 32],
            counter: 0,
            used: 32,
        }
    }

    fn next_word(&mut self) -> u32 {
        if self.used == self.block.len() {
            let mut mac = self.mac.clone();
            mac.update(SHUFFLE_LABEL);
            mac.update(&self.counter.to_be_bytes());
            self.block = mac.finalize().into_bytes().into();
            self.counter += 1;
            self.used = 0;
        }
        let word = &self.block[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes([word[0], word[1], word[2], word[3]])
    }
}

/// A number uniform below `bound` from 32-bit words: a word is taken only if it falls
/// below the largest multiple of `bound` that fits in 32 bits (`2^32 - 2^32 % bound`),
/// and then gives its remainder by `bound`; a word above is thrown away and the next one
/// tried. Every remainder then has the same number of accepted words: no modulo bias.
fn uniform_below(bound: u32, mut next_word: impl FnMut() -> u32) -> u32 {
    assert!(bound > 0, "a draw needs a positive bound");
    let accepted = (1u64 << 32) - (1u64 << 32) % u64::from(bound);
    loop {
        let word = next_word();
        if u64::from(word) < accepted {
            return word % bound;
        }
    }
}

/// `deck` shuffled by `seed`: Fisher-Yates (Durstenfeld) from the last place down, the
/// card at place `i` swapped with the one at a place drawn uniformly from `0..=i`.
/// Place 0 is the top of the deck.
///
/// The draws come from a stream of 32-bit words: block `k` (from 0) is HMAC-SHA256 keyed
/// by the seed of the label `calltrump fair deal v1 shuffle` and `k` as 8 big-endian
/// bytes, and gives eight big-endian words in order. A draw below `b` takes the next word
/// `w`, refuses it if `w >= 2^32 - 2^32 % b` and takes the next, else gives `w % b`: no
/// modulo bias.
pub fn shuffled_deck(seed: &Seed, deck: &[Card]) -> Vec<Card> {
    let mut cards = deck.to_vec();
    let mut stream = Stream::new(seed);
    for i in (1..cards.len()).rev() {
        let bound = u32::try_from(i + 1).expect("a deck of fewer than 2^32 cards");
        let j = uniform_below(bound, || stream.next_word()) as usize;
        cards.swap(i, j);
    }
    cards
}

/// A cut that is not from 1 to the deck size less one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutError {
    /// The cut asked for.
    pub cut: u64,
    /// The number of cards in the deck.
    pub deck: usize,
}

impl fmt::Display for CutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the cut {} is not from 1 to {} (the deck's {} cards less one)",
            self.cut,
            self.deck.saturating_sub(1),
            self.deck
        )
    }
}

impl std::error::Error for CutError {}

/// The deck cut at `n`: the top `n` cards lifted off and put under the rest, so the
/// card at place `n` comes to the top. `n` is from 1 to the deck size less one.
pub fn cut(deck: &[Card], n: u64) -> Result<Vec<Card>, CutError> {
    let error = CutError {
        cut: n,
        deck: deck.len(),
    };
    let at = usize::try_from(n).map_err(|_| error)?;
    if at == 0 || at >= deck.len() {
        return Err(error);
    }
    let mut cards = deck.to_vec();
    cards.rotate_left(at);
    Ok(cards)
}

/// The cards a game is dealt from, in a fixed order: by suit (`S`, `H`, `D`, `C`), each
/// from its lowest rank to the ace, then `BJ` and `RJ`; the two copies of a Bid Euchre
/// card side by side.
pub fn deck(rules: &GameRules) -> Vec<Card> {
    let bag = match rules {
        GameRules::Kaibosh(_) => CardBag::from_set(kaibosh::DECK),
        GameRules::BidEuchre(_) => CardBag::double(bid_euchre::DECK),
        GameRules::Kout(rules) => CardBag::from_set(rules.deck()),
    };
    bag.iter().collect()
}

/// The number of seats of a game.
fn seat_count(rules: &GameRules) -> usize {
    rules.kind().seats()
}

/// The hands dealt from `deck` (top first) by `dealer`: one card at a time, face down,
/// to each seat in the order of play starting with the seat after the dealer (the
/// dealer's left in Kaibosh and Bid Euchre, the dealer's right in Kout Bo), until each
/// holds the game's hand. Cards past those (the two of Kout Bo 4's `two-undealt` deck)
/// stay undealt. The hands are in seat order, as [`Game::deal`] takes them.
///
/// # Panics
/// If `deck` holds fewer cards than the game deals.
pub fn deal_hands(rules: &GameRules, dealer: Seat, deck: &[Card]) -> Vec<CardBag> {
    let seats = seat_count(rules);
    let dealt = seats * rules.kind().hand_size();
    assert!(
        deck.len() >= dealt,
        "a deal of {dealt} cards from a deck of {}",
        deck.len()
    );
    let mut hands = vec![CardBag::EMPTY; seats];
    for (i, &card) in deck[..dealt].iter().enumerate() {
        hands[dealer.after(1 + i, seats).index()].insert(card);
    }
    hands
}

/// The whole deal of a hand: the game's [`deck`], [`shuffled_deck`] by `seed`, [`cut`]
/// at `cut_at`, and [`deal_hands`] by `dealer`.
pub fn deal(
    rules: &GameRules,
    dealer: Seat,
    seed: &Seed,
    cut_at: u64,
) -> Result<Vec<CardBag>, CutError> {
    let deck = cut(&shuffled_deck(seed, &deck(rules)), cut_at)?;
    Ok(deal_hands(rules, dealer, &deck))
}

/// Which player cuts: the one on the dealer's right or on the dealer's left. The
/// header's option `cut` (`right` or `left`) chooses it in every game; by default the
/// rules' side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CutSide {
    /// The player on the dealer's right.
    Right,
    /// The player on the dealer's left.
    Left,
}

impl CutSide {
    /// The header option that chooses the side.
    pub const OPTION: &'static str = options::CUT_RIGHT.key;

    /// The rules' side: Kaibosh's text offers the cut to the player on the dealer's
    /// right, and Bid Euchre, whose texts are silent, follows it; in Kout Bo the player
    /// at the dealer's left cuts. In all three that is the seat before the dealer in the
    /// order of play.
    pub fn default_for(rules: &GameRules) -> CutSide {
        match rules.kind().direction() {
            Direction::Clockwise => CutSide::Right,
            Direction::CounterClockwise => CutSide::Left,
        }
    }

    /// The side a header's `options` choose for `rules`: the `cut` option, else the
    /// rules' side.
    pub fn from_options(
        rules: &GameRules,
        options: &Map<String, Value>,
    ) -> Result<CutSide, HeaderError> {
        let mut reader = OptionReader::new(rules.kind(), options);
        Ok(match reader.choice(&options::CUT_RIGHT)? {
            Some("left") => CutSide::Left,
            Some(_) => CutSide::Right,
            None => CutSide::default_for(rules),
        })
    }

    /// The option's value: `right` or `left`.
    pub const fn name(self) -> &'static str {
        match self {
            CutSide::Right => "right",
            CutSide::Left => "left",
        }
    }
}

/// The seat that cuts the deck `dealer` deals. Kaibosh and Bid Euchre go clockwise, so
/// the next seat in the order of play sits on the dealer's left; Kout Bo goes
/// counter-clockwise, so it sits on the dealer's right (RULINGS.md).
pub fn cutting_seat(rules: &GameRules, side: CutSide, dealer: Seat) -> Seat {
    let seats = seat_count(rules);
    let next_on_left = rules.kind().direction() == Direction::Clockwise;
    if (side == CutSide::Left) == next_on_left {
        dealer.next(seats)
    } else {
        dealer.after(seats - 1, seats)
    }
}

/// The first dealer of a seeded game, drawn uniformly from the seats before the first
/// deal (what [`DealSource::Seeded`]'s `first_dealer_drawn` states).
pub fn draw_first_dealer(rules: &GameRules, rng: &mut GameRng) -> Seat {
    Seat(rng.random_range(0..seat_count(rules)) as u8)
}

/// The deal `Game::deal_random` makes with `rng`, in seat order.
pub fn seeded_deal(rules: &GameRules, dealer: Seat, rng: &mut GameRng) -> Vec<CardBag> {
    let mut game = AnyGame::new(rules, dealer);
    game.deal_random(rng);
    (0..game.seats())
        .map(|s| game.observation(Seat(s as u8)).dealt)
        .collect()
}

/// What does not match in a hand's deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealFault {
    /// The hand has no block and the header states no seeded source.
    NoSource,
    /// The header's `deal_source` is of a method this version does not know.
    UnknownSource,
    /// The hand has a block but the header names no table for its commitment.
    NoTable,
    /// The commitment is not 64 hex digits.
    BadCommitment(String),
    /// No cut is recorded.
    NoCut,
    /// The cut is out of range.
    BadCut(CutError),
    /// The seed is not revealed (yet).
    NotRevealed,
    /// The revealed seed is not 64 hex digits.
    BadSeed(String),
    /// The seed does not give the commitment.
    SeedMismatch,
    /// The seed was revealed for an earlier hand too.
    SeedReused {
        /// The earlier hand.
        hand: usize,
    },
    /// The record's deal cannot be read.
    BadDeal(String),
    /// The record deals to another number of seats.
    SeatCount {
        /// Seats in the record's deal.
        found: usize,
        /// Seats of the game.
        expected: usize,
    },
    /// A seat's cards differ from those the seed deals it.
    Cards {
        /// The seat.
        seat: Seat,
        /// Cards the record gives the seat that the seed does not.
        recorded: Vec<Card>,
        /// Cards the seed deals the seat that the record does not give it.
        computed: Vec<Card>,
    },
}

fn card_list(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for DealFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealFault::NoSource => f.write_str(
                "no fair-deal block, and the header's deal_source states no seeded deals",
            ),
            DealFault::UnknownSource => {
                f.write_str("the header's deal_source is of an unknown method")
            }
            DealFault::NoTable => f.write_str(
                "the commitment cannot be checked: the header's deal_source names no table",
            ),
            DealFault::BadCommitment(text) => write!(
                f,
                "the commitment \"{}\" is not 64 hex digits",
                text.escape_default()
            ),
            DealFault::NoCut => f.write_str("no cut is recorded"),
            DealFault::BadCut(error) => error.fmt(f),
            DealFault::NotRevealed => f.write_str("the seed is not revealed"),
            DealFault::BadSeed(text) => write!(
                f,
                "the seed \"{}\" is not 64 hex digits",
                text.escape_default()
            ),
            DealFault::SeedMismatch => f.write_str("the seed does not match the commitment"),
            DealFault::SeedReused { hand } => {
                write!(f, "the seed was already revealed for hand {hand}")
            }
            DealFault::BadDeal(message) => write!(f, "the record's deal: {message}"),
            DealFault::SeatCount { found, expected } => write!(
                f,
                "the record deals to {found} seats, the game has {expected}"
            ),
            DealFault::Cards {
                seat,
                recorded,
                computed,
            } => match (recorded.is_empty(), computed.is_empty()) {
                (false, false) => write!(
                    f,
                    "seat {seat}: the record deals {}, the seed deals {}",
                    card_list(recorded),
                    card_list(computed)
                ),
                (false, true) => write!(
                    f,
                    "seat {seat}: the record deals {}, which the seed does not",
                    card_list(recorded)
                ),
                _ => write!(
                    f,
                    "seat {seat}: the seed deals {}, which the record does not",
                    card_list(computed)
                ),
            },
        }
    }
}

/// How a hand's deal was made, as far as its record tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandSource {
    /// Committed, with the cut (if recorded) and the seat that cut.
    Committed {
        /// The cut.
        cut: Option<u64>,
        /// The seat that cuts this hand.
        cutter: Seat,
    },
    /// From the seeded generator.
    Seeded,
    /// Not stated.
    Unknown,
}

/// The check of one hand's deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandCheck {
    /// The hand's index in the record.
    pub hand: usize,
    /// Its dealer.
    pub dealer: Seat,
    /// How it was dealt.
    pub source: HandSource,
    /// What does not match; empty if the deal checks out.
    pub faults: Vec<DealFault>,
}

impl HandCheck {
    /// Whether the deal checks out.
    pub fn is_ok(&self) -> bool {
        self.faults.is_empty()
    }
}

/// The check of every deal of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// A fault of the header's deal source: the seeded first dealer differs.
    pub first_dealer: Option<(Seat, Seat)>,
    /// One check per hand, in order.
    pub hands: Vec<HandCheck>,
}

impl Verification {
    /// Whether every deal checks out.
    pub fn is_ok(&self) -> bool {
        self.first_dealer.is_none() && self.hands.iter().all(HandCheck::is_ok)
    }
}

/// The differences between `recorded` hands and `computed` ones, seat by seat.
fn compare_hands(recorded: &[CardBag], computed: &[CardBag]) -> Vec<DealFault> {
    if recorded.len() != computed.len() {
        return vec![DealFault::SeatCount {
            found: recorded.len(),
            expected: computed.len(),
        }];
    }
    let minus = |a: CardBag, b: CardBag| {
        let mut rest = a;
        b.iter().for_each(|card| {
            rest.remove(card);
        });
        rest.iter().collect::<Vec<_>>()
    };
    recorded
        .iter()
        .zip(computed)
        .enumerate()
        .filter(|(_, (r, c))| r != c)
        .map(|(seat, (&r, &c))| DealFault::Cards {
            seat: Seat(seat as u8),
            recorded: minus(r, c),
            computed: minus(c, r),
        })
        .collect()
}

/// Checks one committed hand: `block` against the commitment for `table_id` and hand
/// `hand`, and the deal its seed and cut make by `dealer` against `dealt` (the record's
/// hands, or the text that failed to read as hands). With no table id the commitment
/// is not checked ([`DealFault::NoTable`]).
pub fn check_hand(
    rules: &GameRules,
    table_id: Option<&str>,
    hand: u64,
    dealer: Seat,
    block: &FairDeal,
    dealt: Result<&[CardBag], &str>,
) -> Vec<DealFault> {
    let mut faults = Vec::new();
    let commitment = match block.commitment.parse::<Commitment>() {
        Ok(commitment) => Some(commitment),
        Err(_) => {
            faults.push(DealFault::BadCommitment(block.commitment.clone()));
            None
        }
    };
    let seed = match &block.seed {
        None => {
            faults.push(DealFault::NotRevealed);
            None
        }
        Some(text) => match text.parse::<Seed>() {
            Ok(seed) => Some(seed),
            Err(_) => {
                faults.push(DealFault::BadSeed(text.clone()));
                None
            }
        },
    };
    match (table_id, commitment, &seed) {
        (None, _, _) => faults.push(DealFault::NoTable),
        (Some(table), Some(commitment), Some(seed)) if commit(seed, table, hand) != commitment => {
            faults.push(DealFault::SeedMismatch)
        }
        _ => {}
    }
    let cut_at = match block.cut {
        None => {
            faults.push(DealFault::NoCut);
            None
        }
        Some(n) => match cut(&deck(rules), n) {
            Ok(_) => Some(n),
            Err(error) => {
                faults.push(DealFault::BadCut(error));
                None
            }
        },
    };
    match (dealt, seed, cut_at) {
        (Err(message), _, _) => faults.push(DealFault::BadDeal(message.to_string())),
        (Ok(recorded), Some(seed), Some(n)) => {
            let computed = deal(rules, dealer, &seed, n).expect("the cut is in range");
            faults.extend(compare_hands(recorded, &computed));
        }
        _ => {}
    }
    faults
}

/// Checks every deal of `record`: a hand with a [`FairDeal`] block against its
/// commitment, cut and seed; a hand of a seeded record against the seeded generator;
/// a hand with neither is a fault. The seat that cuts follows from the header's `cut`
/// option. Fails only on a header that cannot be read.
pub fn verify(record: &Record) -> Result<Verification, RecordError> {
    let (rules, first_dealer) = record.rules()?;
    let side = CutSide::from_options(&rules, &record.options)
        .map_err(|e| RecordError::Header(e.to_string()))?;
    let seats = seat_count(&rules);
    let (table_id, mut seeded) = match &record.deal_source {
        Some(DealSource::Committed { table }) => (Some(table.as_str()), None),
        Some(DealSource::Seeded {
            seed,
            stream,
            first_dealer_drawn,
        }) => (
            None,
            Some((crate::stream(*seed, *stream), *first_dealer_drawn)),
        ),
        Some(DealSource::Other) | None => (None, None),
    };
    let mut verification = Verification {
        first_dealer: None,
        hands: Vec::with_capacity(record.hands.len()),
    };
    if let Some((rng, true)) = &mut seeded {
        let drawn = draw_first_dealer(&rules, rng);
        if drawn != first_dealer {
            verification.first_dealer = Some((first_dealer, drawn));
        }
    }
    let mut seeds: Vec<(usize, String)> = Vec::new();
    for (h, hand) in record.hands.iter().enumerate() {
        let dealer = first_dealer.after(h, seats);
        let dealt = parse_deal(&hand.deal);
        let dealt = dealt.as_deref().map_err(String::as_str);
        // The seeded generator deals every hand in turn, whatever the hand records.
        let seeded_deal = seeded
            .as_mut()
            .map(|(rng, _)| seeded_deal(&rules, dealer, rng));
        let (source, faults) = match (&hand.fair_deal, seeded_deal) {
            (Some(block), _) => {
                let mut faults = check_hand(&rules, table_id, h as u64, dealer, block, dealt);
                if let Some(seed) = &block.seed {
                    let seed = seed.to_ascii_lowercase();
                    if let Some((earlier, _)) = seeds.iter().find(|(_, s)| *s == seed) {
                        faults.push(DealFault::SeedReused { hand: *earlier });
                    }
                    seeds.push((h, seed));
                }
                let cutter = cutting_seat(&rules, side, dealer);
                let source = HandSource::Committed {
                    cut: block.cut,
                    cutter,
                };
                (source, faults)
            }
            (None, Some(computed)) => {
                let faults = match dealt {
                    Ok(recorded) => compare_hands(recorded, &computed),
                    Err(message) => vec![DealFault::BadDeal(message.to_string())],
                };
                (HandSource::Seeded, faults)
            }
            (None, None) if record.deal_source == Some(DealSource::Other) => {
                (HandSource::Unknown, vec![DealFault::UnknownSource])
            }
            (None, None) => (HandSource::Unknown, vec![DealFault::NoSource]),
        };
        verification.hands.push(HandCheck {
            hand: h,
            dealer,
            source,
            faults,
        });
    }
    Ok(verification)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_at_or_above_the_last_whole_multiple_is_thrown_away() {
        // Bound 3: 2^32 % 3 == 1, so only the word 2^32 - 1 is refused.
        let mut words = [u32::MAX, u32::MAX, 7].into_iter();
        assert_eq!(uniform_below(3, || words.next().unwrap()), 1);
        assert_eq!(words.next(), None);
        // Bound 10: 2^32 % 10 == 6: the six words from 2^32 - 6 up are refused.
        let mut words = [u32::MAX - 5, u32::MAX - 6].into_iter();
        assert_eq!(uniform_below(10, || words.next().unwrap()), 9);
        // A power of two refuses nothing.
        assert_eq!(uniform_below(4, || u32::MAX), 3);
        assert_eq!(uniform_below(1, || u32::MAX), 0);
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_64_digits() {
        let seed = Seed([0xab; 32]);
        assert_eq!(seed.to_hex().parse::<Seed>(), Ok(seed));
        assert_eq!(seed.to_hex().to_uppercase().parse::<Seed>(), Ok(seed));
        assert!("ab".parse::<Seed>().is_err());
        assert!("g".repeat(64).parse::<Commitment>().is_err());
        assert!("é".repeat(32).parse::<Commitment>().is_err());
        assert_eq!(format!("{seed:?}"), "Seed(hidden)");
    }

    #[test]
    fn the_stream_uses_every_word_of_a_block_then_the_next_block() {
        let seed = Seed([7; 32]);
        let mut stream = Stream::new(&seed);
        let words: Vec<u32> = (0..9).map(|_| stream.next_word()).collect();
        let mut mac = Hmac::<Sha256>::new_from_slice(&seed.0).unwrap();
        mac.update(SHUFFLE_LABEL);
        mac.update(&1u64.to_be_bytes());
        let block: [u8; 32] = mac.finalize().into_bytes().into();
        assert_eq!(words[8], u32::from_be_bytes(block[..4].try_into().unwrap()));
    }

    #[test]
    fn a_cut_is_from_one_to_the_deck_less_one() {
        let deck: Vec<Card> = ["9S", "TS", "JS", "QS"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let cut_deck = cut(&deck, 1).unwrap();
        assert_eq!(card_list(&cut_deck), "TS JS QS 9S");
        assert_eq!(card_list(&cut(&deck, 3).unwrap()), "QS 9S TS JS");
        for n in [0, 4, u64::MAX] {
            assert_eq!(cut(&deck, n), Err(CutError { cut: n, deck: 4 }));
        }
    }
}
