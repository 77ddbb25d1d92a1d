//! The Lights tool: pick a light by its icon in the viewport and drag it, by its gizmo's arrows or
//! onto the terrain; Ctrl+click on the terrain places a new point light there.
//!
//! ```text
//!   press on a gizmo arrow ──> move along that axis only (light_gizmo)
//!   press on an icon       ──> that light is selected, the drag starts: the light follows the
//!                              pointer on the horizontal plane at its height (Shift: on the vertical
//!                              plane through it facing the camera: up and down; Ctrl: over the
//!                              terrain, SURFACE_LIFT voxels above the surface under the pointer)
//!   Ctrl+press on terrain  ──> a new point light there, dragged over the terrain until release
//!   release                ──> Action::ChangeLights "Move light N" / "Place point light"
//!                              (one undo step per drag)
//! ```
//!
//! The light keeps the offset between it and the point grabbed, so it does not jump to the
//! pointer; a ray nearly parallel to the plane (or the axis) leaves it where it was.

use strata_engine::light::PlacedLight;
use strata_engine::vec3::{add, dot, scale, sub};

use super::light_gizmo::AxisDrag;
use crate::viewport::camera::PickRay;

/// How far from a light's centre a ray still picks it, voxels (a little over the icon's radius).
pub const PICK_RADIUS: f32 = 1.5;
/// How far above the terrain (along its normal) a light placed or dragged onto it sits, voxels.
pub const SURFACE_LIFT: f32 = 2.0;

/// How a dragged light follows the pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Motion {
    /// In a plane: a point on it and its unit normal, and the light's position minus the grabbed
    /// point on the plane.
    Plane {
        plane: ([f32; 3], [f32; 3]),
        offset: [f32; 3],
    },
    /// Along one axis (a gizmo arrow).
    Axis(AxisDrag),
    /// Over the terrain under the pointer.
    Surface,
}

/// A drag in progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightDrag {
    /// The light dragged.
    pub index: usize,
    /// Where it was when the drag started.
    pub start: [f32; 3],
    /// The light did not exist before the drag (Ctrl+click placed it).
    pub placed: bool,
    motion: Motion,
}

/// The light whose icon `ray` passes through (within [`PICK_RADIUS`]), nearest the camera first.
pub fn pick(lights: &[PlacedLight], ray: &PickRay) -> Option<usize> {
    lights
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let rel = sub(l.position, ray.origin);
            let t = dot(rel, ray.dir);
            if t <= 0.0 {
                return None;
            }
            let miss = sub(rel, scale(ray.dir, t));
            (dot(miss, miss) <= PICK_RADIUS * PICK_RADIUS).then_some((i, t))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

impl LightDrag {
    /// Start dragging light `index` at `position`, grabbed through `ray`; `vertical` moves it up
    /// and down (a plane facing the camera) instead of across (a horizontal plane).
    pub fn start(index: usize, position: [f32; 3], ray: &PickRay, vertical: bool) -> Self {
        let normal = if vertical {
            let flat = [ray.dir[0], 0.0, ray.dir[2]];
            let len = dot(flat, flat).sqrt();
            if len > 1e-3 {
                scale(flat, 1.0 / len)
            } else {
                [0.0, 0.0, 1.0]
            }
        } else {
            [0.0, 1.0, 0.0]
        };
        let plane = (position, normal);
        let grabbed = intersect(plane, ray).unwrap_or(position);
        Self {
            index,
            start: position,
            placed: false,
            motion: Motion::Plane {
                plane,
                offset: sub(position, grabbed),
            },
        }
    }

    /// Start dragging light `index` at `position` along `axis` (0 = X, 1 = Y, 2 = Z), grabbed
    /// through `ray` on its gizmo arrow; `None` when the ray runs along the axis.
    pub fn along_axis(
        index: usize,
        position: [f32; 3],
        axis: usize,
        ray: &PickRay,
    ) -> Option<Self> {
        AxisDrag::start(axis, position, ray).map(|a| Self {
            index,
            start: position,
            placed: false,
            motion: Motion::Axis(a),
        })
    }

    /// Start dragging light `index` at `position` over the terrain; `placed` when the light is new.
    pub fn over_terrain(index: usize, position: [f32; 3], placed: bool) -> Self {
        Self {
            index,
            start: position,
            placed,
            motion: Motion::Surface,
        }
    }

    /// Where the light is with the pointer's ray at `ray` over the terrain point `hit` (point and
    /// outward normal); `None` leaves it where it is (the ray misses the plane, runs along the
    /// axis, or misses the terrain).
    pub fn position(&self, ray: &PickRay, hit: Option<([f32; 3], [f32; 3])>) -> Option<[f32; 3]> {
        match self.motion {
            Motion::Plane { plane, offset } => intersect(plane, ray).map(|p| add(p, offset)),
            Motion::Axis(a) => a.position(ray),
            Motion::Surface => hit.map(|(p, n)| above_surface(p, n)),
        }
    }
}

/// Where a light placed on the terrain at `point` with outward `normal` goes.
pub fn above_surface(point: [f32; 3], normal: [f32; 3]) -> [f32; 3] {
    add(point, scale(normal, SURFACE_LIFT))
}

/// Where `ray` meets the plane, if it does in front of the camera and not at a grazing angle.
fn intersect((point, normal): ([f32; 3], [f32; 3]), ray: &PickRay) -> Option<[f32; 3]> {
    let denom = dot(ray.dir, normal);
    if denom.abs() < 0.02 {
        return None;
    }
    let t = dot(sub(point, ray.origin), normal) / denom;
    (t > 0.0 && t.is_finite()).then(|| add(ray.origin, scale(ray.dir, t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: [f32; 3], toward: [f32; 3]) -> PickRay {
        PickRay::through(origin, toward).expect("two points")
    }

    fn light(p: [f32; 3]) -> PlacedLight {
        PlacedLight {
            position: p,
            ..PlacedLight::default()
        }
    }

    #[test]
    fn a_ray_picks_the_nearest_icon_it_passes_through() {
        let lights = [light([10.0, 5.0, 0.0]), light([20.0, 12.0, 0.0])];
        let eye = [0.0, 5.0, 0.0];
        assert_eq!(pick(&lights, &ray(eye, [30.0, 5.0, 0.0])), Some(0));
        assert_eq!(pick(&lights, &ray(eye, [20.0, 12.5, 0.0])), Some(1));
        // Both on the ray: the nearer one.
        let behind = [light([20.0, 5.0, 0.0]), light([10.0, 5.2, 0.0])];
        assert_eq!(pick(&behind, &ray(eye, [30.0, 5.0, 0.0])), Some(1));
        assert_eq!(pick(&lights, &ray(eye, [30.0, 30.0, 0.0])), None);
        // Behind the camera does not count.
        assert_eq!(pick(&lights, &ray(eye, [-30.0, 5.0, 0.0])), None);
    }

    #[test]
    fn a_drag_keeps_the_height_or_moves_only_up_and_down() {
        let p = [10.0, 5.0, 10.0];
        let eye = [0.0, 30.0, 0.0];
        let press = ray(eye, [10.2, 5.0, 10.0]);
        let across = LightDrag::start(0, p, &press, false);
        // Where it was grabbed, it stays.
        let same = across.position(&press, None).expect("on the plane");
        assert!(sub(same, p).iter().all(|c| c.abs() < 1e-3), "{same:?}");
        let moved = across
            .position(&ray(eye, [20.2, 5.0, 14.0]), None)
            .expect("on the plane");
        assert!((moved[1] - 5.0).abs() < 1e-3);
        assert!((moved[0] - 20.0).abs() < 1e-2 && (moved[2] - 14.0).abs() < 1e-2);
        let up = LightDrag::start(0, p, &ray([0.0, 5.0, 10.0], p), true);
        let raised = up
            .position(&ray([0.0, 5.0, 10.0], [10.0, 9.0, 10.0]), None)
            .expect("on the plane");
        assert!((raised[1] - 9.0).abs() < 1e-3 && (raised[0] - 10.0).abs() < 1e-3);
        // A ray along the plane does not move it.
        assert!(across
            .position(&ray([0.0, 5.0, 0.0], [1.0, 5.0, 0.0]), None)
            .is_none());
    }

    #[test]
    fn a_drag_over_the_terrain_sits_above_the_surface_and_stays_off_it() {
        let drag = LightDrag::over_terrain(2, [0.0; 3], true);
        let r = ray([0.0, 30.0, 0.0], [5.0, 0.0, 5.0]);
        let p = drag
            .position(&r, Some(([5.0, 4.0, 5.0], [0.0, 0.6, 0.8])))
            .expect("over terrain");
        assert_eq!(p, [5.0, 4.0 + 0.6 * SURFACE_LIFT, 5.0 + 0.8 * SURFACE_LIFT]);
        // Off the terrain (the sky under the pointer): it stays where it was.
        assert!(drag.position(&r, None).is_none());
        assert!(drag.placed);
        let axis = LightDrag::along_axis(
            0,
            [1.0, 2.0, 3.0],
            0,
            &ray([0.0, 9.0, 9.0], [3.0, 2.0, 3.0]),
        )
        .expect("not along X");
        let moved = axis
            .position(&ray([0.0, 9.0, 9.0], [8.0, 2.0, 3.0]), None)
            .expect("in front");
        assert!(
            (moved[0] - 6.0).abs() < 1e-3 && moved[1] == 2.0 && moved[2] == 3.0,
            "{moved:?}"
        );
    }
}
