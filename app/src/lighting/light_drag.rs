//! The Lights tool: pick a light by its icon in the viewport and drag it.
//!
//! ```text
//!   press on an icon ──> that light is selected, the drag starts
//!   drag             ──> the light follows the pointer on the horizontal plane at its height
//!                        (Shift: on the vertical plane through it facing the camera: up and down)
//!   release          ──> Action::ChangeLights "Move light N" (one undo step per drag)
//! ```
//!
//! The light keeps the offset between it and the point grabbed, so it does not jump to the
//! pointer; a ray nearly parallel to the plane leaves it where it was.

use strata_engine::light::PlacedLight;

use crate::viewport::camera::PickRay;

/// How far from a light's centre a ray still picks it, voxels (a little over the icon's radius).
pub const PICK_RADIUS: f32 = 1.5;

/// A drag in progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightDrag {
    /// The light dragged.
    pub index: usize,
    /// Where it was when the drag started.
    pub start: [f32; 3],
    /// The plane it moves in: a point on it and its unit normal.
    plane: ([f32; 3], [f32; 3]),
    /// The light's position minus the grabbed point on the plane.
    offset: [f32; 3],
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
            plane,
            offset: sub(position, grabbed),
        }
    }

    /// Where the light is with the pointer's ray at `ray` (`None`: the ray misses the plane).
    pub fn position(&self, ray: &PickRay) -> Option<[f32; 3]> {
        intersect(self.plane, ray).map(|p| add(p, self.offset))
    }
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

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scale(a: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: [f32; 3], toward: [f32; 3]) -> PickRay {
        let d = sub(toward, origin);
        let len = dot(d, d).sqrt();
        PickRay {
            origin,
            dir: scale(d, 1.0 / len),
        }
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
        let same = across.position(&press).expect("on the plane");
        assert!(sub(same, p).iter().all(|c| c.abs() < 1e-3), "{same:?}");
        let moved = across
            .position(&ray(eye, [20.2, 5.0, 14.0]))
            .expect("on the plane");
        assert!((moved[1] - 5.0).abs() < 1e-3);
        assert!((moved[0] - 20.0).abs() < 1e-2 && (moved[2] - 14.0).abs() < 1e-2);
        let up = LightDrag::start(0, p, &ray([0.0, 5.0, 10.0], p), true);
        let raised = up
            .position(&ray([0.0, 5.0, 10.0], [10.0, 9.0, 10.0]))
            .expect("on the plane");
        assert!((raised[1] - 9.0).abs() < 1e-3 && (raised[0] - 10.0).abs() < 1e-3);
        // A ray along the plane does not move it.
        assert!(across
            .position(&ray([0.0, 5.0, 0.0], [1.0, 5.0, 0.0]))
            .is_none());
    }
}
