//! The project's point and spot lights drawn in the viewport: a ball in the light's colour at its
//! position with a small star of lines around it, and for a spot the outline of its cone.
//!
//! ```text
//!        \ | /          point: ball + three axis lines
//!       -- o --
//!        / | \
//!
//!          o            spot: ball at the apex, eight lines down the cone's side to a circle
//!         /|\           at CONE_LENGTH (or the range, if shorter) along its direction
//!        / | \
//!       (-----)
//! ```
//!
//! The selected light (the one the list shows open for editing) is drawn larger and outlined in
//! white so it can be found in the scene.

use strata_engine::light::PlacedLight;
use strata_engine::voxel::linear_to_srgb;

use crate::viewport::overlay::{Overlay, SolidKind};

/// Radius of a light's ball, voxels.
pub const ICON_RADIUS: f32 = 0.6;
/// Radius of the selected light's ball, voxels.
pub const SELECTED_RADIUS: f32 = 0.9;
/// Length of the drawn cone of a spot, voxels (shorter when its range is).
pub const CONE_LENGTH: f32 = 6.0;
/// Half the length of a point light's star lines, voxels.
const STAR: f32 = 1.5;
/// Segments of a spot's circle.
const CIRCLE_SEGMENTS: usize = 16;

/// The icon of every light in `lights` ( `selected`: the one drawn highlighted).
pub fn light_icons(lights: &[PlacedLight], selected: Option<usize>, out: &mut Vec<Overlay>) {
    for (i, l) in lights.iter().enumerate() {
        let chosen = selected == Some(i);
        let color = icon_color(l.color);
        let radius = if chosen { SELECTED_RADIUS } else { ICON_RADIUS };
        out.push(Overlay::Solid {
            kind: SolidKind::Sphere,
            center: l.position,
            rotation: [0.0, 0.0, 0.0, 1.0],
            half_extents: [radius; 3],
            color,
        });
        let line = if chosen {
            [255, 255, 255, 255]
        } else {
            [color[0], color[1], color[2], 200]
        };
        let points = match &l.spot {
            Some(spot) => cone_lines(l.position, spot.direction, spot.angle_degrees, l.range),
            None => star_lines(l.position),
        };
        out.push(Overlay::Lines {
            points,
            color: line,
        });
    }
}

/// The light's colour as an opaque sRGBA icon colour (its brightest channel brought to 1, so a
/// dim or an over-bright light still shows its hue).
fn icon_color(rgb: [f32; 3]) -> [u8; 4] {
    let max = rgb.iter().copied().fold(0.0f32, f32::max);
    if !max.is_finite() || max <= 0.0 {
        return [255, 255, 255, 255];
    }
    let [r, g, b] = rgb.map(|c| linear_to_srgb((c / max).clamp(0.0, 1.0)));
    [r, g, b, 255]
}

/// Three axis lines through `p`.
fn star_lines(p: [f32; 3]) -> Vec<[f32; 3]> {
    let mut points = Vec::with_capacity(6);
    for axis in 0..3 {
        let (mut a, mut b) = (p, p);
        a[axis] -= STAR;
        b[axis] += STAR;
        points.push(a);
        points.push(b);
    }
    points
}

/// The outline of a cone with apex `p` along `dir` of full opening `angle_degrees`: eight lines
/// from the apex to a circle, and the circle, at [`CONE_LENGTH`] or `range`, whichever is less.
pub fn cone_lines(p: [f32; 3], dir: [f32; 3], angle_degrees: f32, range: f32) -> Vec<[f32; 3]> {
    let len = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    if !len.is_finite() || len <= 1e-6 {
        return star_lines(p);
    }
    let d = dir.map(|c| c / len);
    let (u, v) = basis(d);
    let length = CONE_LENGTH.min(range.max(0.5));
    // Wide cones are drawn as a flat disc of four times the length rather than to infinity.
    let half = (angle_degrees.clamp(1.0, 179.0) / 2.0).to_radians();
    let (along, radius) = if half.tan() > 4.0 {
        (length * half.cos(), length * half.sin())
    } else {
        (length, length * half.tan())
    };
    let rim = |k: usize| {
        let t = k as f32 / CIRCLE_SEGMENTS as f32 * std::f32::consts::TAU;
        let (s, c) = t.sin_cos();
        [0, 1, 2].map(|a| p[a] + d[a] * along + radius * (u[a] * c + v[a] * s))
    };
    let mut points = Vec::with_capacity(2 * (8 + CIRCLE_SEGMENTS));
    for k in (0..CIRCLE_SEGMENTS).step_by(CIRCLE_SEGMENTS / 8) {
        points.push(p);
        points.push(rim(k));
    }
    for k in 0..CIRCLE_SEGMENTS {
        points.push(rim(k));
        points.push(rim(k + 1));
    }
    points
}

/// Two unit vectors perpendicular to unit `d` and to each other.
fn basis(d: [f32; 3]) -> ([f32; 3], [f32; 3]) {
    let helper = if d[1].abs() < 0.9 {
        [0.0, 1.0, 0.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let u = normalize(cross(d, helper));
    (u, cross(d, u))
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt().max(1e-12);
    a.map(|c| c / l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::light::Spot;

    fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
        (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f32>().sqrt()
    }

    #[test]
    fn every_light_gets_a_ball_and_the_selected_one_is_larger() {
        let lights = [
            PlacedLight {
                position: [1.0, 2.0, 3.0],
                color: [4.0, 2.0, 0.0],
                ..PlacedLight::default()
            },
            PlacedLight {
                position: [9.0, 9.0, 9.0],
                spot: Some(Spot {
                    direction: [0.0, -1.0, 0.0],
                    angle_degrees: 60.0,
                }),
                ..PlacedLight::default()
            },
        ];
        let mut out = Vec::new();
        light_icons(&lights, Some(1), &mut out);
        let balls: Vec<_> = out
            .iter()
            .filter_map(|o| match o {
                Overlay::Solid {
                    center,
                    half_extents,
                    color,
                    ..
                } => Some((*center, half_extents[0], *color)),
                _ => None,
            })
            .collect();
        assert_eq!(balls.len(), 2);
        assert_eq!(balls[0].0, [1.0, 2.0, 3.0]);
        assert_eq!(balls[0].1, ICON_RADIUS);
        assert_eq!(balls[1].1, SELECTED_RADIUS);
        // An over-bright orange keeps its hue: full red, some green, no blue.
        assert_eq!(balls[0].2[0], 255);
        assert!(balls[0].2[1] > 100 && balls[0].2[1] < 255 && balls[0].2[2] == 0);
    }

    #[test]
    fn a_spot_cone_opens_along_its_direction_at_its_angle() {
        let p = [10.0, 20.0, 10.0];
        let pts = cone_lines(p, [0.0, -2.0, 0.0], 90.0, 100.0);
        assert_eq!(pts.len() % 2, 0);
        let rim: Vec<_> = pts.iter().filter(|q| dist(**q, p) > 1e-3).collect();
        for q in rim {
            // 90°: the rim sits CONE_LENGTH below the apex, as far out as down.
            assert!((q[1] - (p[1] - CONE_LENGTH)).abs() < 1e-3, "{q:?}");
            let out = ((q[0] - p[0]).powi(2) + (q[2] - p[2]).powi(2)).sqrt();
            assert!((out - CONE_LENGTH).abs() < 1e-3, "{q:?}");
        }
        // A short range shortens the cone; a zero direction draws the star, not NaNs.
        let short = cone_lines(p, [1.0, 0.0, 0.0], 30.0, 2.0);
        assert!(short
            .iter()
            .all(|q| dist(*q, p) <= 2.0 / (15f32.to_radians().cos()) + 1e-3));
        let star = cone_lines(p, [0.0; 3], 30.0, 2.0);
        assert_eq!(star.len(), 6);
        assert!(star.iter().flatten().all(|c| c.is_finite()));
        // A near-180° cone stays finite.
        assert!(cone_lines(p, [0.0, 1.0, 0.0], 179.0, 16.0)
            .iter()
            .flatten()
            .all(|c| c.is_finite()));
    }
}
