//! Making bodies to drop: checked specifications of a drop at a point and of a rain over an area, and
//! the placement that keeps new bodies clear of the terrain and of each other.
//!
//! ```text
//!   DropSpec  { at, shape, size, density, count, spread, seed }  the Drop tool: bodies scattered over
//!             a disc of radius `spread` around `at`, starting 2 voxels + their size above the ground
//!   RainSpec  { area, count, shape, sizes, densities, seed }     the Rain button: random bodies over
//!             an XZ rectangle, 2..12 voxels above the ground
//!   Placer    a hash of placed bodies by 4-voxel XZ column; a new body climbs until its bounding
//!             sphere clears every placed one and no terrain triangle is within 0.1 voxel
//! ```
//!
//! Every number is checked before anything is placed ([`DropSpec::check`], [`RainSpec::check`]): a
//! point outside the world, a size or density out of range, or more than [`MAX_DROP_COUNT`] bodies is an
//! [`Error::Invalid`] naming the value. Placement uses only a splitmix64 stream from the seed, so the
//! same spec on the same world gives the same bodies bit for bit.

use rustc_hash::FxHashMap;

use super::contact::Contact;
use super::math::quat_from_axis_angle;
use super::shape::{
    check_material, check_shape, Body, BodyMaterial, Shape, MAX_BODY_SIZE, MIN_BODY_SIZE,
};
use super::terrain::body_triangle;
use crate::physics::world::{PhysicsWorld, RayFilter};
use crate::storage::Grid;
use crate::vec3::{length, normalize, sub, V3};
use crate::voxel::VoxelBox;
use crate::{Error, Result};

/// Most bodies one Drop or Rain makes.
pub const MAX_DROP_COUNT: usize = 500;
/// How far above the world's top (voxels) a drop point may be.
pub const DROP_HEADROOM: f32 = 256.0;
/// Widest spread (voxels) of a drop around its point.
pub const MAX_SPREAD: f32 = 256.0;
/// Columns of the placement hash, voxels.
const COLUMN: f32 = 4.0;

/// Which shapes to drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeChoice {
    /// Balls only.
    Sphere,
    /// Boxes only.
    Box,
    /// Capsules only.
    Capsule,
    /// Each body picks one of the three.
    Mixed,
}

impl ShapeChoice {
    /// Parse `sphere`, `box`, `capsule` or `mixed`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the choices.
    pub fn from_name(name: &str) -> Result<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "sphere" => Ok(Self::Sphere),
            "box" => Ok(Self::Box),
            "capsule" => Ok(Self::Capsule),
            "mixed" => Ok(Self::Mixed),
            _ => Err(Error::Invalid(format!(
                "unknown shape {name:?}; expected sphere, box, capsule or mixed"
            ))),
        }
    }

    /// The shape kind for one body: 0 sphere, 1 box, 2 capsule (mixed draws one from `rng`).
    fn kind(self, rng: &mut Rng) -> u64 {
        match self {
            Self::Sphere => 0,
            Self::Box => 1,
            Self::Capsule => 2,
            Self::Mixed => rng.next() % 3,
        }
    }
}

/// A drop at a point: what the Drop tool makes on a click.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DropSpec {
    /// The point dropped on (the hovered terrain point); bodies start above it.
    pub at: V3,
    /// Shapes.
    pub shape: ShapeChoice,
    /// Smallest full extent of each body, voxels: a sphere's diameter, a cube's edge, a capsule's
    /// diameter (its length is twice that).
    pub size: f32,
    /// Mass per voxel³: water is 1, lighter floats, heavier sinks.
    pub density: f32,
    /// Number of bodies (1..=[`MAX_DROP_COUNT`]).
    pub count: usize,
    /// Radius (voxels) of the disc the bodies scatter over; 0 stacks them in one column.
    pub spread: f32,
    /// Seed of the scatter and orientations.
    pub seed: u64,
}

impl Default for DropSpec {
    fn default() -> Self {
        Self {
            at: [0.0; 3],
            shape: ShapeChoice::Box,
            size: 1.0,
            density: 0.8,
            count: 1,
            spread: 0.0,
            seed: 1,
        }
    }
}

/// A rain of random bodies over an area: the Rain button.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RainSpec {
    /// Low X, Z corner of the area, voxels.
    pub min: [f32; 2],
    /// High X, Z corner of the area, voxels.
    pub max: [f32; 2],
    /// Number of bodies (1..=[`MAX_DROP_COUNT`]).
    pub count: usize,
    /// Shapes.
    pub shape: ShapeChoice,
    /// Smallest and largest body size, voxels.
    pub sizes: [f32; 2],
    /// Smallest and largest density (water is 1).
    pub densities: [f32; 2],
    /// Seed of positions, sizes, densities and orientations.
    pub seed: u64,
}

impl Default for RainSpec {
    fn default() -> Self {
        Self {
            min: [0.0; 2],
            max: [64.0; 2],
            count: 32,
            shape: ShapeChoice::Mixed,
            sizes: [0.8, 2.0],
            densities: [0.4, 2.5],
            seed: 1,
        }
    }
}

fn check_count(count: usize) -> Result<()> {
    if count == 0 || count > MAX_DROP_COUNT {
        return Err(Error::Invalid(format!(
            "{count} bodies: one drop makes 1 to {MAX_DROP_COUNT}"
        )));
    }
    Ok(())
}

/// `bounds` as floats, `(min, max)` corners.
fn corners(bounds: &VoxelBox) -> (V3, V3) {
    let (a, b) = (bounds.min, bounds.max);
    (
        [a.x as f32, a.y as f32, a.z as f32],
        [b.x as f32, b.y as f32, b.z as f32],
    )
}

impl DropSpec {
    /// Check every number against the world `bounds` (the project's box).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad value: a point that is not finite, outside the world
    /// across X or Z, below its bottom or more than [`DROP_HEADROOM`] above its top; a size or density
    /// out of range; a count of 0 or above [`MAX_DROP_COUNT`]; a negative or huge spread.
    pub fn check(&self, bounds: &VoxelBox) -> Result<()> {
        check_count(self.count)?;
        let p = self.at;
        if p.iter().any(|c| !c.is_finite()) {
            return Err(Error::Invalid(format!("drop point {p:?} must be finite")));
        }
        let (lo, hi) = corners(bounds);
        let inside = p[0] >= lo[0]
            && p[0] <= hi[0]
            && p[2] >= lo[2]
            && p[2] <= hi[2]
            && p[1] >= lo[1]
            && p[1] <= hi[1] + DROP_HEADROOM;
        if bounds.is_empty() || !inside {
            return Err(Error::Invalid(format!(
                "drop point ({:.1}, {:.1}, {:.1}) is outside the world ({lo:?} to {hi:?})",
                p[0], p[1], p[2]
            )));
        }
        if !(self.spread.is_finite() && (0.0..=MAX_SPREAD).contains(&self.spread)) {
            return Err(Error::Invalid(format!(
                "spread {} must be between 0 and {MAX_SPREAD} voxels",
                self.spread
            )));
        }
        check_look(self.size, self.density)
    }
}

/// Check a size and density through the shapes they make.
fn check_look(size: f32, density: f32) -> Result<()> {
    if !(size.is_finite() && (MIN_BODY_SIZE..=0.5 * MAX_BODY_SIZE).contains(&size)) {
        return Err(Error::Invalid(format!(
            "size {size} must be between {MIN_BODY_SIZE} and {} voxels",
            0.5 * MAX_BODY_SIZE
        )));
    }
    for kind in 0..3 {
        check_shape(&shape_of(kind, size, [1.0, 1.0, 1.0]))?;
    }
    check_material(&BodyMaterial {
        density,
        ..BodyMaterial::default()
    })
}

impl RainSpec {
    /// Check every number; the area must meet the world `bounds` across X and Z.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad value.
    pub fn check(&self, bounds: &VoxelBox) -> Result<()> {
        check_count(self.count)?;
        let all = [self.min[0], self.min[1], self.max[0], self.max[1]];
        if all.iter().any(|c| !c.is_finite())
            || self.min[0] > self.max[0]
            || self.min[1] > self.max[1]
        {
            return Err(Error::Invalid(format!(
                "rain area {:?} to {:?} must be finite with min <= max",
                self.min, self.max
            )));
        }
        let (lo, hi) = corners(bounds);
        if bounds.is_empty()
            || self.max[0] < lo[0]
            || self.min[0] > hi[0]
            || self.max[1] < lo[2]
            || self.min[1] > hi[2]
        {
            return Err(Error::Invalid(format!(
                "rain area {:?} to {:?} is outside the world (X, Z {:?} to {:?})",
                self.min,
                self.max,
                [lo[0], lo[2]],
                [hi[0], hi[2]]
            )));
        }
        for pair in [self.sizes, self.densities] {
            if pair[0] > pair[1] {
                return Err(Error::Invalid(format!(
                    "range {pair:?} must have min <= max"
                )));
            }
        }
        for (size, density) in self.sizes.into_iter().zip(self.densities) {
            check_look(size, density)?;
        }
        Ok(())
    }
}

/// splitmix64: tiny, seedable, identical on every platform.
#[derive(Debug, Clone)]
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..hi`.
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }

    /// A random rotation.
    pub(crate) fn orientation(&mut self) -> [f32; 4] {
        let axis = normalize([
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        ])
        .unwrap_or([0.0, 1.0, 0.0]);
        quat_from_axis_angle(axis, self.range(0.0, std::f32::consts::TAU))
    }
}

/// The shape of `kind` (0 sphere, 1 box, 2 capsule) whose smallest full extent is `size`. `aspect`
/// (each in `(0, 1]`; all 1 for a cube and a capsule twice as long as it is wide) lengthens a box's Y
/// and Z edges to `size / aspect[1]` and `size / aspect[2]` and sets a capsule's core to
/// `aspect[0] · size`.
pub(crate) fn shape_of(kind: u64, size: f32, aspect: [f32; 3]) -> Shape {
    let r = 0.5 * size;
    match kind {
        0 => Shape::Sphere { radius: r },
        1 => Shape::Box {
            half: [r, r / aspect[1], r / aspect[2]],
        },
        _ => Shape::Capsule {
            radius: r,
            half_height: r * aspect[0],
        },
    }
}

/// Keeps new bodies clear of the ones placed before them and of the terrain.
#[derive(Debug, Default)]
pub(crate) struct Placer {
    /// Placed bounding spheres `(centre, radius)` by XZ column.
    columns: FxHashMap<(i32, i32), Vec<(V3, f32)>>,
    tris: Vec<[V3; 3]>,
    contacts: Vec<Contact>,
}

fn column_range(x: f32, r: f32) -> std::ops::RangeInclusive<i32> {
    ((x - r) / COLUMN).floor() as i32..=((x + r) / COLUMN).floor() as i32
}

impl Placer {
    /// Remember a placed body (or one already in the simulation).
    pub(crate) fn insert(&mut self, b: &Body) {
        let (p, r) = (b.position, b.shape.bounding_radius());
        for cx in column_range(p[0], r) {
            for cz in column_range(p[2], r) {
                self.columns.entry((cx, cz)).or_default().push((p, r));
            }
        }
    }

    /// The highest top among placed spheres that overlap a sphere at `p` of radius `r` (+0.2 gap).
    fn blocker(&self, p: V3, r: f32) -> Option<f32> {
        let mut top: Option<f32> = None;
        for cx in column_range(p[0], r + 0.2) {
            for cz in column_range(p[2], r + 0.2) {
                for &(q, rq) in self.columns.get(&(cx, cz)).into_iter().flatten() {
                    if length(sub(q, p)) < rq + r + 0.2 {
                        let t = q[1] + rq;
                        top = Some(top.map_or(t, |u| u.max(t)));
                    }
                }
            }
        }
        top
    }

    /// Raise `body` until it clears the placed bodies and the terrain (at most 256 moves), then
    /// remember it.
    ///
    /// # Errors
    /// Errors of building narrowphase shapes.
    pub(crate) fn settle(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        body: &mut Body,
    ) -> Result<()> {
        let r = body.shape.bounding_radius();
        for _ in 0..256 {
            if let Some(top) = self.blocker(body.position, r) {
                body.position[1] = top + r + 0.25;
            } else if self.touches_terrain(world, grid, body)? {
                body.position[1] += 1.0;
            } else {
                break;
            }
        }
        self.insert(body);
        Ok(())
    }

    /// True when `body` is within 0.1 voxel of a solid terrain triangle.
    fn touches_terrain(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        body: &Body,
    ) -> Result<bool> {
        let (lo, hi) = body.aabb();
        self.tris.clear();
        world.solid_triangles_in(
            grid,
            lo.map(|c| c - 0.1),
            hi.map(|c| c + 0.1),
            &mut self.tris,
        )?;
        for &t in &self.tris {
            self.contacts.clear();
            body_triangle(body, t, 0.1, &mut self.contacts);
            if !self.contacts.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The height of the first solid surface straight down from `top` at `(x, z)`, if any.
pub(crate) fn ground_at(
    world: &mut PhysicsWorld,
    grid: &Grid,
    x: f32,
    z: f32,
    top: f32,
) -> Result<Option<f32>> {
    let solid = RayFilter {
        solid: true,
        water: false,
    };
    Ok(world
        .raycast_with(grid, [x, top, z], [0.0, -1.0, 0.0], f32::INFINITY, solid)?
        .map(|h| h.point[1]))
}

/// The bodies of a drop at a point, placed clear of the terrain and of `existing` (the bodies already
/// in the simulation), ready for [`super::Simulation::add_all`].
///
/// # Errors
/// [`DropSpec::check`] against `bounds`; errors of the world's rays and shapes.
pub fn drop_bodies(
    world: &mut PhysicsWorld,
    grid: &Grid,
    bounds: &VoxelBox,
    spec: &DropSpec,
    existing: &[Body],
) -> Result<Vec<Body>> {
    spec.check(bounds)?;
    let mut rng = Rng(spec.seed ^ 0x0d70_95ec);
    let mut placer = Placer::default();
    existing
        .iter()
        .filter(|b| b.lost.is_none())
        .for_each(|b| placer.insert(b));
    let (_, hi) = corners(bounds);
    let material = BodyMaterial {
        density: spec.density,
        ..BodyMaterial::default()
    };
    let mut out = Vec::with_capacity(spec.count);
    for _ in 0..spec.count {
        let kind = spec.shape.kind(&mut rng);
        let shape = shape_of(kind, spec.size, [1.0; 3]);
        let r = shape.bounding_radius();
        // Uniform over the disc.
        let (a, d) = (
            rng.range(0.0, std::f32::consts::TAU),
            spec.spread * rng.range(0.0, 1.0).sqrt(),
        );
        let (x, z) = (spec.at[0] + d * a.cos(), spec.at[2] + d * a.sin());
        let ground = ground_at(world, grid, x, z, hi[1] + DROP_HEADROOM)?.unwrap_or(spec.at[1]);
        let y = spec.at[1].max(ground) + 2.0 + r;
        let mut body = Body::new(shape, material, [x, y, z]);
        body.orientation = rng.orientation();
        placer.settle(world, grid, &mut body)?;
        out.push(body);
    }
    Ok(out)
}

/// The bodies of a rain over an area, placed 2..12 voxels above the ground and clear of `existing`.
///
/// # Errors
/// [`RainSpec::check`] against `bounds`; errors of the world's rays and shapes.
pub fn rain_bodies(
    world: &mut PhysicsWorld,
    grid: &Grid,
    bounds: &VoxelBox,
    spec: &RainSpec,
    existing: &[Body],
) -> Result<Vec<Body>> {
    spec.check(bounds)?;
    let mut rng = Rng(spec.seed ^ 0x7a19_3c55);
    let mut placer = Placer::default();
    existing
        .iter()
        .filter(|b| b.lost.is_none())
        .for_each(|b| placer.insert(b));
    let (lo, hi) = corners(bounds);
    let (x0, x1) = (spec.min[0].max(lo[0]), spec.max[0].min(hi[0]));
    let (z0, z1) = (spec.min[1].max(lo[2]), spec.max[1].min(hi[2]));
    let mut out = Vec::with_capacity(spec.count);
    for _ in 0..spec.count {
        let kind = spec.shape.kind(&mut rng);
        let size = rng.range(spec.sizes[0], spec.sizes[1]);
        let aspect = [
            rng.range(0.5, 1.0),
            rng.range(0.6, 1.0),
            rng.range(0.6, 1.0),
        ];
        let shape = shape_of(kind, size, aspect);
        let material = BodyMaterial {
            density: rng.range(spec.densities[0], spec.densities[1]),
            ..BodyMaterial::default()
        };
        let (x, z) = (rng.range(x0, x1), rng.range(z0, z1));
        let ground = ground_at(world, grid, x, z, hi[1] + DROP_HEADROOM)?.unwrap_or(lo[1]);
        let y = ground + 2.0 + shape.bounding_radius() + rng.range(0.0, 10.0);
        let mut body = Body::new(shape, material, [x, y, z]);
        body.orientation = rng.orientation();
        placer.settle(world, grid, &mut body)?;
        out.push(body);
    }
    Ok(out)
}
