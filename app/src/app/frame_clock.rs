//! The frame interval the status bar shows: wall-clock time from one frame's start to the next, so
//! it counts everything a frame costs (the editor's CPU work, the GPU work the swap waits for, and
//! the swap itself), not only the CPU time eframe reports.
//!
//! ```text
//!   frame n starts ─── ui ─── paint ─── swap (waits for the GPU) ─── frame n+1 starts
//!   |<──────────────────────────── one interval ─────────────────────────>|
//! ```
//!
//! eframe only draws when something happens, so not every gap between frames is a frame: after an
//! idle wait the gap is the user's pause. An interval counts only when the frame before it was
//! continuous (it asked egui for another frame at once, or a pointer button is held: a drag or a
//! stroke) and it is shorter than [`IDLE_GAP`]. The figure is the median of the last
//! [`WINDOW`] counted intervals, so one hitch does not hide the steady rate.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Intervals the median is taken over.
pub const WINDOW: usize = 30;
/// A gap this long is a pause, never a frame.
pub const IDLE_GAP: Duration = Duration::from_secs(2);

/// Frame start times in, median frame interval out.
#[derive(Debug, Default, Clone)]
pub struct FrameClock {
    last_start: Option<Instant>,
    intervals_ms: VecDeque<f32>,
    counted: u64,
}

impl FrameClock {
    /// A frame starts at `now`; `after_continuous` tells whether the frame before it was continuous
    /// (it asked for this one at once, or a pointer button is held). Call once per frame.
    pub fn frame_started(&mut self, now: Instant, after_continuous: bool) {
        if let Some(last) = self.last_start {
            let gap = now.saturating_duration_since(last);
            if after_continuous && gap < IDLE_GAP {
                if self.intervals_ms.len() == WINDOW {
                    self.intervals_ms.pop_front();
                }
                self.intervals_ms.push_back(gap.as_secs_f32() * 1000.0);
                self.counted += 1;
            }
        }
        self.last_start = Some(now);
    }

    /// Median of the recent counted intervals, milliseconds (0 before the first one).
    pub fn frame_ms(&self) -> f32 {
        median(self.intervals_ms.iter().copied().collect())
    }

    /// The recent counted intervals, oldest first, milliseconds.
    pub fn recent_ms(&self) -> impl Iterator<Item = f32> + '_ {
        self.intervals_ms.iter().copied()
    }

    /// The latest counted interval, milliseconds.
    pub fn last_ms(&self) -> Option<f32> {
        self.intervals_ms.back().copied()
    }

    /// Intervals counted since the start.
    pub fn counted(&self) -> u64 {
        self.counted
    }
}

/// Median of `values` (0 when empty; the mean of the middle two for an even count).
pub fn median(mut values: Vec<f32>) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuous_frames_count_and_idle_gaps_do_not() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut clock = FrameClock::default();
        clock.frame_started(at(0), false);
        clock.frame_started(at(40), true);
        clock.frame_started(at(80), true);
        assert_eq!(clock.counted(), 2);
        assert!(
            (clock.frame_ms() - 40.0).abs() < 0.5,
            "{}",
            clock.frame_ms()
        );
        // The user paused for a second: not a frame.
        clock.frame_started(at(1080), false);
        assert_eq!(clock.counted(), 2);
        // A slow frame while rendering continuously counts.
        clock.frame_started(at(1380), true);
        assert_eq!(clock.counted(), 3);
        assert!(
            (clock.frame_ms() - 40.0).abs() < 0.5,
            "median keeps the steady rate"
        );
        // A gap longer than IDLE_GAP never counts, even after a continuous frame.
        clock.frame_started(at(5000), true);
        assert_eq!(clock.counted(), 3);
    }

    #[test]
    fn the_window_keeps_the_latest_intervals() {
        let t0 = Instant::now();
        let mut clock = FrameClock::default();
        let mut t = t0;
        clock.frame_started(t, true);
        for i in 0..(WINDOW as u64 + 10) {
            t += Duration::from_millis(if i < 10 { 100 } else { 10 });
            clock.frame_started(t, true);
        }
        assert_eq!(clock.recent_ms().count(), WINDOW);
        assert!(
            (clock.frame_ms() - 10.0).abs() < 0.5,
            "{}",
            clock.frame_ms()
        );
        assert_eq!(median(vec![3.0, 1.0, 2.0, 10.0]), 2.5);
        assert_eq!(median(Vec::new()), 0.0);
    }
}
