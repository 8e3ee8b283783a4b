//! Sampled deals never contradict the observation, and without auction evidence they
//! are uniform over the consistent deals.

use crate::common;

use std::collections::HashMap;

use calltrump_bots::{rebuild, BotGame, Completion, Deals};
use calltrump_engine::{stream, Card, CardBag, Game, Kaibosh, Seat, Turn};
use calltrump_engine::{Action, BidEuchre, GameRules, SeenAction};
use common::each_game;

/// Draws deals for every seat's view of a random decision, with and without the auction's
/// evidence, and checks each replays to that view: the number of draws checked.
fn check_replay<G: BotGame>(name: &str, rules: &G::Rules, seed: u64) -> usize {
    let auction_evidence = [false, true];
    let game: G = common::random_decision(rules, seed);
    let Turn::Seat(seat) = game.turn() else {
        unreachable!("random_decision stops at a decision")
    };
    // Every seat's view, not only the one to act.
    for s in 0..game.seats() {
        let viewer = Seat(((seat.index() + s) % game.seats()) as u8);
        let obs = game.observation(viewer);
        let deals =
            Deals::<G>::new(rules, &obs).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
        let mut rng = stream(seed, s as u64);
        for auction in auction_evidence {
            let (rebuilt, completion) = deals
                .draw(auction, 64, &mut rng)
                .unwrap_or_else(|| panic!("{name} seed {seed}: no deal replays"));
            assert_eq!(
                completion.dealt[viewer.index()],
                obs.dealt,
                "{name} seed {seed}"
            );
            assert_eq!(rebuilt.observation(viewer), obs, "{name} seed {seed}");
            assert_eq!(rebuilt.turn(), game.turn(), "{name} seed {seed}");
        }
    }
    game.seats() * auction_evidence.len()
}

#[test]
fn sampled_deals_replay_to_the_same_observation() {
    common::count_in_every_game("draws", 2000, 400, |name, rules, seed| {
        each_game!(rules, |r, G| check_replay::<G>(name, r, seed))
    });
}

/// Draws for the views of a loner's exchange: the declarer, the partner who gave, and
/// the opponents who saw neither the give nor the discard, all replay.
#[test]
fn exchange_views_replay() {
    for (name, rules) in common::all_rules() {
        let GameRules::BidEuchre(r) = rules else {
            continue;
        };
        let mut views = 0;
        for seed in 0..300 {
            let game: BidEuchre = common::decision_where(&r, seed, |g: &BidEuchre| {
                g.position().is_some()
                    && g.observation(Seat(0)).actions.iter().any(|(_, a)| {
                        matches!(
                            a,
                            SeenAction::Open(Action::Discard(_)) | SeenAction::HiddenDiscard(_)
                        )
                    })
            });
            for s in 0..4 {
                let obs = game.observation(Seat(s));
                let deals = Deals::<BidEuchre>::new(&r, &obs).unwrap();
                let mut rng = stream(seed, 40 + u64::from(s));
                let (rebuilt, _) = deals
                    .draw(true, 200, &mut rng)
                    .unwrap_or_else(|| panic!("{name} seed {seed} seat {s}: no deal replays"));
                assert_eq!(rebuilt.observation(Seat(s)), obs);
                views += 1;
            }
        }
        assert!(views >= 1000);
    }
}

/// Every assignment of the unknown cards to the seats that lack cards.
fn all_assignments(
    pool: &[Card],
    needs: &mut Vec<(usize, usize)>,
    current: &mut Vec<CardBag>,
    out: &mut Vec<Vec<CardBag>>,
) {
    let Some((&card, rest)) = pool.split_first() else {
        out.push(current.clone());
        return;
    };
    for i in 0..needs.len() {
        let (seat, need) = needs[i];
        if need > 0 {
            needs[i].1 -= 1;
            current[seat].insert(card);
            all_assignments(rest, needs, current, out);
            current[seat].remove(card);
            needs[i].1 += 1;
        }
    }
}

#[test]
fn without_auction_evidence_samples_are_uniform_over_consistent_deals() {
    let rules = common::kaibosh_rules()[0];
    let mut restricted_cases = 0;
    let mut seed = 0;
    while restricted_cases < 6 {
        seed += 1;
        assert!(seed < 5000, "too few endgames with revealed voids");
        let game: Kaibosh = common::random_endgame(&rules, seed, 2);
        if game.out().is_some() {
            continue;
        }
        let Turn::Seat(viewer) = game.turn() else {
            continue;
        };
        let obs = game.observation(viewer);
        let deals = Deals::<Kaibosh>::new(&rules, &obs).unwrap();
        let sampler = deals.sampler();
        let knowledge = sampler.knowledge().clone();
        if knowledge.pool.len() > 8 {
            continue;
        }
        let mut needs: Vec<(usize, usize)> = (0..4)
            .filter(|&s| s != viewer.index())
            .map(|s| (s, knowledge.sizes[s]))
            .collect();
        let mut current: Vec<CardBag> = knowledge.known[..4].to_vec();
        let mut assignments = Vec::new();
        all_assignments(&knowledge.pool, &mut needs, &mut current, &mut assignments);
        let consistent: Vec<Vec<CardBag>> = assignments
            .into_iter()
            .filter(|deal| {
                let completion = Completion {
                    dealt: deal.clone(),
                    hidden: Vec::new(),
                };
                rebuild::<Kaibosh>(&rules, &obs, &completion).is_ok()
            })
            .collect();
        assert_eq!(consistent.len() as f64, sampler.deal_count(), "seed {seed}");
        if consistent.len() < 3 {
            continue;
        }
        if consistent.len() < needs_total(&knowledge) {
            restricted_cases += 1;
        }
        let per_deal = 400;
        let draws = per_deal * consistent.len();
        let mut counts: HashMap<Vec<CardBag>, usize> = HashMap::new();
        let mut rng = stream(seed, 99);
        for _ in 0..draws {
            let deal = sampler.sample(&mut rng);
            assert!(
                consistent.contains(&deal),
                "seed {seed}: inconsistent {deal:?}"
            );
            *counts.entry(deal).or_default() += 1;
        }
        // Pearson's chi-square against uniform; df = n - 1, mean df, sd sqrt(2 df).
        let expected = per_deal as f64;
        let chi2: f64 = consistent
            .iter()
            .map(|d| {
                let o = *counts.get(d).unwrap_or(&0) as f64;
                (o - expected).powi(2) / expected
            })
            .sum();
        let df = (consistent.len() - 1) as f64;
        assert!(
            chi2 < df + 6.0 * (2.0 * df).sqrt(),
            "seed {seed}: chi-square {chi2} with {df} degrees of freedom"
        );
    }
}

/// Deals with no void known: the multinomial over the hidden seats' needs.
fn needs_total(knowledge: &calltrump_bots::Knowledge) -> usize {
    let mut n = knowledge.pool.len();
    let mut total = 1usize;
    for s in 0..knowledge.seats {
        if s == knowledge.observer.index() {
            continue;
        }
        let k = knowledge.sizes[s];
        total *= binomial(n, k);
        n -= k;
    }
    total
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// A seat that bid 1 (the convention for two or more aces) holds two aces far more often
/// in auction-weighted draws than in uniform ones.
#[test]
fn the_auction_weights_draws_toward_what_the_bids_say() {
    let rules = common::kaibosh_rules()[0];
    let mut weighted_hits = 0;
    let mut uniform_hits = 0;
    let mut draws = 0;
    for seed in 0..40 {
        // Seat 1 bids 1 whatever it holds; seat 2 reads the convention.
        let mut game = Kaibosh::new(&rules, Seat(0));
        game.deal_random(&mut stream(seed, 1));
        game.apply(Action::Bid(1)).unwrap();
        let obs = game.observation(Seat(2));
        let deals = Deals::<Kaibosh>::new(&rules, &obs).unwrap();
        let sampler = deals.sampler();
        let mut rng = stream(seed, 2);
        let aces = |bag: &CardBag| {
            bag.iter()
                .filter(|c| c.rank() == calltrump_engine::ACE)
                .count()
        };
        for _ in 0..100 {
            let weighted = sampler.sample_weighted(&mut rng, 24, |d| deals.auction_likelihood(d));
            let uniform = sampler.sample(&mut rng);
            weighted_hits += usize::from(aces(&weighted[1]) >= 2);
            uniform_hits += usize::from(aces(&uniform[1]) >= 2);
            draws += 1;
        }
    }
    let (w, u) = (
        weighted_hits as f64 / draws as f64,
        uniform_hits as f64 / draws as f64,
    );
    // The model gives a hand without two aces a quarter of the weight, so the share of
    // two-ace hands about doubles (from about a quarter).
    assert!(w > u + 0.2, "two aces: weighted {w:.3}, uniform {u:.3}");
}

/// An observation naming seats beyond the table (what a faulty host may send) reads as
/// knowledge without indexing past the seats, and the sampler refuses it or draws from
/// it without panicking.
#[test]
fn knowledge_of_seats_beyond_the_table_does_not_panic() {
    use calltrump_bots::{DealSampler, Knowledge};
    use calltrump_engine::{Action, Card, HandStart, Observation, Seat, SeenAction};
    let card = |c: &str| c.parse::<Card>().unwrap();
    for seat in [Seat(4), Seat(9), Seat(255)] {
        let observation = Observation {
            seat,
            start: HandStart::first(Seat(0)),
            dealt: [card("9S"), card("AH")].into_iter().collect(),
            hand: [card("9S")].into_iter().collect(),
            actions: vec![
                (Seat(200), SeenAction::Open(Action::Play(card("KD")))),
                (seat, SeenAction::Open(Action::Play(card("AH")))),
            ],
            declared: Default::default(),
        };
        let deck: Vec<Card> = ["9S", "AH", "KD", "QC"].iter().map(|c| card(c)).collect();
        let knowledge = Knowledge::from_plays(&observation, 4, 1, &deck);
        if let Ok(sampler) = DealSampler::new(knowledge) {
            let _ = sampler.sample(&mut calltrump_engine::seeded(1));
        }
    }
}

#[test]
fn deals_drawn_reading_the_play_explain_it_better_and_still_replay() {
    // Late in random Kaibosh play (random cards: many tricks given away), the deals
    // drawn reading the play make the plays seen likelier than plain draws do.
    let rules = calltrump_engine::KaiboshRules::default();
    let (mut plain, mut reading, mut draws) = (0.0, 0.0, 0);
    for seed in 0..20 {
        let game: Kaibosh = common::random_endgame(&rules, seed, 3);
        let Turn::Seat(seat) = game.turn() else {
            continue;
        };
        let obs = game.observation(seat);
        let deals = Deals::<Kaibosh>::new(&rules, &obs).unwrap();
        let mut rng = stream(seed, 5);
        for _ in 0..40 {
            let (_, completion) = deals.draw(true, 64, &mut rng).unwrap();
            plain += deals.play_likelihood(&completion);
            let (rebuilt, completion) = deals.draw_reading_play(true, 64, &mut rng).unwrap();
            assert_eq!(rebuilt.observation(seat), obs, "seed {seed}");
            reading += deals.play_likelihood(&completion);
            draws += 1;
        }
    }
    let (plain, reading) = (plain / draws as f64, reading / draws as f64);
    assert!(
        reading > plain + 0.05,
        "mean likelihood of the play: {plain:.3} plain, {reading:.3} reading the play"
    );
}
