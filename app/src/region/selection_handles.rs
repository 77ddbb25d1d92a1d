//! Handles on the selection box: one on the middle of each face. Dragging a handle moves that face
//! along its axis (resize); with Shift held it moves the whole box along that axis. Picking and
//! dragging work on the pointer's ray alone, so they need no GPU read-back.
//!
//! ```text
//!   press:  ray ∩ handle cubes ─> nearest handle (axis, side) and the ray's point on its axis line
//!   drag:   closest point of the ray to the axis line ─> offset in voxels (snapped) ─> new box
//! ```

use strata_engine::voxel::{VoxelBox, VoxelPos};

use crate::viewport::camera::PickRay;

/// One face handle: the axis (0 = X, 1 = Y, 2 = Z) and the side (`true`: the maximum face).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handle {
    /// Axis the handle moves along.
    pub axis: usize,
    /// The maximum face (else the minimum).
    pub max_side: bool,
}

/// A handle being dragged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandleDrag {
    /// Which handle.
    pub handle: Handle,
    /// The box when the drag started.
    pub start: VoxelBox,
    /// The axis coordinate under the pointer when it started.
    pub from: f32,
    /// Move the whole box instead of one face.
    pub moving: bool,
}

/// Every handle, in a fixed order.
pub const HANDLES: [Handle; 6] = [
    Handle {
        axis: 0,
        max_side: false,
    },
    Handle {
        axis: 0,
        max_side: true,
    },
    Handle {
        axis: 1,
        max_side: false,
    },
    Handle {
        axis: 1,
        max_side: true,
    },
    Handle {
        axis: 2,
        max_side: false,
    },
    Handle {
        axis: 2,
        max_side: true,
    },
];

fn corners(b: VoxelBox) -> ([f32; 3], [f32; 3]) {
    (
        b.min.to_array().map(|v| v as f32),
        b.max.to_array().map(|v| v as f32),
    )
}

/// Half the side of the handle cubes of `b`: a fifth of its smallest side, within 0.5..3 voxels.
pub fn handle_half_size(b: VoxelBox) -> f32 {
    let smallest = b.size().into_iter().min().unwrap_or(1) as f32;
    (smallest * 0.1).clamp(0.5, 3.0)
}

/// The centre of `h` on `b`, just outside the face so it shows over flat terrain.
pub fn handle_center(b: VoxelBox, h: Handle) -> [f32; 3] {
    let (lo, hi) = corners(b);
    let mut c = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]));
    let out = handle_half_size(b);
    c[h.axis] = if h.max_side {
        hi[h.axis] + out
    } else {
        lo[h.axis] - out
    };
    c
}

/// Distance along `ray` to the cube of half side `half` at `center`, if the ray hits it.
fn ray_cube(ray: &PickRay, center: [f32; 3], half: f32) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, f32::INFINITY);
    for ((c, o), d) in center.iter().zip(ray.origin).zip(ray.dir) {
        let (lo, hi) = (c - half, c + half);
        if d.abs() < 1e-9 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let a = (lo - o) / d;
        let b = (hi - o) / d;
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

/// The handle of `b` nearest along `ray`, if the ray hits one (handles are picked a little larger
/// than drawn, so they are easy to grab).
pub fn pick(b: VoxelBox, ray: &PickRay) -> Option<Handle> {
    let half = handle_half_size(b) * 1.5;
    HANDLES
        .iter()
        .filter_map(|&h| ray_cube(ray, handle_center(b, h), half).map(|t| (t, h)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, h)| h)
}

/// The coordinate along `axis` of the point of the line through `at` along that axis closest to
/// `ray`; `None` when the ray runs nearly parallel to the axis.
pub fn axis_coordinate(at: [f32; 3], axis: usize, ray: &PickRay) -> Option<f32> {
    let mut a = [0.0f32; 3];
    a[axis] = 1.0;
    let d = ray.dir;
    let w0 = [0, 1, 2].map(|k| at[k] - ray.origin[k]);
    let b = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
    let c = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let dd = a[0] * w0[0] + a[1] * w0[1] + a[2] * w0[2];
    let e = d[0] * w0[0] + d[1] * w0[1] + d[2] * w0[2];
    let denom = c - b * b;
    if denom.abs() < 1e-4 {
        return None;
    }
    let s = (b * e - c * dd) / denom;
    Some(at[axis] + s).filter(|v| v.is_finite())
}

impl HandleDrag {
    /// Start dragging `handle` of `b` under `ray`.
    pub fn start(b: VoxelBox, handle: Handle, ray: &PickRay, moving: bool) -> Option<Self> {
        let from = axis_coordinate(handle_center(b, handle), handle.axis, ray)?;
        Some(Self {
            handle,
            start: b,
            from,
            moving,
        })
    }

    /// The box for the pointer's `ray`, the offset snapped to `snap` voxels and the result kept
    /// inside `world` (a face never crosses the opposite one: at least one voxel stays).
    pub fn dragged(&self, ray: &PickRay, snap: i32, world: VoxelBox) -> VoxelBox {
        let Some(now) = axis_coordinate(
            handle_center(self.start, self.handle),
            self.handle.axis,
            ray,
        ) else {
            return self.start;
        };
        let s = snap.max(1);
        let delta = ((now - self.from) / s as f32).round() as i32 * s;
        let axis = self.handle.axis;
        let mut lo = self.start.min.to_array();
        let mut hi = self.start.max.to_array();
        let (wlo, whi) = (world.min.to_array()[axis], world.max.to_array()[axis]);
        if self.moving {
            let d = delta.clamp(wlo - lo[axis], whi - hi[axis]);
            lo[axis] += d;
            hi[axis] += d;
        } else if self.handle.max_side {
            hi[axis] = (hi[axis] + delta).clamp(lo[axis] + 1, whi);
        } else {
            lo[axis] = (lo[axis] + delta).clamp(wlo, hi[axis] - 1);
        }
        VoxelBox::new(VoxelPos::from(lo), VoxelPos::from(hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lo: [i32; 3], hi: [i32; 3]) -> VoxelBox {
        VoxelBox::new(VoxelPos::from(lo), VoxelPos::from(hi))
    }

    fn toward(from: [f32; 3], to: [f32; 3]) -> PickRay {
        let d = [0, 1, 2].map(|k| to[k] - from[k]);
        let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        PickRay {
            origin: from,
            dir: d.map(|v| v / n),
        }
    }

    const WORLD: [[i32; 3]; 2] = [[0, 0, 0], [128, 64, 128]];

    fn world() -> VoxelBox {
        b(WORLD[0], WORLD[1])
    }

    #[test]
    fn a_ray_at_a_handle_picks_it_and_a_ray_beside_the_box_picks_none() {
        let sel = b([10, 10, 10], [30, 20, 40]);
        let eye = [20.0, 100.0, 200.0];
        for h in HANDLES {
            let ray = toward(eye, handle_center(sel, h));
            // The +Z handle hides nothing; others may sit behind nearer ones from this eye, so
            // only check that the picked handle is the aimed one when it is the nearest hit.
            if let Some(p) = pick(sel, &ray) {
                let aimed = ray_cube(&ray, handle_center(sel, h), handle_half_size(sel) * 1.5);
                let got = ray_cube(&ray, handle_center(sel, p), handle_half_size(sel) * 1.5);
                assert!(got <= aimed, "{h:?} picked {p:?}");
            } else {
                panic!("{h:?} not picked");
            }
        }
        assert_eq!(pick(sel, &toward(eye, [100.0, 0.0, 100.0])), None);
    }

    #[test]
    fn dragging_the_max_x_handle_resizes_and_shift_moves() {
        let sel = b([10, 10, 10], [30, 20, 40]);
        let h = Handle {
            axis: 0,
            max_side: true,
        };
        let eye = [20.0, 60.0, 120.0];
        let start = HandleDrag::start(sel, h, &toward(eye, handle_center(sel, h)), false)
            .expect("a drag starts");
        let mut target = handle_center(sel, h);
        target[0] += 7.2;
        let ray = toward(eye, target);
        assert_eq!(
            start.dragged(&ray, 1, world()),
            b([10, 10, 10], [37, 20, 40])
        );
        assert_eq!(
            start.dragged(&ray, 4, world()),
            b([10, 10, 10], [38, 20, 40])
        );
        let moving = HandleDrag {
            moving: true,
            ..start
        };
        assert_eq!(
            moving.dragged(&ray, 1, world()),
            b([17, 10, 10], [37, 20, 40])
        );
    }

    #[test]
    fn faces_never_cross_and_boxes_stay_in_the_world() {
        let sel = b([10, 10, 10], [30, 20, 40]);
        let h = Handle {
            axis: 1,
            max_side: false,
        };
        let eye = [100.0, 15.0, 25.0];
        let drag = HandleDrag::start(sel, h, &toward(eye, handle_center(sel, h)), false)
            .expect("a drag starts");
        let far_up = toward(eye, [20.0, 500.0, 25.0]);
        assert_eq!(
            drag.dragged(&far_up, 1, world()),
            b([10, 19, 10], [30, 20, 40])
        );
        let far_down = toward(eye, [20.0, -500.0, 25.0]);
        assert_eq!(
            drag.dragged(&far_down, 1, world()),
            b([10, 0, 10], [30, 20, 40])
        );
        let moving = HandleDrag {
            moving: true,
            ..drag
        };
        assert_eq!(
            moving.dragged(&far_down, 1, world()),
            b([10, 0, 10], [30, 10, 40])
        );
        assert_eq!(
            moving.dragged(&far_up, 1, world()),
            b([10, 54, 10], [30, 64, 40])
        );
    }
}
