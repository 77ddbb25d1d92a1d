//! Progress and cancellation shared between a long job and whoever watches it (a terminal progress
//! bar, the editor's status bar). Lock-free: workers bump counters, watchers poll.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::{Error, Result};

/// Counters for one long job.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
}

impl Progress {
    /// A fresh, uncancelled progress with no work declared.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare the amount of work and reset the done counter.
    pub fn start(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }

    /// Record `n` more units done.
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// (done, total).
    pub fn counts(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Fraction done in `0..=1` (0 before work is declared).
    pub fn fraction(&self) -> f32 {
        let (d, t) = self.counts();
        if t == 0 {
            0.0
        } else {
            (d as f64 / t as f64).min(1.0) as f32
        }
    }

    /// Ask the job to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// `Err(Error::Cancelled)` once cancelled; jobs call this between units of work.
    ///
    /// # Errors
    /// [`Error::Cancelled`] after [`Progress::cancel`].
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}
