//! The move gizmo on the selected light: three arrows along X (red), Y (green) and Z (blue); a drag
//! on an arrow moves the light along that axis only. The arrows grow with the camera's distance so
//! they keep about the same size on screen ([`Gizmo::seen_from`]).
//!
//! ```text
//!            Y ▲
//!              │        press within HANDLE_RADIUS of an arrow ──> an axis drag:
//!              o───▶ X  the light goes to the point of the axis line nearest the pointer's ray,
//!             ╱         keeping the offset between it and the point grabbed
//!          Z ▼
//! ```

use strata_engine::vec3::{add, dot, scale, sub};

use crate::viewport::camera::PickRay;
use crate::viewport::overlay::{Overlay, SolidKind};

/// Length of an arrow at its nearest, voxels (from the light's centre to the tip).
pub const ARROW_LENGTH: f32 = 3.0;
/// Arrow length per voxel of distance from the camera (about a tenth of the view's height).
const LENGTH_PER_DISTANCE: f32 = 0.1;
/// How far from an arrow a ray still grabs it, as a share of the arrow's length.
const HANDLE_RADIUS: f32 = 0.15;
/// Arrows start this share of their length from the centre, so a press on the ball picks the ball.
const ARROW_START: f32 = 0.33;
/// Half the side of an arrow's tip, as a share of its length.
const TIP: f32 = 0.07;
/// Colours of the X, Y and Z arrows.
const AXIS_COLORS: [[u8; 4]; 3] = [[230, 70, 60, 255], [90, 200, 80, 255], [70, 120, 235, 255]];

/// The unit vector of axis `a` (0 = X, 1 = Y, 2 = Z).
fn unit(a: usize) -> [f32; 3] {
    let mut u = [0.0; 3];
    u[a] = 1.0;
    u
}

/// The gizmo of one light: where it is and how long its arrows are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gizmo {
    /// The light's position.
    pub position: [f32; 3],
    /// Length of each arrow, voxels.
    pub length: f32,
}

impl Gizmo {
    /// The gizmo of a light at `position` seen from a camera at `eye`.
    pub fn seen_from(position: [f32; 3], eye: [f32; 3]) -> Self {
        let d = sub(position, eye);
        let distance = dot(d, d).sqrt();
        Self {
            position,
            length: (distance * LENGTH_PER_DISTANCE).clamp(ARROW_LENGTH, 256.0),
        }
    }

    /// Each arrow's line and a small tip.
    pub fn draw(&self, out: &mut Vec<Overlay>) {
        for (a, color) in AXIS_COLORS.into_iter().enumerate() {
            let from = along(self.position, a, ARROW_START * self.length);
            let to = along(self.position, a, self.length);
            out.push(Overlay::Lines {
                points: vec![from, to],
                color,
            });
            out.push(Overlay::Solid {
                kind: SolidKind::Box,
                center: to,
                rotation: [0.0, 0.0, 0.0, 1.0],
                half_extents: [TIP * self.length; 3],
                color,
            });
        }
    }

    /// The arrow that `ray` passes close to, nearest the camera first.
    pub fn pick(&self, ray: &PickRay) -> Option<usize> {
        let radius = HANDLE_RADIUS * self.length;
        let reach = ARROW_START * self.length - radius..=self.length + radius;
        (0..3)
            .filter_map(|a| {
                let (s, t, gap) = closest(self.position, unit(a), ray)?;
                (reach.contains(&s) && t > 0.0 && gap <= radius).then_some((a, t))
            })
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(a, _)| a)
    }
}

fn along(p: [f32; 3], a: usize, d: f32) -> [f32; 3] {
    let mut q = p;
    q[a] += d;
    q
}

/// The closest approach of the line `origin + s · axis` and `ray`: `(s, t along the ray, distance
/// between the two points)`; `None` when they are nearly parallel.
fn closest(origin: [f32; 3], axis: [f32; 3], ray: &PickRay) -> Option<(f32, f32, f32)> {
    let w = sub(origin, ray.origin);
    let b = dot(axis, ray.dir);
    let denom = 1.0 - b * b;
    if denom < 1e-4 {
        return None;
    }
    let (d, e) = (dot(axis, w), dot(ray.dir, w));
    let s = (b * e - d) / denom;
    let t = (e - b * d) / denom;
    let gap = sub(
        add(origin, scale(axis, s)),
        add(ray.origin, scale(ray.dir, t)),
    );
    let gap = dot(gap, gap).sqrt();
    (s.is_finite() && t.is_finite()).then_some((s, t, gap))
}

/// A drag along one axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisDrag {
    axis: usize,
    start: [f32; 3],
    /// Where along the axis the arrow was grabbed (relative to `start`).
    grabbed: f32,
}

impl AxisDrag {
    /// Start moving a light at `start` along `axis`, grabbed through `ray` (`None`: the ray is
    /// along the axis).
    pub fn start(axis: usize, start: [f32; 3], ray: &PickRay) -> Option<Self> {
        let (s, _, _) = closest(start, unit(axis), ray)?;
        Some(Self {
            axis,
            start,
            grabbed: s,
        })
    }

    /// Where the light is with the pointer's ray at `ray` (`None`: the ray runs along the axis or
    /// the nearest point is behind the camera).
    pub fn position(&self, ray: &PickRay) -> Option<[f32; 3]> {
        let (s, t, _) = closest(self.start, unit(self.axis), ray)?;
        (t > 0.0).then(|| along(self.start, self.axis, s - self.grabbed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: [f32; 3], toward: [f32; 3]) -> PickRay {
        PickRay::through(origin, toward).expect("two points")
    }

    #[test]
    fn each_arrow_is_picked_by_a_ray_through_it_and_not_by_the_ball() {
        let p = [10.0, 5.0, 10.0];
        let eye = [0.0, 20.0, 30.0];
        let g = Gizmo {
            position: p,
            length: 3.0,
        };
        for a in 0..3 {
            let tip = along(p, a, 2.0);
            assert_eq!(g.pick(&ray(eye, tip)), Some(a), "axis {a}");
        }
        assert_eq!(g.pick(&ray(eye, p)), None);
        assert_eq!(g.pick(&ray(eye, along(p, 0, 6.0))), None);
        assert_eq!(g.pick(&ray(eye, [30.0, 30.0, 30.0])), None);
        // Seen from ten times as far, the arrows are ten times as long, and grabbed as far out.
        let far = Gizmo::seen_from(p, [p[0], p[1] + 300.0, p[2] + 400.0]);
        assert!((far.length - 50.0).abs() < 1e-3, "{far:?}");
        let eye = [p[0], p[1] + 300.0, p[2] + 400.0];
        assert_eq!(far.pick(&ray(eye, along(p, 0, 40.0))), Some(0));
        assert_eq!(far.pick(&ray(eye, along(p, 0, 60.0))), None);
    }

    #[test]
    fn an_axis_drag_moves_along_its_axis_only() {
        let p = [10.0, 5.0, 10.0];
        let eye = [0.0, 20.0, 30.0];
        let press = ray(eye, along(p, 0, 2.0));
        let drag = AxisDrag::start(0, p, &press).expect("not along the axis");
        let same = drag.position(&press).expect("in front");
        assert!(sub(same, p).iter().all(|c| c.abs() < 1e-3), "{same:?}");
        // The pointer moves over X = 17 (and off the axis): the light goes to X = 15.
        let moved = drag
            .position(&ray(eye, [17.0, 7.0, 10.0]))
            .expect("in front");
        assert!((moved[1] - 5.0).abs() < 1e-4 && (moved[2] - 10.0).abs() < 1e-4);
        assert!(moved[0] > 13.0 && moved[0] < 16.0, "{moved:?}");
        let up = AxisDrag::start(1, p, &ray(eye, along(p, 1, 2.0))).expect("up");
        let raised = up.position(&ray(eye, along(p, 1, 6.0))).expect("in front");
        assert!((raised[1] - 9.0).abs() < 1e-3 && raised[0] == 10.0 && raised[2] == 10.0);
        // Looking straight down the Y axis, a Y drag cannot start.
        assert!(AxisDrag::start(1, p, &ray([10.0, 40.0, 10.0], p)).is_none());
    }

    #[test]
    fn the_gizmo_draws_three_arrows_with_tips() {
        let mut out = Vec::new();
        Gizmo {
            position: [1.0, 2.0, 3.0],
            length: 3.0,
        }
        .draw(&mut out);
        assert_eq!(out.len(), 6);
        let tips: Vec<[f32; 3]> = out
            .iter()
            .filter_map(|o| match o {
                Overlay::Solid { center, .. } => Some(*center),
                _ => None,
            })
            .collect();
        assert_eq!(
            tips,
            vec![[4.0, 2.0, 3.0], [1.0, 5.0, 3.0], [1.0, 2.0, 6.0]]
        );
    }
}
