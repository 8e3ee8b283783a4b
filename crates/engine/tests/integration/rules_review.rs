//! A second, independent reading of the Bid Euchre and Kout Bo rules (`rules/`,
//! RULINGS.md, NOTATION.md), written without the engine's code: random games in which,
//! at every decision, the legal actions are worked out again here from the texts, and
//! every trick's winner, every hand's points, the replay row and the game's end are
//! checked against this reading.
//!
//! The random players hold their jokers back and bid high now and then, so that dead
//! joker leads, joker leads on a contract, loners and the dealer's match all come up.

use std::collections::{BTreeMap, BTreeSet};

use calltrump_engine::{
    stream, Action, AllPass, BidEuchre, BidEuchreRules, BidEuchreVariant, Card, CardBag, CardPair,
    CardSet, Game, GameRng, HandOutcome, JokerLead, Kout, Kout4Deck, KoutRules, KoutVariant, Loner,
    Outcome, Seat, Strain, Suit, Team, Turn, ACE, JACK, KING, QUEEN,
};
use rand::Rng;

fn texts(actions: impl IntoIterator<Item = Action>) -> BTreeSet<String> {
    actions.into_iter().map(|a| a.to_string()).collect()
}

/// How often each situation worth checking came up, so that a test can show it did.
type Seen = BTreeMap<&'static str, u32>;

fn saw(seen: &mut Seen, what: &'static str) {
    *seen.entry(what).or_default() += 1;
}

/// Fails unless every situation of `expected` came up.
fn assert_seen(seen: &Seen, expected: &[&str]) {
    for what in expected {
        assert!(
            seen.get(what).is_some_and(|&n| n > 0),
            "never seen: {what} ({seen:?})"
        );
    }
}

fn seat_to_act(game: &impl Game) -> Seat {
    match game.turn() {
        Turn::Seat(seat) => seat,
        turn => panic!("no seat to act: {turn:?}"),
    }
}

/// Every distinct multiset of `n` (0, 1 or 2) cards of `bag`.
fn choices(bag: CardBag, n: usize) -> Vec<Vec<Card>> {
    let faces: Vec<Card> = bag.faces().into_iter().collect();
    match n {
        0 => vec![vec![]],
        1 => faces.iter().map(|&c| vec![c]).collect(),
        _ => {
            let mut out = Vec::new();
            for (i, &a) in faces.iter().enumerate() {
                if bag.count(a) == 2 {
                    out.push(vec![a, a]);
                }
                out.extend(faces[i + 1..].iter().map(|&b| vec![a, b]));
            }
            out
        }
    }
}

fn pair(cards: &[Card]) -> CardPair {
    match cards {
        [a] => CardPair::one(*a),
        [a, b] => CardPair::two(*a, *b),
        _ => panic!("one or two cards change hands, not {}", cards.len()),
    }
}

/// The choice `choose` makes among the legal actions of the seat to act, once they are
/// checked to be `expected`, this reading's.
fn choose_checked(
    game: &impl Game,
    expected: BTreeSet<String>,
    seed: u64,
    choose: impl FnOnce(&[Action]) -> Action,
) -> Action {
    let legal = game.legal_action_list();
    assert_eq!(
        texts(legal.iter().copied()),
        expected,
        "seed {seed}: legal actions of seat {}",
        seat_to_act(game)
    );
    choose(&legal)
}

/// The cards of `held` of the `led` suit (a card's suit by `suit_of`), or all of `held`
/// when it has none: the duty to follow suit.
fn must_follow(held: CardSet, led: Suit, suit_of: impl Fn(Card) -> Suit) -> CardSet {
    let follow: CardSet = held.into_iter().filter(|&c| suit_of(c) == led).collect();
    if follow.is_empty() {
        held
    } else {
        follow
    }
}

/// With probability `p`, one of the legal actions `keep` accepts, drawn at random; none
/// if it accepts none (and then no draw is made).
fn sometimes(
    legal: &[Action],
    p: f64,
    rng: &mut GameRng,
    keep: impl Fn(Action) -> bool,
) -> Option<Action> {
    let kept: Vec<Action> = legal.iter().copied().filter(|&a| keep(a)).collect();
    (!kept.is_empty() && rng.random_bool(p)).then(|| kept[rng.random_range(0..kept.len())])
}

// ------------------------------------------------------------------------ Bid Euchre

/// Levels 1..8, then `call2` 9, `call1` 10, `moon` 11 (RULINGS Bid Euchre 2, 3).
fn be_rank(bid: Action) -> u8 {
    match bid {
        Action::BidStrain(level, _) => level,
        Action::Loner(Loner::Call2, _) => 9,
        Action::Loner(Loner::Call1, _) => 10,
        Action::Loner(Loner::Moon, _) => 11,
        other => panic!("not a Bid Euchre bid: {other}"),
    }
}

fn be_bids() -> Vec<Action> {
    let mut bids = Vec::new();
    for strain in Strain::ALL {
        bids.extend((1..=8).map(|level| Action::BidStrain(level, strain)));
        bids.extend(Loner::ALL.map(|loner| Action::Loner(loner, strain)));
    }
    bids
}

/// The suit a card follows and leads: the left bower belongs to trump (RULINGS 6).
fn be_suit(card: Card, trump: Option<Suit>) -> Suit {
    let printed = card.suit().expect("no jokers in Bid Euchre");
    match trump {
        Some(t) if card.rank() == JACK && printed == t.same_colour() => t,
        _ => printed,
    }
}

/// Right bowers, left bowers, A, K, Q in trump; A, K, Q, J in a plain suit.
fn be_strength(card: Card, trump: Option<Suit>) -> u8 {
    match trump {
        Some(t) if be_suit(card, trump) == t => match (card.rank(), card.suit() == Some(t)) {
            (JACK, true) => 100,
            (JACK, false) => 99,
            (rank, _) => 50 + rank,
        },
        _ => card.rank(),
    }
}

/// Whether `card`, played later, takes the trick from `best`: a later identical card
/// never does.
fn be_beats(card: Card, best: Card, trump: Option<Suit>) -> bool {
    let (cs, bs) = (be_suit(card, trump), be_suit(best, trump));
    if cs == bs {
        be_strength(card, trump) > be_strength(best, trump)
    } else {
        Some(cs) == trump
    }
}

/// Whether the trumps among `given` are, as a multiset, the `n` highest of `held` (all of
/// them if it holds fewer): the alexa give.
fn gives_highest_trumps(held: CardBag, given: &[Card], trump: Option<Suit>, n: usize) -> bool {
    let t = trump.expect("a trump suit");
    let highest_first = |cards: &mut Vec<Card>| {
        cards.retain(|&c| be_suit(c, trump) == t);
        cards.sort_by_key(|&c| std::cmp::Reverse(be_strength(c, trump)));
    };
    let mut highest: Vec<Card> = held.iter().collect();
    highest_first(&mut highest);
    highest.truncate(n);
    let mut given = given.to_vec();
    highest_first(&mut given);
    given == highest
}

/// What this reading tracks of one Bid Euchre hand.
struct BeHand {
    dealer: Seat,
    calls: usize,
    high: Option<(Seat, Action)>,
    trick: Vec<(Seat, Card)>,
    tricks: [u8; 2],
}

fn be_trump(contract: Action) -> Option<Suit> {
    match contract {
        Action::BidStrain(_, strain) | Action::Loner(_, strain) => strain.trump(),
        _ => None,
    }
}

fn be_expected(game: &BidEuchre, rules: &BidEuchreRules, hand: &BeHand) -> BTreeSet<String> {
    let seat = seat_to_act(game);
    if hand.calls < 4 {
        let forced =
            rules.all_pass == AllPass::DealerMustBid && seat == hand.dealer && hand.high.is_none();
        let high = hand.high.map_or(0, |(_, bid)| be_rank(bid));
        // RULINGS 4: the dealer may match a loner (alexa) or any 8-level bid (simplified),
        // whoever made it, the dealer's partner included.
        let may_match = seat == hand.dealer
            && hand.high.is_some()
            && match rules.variant {
                BidEuchreVariant::Alexa => high >= 9,
                BidEuchreVariant::Simplified => high >= 8,
            };
        let bids = be_bids()
            .into_iter()
            .filter(|&b| be_rank(b) > high || (may_match && be_rank(b) == high));
        return texts((!forced).then_some(Action::Pass).into_iter().chain(bids));
    }
    let (declarer, contract) = hand.high.expect("play needs a contract");
    let trump = be_trump(contract);
    let n = match contract {
        Action::Loner(Loner::Call2, _) => 2,
        Action::Loner(Loner::Call1, _) => 1,
        _ => 0,
    };
    let held = game.hand(seat);
    let before_play = n > 0 && hand.tricks == [0, 0] && hand.trick.is_empty();
    if before_play && seat != declarer {
        // The give (RULINGS 3): in alexa with a trump suit the given trumps are, as a
        // multiset, the partner's n highest, or all of them if fewer.
        let free = rules.variant == BidEuchreVariant::Simplified || trump.is_none();
        return texts(
            choices(held, n)
                .into_iter()
                .filter(|given| free || gives_highest_trumps(held, given, trump, n))
                .map(|given| Action::Give(pair(&given))),
        );
    }
    if before_play && held.len() > 8 {
        // The discard: any cards of the enlarged hand, those just received included.
        return texts(
            choices(held, n)
                .into_iter()
                .map(|cards| Action::Discard(pair(&cards))),
        );
    }
    let faces = held.faces();
    let playable: CardSet = match hand.trick.first() {
        None => faces,
        Some(&(_, lead)) => must_follow(faces, be_suit(lead, trump), |c| be_suit(c, trump)),
    };
    texts(playable.into_iter().map(Action::Play))
}

fn be_choose(legal: &[Action], rng: &mut GameRng) -> Action {
    if legal.contains(&Action::Pass) && rng.random_bool(0.55) {
        return Action::Pass;
    }
    sometimes(legal, 0.3, rng, |a| {
        a.is_call() && a != Action::Pass && be_rank(a) >= 8
    })
    .unwrap_or_else(|| legal[rng.random_range(0..legal.len())])
}

/// Plays one random Bid Euchre game, checking every step against this reading.
fn be_game(rules: BidEuchreRules, seed: u64, seen: &mut Seen) {
    let mut rng = stream(seed, 1);
    let first_dealer = Seat(rng.random_range(0..4));
    let mut game = BidEuchre::new(&rules, first_dealer);
    let mut scores = [0i32; 2];
    let mut deals = 0u32;
    while game.turn() == Turn::Chance {
        game.deal_random(&mut rng);
        let mut hand = BeHand {
            dealer: first_dealer.after(deals as usize, 4),
            calls: 0,
            high: None,
            trick: Vec::new(),
            tricks: [0, 0],
        };
        let mut out = None;
        while let Turn::Seat(seat) = game.turn() {
            let expected = be_expected(&game, &rules, &hand);
            let action = choose_checked(&game, expected, seed, |legal| be_choose(legal, &mut rng));
            if let Action::Play(_) = action {
                assert_ne!(Some(seat), out, "seed {seed}: the loner's partner plays");
            }
            match (action, hand.high) {
                (Action::BidStrain(..) | Action::Loner(..), Some((_, high)))
                    if be_rank(action) == be_rank(high) =>
                {
                    saw(seen, "the dealer's match");
                }
                (Action::Give(given), Some((_, contract))) => {
                    let trump = be_trump(contract);
                    let trumps = trump
                        .is_some_and(|t| given.cards().iter().any(|&c| be_suit(c, trump) == t));
                    if trumps && rules.variant == BidEuchreVariant::Alexa {
                        saw(seen, "trumps given under alexa");
                    }
                }
                (Action::Discard(discarded), _) => {
                    let received = game
                        .hand(seat)
                        .faces()
                        .minus(game.observation(seat).dealt.faces());
                    if discarded.cards().iter().any(|&c| received.contains(c)) {
                        saw(seen, "a received card discarded");
                    }
                }
                _ => {}
            }
            game.apply(action).unwrap();
            match action {
                Action::Pass | Action::BidStrain(..) | Action::Loner(..) => {
                    if action != Action::Pass {
                        hand.high = Some((seat, action));
                    }
                    hand.calls += 1;
                    if hand.calls == 4 {
                        if let Some((declarer, Action::Loner(..))) = hand.high {
                            out = Some(declarer.partner4());
                        }
                    }
                }
                Action::Play(card) => {
                    hand.trick.push((seat, card));
                    let trump = be_trump(hand.high.unwrap().1);
                    if hand.trick.len() == if out.is_some() { 3 } else { 4 } {
                        let mut best = hand.trick[0];
                        for &(s, c) in &hand.trick[1..] {
                            if be_beats(c, best.1, trump) {
                                best = (s, c);
                            }
                        }
                        hand.tricks[best.0.team().index()] += 1;
                        hand.trick.clear();
                        if hand.tricks[0] + hand.tricks[1] < 8 {
                            assert_eq!(game.turn(), Turn::Seat(best.0), "seed {seed}");
                        }
                    }
                }
                _ => {}
            }
        }
        let row = game.hand_summary();
        let points = match hand.high {
            None => {
                saw(seen, "a hand thrown in");
                assert_eq!(row.outcome, HandOutcome::ThrownIn, "seed {seed}");
                assert_eq!((row.declarer, row.contract, row.trump), (None, None, None));
                [0, 0]
            }
            Some((declarer, contract)) => {
                assert_eq!(row.outcome, HandOutcome::Played, "seed {seed}");
                assert_eq!(row.declarer, Some(declarer), "seed {seed}");
                assert_eq!(row.contract, Some(contract), "seed {seed}");
                let team = declarer.team().index();
                let taken = hand.tricks[team];
                let mut points = [0; 2];
                // RULINGS 8: the defenders always score their tricks.
                points[1 - team] = i32::from(8 - taken);
                points[team] = match be_rank(contract) {
                    level @ 1..=8 if taken >= level => i32::from(taken),
                    level @ 1..=8 => -i32::from(level),
                    rank => {
                        let value = [12, 18, 24][usize::from(rank - 9)];
                        saw(
                            seen,
                            if taken == 8 {
                                "a loner made"
                            } else {
                                "a loner failed"
                            },
                        );
                        if taken == 8 {
                            value
                        } else {
                            -value
                        }
                    }
                };
                points
            }
        };
        assert_eq!(row.tricks, hand.tricks, "seed {seed}");
        assert_eq!(row.points, Some(points), "seed {seed}");
        scores = [scores[0] + points[0], scores[1] + points[1]];
        assert_eq!(game.scores(), scores, "seed {seed}");
        deals += 1;
    }
    assert_eq!(
        deals, rules.deals,
        "seed {seed}: the game lasts the agreed deals"
    );
    let expected = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Outcome::Winner(Team(0)),
        std::cmp::Ordering::Less => Outcome::Winner(Team(1)),
        std::cmp::Ordering::Equal => {
            saw(seen, "a draw");
            Outcome::Draw
        }
    };
    assert_eq!(game.outcome(), Some(expected), "seed {seed}");
}

#[test]
fn bid_euchre_every_decision_matches_a_second_reading_of_the_rules() {
    let mut seen = Seen::new();
    for variant in [BidEuchreVariant::Alexa, BidEuchreVariant::Simplified] {
        for all_pass in [AllPass::Redeal, AllPass::DealerMustBid] {
            for seed in 0..60 {
                let rules = BidEuchreRules {
                    variant,
                    all_pass,
                    deals: 1 + seed as u32 % 8,
                };
                be_game(rules, seed, &mut seen);
            }
        }
    }
    assert_seen(
        &seen,
        &[
            "the dealer's match",
            "trumps given under alexa",
            "a received card discarded",
            "a loner made",
            "a loner failed",
            "a hand thrown in",
            "a draw",
        ],
    );
}

// ------------------------------------------------------------------------ Kout Bo

/// Jokers are trumps (RULINGS Kout 4, 5).
fn k_suit(card: Card, trump: Suit) -> Suit {
    card.suit().unwrap_or(trump)
}

/// `RJ`, the trump ace, `BJ`, trump K..2, then the plain suits by rank.
fn k_strength(card: Card, trump: Suit) -> u8 {
    if card == Card::RED_JOKER {
        100
    } else if card == Card::BLACK_JOKER {
        98
    } else if card == Card::new(ACE, trump) {
        99
    } else if card.suit() == Some(trump) {
        50 + card.rank()
    } else {
        card.rank()
    }
}

fn k_beats(card: Card, best: Card, trump: Suit) -> bool {
    let (cs, bs) = (k_suit(card, trump), k_suit(best, trump));
    if cs == bs {
        k_strength(card, trump) > k_strength(best, trump)
    } else {
        cs == trump
    }
}

/// The trump-suit cards of the variant's deck (RULINGS Kout 6 and 9).
fn k_deck_trumps(rules: &KoutRules, trump: Suit) -> Vec<Card> {
    let low = if rules.variant == KoutVariant::Six {
        2
    } else {
        6
    };
    let black_six_out = rules.variant == KoutVariant::Four
        && rules.deck == Kout4Deck::NoBlackSixes
        && matches!(trump, Suit::Spades | Suit::Clubs);
    (low..=ACE)
        .filter(|&rank| !(rank == 6 && black_six_out))
        .map(|rank| Card::new(rank, trump))
        .collect()
}

/// What this reading tracks of one Kout hand.
struct KHand {
    dealer: Seat,
    dealt: Vec<CardSet>,
    calls: Vec<Action>,
    /// Cards of completed tricks: "played" (RULINGS Kout 6).
    played: CardSet,
    trick: Vec<(Seat, Card)>,
    dead: bool,
    tricks: [u8; 2],
}

fn k_live(rules: &KoutRules, game: &Kout, hand: &KHand, seat: Seat, joker: Card) -> bool {
    let (maker, bid) = game.contract().expect("a contract");
    let trump = game.trump().expect("trump named");
    let ace = Card::new(ACE, trump);
    let on_contract =
        seat.team() == maker.team() && (bid == 9 || (bid == 8 && joker == Card::RED_JOKER));
    on_contract
        || match rules.joker_lead {
            JokerLead::Standard => [ACE, KING, QUEEN, JACK]
                .iter()
                .all(|&rank| hand.played.contains(Card::new(rank, trump))),
            JokerLead::ContractOnly => false,
            JokerLead::AllTrumpsPlayed => k_deck_trumps(rules, trump)
                .iter()
                .all(|&c| hand.played.contains(c)),
            JokerLead::TrumpAcePlayed => {
                hand.played.contains(ace)
                    || (seat == maker && !hand.dealt[maker.index()].contains(ace))
            }
        }
}

fn k_expected(rules: &KoutRules, game: &Kout, hand: &KHand) -> BTreeSet<String> {
    let seat = seat_to_act(game);
    let seats = rules.variant.seats();
    let high = hand
        .calls
        .iter()
        .filter_map(|a| match a {
            Action::Bid(n) => Some(*n),
            _ => None,
        })
        .max();
    if hand.calls.len() < seats && high != Some(9) {
        let pass = (seat != hand.dealer || high.is_some()).then_some(Action::Pass);
        let low = high.map_or(5, |h| h + 1);
        return texts(pass.into_iter().chain((low..=9).map(Action::Bid)));
    }
    let Some(trump) = game.trump() else {
        return texts(Suit::ALL.map(Action::Trump));
    };
    let held = game.hand(seat).faces();
    let jokers = held.and(CardSet::JOKERS);
    let playable = match hand.trick.len() {
        0 => {
            // "A joker is led dead only when no card of the hand may be led."
            let lead: CardSet = held
                .into_iter()
                .filter(|&c| !c.is_joker() || k_live(rules, game, hand, seat, c))
                .collect();
            if lead.is_empty() {
                held
            } else {
                lead
            }
        }
        // After a dead joker the next card is free.
        1 if hand.dead => held,
        _ => {
            let setter = hand.trick[usize::from(hand.dead)].1;
            // A joker may always be played.
            must_follow(held, k_suit(setter, trump), |c| k_suit(c, trump)).or(jokers)
        }
    };
    texts(playable.into_iter().map(Action::Play))
}

fn k_choose(legal: &[Action], rng: &mut GameRng) -> Action {
    if legal.contains(&Action::Pass) && rng.random_bool(0.6) {
        return Action::Pass;
    }
    sometimes(legal, 0.3, rng, |a| matches!(a, Action::Bid(8 | 9)))
        // Jokers held back, so that they are often the last cards and led dead.
        .or_else(|| {
            sometimes(
                legal,
                0.85,
                rng,
                |a| !matches!(a, Action::Play(c) if c.is_joker()),
            )
        })
        .unwrap_or_else(|| legal[rng.random_range(0..legal.len())])
}

/// Plays one random Kout game, checking every step against this reading.
fn k_game(rules: KoutRules, seed: u64, seen: &mut Seen) {
    let seats = rules.variant.seats();
    let mut rng = stream(seed, 2);
    let first_dealer = Seat(rng.random_range(0..seats as u8));
    let mut game = Kout::new(&rules, first_dealer);
    let mut scores = [0i32; 2];
    let mut deals = 0;
    while game.turn() == Turn::Chance {
        assert!(deals < 500, "seed {seed}: the game does not end");
        game.deal_random(&mut rng);
        let mut hand = KHand {
            dealer: first_dealer.after(deals, seats),
            dealt: (0..seats)
                .map(|s| game.hand(Seat(s as u8)).faces())
                .collect::<Vec<_>>(),
            calls: Vec::new(),
            played: CardSet::EMPTY,
            trick: Vec::new(),
            dead: false,
            tricks: [0, 0],
        };
        while let Turn::Seat(seat) = game.turn() {
            let expected = k_expected(&rules, &game, &hand);
            let action = choose_checked(&game, expected, seed, |legal| k_choose(legal, &mut rng));
            if let Action::Play(card) = action {
                if hand.trick.is_empty() {
                    hand.dead = card.is_joker() && !k_live(&rules, &game, &hand, seat, card);
                    if hand.dead {
                        saw(seen, "a dead joker led");
                    } else if card.is_joker() && game.contract().unwrap().0.team() != seat.team() {
                        saw(seen, "a joker led live by the makers' opponents");
                    }
                } else if hand.dead && hand.trick.len() == 1 && card.is_joker() {
                    saw(seen, "a joker played after a dead joker");
                }
            }
            game.apply(action).unwrap();
            match action {
                Action::Pass | Action::Bid(_) => hand.calls.push(action),
                Action::Play(card) => {
                    hand.trick.push((seat, card));
                    if hand.trick.len() < seats {
                        assert_eq!(game.dead_lead(), hand.dead, "seed {seed}");
                    } else {
                        let trump = game.trump().unwrap();
                        // A dead joker wins nothing: the cards after it decide.
                        let live = &hand.trick[usize::from(hand.dead)..];
                        let mut best = live[0];
                        for &(s, c) in &live[1..] {
                            if k_beats(c, best.1, trump) {
                                best = (s, c);
                            }
                        }
                        hand.tricks[best.0.team().index()] += 1;
                        for &(_, c) in &hand.trick {
                            hand.played.insert(c);
                        }
                        hand.trick.clear();
                        hand.dead = false;
                        if hand.tricks[0] + hand.tricks[1] < 9 {
                            assert_eq!(game.turn(), Turn::Seat(best.0), "seed {seed}");
                        }
                    }
                }
                _ => {}
            }
        }
        let (maker, bid) = game.contract().unwrap();
        let row = game.hand_summary();
        assert_eq!(row.outcome, HandOutcome::Played, "seed {seed}");
        assert_eq!(row.tricks, hand.tricks, "seed {seed}");
        // Malzom: the dealer's forced bid of exactly 5, after everyone else passed.
        let malzom = maker == hand.dealer
            && bid == 5
            && hand.calls[..seats - 1].iter().all(|a| *a == Action::Pass);
        if malzom {
            saw(seen, "Malzom");
        }
        let (made_points, failed_points) = match bid {
            5 if malzom => (5, 5),
            9 => (36, 18),
            n => (i32::from(n), 2 * i32::from(n)),
        };
        let team = maker.team().index();
        let made = hand.tricks[team] >= bid;
        let mut points = [0; 2];
        let scorer = if made { team } else { 1 - team };
        points[scorer] = if made { made_points } else { failed_points };
        assert_eq!(row.points, Some(points), "seed {seed}");
        scores = [scores[0] + points[0], scores[1] + points[1]];
        assert_eq!(game.scores(), scores, "seed {seed}");
        let wins = (deals == 0 && made && bid == 9)
            || scores[scorer] >= 101
            || (scores[scorer] >= 51 && scores[1 - scorer] == 0);
        if wins && scores[1 - scorer] == 0 && scores[scorer] < 101 {
            saw(seen, "51 against 0");
        } else if wins && deals > 0 {
            saw(seen, "101");
        }
        let expected = wins.then_some(Outcome::Winner(Team(scorer as u8)));
        assert_eq!(game.outcome(), expected, "seed {seed}: after hand {deals}");
        deals += 1;
    }
    assert!(game.outcome().is_some(), "seed {seed}");
}

#[test]
fn kout_every_decision_matches_a_second_reading_of_the_rules() {
    let mut seen = Seen::new();
    let joker_leads = [
        JokerLead::Standard,
        JokerLead::ContractOnly,
        JokerLead::AllTrumpsPlayed,
        JokerLead::TrumpAcePlayed,
    ];
    let variants = [
        (KoutVariant::Six, Kout4Deck::NoBlackSixes),
        (KoutVariant::Four, Kout4Deck::NoBlackSixes),
        (KoutVariant::Four, Kout4Deck::TwoUndealt),
    ];
    for (variant, deck) in variants {
        for joker_lead in joker_leads {
            for seed in 0..12 {
                k_game(
                    KoutRules {
                        variant,
                        joker_lead,
                        deck,
                    },
                    seed,
                    &mut seen,
                );
            }
        }
    }
    assert_seen(
        &seen,
        &[
            "a dead joker led",
            "a joker led live by the makers' opponents",
            "a joker played after a dead joker",
            "Malzom",
            "51 against 0",
            "101",
        ],
    );
}
