//! Real-time pacing for an interactive simulation: how many fixed steps to run this frame.
//!
//! ```text
//!   begin_frame(real seconds since the last frame, compute budget):
//!       pending += min(real, MAX_FRAME_SECONDS)        time the simulation owes
//!       credit   = min(credit + budget, budget)        compute it may spend (a debt carries over)
//!   while pending >= dt and credit > 0:  step, pending −= dt, credit −= the step's cost
//!   end_frame:  whole steps still pending are dropped  -> the simulation runs slower than real time
//! ```
//!
//! A frame never runs more steps than fit its budget, plus the one step that crosses it. When one step
//! alone costs more than the budget, the debt it leaves makes the following frames skip stepping until
//! it is paid, so the frame rate stays near `1 / (frame + budget)` and the simulation slows instead.
//! The pacer only does the arithmetic; [`crate::physics::body::Simulation::advance`] times the steps.

/// Longest frame (seconds) the simulation catches up on: after a pause or a hitch, at most this much
/// simulated time is owed. A second, so frames as slow as 1 per second still owe their whole time
/// (the caller's budget, not this cap, decides whether it is run).
pub const MAX_FRAME_SECONDS: f64 = 1.0;

/// Fraction of a step by which owed time may fall short and still count as a whole step: frame times
/// and the `f32` step do not divide evenly in floating point.
const SLACK: f64 = 1e-4;

/// The pacing state of one interactive simulation (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Pacer {
    pending: f64,
    credit: f64,
    window_steps: u64,
    window_seconds: f64,
    rate: f64,
    behind: f64,
}

/// What one frame of pacing did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Advance {
    /// Fixed steps run this frame.
    pub steps: u32,
    /// Simulated seconds dropped this frame because the budget ran out (0 when in real time).
    pub dropped_seconds: f64,
    /// Seconds spent stepping this frame.
    pub cost_seconds: f64,
}

impl Pacer {
    /// A pacer owing nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Start a frame: `real_seconds` passed since the last one; stepping may cost `budget_seconds`.
    /// Non-finite or negative inputs count as zero.
    pub fn begin_frame(&mut self, real_seconds: f64, budget_seconds: f64) {
        let clean = |v: f64| if v.is_finite() { v.max(0.0) } else { 0.0 };
        let (real, budget) = (clean(real_seconds), clean(budget_seconds));
        self.pending += real.min(MAX_FRAME_SECONDS);
        self.credit = (self.credit + budget).min(budget);
        self.window_seconds += real;
    }

    /// True when a step of `dt` seconds is owed and the budget allows one.
    pub fn wants_step(&self, dt: f64) -> bool {
        self.pending >= dt - SLACK * dt && self.credit > 0.0
    }

    /// Record a step of `dt` simulated seconds that cost `cost_seconds`.
    pub fn stepped(&mut self, dt: f64, cost_seconds: f64) {
        self.pending -= dt;
        self.credit -= cost_seconds.max(0.0);
        self.window_steps += 1;
    }

    /// End the frame: drop the whole steps still owed (the simulation falls behind real time instead
    /// of the frame rate dropping) and return the simulated seconds dropped.
    pub fn end_frame(&mut self, dt: f64) -> f64 {
        let mut dropped = 0.0;
        if self.pending >= dt - SLACK * dt {
            dropped = (self.pending / dt + SLACK).floor() * dt;
            self.pending = (self.pending - dropped).max(0.0);
        }
        self.behind += dropped;
        if self.window_seconds >= 0.5 {
            self.rate = self.window_steps as f64 / self.window_seconds;
            self.window_steps = 0;
            self.window_seconds = 0.0;
        }
        dropped
    }

    /// Fixed steps per real second, measured over the last half second or more.
    pub fn steps_per_second(&self) -> f64 {
        self.rate
    }

    /// Simulated seconds dropped in all: how far the simulation is behind real time.
    pub fn behind_seconds(&self) -> f64 {
        self.behind
    }

    /// Forget what is owed (after Pause, Reset or Clear).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 1.0 / 120.0;

    /// Run `frames` frames of `frame` seconds with a budget, each step costing `cost`; returns the
    /// steps per frame.
    fn run(frames: usize, frame: f64, budget: f64, cost: f64) -> Vec<u32> {
        let mut p = Pacer::new();
        (0..frames)
            .map(|_| {
                p.begin_frame(frame, budget);
                let mut n = 0;
                while p.wants_step(DT) {
                    p.stepped(DT, cost);
                    n += 1;
                }
                p.end_frame(DT);
                n
            })
            .collect()
    }

    #[test]
    fn cheap_steps_keep_real_time() {
        // 60 frames per second, 2 steps per frame, steps far cheaper than the budget.
        let steps = run(600, 1.0 / 60.0, 0.008, 0.0005);
        let total: u32 = steps.iter().sum();
        assert!((1199..=1200).contains(&total), "{total}");
        assert!(steps.iter().all(|&n| n <= 3));
    }

    #[test]
    fn expensive_steps_slow_the_simulation_not_the_frames() {
        // A step costs 3 ms, the budget is 4 ms: at most 2 steps per frame (the second crosses the
        // budget), never the 2 owed plus a backlog.
        let steps = run(120, 1.0 / 60.0, 0.004, 0.003);
        assert!(steps.iter().all(|&n| n <= 2), "{steps:?}");
        // A step costing 3 budgets runs once every 3 frames: the frames stay short.
        let steps = run(90, 1.0 / 60.0, 0.004, 0.012);
        let total: u32 = steps.iter().sum();
        assert!(steps.iter().all(|&n| n <= 1));
        assert!((28..=31).contains(&total), "{total}: {steps:?}");
    }

    #[test]
    fn slow_frames_keep_real_time_when_the_budget_grows_with_the_frame() {
        // Two frames per second; half of each frame's wall time may go to stepping; a step costs
        // 1 ms: every owed step runs, so simulated time equals wall time.
        let steps = run(20, 0.5, 0.25, 0.001);
        let total: u32 = steps.iter().sum();
        assert_eq!(total, 20 * 60, "{steps:?}");
        // A fixed 6 ms a frame at the same rate runs a small fraction of it.
        let steps = run(20, 0.5, 0.006, 0.001);
        let total: u32 = steps.iter().sum();
        assert!(total <= 20 * 7, "{total}");
    }

    #[test]
    fn a_long_pause_is_not_caught_up_and_bad_input_is_ignored() {
        let mut p = Pacer::new();
        p.begin_frame(30.0, 1.0);
        let mut n = 0;
        while p.wants_step(DT) {
            p.stepped(DT, 0.0);
            n += 1;
        }
        assert_eq!(n, (MAX_FRAME_SECONDS / DT).round() as u32);
        p.end_frame(DT);
        for bad in [f64::NAN, -1.0, f64::INFINITY] {
            p.begin_frame(bad, bad);
            assert!(!p.wants_step(DT));
            p.end_frame(DT);
        }
    }
}
