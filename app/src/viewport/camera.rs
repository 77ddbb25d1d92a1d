//! The editor camera: a free look-from camera that orbits, pans, zooms and flies around points the user
//! points at. Pure math, no GL, so the picking rays the brush uses are tested without a window.
//!
//! ```text
//!            +Y
//!             |   forward = (cos p · sin y, sin p, cos p · cos y)
//!             |  /            y = yaw around +Y, p = pitch (negative looks down)
//!   position  o-----> right = forward × Y
//! ```
//!
//! # Rationale
//! Orbiting around the point under the cursor (not a fixed target) is what users of other terrain
//! editors ask for, so the camera stores where it is and where it looks rather than a target and a
//! radius. Orbit rotates the position about the pivot by exactly the rotation applied to the view
//! direction, so the pivot stays under the cursor.

use three_d::{vec3, InnerSpace, Matrix3, Rad, Vec3};

use strata_engine::format::project::Camera as SavedCamera;

/// Pitch limit (radians): just short of straight up or down so the view never rolls.
const PITCH_LIMIT: f32 = 1.55;
/// Closest the camera gets to a point it zooms toward, voxels.
const MIN_ZOOM_DISTANCE: f32 = 0.75;

/// Camera state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EditorCamera {
    /// Eye position, world voxels.
    pub position: Vec3,
    /// Heading around +Y, radians.
    pub yaw: f32,
    /// Elevation, radians; negative looks down.
    pub pitch: f32,
    /// Distance to the point the camera is understood to look at (orbit and focus fallback), voxels.
    pub focus_distance: f32,
    /// Vertical field of view, radians.
    pub fov_y: f32,
}

/// The standard axis views of numpad 1, 3 and 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisView {
    /// Looking along −Z (numpad 1).
    Front,
    /// Looking along −X (numpad 3).
    Right,
    /// Looking straight down (numpad 7).
    Top,
}

/// A ray in world space: `origin + t · dir`, `dir` unit length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PickRay {
    /// Start point.
    pub origin: [f32; 3],
    /// Unit direction.
    pub dir: [f32; 3],
}

impl PickRay {
    /// The ray from `origin` through `toward` (`None` when they are the same point).
    pub fn through(origin: [f32; 3], toward: [f32; 3]) -> Option<Self> {
        let d = [0, 1, 2].map(|a| toward[a] - origin[a]);
        let len = d.iter().map(|c| c * c).sum::<f32>().sqrt();
        (len > 0.0 && len.is_finite()).then(|| Self {
            origin,
            dir: d.map(|c| c / len),
        })
    }
}

impl EditorCamera {
    /// The camera a project file saved (target, yaw, pitch with positive looking down, distance).
    pub fn from_saved(saved: &SavedCamera) -> Self {
        let yaw = saved.yaw_degrees.to_radians();
        let pitch = (-saved.pitch_degrees.to_radians()).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        let target = Vec3::from(saved.target);
        let distance = saved.distance.max(MIN_ZOOM_DISTANCE);
        let position = target - forward_of(yaw, pitch) * distance;
        Self {
            position,
            yaw,
            pitch,
            focus_distance: distance,
            fov_y: 50f32.to_radians(),
        }
    }

    /// A camera at `eye` looking at `target` (pitch within the limit, so a target straight
    /// below is looked at almost straight down).
    pub fn looking_at(eye: Vec3, target: Vec3) -> Self {
        let d = target - eye;
        let distance = d.magnitude().max(MIN_ZOOM_DISTANCE);
        let yaw = d.x.atan2(d.z);
        let pitch = (d.y / distance)
            .clamp(-1.0, 1.0)
            .asin()
            .clamp(-PITCH_LIMIT, PITCH_LIMIT);
        Self {
            position: eye,
            yaw,
            pitch,
            focus_distance: distance,
            fov_y: 50f32.to_radians(),
        }
    }

    /// The form a project file saves.
    pub fn to_saved(&self) -> SavedCamera {
        let target = self.target();
        SavedCamera {
            target: [target.x, target.y, target.z],
            yaw_degrees: self.yaw.to_degrees(),
            pitch_degrees: -self.pitch.to_degrees(),
            distance: self.focus_distance,
        }
    }

    /// Unit view direction.
    pub fn forward(&self) -> Vec3 {
        forward_of(self.yaw, self.pitch)
    }

    /// Unit right vector (horizontal).
    pub fn right(&self) -> Vec3 {
        self.forward().cross(Vec3::unit_y()).normalize()
    }

    /// Unit up vector of the view.
    pub fn up(&self) -> Vec3 {
        self.right().cross(self.forward()).normalize()
    }

    /// The point `focus_distance` ahead.
    pub fn target(&self) -> Vec3 {
        self.position + self.forward() * self.focus_distance
    }

    /// Rotate the view by `d_yaw`, `d_pitch` radians around `pivot`, keeping the pivot's place in
    /// the view. Pitch stays within the limit.
    pub fn orbit(&mut self, pivot: Vec3, d_yaw: f32, d_pitch: f32) {
        let new_pitch = (self.pitch + d_pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        let d_pitch = new_pitch - self.pitch;
        let yaw_rot = Matrix3::from_angle_y(Rad(d_yaw));
        let rel = yaw_rot * (self.position - pivot);
        self.yaw += d_yaw;
        let right = forward_of(self.yaw, self.pitch)
            .cross(Vec3::unit_y())
            .normalize();
        let rel = Matrix3::from_axis_angle(right, Rad(d_pitch)) * rel;
        self.pitch = new_pitch;
        self.position = pivot + rel;
        self.focus_distance = rel.magnitude().max(MIN_ZOOM_DISTANCE);
    }

    /// Turn the view in place (fly mode).
    pub fn look(&mut self, d_yaw: f32, d_pitch: f32) {
        self.yaw += d_yaw;
        self.pitch = (self.pitch + d_pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Move sideways and up so a point at `depth` voxels follows a drag of `(dx, dy)` pixels in a view
    /// `view_height_px` tall.
    pub fn pan(&mut self, dx: f32, dy: f32, depth: f32, view_height_px: f32) {
        let per_px =
            2.0 * depth.max(MIN_ZOOM_DISTANCE) * (self.fov_y * 0.5).tan() / view_height_px.max(1.0);
        self.position += (-self.right() * dx + self.up() * dy) * per_px;
    }

    /// Zoom toward `point` by `steps` wheel notches (negative zooms out); each notch covers 15% of
    /// the distance and the camera never reaches the point.
    pub fn zoom_toward(&mut self, point: Vec3, steps: f32, max_distance: f32) {
        let rel = self.position - point;
        let distance = rel.magnitude();
        if distance <= f32::EPSILON || !steps.is_finite() {
            return;
        }
        let mut new_distance = (distance * 0.85f32.powf(steps)).max(MIN_ZOOM_DISTANCE);
        if steps < 0.0 {
            // Zooming out stops at `max_distance` (a camera already beyond it stays where it is).
            new_distance = new_distance.min(max_distance.max(distance));
        }
        self.position = point + rel * (new_distance / distance);
        self.focus_distance = new_distance;
    }

    /// Fly by `local` (x right, y world up, z forward) at `speed` voxels per second for `dt` seconds.
    pub fn fly(&mut self, local: Vec3, speed: f32, dt: f32) {
        let step = self.right() * local.x + Vec3::unit_y() * local.y + self.forward() * local.z;
        self.position += step * (speed * dt);
    }

    /// Look at `point` from the current direction, from far enough to see `radius` voxels around it.
    pub fn focus(&mut self, point: Vec3, radius: f32) {
        let distance = (radius * 3.0).max(12.0);
        self.position = point - self.forward() * distance;
        self.focus_distance = distance;
    }

    /// Look at the box `min`..`max` from the current direction, from just far enough that all
    /// its corners are in a view `aspect` (width / height) wide.
    pub fn frame_box(&mut self, min: Vec3, max: Vec3, aspect: f32) {
        let center = (min + max) * 0.5;
        let (forward, right, up) = (self.forward(), self.right(), self.up());
        let tan_v = (self.fov_y * 0.5).tan();
        let tan_h = tan_v * aspect.max(0.1);
        let mut distance = MIN_ZOOM_DISTANCE;
        for i in 0..8 {
            let corner = vec3(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            );
            let rel = corner - center;
            // The corner is in view when |rel · axis| <= depth · tan, depth = distance + rel · forward.
            let need = (rel.dot(up).abs() / tan_v).max(rel.dot(right).abs() / tan_h);
            distance = distance.max(need - rel.dot(forward));
        }
        // A margin so the corners do not touch the edges of the view.
        let distance = distance * 1.08 + 1.0;
        self.position = center - forward * distance;
        self.focus_distance = distance;
    }

    /// Where `point` shows in a view `width` × `height` pixels (origin top-left), or `None` when
    /// it is behind the camera.
    pub fn project(&self, point: Vec3, width: f32, height: f32) -> Option<[f32; 2]> {
        let rel = point - self.position;
        let depth = rel.dot(self.forward());
        if depth <= f32::EPSILON {
            return None;
        }
        let (w, h) = (width.max(1.0), height.max(1.0));
        let half = (self.fov_y * 0.5).tan() * depth;
        let ndc_x = rel.dot(self.right()) / (half * w / h);
        let ndc_y = rel.dot(self.up()) / half;
        Some([(ndc_x + 1.0) * 0.5 * w, (1.0 - ndc_y) * 0.5 * h])
    }

    /// Switch to an axis view around the current target, keeping the distance.
    pub fn axis_view(&mut self, view: AxisView) {
        let target = self.target();
        let (yaw, pitch) = match view {
            AxisView::Front => (std::f32::consts::PI, 0.0),
            AxisView::Right => (-std::f32::consts::FRAC_PI_2, 0.0),
            AxisView::Top => (std::f32::consts::PI, -PITCH_LIMIT),
        };
        self.yaw = yaw;
        self.pitch = pitch;
        self.position = target - self.forward() * self.focus_distance;
    }

    /// The ray through pixel `(x, y)` (origin top-left) of a view `width` × `height` pixels.
    pub fn pick_ray(&self, x: f32, y: f32, width: f32, height: f32) -> PickRay {
        let (w, h) = (width.max(1.0), height.max(1.0));
        let half = (self.fov_y * 0.5).tan();
        let ndc_x = 2.0 * x / w - 1.0;
        let ndc_y = 1.0 - 2.0 * y / h;
        let dir =
            (self.forward() + self.right() * (ndc_x * half * w / h) + self.up() * (ndc_y * half))
                .normalize();
        PickRay {
            origin: [self.position.x, self.position.y, self.position.z],
            dir: [dir.x, dir.y, dir.z],
        }
    }

    /// Near and far clip distances for a world at most `extent` voxels a side around `center`:
    /// the far plane lies beyond the world's farthest corner wherever the camera is, and the near
    /// plane moves out as the camera leaves the world, for depth precision far away.
    pub fn clip_range(&self, center: Vec3, extent: f32) -> (f32, f32) {
        // Everything drawn (the world, whose half diagonal is under 0.87 extents, and the ground
        // grid, at most a sixteenth or 64 voxels wider on each side) lies within this of the centre.
        let radius = 1.1 * extent + 64.0;
        let distance = (self.position - center).magnitude();
        let reach = distance + radius;
        let near = (0.5 * (distance - radius)).max(0.1);
        (near, reach.max(extent * 4.0).max(1000.0))
    }
}

fn forward_of(yaw: f32, pitch: f32) -> Vec3 {
    vec3(
        pitch.cos() * yaw.sin(),
        pitch.sin(),
        pitch.cos() * yaw.cos(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3, eps: f32) -> bool {
        (a - b).magnitude() < eps
    }

    fn camera() -> EditorCamera {
        EditorCamera::from_saved(&SavedCamera {
            target: [10.0, 5.0, -3.0],
            yaw_degrees: 30.0,
            pitch_degrees: 25.0,
            distance: 40.0,
        })
    }

    #[test]
    fn looking_at_points_the_view_at_the_target() {
        let eye = vec3(10.0, 40.0, -20.0);
        let target = vec3(60.0, 12.0, 35.0);
        let cam = EditorCamera::looking_at(eye, target);
        assert!(close(cam.position, eye, 1e-5));
        assert!(close(cam.target(), target, 1e-3), "{:?}", cam.target());
    }

    #[test]
    fn saved_camera_round_trips() {
        let cam = camera();
        let saved = cam.to_saved();
        assert!((saved.yaw_degrees - 30.0).abs() < 1e-3);
        assert!((saved.pitch_degrees - 25.0).abs() < 1e-3);
        assert!((saved.distance - 40.0).abs() < 1e-3);
        assert!(close(Vec3::from(saved.target), vec3(10.0, 5.0, -3.0), 1e-3));
        assert!(cam.forward().y < 0.0, "positive saved pitch looks down");
    }

    #[test]
    fn a_framed_box_has_every_corner_in_view_and_fills_it() {
        for (aspect, size) in [(1.0, [256.0, 64.0, 256.0]), (1.6, [64.0, 200.0, 32.0])] {
            let mut cam = camera();
            let (min, max) = (
                vec3(-10.0, 0.0, 5.0),
                vec3(-10.0, 0.0, 5.0) + Vec3::from(size),
            );
            cam.frame_box(min, max, aspect);
            let (w, h) = (800.0 * aspect, 800.0);
            let mut reach = 0.0f32;
            for i in 0..8 {
                let c = vec3(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                );
                let [x, y] = cam.project(c, w, h).expect("in front");
                assert!((0.0..=w).contains(&x) && (0.0..=h).contains(&y), "{x},{y}");
                reach = reach.max((x / w - 0.5).abs()).max((y / h - 0.5).abs());
            }
            assert!(
                reach > 0.4,
                "the box fills the view, not a corner of it: {reach}"
            );
        }
    }

    #[test]
    fn projecting_a_pick_ray_point_gives_its_pixel() {
        let cam = camera();
        let ray = cam.pick_ray(100.0, 300.0, 640.0, 480.0);
        let p = Vec3::from(ray.origin) + Vec3::from(ray.dir) * 50.0;
        let [x, y] = cam.project(p, 640.0, 480.0).expect("in front");
        assert!(
            (x - 100.0).abs() < 0.01 && (y - 300.0).abs() < 0.01,
            "{x},{y}"
        );
    }

    #[test]
    fn centre_ray_is_the_view_direction() {
        let cam = camera();
        let ray = cam.pick_ray(400.0, 300.0, 800.0, 600.0);
        assert!(close(Vec3::from(ray.dir), cam.forward(), 1e-5));
        let left = cam.pick_ray(0.0, 300.0, 800.0, 600.0);
        assert!(Vec3::from(left.dir).dot(cam.right()) < 0.0);
        let top = cam.pick_ray(400.0, 0.0, 800.0, 600.0);
        assert!(Vec3::from(top.dir).dot(cam.up()) > 0.0);
    }

    #[test]
    fn orbit_keeps_the_pivot_in_place_in_the_view() {
        let mut cam = camera();
        let pivot = vec3(3.0, 0.0, 7.0);
        let to_view = |c: &EditorCamera| {
            let rel = pivot - c.position;
            vec3(rel.dot(c.right()), rel.dot(c.up()), rel.dot(c.forward()))
        };
        let before = to_view(&cam);
        cam.orbit(pivot, 0.7, -0.3);
        assert!(
            close(to_view(&cam), before, 1e-3),
            "{:?} {:?}",
            to_view(&cam),
            before
        );
        cam.orbit(pivot, -2.0, 5.0);
        assert!(cam.pitch <= PITCH_LIMIT);
        assert!((to_view(&cam).magnitude() - before.magnitude()).abs() < 1e-3);
    }

    #[test]
    fn zoom_moves_toward_the_point_and_never_past_it() {
        let mut cam = camera();
        let point = vec3(0.0, 0.0, 0.0);
        let d0 = (cam.position - point).magnitude();
        cam.zoom_toward(point, 1.0, 1e6);
        let d1 = (cam.position - point).magnitude();
        assert!((d1 / d0 - 0.85).abs() < 1e-4);
        cam.zoom_toward(point, 200.0, 1e6);
        assert!((cam.position - point).magnitude() >= MIN_ZOOM_DISTANCE - 1e-4);
        cam.zoom_toward(point, -1.0, 1e6);
        assert!((cam.position - point).magnitude() > MIN_ZOOM_DISTANCE);
    }

    #[test]
    fn zooming_out_stops_at_the_limit_and_the_far_plane_keeps_the_world() {
        let mut cam = camera();
        let point = vec3(0.0, 0.0, 0.0);
        for _ in 0..100 {
            cam.zoom_toward(point, -3.0, 500.0);
        }
        let d = (cam.position - point).magnitude();
        assert!((d - 500.0).abs() < 1e-2, "stopped at {d}");
        cam.zoom_toward(point, f32::NAN, 500.0);
        assert!((cam.position - point).magnitude().is_finite());
        // Wherever the camera is, the whole world lies between the clip planes.
        let extent = 1024.0;
        let center = vec3(512.0, 128.0, 512.0);
        for far_away in [10.0, 2000.0, 9000.0] {
            cam.position = center + vec3(far_away, far_away * 0.5, -far_away);
            let (near, far) = cam.clip_range(center, extent);
            assert!(near >= 0.1 && near < far);
            // The world's corners and the ground grid's margin lie between the planes.
            for corner in [
                vec3(0.0, 0.0, 0.0),
                vec3(1024.0, 256.0, 1024.0),
                vec3(0.0, 256.0, 1024.0),
                vec3(-64.0, 0.0, 1088.0),
            ] {
                let d = (cam.position - corner).magnitude();
                assert!(
                    near < d && d < far,
                    "{corner:?} at {d}, planes {near}..{far}"
                );
            }
        }
    }

    #[test]
    fn pan_moves_a_point_at_depth_with_the_cursor() {
        let mut cam = camera();
        let depth = 50.0;
        let point = cam.position + cam.forward() * depth;
        let (w, h) = (800.0, 600.0);
        cam.pan(100.0, 0.0, depth, h);
        // The point should now be under pixel (500, 300): its ray passes through it.
        let ray = cam.pick_ray(500.0, 300.0, w, h);
        let rel = point - Vec3::from(ray.origin);
        let off = rel - Vec3::from(ray.dir) * rel.dot(Vec3::from(ray.dir));
        assert!(off.magnitude() < 0.5, "{off:?}");
    }

    #[test]
    fn axis_views_look_along_axes() {
        let mut cam = camera();
        cam.axis_view(AxisView::Front);
        assert!(close(cam.forward(), vec3(0.0, 0.0, -1.0), 1e-4));
        cam.axis_view(AxisView::Right);
        assert!(close(cam.forward(), vec3(-1.0, 0.0, 0.0), 1e-4));
        cam.axis_view(AxisView::Top);
        assert!(cam.forward().y < -0.99);
    }

    #[test]
    fn fly_moves_along_the_view() {
        let mut cam = camera();
        let start = cam.position;
        cam.fly(vec3(0.0, 0.0, 1.0), 10.0, 0.5);
        assert!(close(cam.position - start, cam.forward() * 5.0, 1e-4));
        cam.fly(vec3(0.0, 1.0, 0.0), 2.0, 1.0);
        assert!((cam.position.y - (start.y + cam.forward().y * 5.0 + 2.0)).abs() < 1e-4);
    }
}
