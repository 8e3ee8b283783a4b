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

/// Exact running sums of whole numbers, for a mean and its interval that do not depend on
/// the order the numbers came in (pairs finish in any order on many threads).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sums {
    /// How many numbers.
    pub n: u64,
    sum: i128,
    sum_sq: i128,
}

impl Sums {
    /// Adds `x`.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.sum_sq += i128::from(x) * i128::from(x);
    }

    /// The mean of the numbers divided by `scale` (numbers kept as whole multiples of
    /// `1 / scale`), with its 95% interval as [`mean_interval`] gives it.
    pub fn interval(&self, scale: f64) -> Interval {
        let n = self.n as usize;
        if n == 0 {
            return mean_interval(&[]);
        }
        let count = self.n as f64;
        let mean = self.sum as f64 / count / scale;
        if n < 2 {
            return Interval {
                mean,
                low: mean,
                high: mean,
                n,
            };
        }
        // n * sum of squares - sum^2, exactly, over n (n - 1).
        let spread = (i128::from(self.n) * self.sum_sq - self.sum * self.sum) as f64;
        let variance = spread / (count * (count - 1.0)) / (scale * scale);
        let half_width = Z95 * (variance / count).sqrt();
        Interval {
            mean,
            low: mean - half_width,
            high: mean + half_width,
            n,
        }
    }
}

/// Durations summed into a histogram of buckets 1% apart (from a microsecond up), so a
/// long run keeps a fixed size: the mean is exact, the median and p99 within 1%.
#[derive(Clone, Debug)]
pub struct TimeStats {
    count: u64,
    total_ms: f64,
    buckets: Vec<u64>,
}

/// Bucket `k` holds durations from 1 µs * GROWTH^k.
const GROWTH: f64 = 1.01;
/// Buckets up to about three hours.
const TIME_BUCKETS: usize = 2400;

impl Default for TimeStats {
    fn default() -> TimeStats {
        TimeStats {
            count: 0,
            total_ms: 0.0,
            buckets: vec![0; TIME_BUCKETS],
        }
    }
}

impl TimeStats {
    /// Adds a duration.
    pub fn add(&mut self, time: std::time::Duration) {
        let micros = time.as_secs_f64() * 1e6;
        let bucket = if micros <= 1.0 {
            0
        } else {
            (micros.ln() / GROWTH.ln()) as usize
        };
        self.buckets[bucket.min(TIME_BUCKETS - 1)] += 1;
        self.count += 1;
        self.total_ms += time.as_secs_f64() * 1000.0;
    }

    /// Adds every duration of `other`.
    pub fn merge(&mut self, other: &TimeStats) {
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            *mine += theirs;
        }
        self.count += other.count;
        self.total_ms += other.total_ms;
    }

    /// How many durations.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean in milliseconds; 0 for none.
    pub fn mean_ms(&self) -> f64 {
        self.total_ms / self.count.max(1) as f64
    }

    /// The `q`-quantile (0..=1) in milliseconds by the nearest rank, as the middle of its
    /// bucket; 0 for none.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (k, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return GROWTH.powf(k as f64 + 0.5) / 1000.0;
            }
        }
        0.0
    }
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
    fn exact_sums_give_the_interval_of_the_values() {
        let values = [3, -1, 4, 1, -5, 9, 2, 6];
        let mut sums = Sums::default();
        for x in values {
            sums.add(x);
        }
        // Halves: the sums hold twice each value.
        let halves: Vec<f64> = values.iter().map(|&x| x as f64 / 2.0).collect();
        let exact = sums.interval(2.0);
        let direct = mean_interval(&halves);
        assert_eq!(exact.n, direct.n);
        for (a, b) in [
            (exact.mean, direct.mean),
            (exact.low, direct.low),
            (exact.high, direct.high),
        ] {
            assert!((a - b).abs() < 1e-12, "{exact:?} {direct:?}");
        }
        assert_eq!(Sums::default().interval(1.0), mean_interval(&[]));
    }

    #[test]
    fn time_quantiles_are_within_a_percent() {
        let mut stats = TimeStats::default();
        for ms in 1..=1000u64 {
            stats.add(std::time::Duration::from_millis(ms));
        }
        let near = |got: f64, want: f64| (got / want - 1.0).abs() < 0.011;
        assert!(
            near(stats.quantile_ms(0.5), 500.0),
            "{}",
            stats.quantile_ms(0.5)
        );
        assert!(
            near(stats.quantile_ms(0.99), 990.0),
            "{}",
            stats.quantile_ms(0.99)
        );
        assert!((stats.mean_ms() - 500.5).abs() < 1e-6);
        let mut merged = TimeStats::default();
        merged.merge(&stats);
        merged.merge(&stats);
        assert_eq!(merged.count(), 2000);
        assert_eq!(merged.quantile_ms(0.5), stats.quantile_ms(0.5));
        assert_eq!(TimeStats::default().quantile_ms(0.5), 0.0);
    }
}
