//! An SVG chart of a running mean with its 95% confidence band, drawn by hand: a few
//! lines of SVG need no plotting library.

use std::fmt::Write;

use crate::stats::mean_interval;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 400.0;
const MARGIN: f64 = 60.0;

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
    let (mut low, mut high) = settled.fold((0.0f64, 0.0f64), |(lo, hi), &(_, l, h)| {
        (lo.min(l), hi.max(h))
    });
    if high - low < 1e-9 {
        low -= 1.0;
        high += 1.0;
    }
    let n = points.len().max(2) as f64;
    let x = |i: usize| MARGIN + (WIDTH - 2.0 * MARGIN) * i as f64 / (n - 1.0);
    let y = |v: f64| {
        let v = v.clamp(low, high);
        HEIGHT - MARGIN - (HEIGHT - 2.0 * MARGIN) * (v - low) / (high - low)
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // The band: upper edge left to right, lower edge back.
    let mut band = String::new();
    for (i, &(_, _, h)) in points.iter().enumerate() {
        let _ = write!(band, "{:.1},{:.1} ", x(i), y(h));
    }
    for (i, &(_, l, _)) in points.iter().enumerate().rev() {
        let _ = write!(band, "{:.1},{:.1} ", x(i), y(l));
    }
    let _ = writeln!(
        svg,
        r##"<polygon points="{band}" fill="#9ecae1" fill-opacity="0.6"/>"##
    );
    let mean_line: String = points
        .iter()
        .enumerate()
        .map(|(i, &(m, _, _))| format!("{:.1},{:.1}", x(i), y(m)))
        .collect::<Vec<_>>()
        .join(" ");
    let _ = writeln!(
        svg,
        r##"<polyline points="{mean_line}" fill="none" stroke="#08519c" stroke-width="2"/>"##
    );
    let zero = y(0.0);
    let _ = writeln!(
        svg,
        r##"<line x1="{MARGIN}" y1="{zero:.1}" x2="{}" y2="{zero:.1}" stroke="#d62728" stroke-dasharray="5,4"/>"##,
        WIDTH - MARGIN
    );
    // Axes and labels.
    let _ = writeln!(
        svg,
        r#"<line x1="{MARGIN}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        HEIGHT - MARGIN,
        WIDTH - MARGIN,
        HEIGHT - MARGIN
    );
    let _ = writeln!(
        svg,
        r#"<line x1="{MARGIN}" y1="{MARGIN}" x2="{MARGIN}" y2="{}" stroke="black"/>"#,
        HEIGHT - MARGIN
    );
    for (value, label) in [(high, high), (low, low), (0.0, 0.0)] {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{label:+.2}</text>"#,
            MARGIN - 6.0,
            y(value) + 4.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">pairs played (of {}); line: running mean, band: 95% confidence interval, dashes: zero</text>"#,
        WIDTH / 2.0,
        HEIGHT - MARGIN + 30.0,
        values.len()
    );
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
}
