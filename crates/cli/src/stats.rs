//! Means with confidence intervals, and quantiles.

use serde::Serialize;

/// A mean with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The sample mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Sample size.
    pub n: usize,
}

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_985;

/// The mean of `xs` with a 95% interval from the normal approximation (the sample
/// standard deviation over the square root of n); the interval is the mean alone for
/// fewer than two values.
pub fn mean_interval(xs: &[f64]) -> Interval {
    let n = xs.len();
    if n == 0 {
        return Interval {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
            n,
        };
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return Interval {
            mean,
            low: mean,
            high: mean,
            n,
        };
    }
    let variance = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half_width = Z95 * (variance / n as f64).sqrt();
    Interval {
        mean,
        low: mean - half_width,
        high: mean + half_width,
        n,
    }
}

/// The `q`-quantile (0..=1) of sorted values by the nearest rank; 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_of_a_known_sample() {
        // mean 3, sample sd sqrt(2.5), standard error sqrt(0.5): half width 1.38590.
        let interval = mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(interval.mean, 3.0);
        assert!((interval.low - 1.614_10).abs() < 1e-4, "{interval:?}");
        assert!((interval.high - 4.385_90).abs() < 1e-4, "{interval:?}");
        assert_eq!(interval.n, 5);
    }

    #[test]
    fn interval_of_a_constant_sample_has_no_width() {
        let interval = mean_interval(&[2.0; 10]);
        assert_eq!(
            (interval.low, interval.mean, interval.high),
            (2.0, 2.0, 2.0)
        );
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&values, 0.5), 50.0);
        assert_eq!(quantile(&values, 0.99), 99.0);
        assert_eq!(quantile(&values, 1.0), 100.0);
        assert_eq!(quantile(&[7.0], 0.5), 7.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
