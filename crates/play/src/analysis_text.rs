//! The analysis of a game in words: the lines that `analyze`'s text report and its HTML
//! review (`analyze --html`) both print.

use crate::analysis::{Analysis, DecisionReview, HandReview, OpenCell, OpenTable};
use calltrump_engine::{Action, HandOutcome, Phase, SeenAction, Strain};

use crate::style::Style;

/// `+1.25`, `-0.50`: expected points with their sign.
pub fn signed(points: f64) -> String {
    format!("{points:+.2}")
}

/// The judge and its budget, and the marks' thresholds, in two sentences.
pub fn judge_text(analysis: &Analysis) -> String {
    let t = &analysis.thresholds;
    format!(
        "Judged by the {} bot from what each seat knew: {} deals per card play, {} per \
         other decision, seed {}. Points are the seat's team's expected net points on the \
         hand; marks by points lost against the best action: inaccuracy from {}, mistake \
         from {}, blunder from {}.",
        analysis.judge.bot,
        analysis.judge.play_samples,
        analysis.judge.call_samples,
        analysis.judge.seed,
        t.inaccuracy,
        t.mistake,
        t.blunder
    )
}

/// What a hand came to: `dealer seat 3; seat 1 bid 3, trump ♥: made, 4 tricks to 2;
/// points 4 to 0`.
pub fn hand_text(style: &Style, hand: &HandReview) -> String {
    let s = &hand.summary;
    let contract = match (s.declarer, s.contract) {
        (Some(declarer), Some(bid)) => {
            let trump = match (s.trump, bid) {
                (Some(strain), Action::Bid(_) | Action::Kaibosh) => {
                    format!(", trump {}", style.strain(strain))
                }
                _ => String::new(),
            };
            format!("seat {declarer} {}{trump}", style.call(bid))
        }
        _ => String::new(),
    };
    let result = match (s.outcome, s.points) {
        (HandOutcome::Played, Some(points)) => format!(
            "{contract}; tricks {} to {}, points {} to {}",
            s.tricks[0], s.tricks[1], points[0], points[1]
        ),
        (HandOutcome::Misdeal, _) => "a misdeal".to_string(),
        (HandOutcome::ThrownIn, _) => "all passed".to_string(),
        _ if contract.is_empty() => "unfinished, in the auction".to_string(),
        _ => format!(
            "{contract}; unfinished at tricks {} to {}",
            s.tricks[0], s.tricks[1]
        ),
    };
    format!("dealer seat {}; {result}", s.dealer)
}

/// The open-cards table's heading: what it counts and how far it looks.
pub fn open_heading(table: &OpenTable) -> String {
    match table.depth {
        None => "Open cards (every hand open, best play, solved to the end): tricks the \
                 declarer's team takes with each trump"
            .to_string(),
        Some(depth) => format!(
            "Open cards (every hand open, best play, searched {depth} tricks ahead and the \
             rest played out by the rules of thumb): tricks the declarer's team takes with \
             each trump, and the highest bid it makes"
        ),
    }
}

/// One cell of the open-cards table: `4`, or with bids `6 (7)` (`(-)`: none made).
pub fn open_cell(cell: &OpenCell) -> String {
    if cell.makes.is_empty() {
        return cell.tricks.to_string();
    }
    let best = cell
        .makes
        .iter()
        .filter(|(_, made)| *made)
        .map(|(bid, _)| *bid)
        .max();
    match best {
        Some(bid) => format!("{} ({bid})", cell.tricks),
        None => format!("{} (-)", cell.tricks),
    }
}

/// The strains of a table's columns.
pub fn open_strains(table: &OpenTable) -> Vec<Strain> {
    table
        .rows
        .first()
        .map(|row| row.cells.iter().map(|c| c.trump).collect())
        .unwrap_or_default()
}

/// One decision in a line: the seat, the action, its points, the loss and mark, and the
/// best action when another.
pub fn decision_text(style: &Style, review: &DecisionReview) -> String {
    let action = style.action(SeenAction::Open(review.taken));
    if review.forced {
        return format!("seat {} {action} (forced)", review.seat);
    }
    let taken = review.actions.iter().find(|j| j.action == review.taken);
    let points = taken.and_then(|j| j.points).map(signed).unwrap_or_default();
    let best = review.best();
    let mut line = format!("seat {} {action} {points}", review.seat);
    if !is_best(review) {
        line += &format!(
            ", lost {:.2}{}; best {} {}",
            review.loss,
            review
                .mark
                .map(|m| format!(" ({})", m.name()))
                .unwrap_or_default(),
            style.action(SeenAction::Open(best.action)),
            best.points.map(signed).unwrap_or_default()
        );
    } else {
        line += ", best";
    }
    line
}

/// Whether the action taken was as good as the best, to the hundredth of a point shown.
pub fn is_best(review: &DecisionReview) -> bool {
    review.loss < 0.005
}

/// `1 blunder`, `2 inaccuracies`: a count of `one`s, `many` for other counts.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Per seat: `seat 0: 38 decisions with a choice (20 forced), 0.12 points lost per
/// decision; 2 inaccuracies, 1 mistake, 0 blunders`.
pub fn seat_lines(analysis: &Analysis) -> Vec<String> {
    analysis
        .seats
        .iter()
        .map(|s| {
            format!(
                "seat {}: {} with a choice ({} forced), {:.2} points lost per decision; {}, \
                 {}, {}",
                s.seat,
                count(s.decisions, "decision", "decisions"),
                s.forced,
                s.average_loss,
                count(s.inaccuracies, "inaccuracy", "inaccuracies"),
                count(s.mistakes, "mistake", "mistakes"),
                count(s.blunders, "blunder", "blunders"),
            )
        })
        .collect()
}

/// Where in the hand a decision stands: `auction`, `trump`, `exchange`, `trick 3`.
pub fn stage(review: &DecisionReview) -> String {
    match (review.trick, review.phase) {
        (Some(trick), _) => format!("trick {trick}"),
        (None, Phase::TrumpNaming) => "trump".to_string(),
        (None, Phase::Exchange) => "exchange".to_string(),
        (None, _) => "auction".to_string(),
    }
}

/// The analysis as text: `calltrump analyze`'s report, cards in `style`.
pub fn text_report(analysis: &Analysis, style: &Style) -> String {
    let title = crate::style::game_title(analysis.variant);
    let mut out = format!("{title}. {}\n", judge_text(analysis));
    for hand in &analysis.hands {
        out += &format!(
            "\nHand {}: {}. Score before: {} to {}.\n",
            hand.hand + 1,
            hand_text(style, hand),
            hand.scores_before[0],
            hand.scores_before[1]
        );
        for (seat, cards) in hand.deal.iter().enumerate() {
            out += &format!("  seat {seat}: {}\n", style.cards(cards));
        }
        out += &format!("  {}:\n", open_heading(&hand.open_cards));
        // Padding counts characters: the table's suits go uncoloured.
        let plain = Style {
            colour: false,
            ..*style
        };
        let strains = open_strains(&hand.open_cards);
        let header: Vec<String> = strains
            .iter()
            .map(|s| format!("{:>7}", plain.strain(*s)))
            .collect();
        out += &format!("    {:<10}{}\n", "declarer", header.join(""));
        for row in &hand.open_cards.rows {
            let cells: Vec<String> = row
                .cells
                .iter()
                .map(|c| format!("{:>7}", open_cell(c)))
                .collect();
            out += &format!("    seat {:<5}{}\n", row.declarer.0, cells.join(""));
        }
        out += "  Decisions:\n";
        for review in &hand.decisions {
            let at = stage(review);
            out += &format!(
                "    {:>3} {at:<9} {}\n",
                review.index,
                decision_text(style, review)
            );
            if let Some(reading) = &review.reading {
                out += &format!("        shows {reading}\n");
            }
        }
    }
    out += "\nPer seat:\n";
    for line in seat_lines(analysis) {
        out += &format!("  {line}\n");
    }
    out
}
