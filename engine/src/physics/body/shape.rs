//! Body shapes and rigid bodies: spheres, oriented boxes and capsules with mass, friction and
//! restitution.
//!
//! ```text
//!   Sphere { radius }        Box { half: [hx, hy, hz] }        Capsule { radius, half_height }
//!        .-.                  +-------+                            (   )   <- hemisphere
//!       (   )                 |       | 2·hy                       |   |   segment along local Y,
//!        `-'                  +-------+                            (   )      ±half_height
//! ```
//!
//! Mass comes from a density (mass per voxel³; water is 1), so a body lighter than water floats.
//! Inertia is kept as the inverse of its diagonal in the body frame.

use super::math::{axes, rotate, Quat, QUAT_IDENTITY};
use crate::vec3::{add, add_scaled, scale, V3};
use crate::{Error, Result};

/// The geometry of a body, in its local frame (centred on the body's position).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A ball.
    Sphere {
        /// Radius, voxels.
        radius: f32,
    },
    /// An oriented box.
    Box {
        /// Half extents along the local axes, voxels.
        half: V3,
    },
    /// A segment along local Y swept by a ball.
    Capsule {
        /// Radius, voxels.
        radius: f32,
        /// Half the length of the core segment, voxels.
        half_height: f32,
    },
}

impl Shape {
    /// The shape's name: `sphere`, `box` or `capsule`.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Capsule { .. } => "capsule",
        }
    }

    /// The smallest full extent (diameter, shortest box edge): the scale penetration is judged by.
    pub fn size(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => 2.0 * radius,
            Shape::Box { half } => 2.0 * half[0].min(half[1]).min(half[2]),
        }
    }

    /// Volume, voxels³.
    pub fn volume(&self) -> f32 {
        let ball = |r: f32| 4.0 / 3.0 * std::f32::consts::PI * r * r * r;
        match *self {
            Shape::Sphere { radius } => ball(radius),
            Shape::Box { half } => 8.0 * half[0] * half[1] * half[2],
            Shape::Capsule {
                radius,
                half_height,
            } => ball(radius) + std::f32::consts::PI * radius * radius * 2.0 * half_height,
        }
    }

    /// The diagonal of the inertia tensor per unit mass, body frame.
    fn unit_inertia(&self) -> V3 {
        match *self {
            Shape::Sphere { radius } => [0.4 * radius * radius; 3],
            Shape::Box { half } => {
                let [x, y, z] = half.map(|h| 4.0 * h * h);
                [(y + z) / 12.0, (x + z) / 12.0, (x + y) / 12.0]
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                // A solid cylinder of the full length: a close, simple bound.
                let l = 2.0 * (half_height + radius);
                let side = 0.25 * radius * radius + l * l / 12.0;
                [side, 0.5 * radius * radius, side]
            }
        }
    }

    /// Bounding radius about the centre.
    pub fn bounding_radius(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Box { half } => {
                (half[0] * half[0] + half[1] * half[1] + half[2] * half[2]).sqrt()
            }
            Shape::Capsule {
                radius,
                half_height,
            } => radius + half_height,
        }
    }

    /// The world AABB at `position` and `orientation`.
    pub fn aabb(&self, position: V3, orientation: Quat) -> (V3, V3) {
        let ext = match *self {
            Shape::Sphere { radius } => [radius; 3],
            Shape::Box { half } => {
                let a = axes(orientation);
                std::array::from_fn(|i| (0..3).map(|k| (a[k][i] * half[k]).abs()).sum())
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let up = rotate(orientation, [0.0, half_height, 0.0]);
                up.map(|c| c.abs() + radius)
            }
        };
        (
            std::array::from_fn(|i| position[i] - ext[i]),
            std::array::from_fn(|i| position[i] + ext[i]),
        )
    }

    /// True when the shape's numbers are finite and positive (half-height may be 0).
    pub fn is_valid(&self) -> bool {
        let ok = |v: f32| v.is_finite() && v > 0.0;
        match *self {
            Shape::Sphere { radius } => ok(radius),
            Shape::Box { half } => half.iter().all(|&h| ok(h)),
            Shape::Capsule {
                radius,
                half_height,
            } => ok(radius) && half_height.is_finite() && half_height >= 0.0,
        }
    }
}

/// Check a shape from a user: finite, at least [`MIN_BODY_SIZE`] across, at most [`MAX_BODY_SIZE`].
///
/// # Errors
/// [`Error::Invalid`] naming the shape and the limit.
pub fn check_shape(shape: &Shape) -> Result<()> {
    let name = shape.name();
    if !shape.is_valid() {
        return Err(Error::Invalid(format!(
            "{name} dimensions must be positive and finite: {shape:?}"
        )));
    }
    let size = shape.size();
    if size < MIN_BODY_SIZE {
        return Err(Error::Invalid(format!(
            "{name} size {size} is below the smallest body size {MIN_BODY_SIZE} voxels"
        )));
    }
    let extent = 2.0 * shape.bounding_radius();
    if extent > MAX_BODY_SIZE {
        return Err(Error::Invalid(format!(
            "{name} is {extent} voxels across; the largest body is {MAX_BODY_SIZE} voxels"
        )));
    }
    Ok(())
}

/// Check a body material from a user.
///
/// # Errors
/// [`Error::Invalid`] naming the bad value and its range.
pub fn check_material(m: &BodyMaterial) -> Result<()> {
    let d = m.density;
    if !(d.is_finite() && (MIN_DENSITY..=MAX_DENSITY).contains(&d)) {
        return Err(Error::Invalid(format!(
            "density {d} must be between {MIN_DENSITY} and {MAX_DENSITY} (water is 1)"
        )));
    }
    if !(m.friction.is_finite() && (0.0..=10.0).contains(&m.friction)) {
        return Err(Error::Invalid(format!(
            "friction {} must be between 0 and 10",
            m.friction
        )));
    }
    if !(m.restitution.is_finite() && (0.0..=1.0).contains(&m.restitution)) {
        return Err(Error::Invalid(format!(
            "restitution {} must be between 0 and 1",
            m.restitution
        )));
    }
    Ok(())
}

/// The end points of a capsule's core segment in world space.
pub fn capsule_segment(position: V3, orientation: Quat, half_height: f32) -> (V3, V3) {
    let up = rotate(orientation, [0.0, half_height, 0.0]);
    (add_scaled(position, up, -1.0), add(position, up))
}

/// The eight corners of a box in world space, corner `i` taking `+half[k]` when bit `k` of `i` is set.
pub fn box_corners(position: V3, orientation: Quat, half: V3) -> [V3; 8] {
    let a = axes(orientation);
    std::array::from_fn(|i| {
        (0..3).fold(position, |p, k| {
            let s = if i >> k & 1 == 1 { half[k] } else { -half[k] };
            add(p, scale(a[k], s))
        })
    })
}

/// Surface properties and density of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyMaterial {
    /// Mass per voxel³ (water is 1: lighter floats, heavier sinks).
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Bounciness, 0 (dead) to 1 (elastic).
    pub restitution: f32,
}

impl Default for BodyMaterial {
    fn default() -> Self {
        Self {
            density: 2.0,
            friction: 0.6,
            restitution: 0.2,
        }
    }
}

/// A rigid body: shape, pose, velocities, and cached mass properties.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Geometry in the body frame.
    pub shape: Shape,
    /// Surface and density.
    pub material: BodyMaterial,
    /// Centre of mass, world voxel units.
    pub position: V3,
    /// Rotation from body to world frame.
    pub orientation: Quat,
    /// Linear velocity, voxels per second.
    pub velocity: V3,
    /// Angular velocity, radians per second, world frame.
    pub angular_velocity: V3,
    /// 1 / mass.
    pub inv_mass: f32,
    /// 1 / principal inertia, body frame.
    pub inv_inertia: V3,
    /// Seconds spent below the sleep thresholds.
    pub rest_time: f32,
    /// Not simulated until woken.
    pub asleep: bool,
    /// Taken out of the simulation, and why (see [`Lost`]); a lost body never moves or wakes again.
    pub lost: Option<Lost>,
}

/// Why a body left the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// Its state became non-finite in a step; it is kept at its pose from before that step. Only a
    /// release build gets here: debug builds stop at an assertion naming the contact.
    NonFinite,
    /// It fell more than [`super::sim::FALL_LIMIT`] voxels below the world's bottom (off an edge).
    FellOut,
}

impl Lost {
    /// `non-finite` or `fell out`.
    pub fn name(self) -> &'static str {
        match self {
            Lost::NonFinite => "non-finite",
            Lost::FellOut => "fell out",
        }
    }
}

/// Smallest accepted body size ([`Shape::size`]), voxels.
pub const MIN_BODY_SIZE: f32 = 0.1;
/// Largest accepted body extent (bounding diameter), voxels.
pub const MAX_BODY_SIZE: f32 = 64.0;
/// Smallest accepted density (water is 1).
pub const MIN_DENSITY: f32 = 0.05;
/// Largest accepted density (water is 1).
pub const MAX_DENSITY: f32 = 50.0;

impl Body {
    /// A body at rest at `position` with no rotation.
    ///
    /// # Panics
    /// If the shape is invalid or the density is not positive and finite (caller contract; check
    /// [`Shape::is_valid`] first).
    pub fn new(shape: Shape, material: BodyMaterial, position: V3) -> Self {
        assert!(shape.is_valid(), "invalid body shape {shape:?}");
        assert!(
            material.density.is_finite() && material.density > 0.0,
            "invalid density {}",
            material.density
        );
        let mass = material.density * shape.volume();
        Self {
            shape,
            material,
            position,
            orientation: QUAT_IDENTITY,
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            inv_mass: 1.0 / mass,
            inv_inertia: shape.unit_inertia().map(|i| 1.0 / (i * mass)),
            rest_time: 0.0,
            asleep: false,
            lost: None,
        }
    }

    /// A body at rest at `position`, with every number checked first: the constructor for sizes,
    /// densities and points that come from a user.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad value: a non-finite position, a shape smaller than
    /// [`MIN_BODY_SIZE`] or larger than [`MAX_BODY_SIZE`], a density outside
    /// [`MIN_DENSITY`]`..=`[`MAX_DENSITY`], friction not in `0..=10` or restitution not in `0..=1`.
    pub fn checked(shape: Shape, material: BodyMaterial, position: V3) -> Result<Self> {
        check_shape(&shape)?;
        check_material(&material)?;
        if position.iter().any(|c| !c.is_finite()) {
            return Err(Error::Invalid(format!(
                "body position {position:?} must be finite"
            )));
        }
        Ok(Self::new(shape, material, position))
    }

    /// True when every number of the body's state (pose and velocities) is finite.
    pub fn is_finite(&self) -> bool {
        let all = |a: &[f32]| a.iter().all(|c| c.is_finite());
        all(&self.position)
            && all(&self.orientation)
            && all(&self.velocity)
            && all(&self.angular_velocity)
    }

    /// Mass (density × volume).
    pub fn mass(&self) -> f32 {
        1.0 / self.inv_mass
    }

    /// The world AABB.
    pub fn aabb(&self) -> (V3, V3) {
        self.shape.aabb(self.position, self.orientation)
    }

    /// `I⁻¹ · v` with the world-frame inverse inertia.
    pub fn apply_inv_inertia(&self, v: V3) -> V3 {
        let local = super::math::rotate_inv(self.orientation, v);
        let scaled = [
            local[0] * self.inv_inertia[0],
            local[1] * self.inv_inertia[1],
            local[2] * self.inv_inertia[2],
        ];
        rotate(self.orientation, scaled)
    }

    /// Velocity of the world point at offset `r` from the centre.
    pub fn point_velocity(&self, r: V3) -> V3 {
        add(self.velocity, crate::vec3::cross(self.angular_velocity, r))
    }
}

#[cfg(test)]
mod tests {
    use super::super::math::quat_from_axis_angle;
    use super::*;
    use crate::vec3::{length, sub};

    #[test]
    fn mass_properties() {
        let m = BodyMaterial {
            density: 1.0,
            ..BodyMaterial::default()
        };
        let cube = Body::new(Shape::Box { half: [0.5; 3] }, m, [0.0; 3]);
        assert!((cube.mass() - 1.0).abs() < 1e-6);
        assert!(
            (cube.inv_inertia[0] - 6.0).abs() < 1e-4,
            "{:?}",
            cube.inv_inertia
        );
        let ball = Body::new(Shape::Sphere { radius: 1.0 }, m, [0.0; 3]);
        assert!((ball.mass() - 4.18879).abs() < 1e-4);
        let cap = Shape::Capsule {
            radius: 1.0,
            half_height: 1.0,
        };
        assert!((cap.volume() - (4.18879 + 2.0 * std::f32::consts::PI)).abs() < 1e-4);
        assert_eq!(cap.size(), 2.0);
        assert_eq!(
            Shape::Box {
                half: [1.0, 0.25, 2.0]
            }
            .size(),
            0.5
        );
    }

    #[test]
    fn aabb_of_rotated_box_and_capsule() {
        let q = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_4);
        let (lo, hi) = Shape::Box { half: [1.0; 3] }.aabb([0.0; 3], q);
        let r2 = std::f32::consts::SQRT_2;
        assert!(
            (hi[0] - r2).abs() < 1e-5 && (hi[1] - r2).abs() < 1e-5 && (hi[2] - 1.0).abs() < 1e-5
        );
        assert!((lo[0] + r2).abs() < 1e-5);
        let q = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        let cap = Shape::Capsule {
            radius: 0.5,
            half_height: 2.0,
        };
        let (lo, hi) = cap.aabb([1.0, 0.0, 0.0], q);
        assert!(
            (hi[0] - 3.5).abs() < 1e-5 && (lo[0] + 1.5).abs() < 1e-5 && (hi[1] - 0.5).abs() < 1e-5
        );
        // Every corner of a rotated box lies inside its AABB.
        let q = quat_from_axis_angle([0.6, 0.0, 0.8], 0.7);
        let half = [1.0, 0.3, 2.0];
        let (lo, hi) = Shape::Box { half }.aabb([2.0, 3.0, 4.0], q);
        for c in box_corners([2.0, 3.0, 4.0], q, half) {
            assert!((0..3).all(|i| c[i] >= lo[i] - 1e-5 && c[i] <= hi[i] + 1e-5));
        }
        let (a, b) = capsule_segment([0.0; 3], q, 1.0);
        assert!((length(sub(b, a)) - 2.0).abs() < 1e-5);
    }
}
