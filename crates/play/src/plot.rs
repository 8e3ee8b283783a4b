//! SVG charts drawn by hand (a few lines of SVG need no plotting library): a running mean
//! with its 95% confidence band (`arena --plot`), and lines through a game or bars
//! before and after one hand (the score in `analyze --html`).

use std::fmt::Write;

use crate::stats::mean_interval;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 400.0;
const MARGIN: f64 = 60.0;

/// A chart's scale and its SVG so far: `n` points across, values from `low` to `high`.
struct Frame {
    low: f64,
    high: f64,
    n: usize,
    svg: String,
}

impl Frame {
    /// A chart of `n` points from `low` to `high` (widened if flat), with its title.
    fn new(n: usize, mut low: f64, mut high: f64, title: &str) -> Frame {
        if high - low < 1e-9 {
            low -= 1.0;
            high += 1.0;
        }
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
            WIDTH / 2.0,
            escape(title)
        );
        Frame { low, high, n, svg }
    }

    fn x(&self, i: usize) -> f64 {
        MARGIN + (WIDTH - 2.0 * MARGIN) * i as f64 / (self.n.max(2) as f64 - 1.0)
    }

    fn y(&self, v: f64) -> f64 {
        let v = v.clamp(self.low, self.high);
        HEIGHT - MARGIN - (HEIGHT - 2.0 * MARGIN) * (v - self.low) / (self.high - self.low)
    }

    /// The legend under the title: a swatch of each colour and its name.
    fn legend(&mut self, entries: &[(&str, &str)]) {
        let mut x = MARGIN;
        for (name, colour) in entries {
            let _ = writeln!(
                self.svg,
                r#"<rect x="{x}" y="36" width="14" height="10" fill="{colour}"/><text x="{}" y="45">{}</text>"#,
                x + 19.0,
                escape(name)
            );
            // About 7 pixels a character at font-size 12.
            x += 19.0 + 7.0 * name.chars().count() as f64 + 24.0;
        }
    }

    /// Ticks on the x axis: `label` names point `i` (or leaves it unmarked).
    fn x_ticks(&mut self, label: impl Fn(usize) -> Option<String>) {
        let bottom = HEIGHT - MARGIN;
        for i in 0..self.n {
            if let Some(text) = label(i) {
                let x = self.x(i);
                let _ = writeln!(
                    self.svg,
                    r#"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="black"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
                    bottom + 5.0,
                    bottom + 18.0,
                    escape(&text)
                );
            }
        }
    }

    /// A line through `values`, one per point.
    fn line(&mut self, values: impl Iterator<Item = f64>, colour: &str) {
        let points: Vec<String> = values
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", self.x(i), self.y(v)))
            .collect();
        let _ = writeln!(
            self.svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            points.join(" ")
        );
    }

    /// The axes, round values marked on the left (written as `format` says) and the
    /// caption below; closes the SVG.
    fn finish(mut self, format: fn(f64) -> String, caption: &str) -> String {
        let (left, right, bottom) = (MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN);
        let _ = writeln!(
            self.svg,
            r#"<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>"#
        );
        let _ = writeln!(
            self.svg,
            r#"<line x1="{left}" y1="{MARGIN}" x2="{left}" y2="{bottom}" stroke="black"/>"#
        );
        let step = nice_step(self.high - self.low);
        let first = (self.low / step).ceil() as i64;
        for value in (first..)
            .map(|k| k as f64 * step)
            .take_while(|&v| v <= self.high)
        {
            let _ = writeln!(
                self.svg,
                r#"<line x1="{}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="black"/>"#,
                left - 5.0,
                y = self.y(value)
            );
            let _ = writeln!(
                self.svg,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                MARGIN - 6.0,
                self.y(value) + 4.0,
                format(value)
            );
        }
        let _ = writeln!(
            self.svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            WIDTH / 2.0,
            bottom + 40.0,
            escape(caption)
        );
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

/// `low..high` widened by a twentieth of its span each way, so nothing drawn touches the
/// frame.
fn padded(low: f64, high: f64) -> (f64, f64) {
    let pad = (high - low) / 20.0;
    (low - pad, high + pad)
}

/// The running mean of `values` after each one, with its 95% band, and a zero line.
pub fn running_mean_svg(values: &[f64], title: &str) -> String {
    let points: Vec<(f64, f64, f64)> = (1..=values.len())
        .map(|k| {
            let interval = mean_interval(&values[..k]);
            (interval.mean, interval.low, interval.high)
        })
        .collect();
    // In a long run the band is drawn from the 11th point on: before it, it is
    // meaninglessly wide and would squash the rest.
    let settled = if points.len() > 20 { 10 } else { 0 };
    let band_extremes = points[settled..].iter().map(|&(_, l, h)| (l, h));
    let means = points.iter().map(|&(m, _, _)| (m, m));
    let (low, high) = band_extremes
        .chain(means)
        .fold((0.0f64, 0.0f64), |(lo, hi), (l, h)| (lo.min(l), hi.max(h)));
    let (low, high) = padded(low, high);
    let mut frame = Frame::new(points.len(), low, high, title);
    // The band: upper edge left to right, lower edge back.
    let mut band = String::new();
    for (i, &(_, _, h)) in points.iter().enumerate().skip(settled) {
        let _ = write!(band, "{:.1},{:.1} ", frame.x(i), frame.y(h));
    }
    for (i, &(_, l, _)) in points.iter().enumerate().skip(settled).rev() {
        let _ = write!(band, "{:.1},{:.1} ", frame.x(i), frame.y(l));
    }
    let _ = writeln!(
        frame.svg,
        r##"<polygon points="{band}" fill="#9ecae1" fill-opacity="0.6"/>"##
    );
    frame.line(points.iter().map(|p| p.0), "#08519c");
    let zero = frame.y(0.0);
    let _ = writeln!(
        frame.svg,
        r##"<line x1="{MARGIN}" y1="{zero:.1}" x2="{}" y2="{zero:.1}" stroke="#d62728" stroke-dasharray="5,4"/>"##,
        WIDTH - MARGIN
    );
    let step = tick_step(points.len());
    frame.x_ticks(|i| ((i + 1) % step == 0 || i == 0).then(|| (i + 1).to_string()));
    frame.finish(
        |v| format!("{v:+.2}"),
        &format!(
            "pairs played (of {}); line: running mean, band: 95% confidence interval{}, \
             dashes: zero",
            values.len(),
            match settled {
                0 => String::new(),
                k => format!(" (from pair {})", k + 1),
            }
        ),
    )
}

/// The spacing of ticks along `n` points: 1, 2 or 5 times a power of ten, at most 15
/// ticks.
fn tick_step(n: usize) -> usize {
    let mut power = 1;
    loop {
        for step in [power, 2 * power, 5 * power] {
            if n / step <= 15 {
                return step;
            }
        }
        power *= 10;
    }
}

/// The spacing of marks along a span: 1, 2 or 5 times a power of ten, 4 to 10 marks.
fn nice_step(span: f64) -> f64 {
    let power = 10f64.powf((span / 10.0).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| span / step <= 10.0)
        .unwrap_or(10.0 * power)
}

/// One line of a chart: its name (in the legend), colour and values.
pub struct Line<'a> {
    /// What the legend calls it.
    pub name: &'a str,
    /// Its SVG colour.
    pub colour: &'a str,
    /// One value per point.
    pub values: Vec<f64>,
}

/// Lines through a game, one point per hand: point `i` is the state after hand
/// `first + i` (numbered from 1; 0 is the start of the game), so the x axis is marked
/// with hand numbers. The scale runs from the lowest value (or 0) to the highest.
pub fn lines_svg(lines: &[Line], title: &str, first: usize) -> String {
    let all = lines.iter().flat_map(|line| line.values.iter().copied());
    let (low, high) = all.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (low, high) = padded(low, high);
    let n = lines
        .iter()
        .map(|line| line.values.len())
        .max()
        .unwrap_or(0);
    let mut frame = Frame::new(n, low, high, title);
    let entries: Vec<(&str, &str)> = lines.iter().map(|l| (l.name, l.colour)).collect();
    frame.legend(&entries);
    for line in lines {
        frame.line(line.values.iter().copied(), line.colour);
    }
    let step = tick_step(n);
    frame.x_ticks(|i| match first + i {
        0 => Some("start".to_string()),
        hand if hand % step == 0 || i == 0 => Some(hand.to_string()),
        _ => None,
    });
    frame.finish(
        |v| format!("{v:.0}"),
        "score after each hand (hands numbered from 1)",
    )
}

/// Bars in groups: each group (named below it) has one bar per line, its value written
/// above it. The scale runs from the lowest value (or 0) to the highest.
pub fn bars_svg(groups: &[String], lines: &[Line], title: &str, caption: &str) -> String {
    let all = lines.iter().flat_map(|line| line.values.iter().copied());
    let (low, high) = all.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (low, high) = padded(low, high);
    let mut frame = Frame::new(2, low, high, title);
    let entries: Vec<(&str, &str)> = lines.iter().map(|l| (l.name, l.colour)).collect();
    frame.legend(&entries);
    let slot = (WIDTH - 2.0 * MARGIN) / groups.len().max(1) as f64;
    let bar = slot / (lines.len() as f64 + 1.5);
    let zero = frame.y(0.0);
    for (g, group) in groups.iter().enumerate() {
        let left = MARGIN + slot * g as f64 + bar * 0.75;
        for (k, line) in lines.iter().enumerate() {
            let Some(&value) = line.values.get(g) else {
                continue;
            };
            let (x, top) = (left + bar * k as f64, frame.y(value));
            let _ = writeln!(
                frame.svg,
                r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/><text x="{:.1}" y="{:.1}" text-anchor="middle">{value:.0}</text>"#,
                top.min(zero),
                bar * 0.9,
                (zero - top).abs(),
                line.colour,
                x + bar * 0.45,
                top.min(zero) - 4.0,
            );
        }
        let _ = writeln!(
            frame.svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            MARGIN + slot * (g as f64 + 0.5),
            HEIGHT - MARGIN + 18.0,
            escape(group)
        );
    }
    frame.finish(|v| format!("{v:.0}"), caption)
}

/// Text made safe inside XML or HTML, attribute values included.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_has_the_band_the_mean_and_the_zero_line() {
        let values: Vec<f64> = (0..50).map(|i| f64::from(i % 5) - 1.0).collect();
        let svg = running_mean_svg(&values, "a <b> & c");
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains("a &lt;b&gt; &amp; c"));
        // One point of the mean line per value.
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 50);
    }

    /// The numbers of every `attribute="..."` in `svg`'s elements named `element`.
    fn numbers(svg: &str, element: &str, attribute: &str) -> Vec<f64> {
        svg.split(&format!("<{element} "))
            .skip(1)
            .filter_map(|rest| rest.split(&format!("{attribute}=\"")).nth(1))
            .filter_map(|rest| rest.split('"').next())
            .flat_map(|value| value.split([' ', ',']).filter(|v| !v.is_empty()))
            .map(|v| v.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_band_is_inside_the_frame_with_room_to_spare() {
        // Early pairs far from the mean: the band is widest at its start.
        for (count, wild) in [(12, 40.0), (60, 25.0), (400, 10.0)] {
            let values: Vec<f64> = (0..count)
                .map(|i| match i {
                    1 | 3 => wild,
                    _ => f64::from(i % 7) - 2.0,
                })
                .collect();
            let svg = running_mean_svg(&values, "t");
            let points = numbers(&svg, "polygon", "points");
            let ys: Vec<f64> = points.iter().skip(1).step_by(2).copied().collect();
            assert!(!ys.is_empty());
            let (top, bottom) = (MARGIN, HEIGHT - MARGIN);
            for y in ys.iter().chain(
                numbers(&svg, "polyline", "points")
                    .iter()
                    .skip(1)
                    .step_by(2),
            ) {
                assert!(
                    *y > top + 5.0 && *y < bottom - 5.0,
                    "{y} outside {top}..{bottom}"
                );
            }
        }
    }

    #[test]
    fn the_x_axis_is_marked_with_hand_numbers_at_a_readable_spacing() {
        let line = |values: Vec<f64>| Line {
            name: "us",
            colour: "blue",
            values,
        };
        let short = lines_svg(&[line(vec![0.0, 3.0, 5.0, 9.0])], "Score", 0);
        for label in [">start<", ">1<", ">2<", ">3<"] {
            assert!(short.contains(label), "{label}");
        }
        // 60 hands: ticks every 5, 12 of them and the start.
        let long = lines_svg(&[line((0..=60).map(f64::from).collect())], "Score", 0);
        let ticks: Vec<&str> = long
            .lines()
            .filter(|l| l.starts_with("<line") && l.contains("<text"))
            .map(|l| l.rsplit("\">").next().unwrap().trim_end_matches("</text>"))
            .collect();
        let expected: Vec<String> = std::iter::once("start".to_string())
            .chain((5..=60).step_by(5).map(|h| h.to_string()))
            .collect();
        assert_eq!(ticks, expected);
        assert_eq!(tick_step(10), 1);
        assert_eq!(tick_step(27), 2);
        assert_eq!(tick_step(300), 20);
        assert_eq!(tick_step(400), 50);
    }

    #[test]
    fn lines_have_a_point_per_step_and_a_legend() {
        let svg = lines_svg(
            &[
                Line {
                    name: "your team (seats 0 and 2)",
                    colour: "blue",
                    values: vec![0.0, 3.0, 5.0],
                },
                Line {
                    name: "the other team <1 & 3>",
                    colour: "red",
                    values: vec![0.0, -2.0, 4.0],
                },
            ],
            "Score",
            0,
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 3);
        assert!(svg.contains(r#"fill="blue"/><text x="79" y="45">your team (seats 0 and 2)<"#));
        assert!(svg.contains(">the other team &lt;1 &amp; 3&gt;<"));
        assert!(svg.contains(">-2<") || svg.contains(">-3<"));
    }

    #[test]
    fn bars_stand_on_zero_with_their_values() {
        let svg = bars_svg(
            &["before hand 3".to_string(), "after hand 3".to_string()],
            &[
                Line {
                    name: "us",
                    colour: "blue",
                    values: vec![10.0, 16.0],
                },
                Line {
                    name: "them",
                    colour: "red",
                    values: vec![12.0, 12.0],
                },
            ],
            "Hand 3",
            "score",
        );
        assert_eq!(
            svg.matches(r#"fill="blue"/><text"#).count(),
            3,
            "two bars and the legend"
        );
        for text in [">before hand 3<", ">after hand 3<", ">10<", ">16<", ">12<"] {
            assert!(svg.contains(text), "{text}");
        }
        // Every bar reaches down to the zero line.
        let zero = HEIGHT - MARGIN - (HEIGHT - 2.0 * MARGIN) * (0.0 + 0.8) / (16.8 + 0.8);
        let bars: Vec<&str> = svg
            .lines()
            .filter(|l| l.starts_with("<rect x=") && !l.contains(r#"y="36""#))
            .collect();
        assert_eq!(bars.len(), 4);
        for bar in bars {
            let (y, h) = (
                numbers(bar, "rect", "y")[0],
                numbers(bar, "rect", "height")[0],
            );
            assert!((y + h - zero).abs() < 0.2, "{y} + {h} != {zero}");
        }
    }
}
