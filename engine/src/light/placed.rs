//! Point and spot lights placed in the world: part of the project (its `LAMP` section), baked with
//! the sun and sky.
//!
//! ```text
//!        ✦ light (position, colour × intensity, range)
//!       /|\            irradiance at a surface voxel d voxels away, its best open face at angle θ:
//!      / | \  spot:      colour · intensity · cos θ · window(d) / max(d², 1) · cone · visible
//!     /  |  \ cone       window(d) = (1 − (d / range)⁴)², reaching 0 at the range
//!   ▓▓▓▓▓▓▓▓▓▓▓          cone = 1 inside 80 % of the half angle, 0 outside it, smooth between
//! ```
//!
//! `visible` is the share of a voxel's walks toward the light that reach it without entering a solid
//! voxel (see `placed_walk`), so lights cast shadows.

use crate::voxel::VoxelBox;
use crate::{Error, Result};

/// Most lights a project may hold.
pub const MAX_LIGHTS: usize = 4096;
/// Largest range accepted, in voxels.
pub const MAX_RANGE: f32 = 256.0;
/// Largest intensity accepted.
pub const MAX_INTENSITY: f32 = 100_000.0;
/// Largest colour component accepted (linear light).
pub const MAX_LIGHT_COLOR: f32 = 64.0;
/// Share of a spot's half angle lit fully; the rest of the cone fades to its edge.
const SPOT_INNER: f32 = 0.8;

/// The cone of a spot light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// Where the cone points (any non-zero length).
    pub direction: [f32; 3],
    /// Full opening angle in degrees, more than 0 and less than 180.
    pub angle_degrees: f32,
}

/// A point light, or a spot light when it has a [`Spot`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedLight {
    /// Where it is, in world voxel units (voxel `x` spans `x..x + 1`).
    pub position: [f32; 3],
    /// Linear RGB colour, each component 0 to [`MAX_LIGHT_COLOR`].
    pub color: [f32; 3],
    /// Brightness: the light a surface facing it one voxel away receives, per unit of colour.
    pub intensity: f32,
    /// Distance in voxels at which its light reaches zero.
    pub range: f32,
    /// The cone, for a spot light.
    pub spot: Option<Spot>,
}

impl Default for PlacedLight {
    fn default() -> Self {
        Self {
            position: [0.0; 3],
            color: [1.0, 1.0, 1.0],
            intensity: 25.0,
            range: 16.0,
            spot: None,
        }
    }
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|c| c.is_finite())
}

impl PlacedLight {
    /// Check every field, and that the light lies inside `world` (the project's bounds).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad field.
    pub fn validate(&self, world: &VoxelBox) -> Result<()> {
        let p = self.position;
        if !finite(&p) {
            return Err(Error::Invalid(format!(
                "light position {p:?} must be finite numbers"
            )));
        }
        let (lo, hi) = (world.min, world.max);
        let inside = (0..3).all(|a| {
            let (l, h) = ([lo.x, lo.y, lo.z][a], [hi.x, hi.y, hi.z][a]);
            p[a] >= l as f32 && p[a] <= h as f32
        });
        if !inside {
            return Err(Error::Invalid(format!(
                "light position {},{},{} lies outside the world ({},{},{} to {},{},{})",
                p[0], p[1], p[2], lo.x, lo.y, lo.z, hi.x, hi.y, hi.z
            )));
        }
        if !finite(&self.color)
            || self
                .color
                .iter()
                .any(|&c| !(0.0..=MAX_LIGHT_COLOR).contains(&c))
        {
            return Err(Error::Invalid(format!(
                "light colour {:?}: each component must be a number from 0 to {MAX_LIGHT_COLOR}",
                self.color
            )));
        }
        if !self.intensity.is_finite() || !(0.0..=MAX_INTENSITY).contains(&self.intensity) {
            return Err(Error::Invalid(format!(
                "light intensity {}: must be a number from 0 to {MAX_INTENSITY}",
                self.intensity
            )));
        }
        if !self.range.is_finite() || self.range <= 0.0 || self.range > MAX_RANGE {
            return Err(Error::Invalid(format!(
                "light range {}: must be more than 0 and at most {MAX_RANGE} voxels",
                self.range
            )));
        }
        if let Some(s) = &self.spot {
            let d = s.direction;
            if !finite(&d) || unit(d).is_none() {
                return Err(Error::Invalid(format!(
                    "spot direction {d:?} must be a non-zero direction"
                )));
            }
            let a = s.angle_degrees;
            if !a.is_finite() || a <= 0.0 || a >= 180.0 {
                return Err(Error::Invalid(format!(
                    "spot angle {a}: must be more than 0 and less than 180 degrees"
                )));
            }
        }
        Ok(())
    }

    /// The box of voxels its light can reach (the sphere of its range, rounded out).
    pub fn reach_box(&self) -> VoxelBox {
        let lo = self.position.map(|c| (c - self.range).floor() as i32 - 1);
        let hi = self.position.map(|c| (c + self.range).ceil() as i32 + 1);
        VoxelBox::new(lo.into(), hi.into())
    }

    /// The light a surface point `d` voxels away receives before shadows and facing: colour ×
    /// intensity × window / max(d², 1) × the spot's cone at `from_light` (unit direction from the
    /// light to the point). Zero at and beyond the range.
    pub(crate) fn falloff(&self, d: f64, from_light: [f64; 3]) -> f64 {
        let r = f64::from(self.range);
        if d >= r {
            return 0.0;
        }
        let t = (d / r).powi(4);
        let window = (1.0 - t) * (1.0 - t);
        let cone = match &self.spot {
            None => 1.0,
            Some(s) => cone(s, from_light),
        };
        f64::from(self.intensity) * window * cone / (d * d).max(1.0)
    }
}

/// `v / |v|`, or `None` for a zero (or tiny) vector.
pub(crate) fn unit(v: [f32; 3]) -> Option<[f64; 3]> {
    let v = v.map(f64::from);
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (n > 1e-9 && n.is_finite()).then(|| v.map(|c| c / n))
}

/// The spot's cone at unit direction `from_light`: 1 inside [`SPOT_INNER`] of the half angle, 0
/// outside the half angle, smoothstep between.
fn cone(s: &Spot, from_light: [f64; 3]) -> f64 {
    let Some(axis) = unit(s.direction) else {
        return 0.0;
    };
    let cos = axis[0] * from_light[0] + axis[1] * from_light[1] + axis[2] * from_light[2];
    let half = f64::from(s.angle_degrees).to_radians() / 2.0;
    let (outer, inner) = (half.cos(), (half * f64::from(SPOT_INNER)).cos());
    if cos <= outer {
        return 0.0;
    }
    let t = ((cos - outer) / (inner - outer)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::VoxelPos;

    fn world() -> VoxelBox {
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 64))
    }

    #[test]
    fn bad_lights_are_named() {
        let ok = PlacedLight {
            position: [10.0, 5.0, 10.0],
            ..PlacedLight::default()
        };
        ok.validate(&world()).expect("valid");
        let spot = |direction, angle_degrees| PlacedLight {
            spot: Some(Spot {
                direction,
                angle_degrees,
            }),
            ..ok
        };
        spot([0.0, -1.0, 0.0], 60.0)
            .validate(&world())
            .expect("valid spot");
        let cases = [
            (
                PlacedLight {
                    color: [f32::NAN, 1.0, 1.0],
                    ..ok
                },
                "colour",
            ),
            (
                PlacedLight {
                    color: [1.0, -0.5, 1.0],
                    ..ok
                },
                "colour",
            ),
            (
                PlacedLight {
                    intensity: -1.0,
                    ..ok
                },
                "intensity",
            ),
            (
                PlacedLight {
                    intensity: f32::NAN,
                    ..ok
                },
                "intensity",
            ),
            (PlacedLight { range: 0.0, ..ok }, "range"),
            (
                PlacedLight {
                    position: [100.0, 5.0, 5.0],
                    ..ok
                },
                "outside the world",
            ),
            (
                PlacedLight {
                    position: [1.0, f32::INFINITY, 5.0],
                    ..ok
                },
                "finite",
            ),
            (spot([0.0; 3], 60.0), "direction"),
            (spot([0.0, -1.0, 0.0], 0.0), "angle"),
            (spot([0.0, -1.0, 0.0], 180.0), "angle"),
        ];
        for (l, word) in cases {
            let msg = l.validate(&world()).expect_err(word).to_string();
            assert!(msg.contains(word), "{msg} should mention {word}");
        }
    }

    #[test]
    fn falloff_is_inverse_square_and_ends_at_the_range() {
        let l = PlacedLight::default();
        let down = [0.0, -1.0, 0.0];
        let (a, b) = (l.falloff(2.0, down), l.falloff(4.0, down));
        assert!(a > b * 3.0 && a < b * 4.5, "{a} {b}");
        assert_eq!(l.falloff(16.0, down), 0.0);
        assert!(l.falloff(15.9, down) < 1e-3);
        let s = PlacedLight {
            spot: Some(Spot {
                direction: [0.0, -1.0, 0.0],
                angle_degrees: 60.0,
            }),
            ..l
        };
        assert!((s.falloff(2.0, down) - a).abs() < 1e-9, "on the axis");
        let side = [0.8f64.sqrt(), -(0.2f64.sqrt()), 0.0];
        assert_eq!(s.falloff(2.0, side), 0.0, "outside the cone");
    }
}
