//! The brush: shape, size, strength and plane lock, and the geometry of one dab.
//!
//! A dab covers the voxels near its centre. For every voxel (sampled at its centre, `p + 0.5`) the
//! brush gives two numbers:
//!
//! ```text
//!   coverage  ── how much of the voxel the brush shape holds, as an occupancy: 1 deep inside,
//!                0 outside, a one-voxel linear ramp across the boundary so the shape's surface
//!                (occupancy ½) lands exactly on the brush boundary, finer than a voxel
//!
//!        1 ┤━━━━━━━━━━━━━━━━━━━━╲
//!          │                     ╲      ramp: 0.5 + (r − dist), clamped
//!        0 ┤                      ╲━━━━━━━━━
//!          0                  r−½  r  r+½        dist from the centre (voxels)
//!
//!   falloff  ── how hard the brush pushes there: 1 in the inner half of the radius, then a smooth
//!               (zero-slope at both ends) step down to 0 at the radius
//!
//!        1 ┤━━━━━━━━━━━━━╮
//!          │              ╲__
//!        0 ┤                 ╰━━━━━━━━━
//!          0           r/2        r
//! ```
//!
//! Add and Subtract move occupancy toward the coverage (strength sets how far per dab), so strokes
//! leave a soft-edged, exactly placed shape; Grow, Erode, Smooth and Flatten scale their change by
//! falloff × strength, so repeated dabs blend without visible rims.
//!
//! Distances are per shape: Euclidean for the sphere, the largest axis distance for the cube, and for
//! the vertical cylinder the larger of the horizontal radius and the vertical half height (both equal
//! to the brush radius).

use crate::vec3::{dot, sub};
use crate::voxel::{VoxelBox, VoxelPos};

/// Smallest brush size in voxels.
pub const MIN_SIZE: f32 = 1.0;
/// Largest brush size in voxels.
pub const MAX_SIZE: f32 = 64.0;
/// Smallest strength.
pub const MIN_STRENGTH: f32 = 0.1;
/// Largest strength.
pub const MAX_STRENGTH: f32 = 1.0;
/// Brush sizes the `[` and `]` keys step through: single voxels while small, then about +20 %.
pub const SIZE_STEPS: [f32; 20] = [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0, 24.0, 28.0, 32.0, 40.0,
    48.0, 56.0, 64.0,
];
/// Fraction of the radius where the falloff is still 1.
const FALLOFF_CORE: f32 = 0.5;

/// The shape of the brush.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BrushShape {
    /// A ball.
    #[default]
    Sphere,
    /// An axis-aligned cube.
    Cube,
    /// An upright cylinder (axis +Y) as tall as it is wide.
    Cylinder,
}

/// A plane through `point` with unit-length `normal` (the side the normal points to is "above").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// Any point on the plane (world voxel coordinates).
    pub point: [f32; 3],
    /// The normal; [`Plane::new`] normalizes it.
    pub normal: [f32; 3],
}

impl Plane {
    /// A plane through `point` with `normal` (normalized; a zero or non-finite normal becomes +Y).
    pub fn new(point: [f32; 3], normal: [f32; 3]) -> Self {
        let len = dot(normal, normal).sqrt();
        let normal = if len.is_finite() && len > 1e-6 {
            normal.map(|c| c / len)
        } else {
            [0.0, 1.0, 0.0]
        };
        Self { point, normal }
    }

    /// The horizontal plane at height `y`.
    pub fn horizontal(y: f32) -> Self {
        Self::new([0.0, y, 0.0], [0.0, 1.0, 0.0])
    }

    /// Signed distance of `p` above the plane (normalizes the normal on the fly).
    pub fn signed_distance(&self, p: [f32; 3]) -> f32 {
        let n = Self::new(self.point, self.normal).normal;
        dot(sub(p, self.point), n)
    }

    /// `p` moved along the normal onto the plane.
    pub fn project(&self, p: [f32; 3]) -> [f32; 3] {
        let n = Self::new(self.point, self.normal).normal;
        let h = dot(sub(p, self.point), n);
        [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]]
    }
}

/// Brush settings shared by every brush tool. Fields may hold anything; every use goes through
/// [`Brush::clamped`], so sizes and strengths outside their ranges act as the nearest valid value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Brush {
    /// Shape of the dab.
    pub shape: BrushShape,
    /// Diameter in voxels, 1–64.
    pub size: f32,
    /// How much one dab changes, 0.1–1.
    pub strength: f32,
    /// When set, every dab centre is projected onto this plane, so a stroke stays on it.
    pub plane_lock: Option<Plane>,
    /// When set, voxels with `y` below this are never changed: the editor passes the world's lowest
    /// layer plus one, so no brush digs through the bottom of the world.
    pub floor_y: Option<i32>,
}

impl Default for Brush {
    /// A sphere of size 6 (Roblox's initial size) at full strength.
    fn default() -> Self {
        Self {
            shape: BrushShape::Sphere,
            size: 6.0,
            strength: 1.0,
            plane_lock: None,
            floor_y: None,
        }
    }
}

impl Brush {
    /// A brush with the given shape, size and strength (clamped), without plane lock.
    pub fn new(shape: BrushShape, size: f32, strength: f32) -> Self {
        Self {
            shape,
            size,
            strength,
            plane_lock: None,
            floor_y: None,
        }
        .clamped()
    }

    /// This brush with size and strength clamped to their ranges (NaN becomes the minimum).
    pub fn clamped(&self) -> Self {
        let clamp = |v: f32, lo: f32, hi: f32| if v.is_nan() { lo } else { v.clamp(lo, hi) };
        Self {
            shape: self.shape,
            size: clamp(self.size, MIN_SIZE, MAX_SIZE),
            strength: clamp(self.strength, MIN_STRENGTH, MAX_STRENGTH),
            plane_lock: self.plane_lock,
            floor_y: self.floor_y,
        }
    }

    /// Radius in voxels (half the clamped size).
    pub fn radius(&self) -> f32 {
        self.clamped().size * 0.5
    }

    /// The dab centre actually used for a requested centre: projected onto the lock plane if any.
    pub fn locked_center(&self, center: [f32; 3]) -> [f32; 3] {
        match self.plane_lock {
            Some(plane) => plane.project(center),
            None => center,
        }
    }

    /// Bigger brush, for the `]` key: the next step of [`SIZE_STEPS`].
    pub fn grown(&self) -> Self {
        let s = self.clamped().size;
        let next = SIZE_STEPS
            .iter()
            .copied()
            .find(|&v| v > s)
            .unwrap_or(MAX_SIZE);
        Self {
            size: next,
            ..*self
        }
    }

    /// Smaller brush, for the `[` key: the previous step of [`SIZE_STEPS`].
    pub fn shrunk(&self) -> Self {
        let s = self.clamped().size;
        let next = SIZE_STEPS
            .iter()
            .rev()
            .copied()
            .find(|&v| v < s)
            .unwrap_or(MIN_SIZE);
        Self {
            size: next,
            ..*self
        }
    }
}

/// The geometry of one dab: a clamped brush at a finite centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Footprint {
    pub shape: BrushShape,
    pub center: [f32; 3],
    pub radius: f32,
}

impl Footprint {
    /// The footprint of `brush` at `center` (after plane lock); `None` for a non-finite centre.
    pub fn new(brush: &Brush, center: [f32; 3]) -> Option<Self> {
        let b = brush.clamped();
        let center = b.locked_center(center);
        center.iter().all(|c| c.is_finite()).then(|| Self {
            shape: b.shape,
            center,
            radius: b.radius(),
        })
    }

    /// Every voxel whose coverage can be above 0 (centre within `radius + ½` on each axis).
    pub fn bounds(&self) -> VoxelBox {
        let reach = self.radius + 0.5;
        // Voxel p's centre is p + 0.5: p covers `c − reach < p + 0.5 < c + reach`.
        let lo = |c: f32| (c - reach - 0.5).floor() as i32 + 1;
        let hi = |c: f32| (c + reach - 0.5).ceil() as i32;
        let [x, y, z] = self.center;
        VoxelBox::new(
            VoxelPos::new(lo(x), lo(y), lo(z)),
            VoxelPos::new(hi(x), hi(y), hi(z)),
        )
    }

    /// Distance of voxel `p`'s centre from the dab centre in the shape's metric (voxels).
    #[inline]
    pub fn distance(&self, p: VoxelPos) -> f32 {
        let d = [
            p.x as f32 + 0.5 - self.center[0],
            p.y as f32 + 0.5 - self.center[1],
            p.z as f32 + 0.5 - self.center[2],
        ];
        match self.shape {
            BrushShape::Sphere => dot(d, d).sqrt(),
            BrushShape::Cube => d[0].abs().max(d[1].abs()).max(d[2].abs()),
            BrushShape::Cylinder => (d[0] * d[0] + d[2] * d[2]).sqrt().max(d[1].abs()),
        }
    }

    /// Coverage of voxel `p` as an occupancy fraction (see the module docs).
    #[inline]
    pub fn coverage(&self, dist: f32) -> f32 {
        (0.5 + self.radius - dist).clamp(0.0, 1.0)
    }

    /// Falloff at distance `dist` (see the module docs).
    #[inline]
    pub fn falloff(&self, dist: f32) -> f32 {
        falloff(dist / self.radius)
    }

    /// True when voxel `p`'s centre lies inside the brush shape.
    #[inline]
    pub fn inside(&self, dist: f32) -> bool {
        dist <= self.radius
    }
}

/// Smooth falloff over the normalized distance `d` (0 at the centre, 1 at the radius).
pub fn falloff(d: f32) -> f32 {
    if d.is_nan() || d >= 1.0 {
        return 0.0;
    }
    if d <= FALLOFF_CORE {
        return 1.0;
    }
    let t = (d - FALLOFF_CORE) / (1.0 - FALLOFF_CORE);
    1.0 - t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamping() {
        let b = Brush::new(BrushShape::Cube, 500.0, 0.0);
        assert_eq!((b.size, b.strength), (MAX_SIZE, MIN_STRENGTH));
        let b = Brush::new(BrushShape::Cube, f32::NAN, f32::NAN);
        assert_eq!((b.size, b.strength), (MIN_SIZE, MIN_STRENGTH));
        let raw = Brush {
            size: -3.0,
            strength: 7.0,
            ..Brush::default()
        };
        assert_eq!(raw.radius(), 0.5);
        assert_eq!(raw.clamped().strength, 1.0);
    }

    #[test]
    fn size_steps_round_trip_and_stay_in_range() {
        let mut b = Brush::new(BrushShape::Sphere, 1.0, 1.0);
        let mut sizes = vec![b.size];
        while b.size < MAX_SIZE {
            b = b.grown();
            sizes.push(b.size);
        }
        assert!(sizes.windows(2).all(|w| w[1] > w[0]), "{sizes:?}");
        assert_eq!(b.grown().size, MAX_SIZE);
        assert_eq!(sizes, SIZE_STEPS);
        for &s in sizes.iter().rev().skip(1) {
            b = b.shrunk();
            assert_eq!(b.size, s);
        }
        assert_eq!(b.shrunk().size, MIN_SIZE);
        let odd = Brush::new(BrushShape::Sphere, 9.5, 1.0);
        assert_eq!((odd.grown().size, odd.shrunk().size), (10.0, 8.0));
    }

    #[test]
    fn falloff_is_smooth_and_monotonic() {
        assert_eq!(falloff(0.0), 1.0);
        assert_eq!(falloff(0.5), 1.0);
        assert_eq!(falloff(1.0), 0.0);
        assert_eq!(falloff(f32::NAN), 0.0);
        assert!((falloff(0.75) - 0.5).abs() < 1e-6);
        let mut last = 1.0;
        for i in 0..=100 {
            let f = falloff(i as f32 / 100.0);
            assert!(f <= last && (last - f) < 0.035, "step at {i}");
            last = f;
        }
    }

    #[test]
    fn bounds_hold_every_covered_voxel_and_no_more() {
        for shape in [BrushShape::Sphere, BrushShape::Cube, BrushShape::Cylinder] {
            for (c, size) in [
                ([0.0, 0.0, 0.0], 1.0),
                ([3.3, -7.8, 10.5], 9.0),
                ([-0.5, 0.2, 4.9], 16.0),
            ] {
                let fp = Footprint::new(&Brush::new(shape, size, 1.0), c).expect("finite");
                let b = fp.bounds();
                let big = VoxelBox::new(
                    VoxelPos::new(b.min.x - 3, b.min.y - 3, b.min.z - 3),
                    VoxelPos::new(b.max.x + 3, b.max.y + 3, b.max.z + 3),
                );
                let mut touched = VoxelBox::default();
                for z in big.min.z..big.max.z {
                    for y in big.min.y..big.max.y {
                        for x in big.min.x..big.max.x {
                            let p = VoxelPos::new(x, y, z);
                            if fp.coverage(fp.distance(p)) > 0.0 {
                                assert!(b.contains(p), "{shape:?} {p:?} outside {b:?}");
                                touched = touched.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
                            }
                        }
                    }
                }
                // Tight on every side for the cube (its coverage reaches every face of the bounds).
                if shape == BrushShape::Cube {
                    assert_eq!(touched, b);
                }
            }
        }
    }

    #[test]
    fn plane_lock_projects_the_centre() {
        let b = Brush {
            plane_lock: Some(Plane::new([0.0, 10.0, 0.0], [0.0, 2.0, 0.0])),
            ..Brush::default()
        };
        assert_eq!(b.locked_center([4.0, 17.0, -2.0]), [4.0, 10.0, -2.0]);
        let tilted = Plane::new([0.0, 0.0, 0.0], [1.0, 1.0, 0.0]);
        let p = tilted.project([3.0, 5.0, 1.0]);
        assert!(tilted.signed_distance(p).abs() < 1e-5);
        assert_eq!(Plane::new([0.0; 3], [0.0; 3]).normal, [0.0, 1.0, 0.0]);
        assert!(Footprint::new(&b, [f32::NAN, 0.0, 0.0]).is_none());
    }
}
