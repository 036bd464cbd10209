//! Time limits for solvers.
//!
//! A [`Deadline`] is checked by solvers at their search nodes so that no puzzle can make
//! gridsight hang. It does not measure or report timings; that is the report's job.

use std::time::{Duration, Instant};

/// The moment a solver must give up, or none.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    end: Option<Instant>,
    /// The limit it was made with, for error messages.
    limit: Duration,
}

/// The error a solver returns when its [`Deadline`] passed before it could finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

impl Deadline {
    /// A deadline that never passes.
    pub fn none() -> Self {
        Deadline {
            end: None,
            limit: Duration::ZERO,
        }
    }

    /// A deadline `limit` from now.
    pub fn after(limit: Duration) -> Self {
        Deadline {
            end: Instant::now().checked_add(limit),
            limit,
        }
    }

    /// The time limit it was made with (zero for none).
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Whichever of this deadline and `other` passes first.
    pub fn earlier(self, other: Deadline) -> Deadline {
        match (self.end, other.end) {
            (Some(mine), Some(theirs)) if theirs < mine => other,
            (None, Some(_)) => other,
            _ => self,
        }
    }

    /// The time left before the deadline (zero once it has passed), or `None` when it never
    /// passes.
    pub fn remaining(&self) -> Option<Duration> {
        self.end
            .map(|end| end.saturating_duration_since(Instant::now()))
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.end.is_some_and(|end| Instant::now() >= end)
    }

    /// `Err(TimedOut)` once the deadline has passed, so solvers can write `deadline.check()?`.
    pub fn check(&self) -> Result<(), TimedOut> {
        if self.expired() {
            Err(TimedOut)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_never_expires_and_zero_expires_at_once() {
        assert!(!Deadline::none().expired());
        assert_eq!(Deadline::after(Duration::ZERO).check(), Err(TimedOut));
        assert!(Deadline::after(Duration::from_secs(3600)).check().is_ok());
    }

    #[test]
    fn the_earlier_of_two_deadlines_is_the_one_that_passes_first() {
        let soon = Deadline::after(Duration::ZERO);
        let late = Deadline::after(Duration::from_secs(3600));
        assert!(soon.earlier(late).expired());
        assert!(late.earlier(soon).expired());
        assert!(!late.earlier(Deadline::none()).expired());
        assert!(Deadline::none().earlier(soon).expired());
        assert!(!Deadline::none().earlier(Deadline::none()).expired());
    }

    #[test]
    fn the_time_remaining_runs_down_to_zero_and_none_has_no_end() {
        assert_eq!(Deadline::none().remaining(), None);
        assert_eq!(
            Deadline::after(Duration::ZERO).remaining(),
            Some(Duration::ZERO)
        );
        let left = Deadline::after(Duration::from_secs(3600)).remaining();
        assert!(left.is_some_and(|left| left > Duration::from_secs(3500)));
    }
}
