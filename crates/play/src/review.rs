//! The analysis as one self-contained HTML page (`analyze --html FILE`; no scripts, no
//! outside files) to read after a game: the score through the game as an SVG chart, then
//! hand by hand the deal, the open-cards table, the auction and every trick, each
//! decision with its expected points, what it lost, its mark and the best action.

use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

use crate::analysis::{Analysis, DecisionReview, HandReview};
use calltrump_engine::SeenAction;

use crate::analysis_text::{
    decision_text, hand_text, is_best, judge_text, open_cell, open_heading, open_strains,
    seat_lines, signed, stage,
};
use crate::plot::{escape, Line};
use crate::style::Style;

/// Cards as text, suit symbols, no colour codes (the page colours them).
const PLAIN: Style = Style {
    ascii: false,
    colour: false,
};

const CSS: &str = "
body { font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.4; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.5rem;
     border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
td, th { padding: 0.2rem 0.6rem; text-align: left; border-bottom: 1px solid #eee; }
th { background: #f4f4f4; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.red { color: #c00; }
.inaccuracy { background: #fff6cc; } .mistake { background: #ffdfb3; }
.blunder { background: #ffc2c2; }
.mark { font-weight: bold; }
.note { color: #555; font-size: 0.9rem; }
svg { max-width: 100%; height: auto; }
";

/// Who sat where, as far as the file analysed says: a night's record names the players
/// of each seat and the person among them; a `play` save names the person's seat while
/// the game goes on (its companion file); a finished game's record says neither.
#[derive(Clone, Debug, Default)]
pub struct Seating {
    /// The player in each seat, if known.
    pub names: Option<Vec<String>>,
    /// The person's seat, if known.
    pub me: Option<usize>,
}

impl Seating {
    /// Who sat where in the game analysed, as far as the file says: a night's set names its
    /// players and the person (`me`); a `play` save going on names the person's seat in its
    /// companion file. A finished game's record names nobody.
    pub fn of_file(file: &Path, text: &str, set: Option<u64>) -> Seating {
        if let Ok(Value::Object(night)) = serde_json::from_str::<Value>(text) {
            let players: Option<Vec<String>> = night
                .get("players")
                .and_then(|p| serde_json::from_value(p.clone()).ok());
            let seats: Option<Vec<usize>> = night
                .get("sets")
                .and_then(|sets| sets.get(set.unwrap_or(1) as usize - 1))
                .and_then(|s| s.pointer("/table/seats"))
                .and_then(|s| serde_json::from_value(s.clone()).ok());
            if let (Some(players), Some(seats)) = (players, seats) {
                let names: Vec<String> = seats
                    .iter()
                    .map(|&p| players.get(p).cloned().unwrap_or_default())
                    .collect();
                let me = night
                    .get("me")
                    .and_then(Value::as_str)
                    .and_then(|me| names.iter().position(|name| name == me));
                return Seating {
                    names: Some(names),
                    me,
                };
            }
        }
        let me = match file.as_os_str() == "-" {
            true => None,
            false => crate::save::read_companion(file)
                .ok()
                .flatten()
                .and_then(|companion| companion.seat)
                .map(usize::from),
        };
        Seating { names: None, me }
    }

    /// What the chart's legend calls `team` (0: seats 0, 2, ...; 1: seats 1, 3, ...) of a
    /// table of `seats`.
    pub fn team_name(&self, team: usize, seats: usize) -> String {
        let members: Vec<usize> = (team..seats).step_by(2).collect();
        let list = |words: Vec<String>| match words.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        let seat_list = format!(
            "seats {}",
            list(members.iter().map(usize::to_string).collect())
        );
        let who = match &self.names {
            Some(names) => list(
                members
                    .iter()
                    .map(|&s| names.get(s).cloned().unwrap_or_else(|| format!("seat {s}")))
                    .collect(),
            ),
            None => seat_list.clone(),
        };
        match self.me.map(|me| me % 2 == team) {
            Some(true) if self.names.is_some() => format!("your team: {who}"),
            Some(true) => format!("your team ({who})"),
            Some(false) if self.names.is_some() => format!("the other team: {who}"),
            Some(false) => format!("the other team ({who})"),
            None if self.names.is_some() => format!("{who} ({seat_list})"),
            None => format!("team of {who}"),
        }
    }
}

/// The review page of `analysis`, its score's legend naming the teams as `seating` says.
pub fn html(analysis: &Analysis, seating: &Seating) -> String {
    let mut page = String::new();
    let title = format!("{}: a review", crate::style::game_title(analysis.variant));
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let _ = writeln!(
        page,
        "<p class=\"note\">{}</p>",
        escape(&judge_text(analysis))
    );
    page += &score_chart(analysis, seating);
    let _ = writeln!(page, "<h2>Per seat</h2>\n<ul>");
    for line in seat_lines(analysis) {
        let _ = writeln!(page, "<li>{}</li>", escape(&line));
    }
    page += "</ul>\n";
    for hand in &analysis.hands {
        page += &hand_section(hand);
    }
    page += "</body>\n</html>\n";
    page
}

/// The score of each team through the hands analysed: a line from before the first to
/// after the last, or of one hand, bars before and after it.
fn score_chart(analysis: &Analysis, seating: &Seating) -> String {
    let seats = analysis.hands.first().map_or(4, |hand| hand.deal.len());
    let names = [seating.team_name(0, seats), seating.team_name(1, seats)];
    let colours = ["steelblue", "firebrick"];
    let mut teams = [Vec::new(), Vec::new()];
    for hand in &analysis.hands {
        let points = hand.summary.points.unwrap_or([0, 0]);
        for (team, line) in teams.iter_mut().enumerate() {
            if line.is_empty() {
                line.push(f64::from(hand.scores_before[team]));
            }
            line.push(f64::from(hand.scores_before[team] + points[team]));
        }
    }
    let lines: Vec<Line> = teams
        .into_iter()
        .enumerate()
        .map(|(team, values)| Line {
            name: &names[team],
            colour: colours[team],
            values,
        })
        .collect();
    match analysis.hands.as_slice() {
        [hand] => {
            let number = hand.hand + 1;
            crate::plot::bars_svg(
                &[
                    format!("before hand {number}"),
                    format!("after hand {number}"),
                ],
                &lines,
                &format!("Score before and after hand {number}"),
                "each team's score",
            )
        }
        hands => crate::plot::lines_svg(
            &lines,
            "Score through the game",
            hands.first().map_or(0, |hand| hand.hand),
        ),
    }
}

/// One hand: its result, the deal, the open-cards table, the auction and the tricks.
fn hand_section(hand: &HandReview) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<h2 id=\"hand-{}\">Hand {}</h2>\n<p>{}. Score before: {} to {}.</p>",
        hand.hand + 1,
        hand.hand + 1,
        cards_html(&hand_text(&PLAIN, hand)),
        hand.scores_before[0],
        hand.scores_before[1]
    );
    out += "<table>\n<tr><th>seat</th><th>dealt</th></tr>\n";
    for (seat, cards) in hand.deal.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{seat}</td><td>{}</td></tr>",
            cards_html(&PLAIN.cards(cards))
        );
    }
    out += "</table>\n";
    let table = &hand.open_cards;
    let _ = writeln!(
        out,
        "<p class=\"note\">{}.</p>\n<table>",
        escape(&open_heading(table))
    );
    out += "<tr><th>declarer</th>";
    for strain in open_strains(table) {
        let _ = write!(out, "<th>{}</th>", cards_html(&PLAIN.strain(strain)));
    }
    out += "</tr>\n";
    for row in &table.rows {
        let _ = write!(out, "<tr><td>seat {}</td>", row.declarer);
        for cell in &row.cells {
            let _ = write!(out, "<td class=\"n\">{}</td>", escape(&open_cell(cell)));
        }
        out += "</tr>\n";
    }
    out += "</table>\n";
    // The auction (and any exchange), then one table per trick.
    let mut groups: Vec<(String, Vec<&DecisionReview>)> = Vec::new();
    for review in &hand.decisions {
        let name = match review.trick {
            Some(trick) => format!("Trick {trick}"),
            None => "Auction".to_string(),
        };
        match groups.last_mut() {
            Some((last, reviews)) if *last == name => reviews.push(review),
            _ => groups.push((name, vec![review])),
        }
    }
    for (name, reviews) in groups {
        let _ = writeln!(
            out,
            "<h3>{name}</h3>\n<table>\n<tr><th></th><th>seat</th><th>action</th>\
             <th>points</th><th>lost</th><th>mark</th><th>best</th></tr>"
        );
        for review in reviews {
            out += &decision_row(review);
        }
        out += "</table>\n";
    }
    out
}

/// One decision as a table row, coloured by its mark; the whole line in its title.
fn decision_row(review: &DecisionReview) -> String {
    let action = PLAIN.action(SeenAction::Open(review.taken));
    let class = review.mark.map_or("", |m| m.name());
    let title = escape(&decision_text(&PLAIN, review));
    let (points, lost, best) = if review.forced {
        ("forced".to_string(), String::new(), String::new())
    } else {
        let taken = review.actions.iter().find(|j| j.action == review.taken);
        let best = review.best();
        (
            taken.and_then(|j| j.points).map(signed).unwrap_or_default(),
            format!("{:.2}", review.loss),
            match is_best(review) {
                true => String::new(),
                false => format!(
                    "{} {}",
                    PLAIN.action(SeenAction::Open(best.action)),
                    best.points.map(signed).unwrap_or_default()
                ),
            },
        )
    };
    let mut row = format!(
        "<tr class=\"{class}\" title=\"{title}\"><td>{}</td><td>{}</td><td>{}</td>\
         <td class=\"n\">{points}</td><td class=\"n\">{lost}</td><td class=\"mark\">{}</td>\
         <td>{}</td></tr>\n",
        escape(&stage(review)),
        review.seat,
        cards_html(&action),
        review.mark.map_or("", |m| m.name()),
        cards_html(&best)
    );
    if let Some(reading) = &review.reading {
        let _ = writeln!(
            row,
            "<tr><td></td><td colspan=\"6\" class=\"note\">shows {}</td></tr>",
            escape(reading)
        );
    }
    row
}

/// Text with hearts and diamonds in red.
fn cards_html(text: &str) -> String {
    let mut out = String::new();
    for word in escape(text).split(' ') {
        if !out.is_empty() {
            out.push(' ');
        }
        if word.contains(['♥', '♦']) {
            let _ = write!(out, "<span class=\"red\">{word}</span>");
        } else {
            out += word;
        }
    }
    out
}
