//! Sign-in attempts counted in the store ([`super::Accounts::take_attempt`]), so that
//! every node of a cluster sees every node's: one row a limited key, the time its
//! allowance is whole again (a generic cell rate algorithm: `per_minute` on average,
//! as many at once after a quiet minute). Rows past that time are deleted with each
//! attempt: none lives more than a minute after its key's last attempt.

use std::time::Duration;

/// The upsert of an attempt, for a backend whose larger-of function is `max` (`$1` the
/// key, `$2` now, `$3` one attempt's spacing, `$4` the tolerance, both in ms): the
/// key's new time, or no row if the attempt is refused (nothing changed).
pub(super) fn upsert(max: &str) -> String {
    format!(
        "INSERT INTO sign_in_attempts (key, full_at_ms) VALUES ($1, $2 + $3) \
         ON CONFLICT (key) DO UPDATE SET \
         full_at_ms = {max}(sign_in_attempts.full_at_ms, $2) + $3 \
         WHERE {max}(sign_in_attempts.full_at_ms, $2) - $2 <= $4 \
         RETURNING full_at_ms"
    )
}

/// One attempt's spacing and the tolerance (as many more at once), in milliseconds,
/// for `per_minute` attempts a minute.
pub(super) fn spacing(per_minute: u32) -> (i64, i64) {
    let spacing = (60_000 / i64::from(per_minute.max(1))).max(1);
    (spacing, spacing * (i64::from(per_minute) - 1).max(0))
}

/// The wait before an attempt on a key whose allowance is whole at `full_at` (none
/// stored: none), refused at `now` with `tolerance`: at least a millisecond.
pub(super) fn wait(full_at: Option<i64>, now: i64, tolerance: i64) -> Duration {
    let wait = full_at.map_or(0, |full_at| full_at - now - tolerance);
    Duration::from_millis(wait.max(1) as u64)
}

/// The body of [`super::Accounts::take_attempt`] on the pool `$pool` at time `$now`
/// (ms), `$max` the backend's larger-of function: `None` if taken, else the wait.
macro_rules! take_attempt {
    ($pool:expr, $max:expr, $key:expr, $per_minute:expr, $now:expr) => {{
        use $crate::store::attempts::{spacing, upsert, wait};
        let (key, per_minute, now): (&str, u32, i64) = ($key, $per_minute, $now);
        if per_minute == 0 {
            return Ok(None);
        }
        let (spacing, tolerance) = spacing(per_minute);
        sqlx::query("DELETE FROM sign_in_attempts WHERE full_at_ms < $1")
            .bind(now)
            .execute($pool)
            .await?;
        let taken: Option<(i64,)> = sqlx::query_as(&upsert($max))
            .bind(key)
            .bind(now)
            .bind(spacing)
            .bind(tolerance)
            .fetch_optional($pool)
            .await?;
        if taken.is_some() {
            return Ok(None);
        }
        let full_at: Option<(i64,)> =
            sqlx::query_as("SELECT full_at_ms FROM sign_in_attempts WHERE key = $1")
                .bind(key)
                .fetch_optional($pool)
                .await?;
        Ok(Some(wait(full_at.map(|(f,)| f), now, tolerance)))
    }};
}
pub(super) use take_attempt;
