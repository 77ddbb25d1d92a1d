//! Where the dabs of a stroke go, between the pointer samples the editor gets once per frame.
//!
//! - [`DabSpacer`]: dabs every `spacing` voxels along the path the pointer travelled (so a fast drag
//!   is a continuous stroke, not a row of blobs), and at a steady rate while the pointer rests (so a
//!   held brush works as fast at 20 frames per second as at 144). Strength per distance and per
//!   second is therefore independent of the frame rate.
//! - [`StrokePin`]: keeps every dab within a band around the surface the stroke started on, so Add
//!   held in place cannot grow a column toward the camera and Subtract cannot bore through the world.
//!
//! ```text
//!   samples:   s0 ─────────────── s1 ──── s2          (one per frame)
//!   dabs:      d0 ── d1 ── d2 ── d3 ── d4 ── d5       (every `spacing` along the path)
//!   pin:       start plane ═══════════════  ± cap along its normal
//! ```

use super::brush::Plane;

/// Dab spacing as a fraction of the brush radius.
pub const SPACING_OF_RADIUS: f32 = 0.25;
/// Dabs per second while the pointer rests.
pub const RESTING_DABS_PER_SECOND: f32 = 20.0;
/// Most dabs one call may emit while resting (a long stall does not release a burst).
const MAX_RESTING_DABS: u32 = 3;
/// Most dabs one call may emit along the path (a jump across the world is not filled in).
const MAX_PATH_DABS: u32 = 256;

/// Spaces the dabs of one stroke.
#[derive(Debug, Clone, PartialEq)]
pub struct DabSpacer {
    spacing: f32,
    last: Option<[f32; 3]>,
    resting: f32,
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

impl DabSpacer {
    /// A spacer for a brush of `radius` voxels (dabs [`SPACING_OF_RADIUS`] of it apart, at least a
    /// quarter voxel).
    pub fn new(radius: f32) -> Self {
        let radius = if radius.is_finite() { radius } else { 1.0 };
        Self {
            spacing: (radius * SPACING_OF_RADIUS).max(0.25),
            last: None,
            resting: 0.0,
        }
    }

    /// The distance between dabs, voxels.
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// The pointer is at `point`, `dt` seconds after the previous call: push the dab centres due.
    /// The first call dabs at its point. Non-finite points and times are ignored.
    pub fn advance(&mut self, point: [f32; 3], dt: f32, out: &mut Vec<[f32; 3]>) {
        if point.iter().any(|c| !c.is_finite()) {
            return;
        }
        let Some(last) = self.last else {
            self.last = Some(point);
            out.push(point);
            return;
        };
        let travelled = distance(last, point);
        if travelled >= self.spacing {
            let steps = ((travelled / self.spacing) as u32).min(MAX_PATH_DABS);
            let step = self.spacing.max(travelled / MAX_PATH_DABS as f32);
            let dir = [
                (point[0] - last[0]) / travelled,
                (point[1] - last[1]) / travelled,
                (point[2] - last[2]) / travelled,
            ];
            let mut at = last;
            for _ in 0..steps {
                at = [
                    at[0] + dir[0] * step,
                    at[1] + dir[1] * step,
                    at[2] + dir[2] * step,
                ];
                out.push(at);
            }
            self.last = Some(at);
            self.resting = 0.0;
            return;
        }
        if dt.is_finite() && dt > 0.0 {
            self.resting += dt;
        }
        let period = 1.0 / RESTING_DABS_PER_SECOND;
        let mut emitted = 0;
        while self.resting >= period && emitted < MAX_RESTING_DABS {
            self.resting -= period;
            out.push(last);
            emitted += 1;
        }
        if emitted == MAX_RESTING_DABS {
            self.resting = self.resting.min(period);
        }
    }
}

/// Keeps a stroke's dabs near the surface it started on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrokePin {
    plane: Plane,
    cap: f32,
}

impl StrokePin {
    /// A pin at the plane through the stroke's first hit (`point`, surface `normal`), letting dabs
    /// move at most `cap` voxels off it along the normal either way.
    pub fn new(point: [f32; 3], normal: [f32; 3], cap: f32) -> Self {
        Self {
            plane: Plane::new(point, normal),
            cap: if cap.is_finite() { cap.max(0.0) } else { 0.0 },
        }
    }

    /// `center` moved along the plane's normal into the band of ±cap around the plane.
    pub fn pin(&self, center: [f32; 3]) -> [f32; 3] {
        let h = self.plane.signed_distance(center);
        if !h.is_finite() {
            return center;
        }
        let excess = h - h.clamp(-self.cap, self.cap);
        let n = self.plane.normal;
        [
            center[0] - n[0] * excess,
            center[1] - n[1] * excess,
            center[2] - n[2] * excess,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dabs along a straight drag from x = 0 to x = 40 in `frames` equal steps over one second.
    fn drag(frames: usize, spacer: &mut DabSpacer) -> Vec<[f32; 3]> {
        let mut out = Vec::new();
        for i in 0..=frames {
            let x = 40.0 * i as f32 / frames as f32;
            spacer.advance([x, 5.0, 0.0], 1.0 / frames as f32, &mut out);
        }
        out
    }

    #[test]
    fn a_fast_drag_is_continuous_whatever_the_frame_rate() {
        let slow = drag(3, &mut DabSpacer::new(4.0));
        let fast = drag(240, &mut DabSpacer::new(4.0));
        // One sample every 13 voxels still gives a dab every voxel (radius 4 × 0.25).
        for dabs in [&slow, &fast] {
            for pair in dabs.windows(2) {
                assert!(distance(pair[0], pair[1]) <= 1.0 + 1e-4, "{pair:?}");
            }
            assert!((dabs.len() as i32 - 41).abs() <= 1, "{}", dabs.len());
        }
    }

    #[test]
    fn a_resting_brush_dabs_at_a_steady_rate() {
        for fps in [10usize, 30, 60, 144] {
            let mut s = DabSpacer::new(4.0);
            let mut out = Vec::new();
            for _ in 0..=(2 * fps) {
                s.advance([1.0, 2.0, 3.0], 1.0 / fps as f32, &mut out);
            }
            // The first dab, then 20 per second for two seconds.
            let expected = 1 + 2 * RESTING_DABS_PER_SECOND as usize;
            assert!(
                (out.len() as i64 - expected as i64).abs() <= 1,
                "{fps} fps: {}",
                out.len()
            );
        }
    }

    #[test]
    fn stalls_and_jumps_are_bounded_and_nan_is_ignored() {
        let mut s = DabSpacer::new(2.0);
        let mut out = Vec::new();
        s.advance([0.0; 3], 0.0, &mut out);
        s.advance([0.0; 3], 10.0, &mut out);
        assert_eq!(out.len(), 1 + MAX_RESTING_DABS as usize);
        out.clear();
        s.advance([1e6, 0.0, 0.0], 0.01, &mut out);
        assert_eq!(out.len(), MAX_PATH_DABS as usize);
        out.clear();
        s.advance([f32::NAN, 0.0, 0.0], f32::NAN, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn the_pin_keeps_dabs_in_a_band_around_the_start_plane() {
        let pin = StrokePin::new([0.0, 10.0, 0.0], [0.0, 1.0, 0.0], 3.0);
        assert_eq!(pin.pin([5.0, 11.0, 2.0]), [5.0, 11.0, 2.0]);
        assert_eq!(pin.pin([5.0, 30.0, 2.0]), [5.0, 13.0, 2.0]);
        assert_eq!(pin.pin([5.0, -30.0, 2.0]), [5.0, 7.0, 2.0]);
        let tilted = StrokePin::new([0.0; 3], [1.0, 1.0, 0.0], 1.0);
        let p = tilted.pin([10.0, 10.0, 0.0]);
        let h = (p[0] + p[1]) / 2f32.sqrt();
        assert!((h - 1.0).abs() < 1e-4, "{p:?}");
    }
}
