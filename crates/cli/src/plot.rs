//! SVG charts drawn by hand (a few lines of SVG need no plotting library): a running mean
//! with its 95% confidence band (`arena --plot`), and lines through a game (the score in
//! `analyze --html`).

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

    /// The axes, the values of `marks` on the left (written as `format` says) and the
    /// caption below; closes the SVG.
    fn finish(mut self, marks: &[f64], format: fn(f64) -> String, caption: &str) -> String {
        let (left, right, bottom) = (MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN);
        let _ = writeln!(
            self.svg,
            r#"<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>"#
        );
        let _ = writeln!(
            self.svg,
            r#"<line x1="{left}" y1="{MARGIN}" x2="{left}" y2="{bottom}" stroke="black"/>"#
        );
        for &value in marks {
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
            bottom + 30.0,
            escape(caption)
        );
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

/// The running mean of `values` after each one, with its 95% band, and a zero line.
pub fn running_mean_svg(values: &[f64], title: &str) -> String {
    let points: Vec<(f64, f64, f64)> = (1..=values.len())
        .map(|k| {
            let interval = mean_interval(&values[..k]);
            (interval.mean, interval.low, interval.high)
        })
        .collect();
    // Skip the first few points in the scale: their bands are meaninglessly wide.
    let settled = points.iter().skip(points.len().min(10));
    let (low, high) = settled.fold((0.0f64, 0.0f64), |(lo, hi), &(_, l, h)| {
        (lo.min(l), hi.max(h))
    });
    let mut frame = Frame::new(points.len(), low, high, title);
    // The band: upper edge left to right, lower edge back.
    let mut band = String::new();
    for (i, &(_, _, h)) in points.iter().enumerate() {
        let _ = write!(band, "{:.1},{:.1} ", frame.x(i), frame.y(h));
    }
    for (i, &(_, l, _)) in points.iter().enumerate().rev() {
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
    let (low, high) = (frame.low, frame.high);
    frame.finish(
        &[high, low, 0.0],
        |v| format!("{v:+.2}"),
        &format!(
            "pairs played (of {}); line: running mean, band: 95% confidence interval, dashes: zero",
            values.len()
        ),
    )
}

/// Lines through a game, one point per step (each named, with its colour, in the
/// caption), on a scale from the lowest value (or 0) to the highest.
pub fn lines_svg(lines: &[(&str, &str, Vec<f64>)], title: &str, steps: &str) -> String {
    let all = lines
        .iter()
        .flat_map(|(_, _, values)| values.iter().copied());
    let (low, high) = all.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let n = lines.iter().map(|(_, _, v)| v.len()).max().unwrap_or(0);
    let mut frame = Frame::new(n, low, high, title);
    for (_, colour, values) in lines {
        frame.line(values.iter().copied(), colour);
    }
    let names: Vec<String> = lines
        .iter()
        .map(|(name, colour, _)| format!("{name} ({colour})"))
        .collect();
    let (low, high) = (frame.low, frame.high);
    frame.finish(
        &[high, low, 0.0],
        |v| format!("{v:.0}"),
        &format!("{steps}; {}", names.join(", ")),
    )
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

    #[test]
    fn lines_have_a_point_per_step_and_their_names() {
        let svg = lines_svg(
            &[
                ("team 0", "blue", vec![0.0, 3.0, 5.0]),
                ("team 1", "red", vec![0.0, -2.0, 4.0]),
            ],
            "Score",
            "hands",
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 3);
        assert!(svg.contains("hands; team 0 (blue), team 1 (red)"));
        assert!(svg.contains(">-2<"));
    }
}
