//! The drop test: scatter N bodies over a world (or around a point), simulate, and summarize where
//! they ended, how deep they ever sank into the terrain, and whether they rest or float.
//!
//! ```text
//!   whole world:  x, z uniform over the stored chunks' footprint less a quarter at each edge; y = ground (solid ray down) + 2..12
//!                 + half the body, raised until it clears the terrain and the bodies placed before it
//!   --at point:   a lattice of columns around the point, 4.5 voxels apart, rising layer by layer
//!   shapes:       sizes 0.8..2 voxels, random orientation, density 0.4..2.5 (about a third float)
//! ```
//!
//! Placement and simulation only use a splitmix64 stream seeded with `seed`, so a drop is
//! reproducible bit for bit.

use super::math::quat_from_axis_angle;
use super::shape::{Body, BodyMaterial, Shape};
use super::sim::{SimSettings, Simulation};
use crate::physics::world::{PhysicsWorld, RayFilter};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::vec3::{length, normalize, sub, V3};
use crate::voxel::{MaterialTable, CHUNK_SIZE};
use crate::{Error, Result};

/// Most bodies one drop may hold.
pub const MAX_BODIES: usize = 100_000;
/// Longest drop, simulated seconds.
pub const MAX_SECONDS: f32 = 3600.0;
/// Speed (voxels/s) under which an awake body still counts as at rest in the report.
pub const REST_SPEED: f32 = 0.25;
/// Spacing of the `--at` lattice, voxels.
const LATTICE: f32 = 4.5;

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
}

/// What to drop and for how long.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DropSettings {
    /// Number of bodies (1..=[`MAX_BODIES`]).
    pub count: usize,
    /// Shapes.
    pub shape: ShapeChoice,
    /// Seed of placement, sizes and orientations.
    pub seed: u64,
    /// Simulated seconds.
    pub seconds: f32,
    /// Drop around this point instead of over the whole world.
    pub at: Option<V3>,
    /// Simulation settings.
    pub sim: SimSettings,
}

impl Default for DropSettings {
    fn default() -> Self {
        Self {
            count: 32,
            shape: ShapeChoice::Mixed,
            seed: 1,
            seconds: 10.0,
            at: None,
            sim: SimSettings::default(),
        }
    }
}

/// One body's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DropBody {
    /// The shape.
    pub shape: Shape,
    /// Smallest full extent, voxels ([`Shape::size`]).
    pub size: f32,
    /// Density (water is 1).
    pub density: f32,
    /// Start position.
    pub start: V3,
    /// Final position.
    pub final_position: V3,
    /// Deepest terrain penetration seen, voxels.
    pub max_penetration: f32,
    /// Asleep or slower than [`REST_SPEED`] at the end.
    pub at_rest: bool,
    /// Overlapping water at the end.
    pub in_water: bool,
}

/// The outcome of a drop.
#[derive(Debug, Clone, PartialEq)]
pub struct DropReport {
    /// Per body, in drop order.
    pub bodies: Vec<DropBody>,
    /// Fixed steps taken.
    pub steps: u64,
    /// Substeps taken in all.
    pub substeps: u64,
    /// Simulated seconds.
    pub seconds: f64,
}

/// splitmix64: tiny, seedable, identical on every platform.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..hi`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
}

fn check(settings: &DropSettings) -> Result<()> {
    if settings.count == 0 || settings.count > MAX_BODIES {
        return Err(Error::Invalid(format!(
            "body count {} must be between 1 and {MAX_BODIES}",
            settings.count
        )));
    }
    let t = settings.seconds;
    if !(t.is_finite() && t > 0.0 && t <= MAX_SECONDS) {
        return Err(Error::Invalid(format!(
            "duration {t} s must be positive and at most {MAX_SECONDS} s"
        )));
    }
    if settings
        .at
        .is_some_and(|p| p.iter().any(|c| !c.is_finite()))
    {
        return Err(Error::Invalid("the drop point must be finite".into()));
    }
    Ok(())
}

/// A random body of the chosen kind (position set later).
fn random_body(rng: &mut Rng, choice: ShapeChoice) -> Body {
    let kind = match choice {
        ShapeChoice::Sphere => 0,
        ShapeChoice::Box => 1,
        ShapeChoice::Capsule => 2,
        ShapeChoice::Mixed => rng.next() % 3,
    };
    let s = rng.range(0.8, 2.0);
    let shape = match kind {
        0 => Shape::Sphere { radius: 0.5 * s },
        1 => Shape::Box {
            half: [
                0.5 * s,
                0.5 * s * rng.range(0.6, 1.0),
                0.5 * s * rng.range(0.6, 1.0),
            ],
        },
        _ => Shape::Capsule {
            radius: 0.5 * s,
            half_height: 0.5 * s * rng.range(0.5, 1.0),
        },
    };
    let material = BodyMaterial {
        density: rng.range(0.4, 2.5),
        ..BodyMaterial::default()
    };
    let mut body = Body::new(shape, material, [0.0; 3]);
    let axis = normalize([
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    ])
    .unwrap_or([0.0, 1.0, 0.0]);
    body.orientation = quat_from_axis_angle(axis, rng.range(0.0, std::f32::consts::TAU));
    body
}

/// The voxel footprint of the stored chunks: `(min, max)` corners, or `None` for an empty grid.
fn world_bounds(grid: &Grid) -> Option<(V3, V3)> {
    let s = CHUNK_SIZE as f32;
    grid.chunks().fold(None, |acc, (p, _)| {
        let lo = [p.x as f32 * s, p.y as f32 * s, p.z as f32 * s];
        let hi = lo.map(|c| c + s);
        Some(match acc {
            None => (lo, hi),
            Some((a, b)) => (
                std::array::from_fn(|i| a[i].min(lo[i])),
                std::array::from_fn(|i| b[i].max(hi[i])),
            ),
        })
    })
}

/// True when `body` is within 0.1 voxel of a solid terrain triangle.
fn touches_terrain(
    world: &mut PhysicsWorld,
    grid: &Grid,
    body: &Body,
    tris: &mut Vec<[V3; 3]>,
    contacts: &mut Vec<super::contact::Contact>,
) -> Result<bool> {
    let (lo, hi) = body.aabb();
    tris.clear();
    world.solid_triangles_in(grid, lo.map(|c| c - 0.1), hi.map(|c| c + 0.1), tris)?;
    contacts.clear();
    for &t in tris.iter() {
        super::terrain::body_triangle(body, t, 0.1, contacts);
        if !contacts.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The bodies of a drop, placed and ready to simulate.
///
/// # Errors
/// Invalid settings (count, seconds, point), an empty world, or errors of the world raycast.
pub fn place_bodies(
    world: &mut PhysicsWorld,
    grid: &Grid,
    settings: &DropSettings,
) -> Result<Vec<Body>> {
    check(settings)?;
    let (lo, hi) = world_bounds(grid).ok_or_else(|| Error::Invalid("the world is empty".into()))?;
    let mut rng = Rng(settings.seed ^ 0x005e_ed0f_d40b);
    let mut bodies: Vec<Body> = Vec::with_capacity(settings.count);
    let columns = (settings.count as f32).sqrt().ceil().min(8.0) as usize;
    let solid = RayFilter {
        solid: true,
        water: false,
    };
    let (mut tris, mut contacts) = (Vec::new(), Vec::new());
    for i in 0..settings.count {
        let mut body = random_body(&mut rng, settings.shape);
        let r = body.shape.bounding_radius();
        body.position = match settings.at {
            Some(p) => {
                let (layer, cell) = (i / (columns * columns), i % (columns * columns));
                let off = |k: usize| (k as f32 - (columns as f32 - 1.0) * 0.5) * LATTICE;
                [
                    p[0] + off(cell % columns) + rng.range(-0.3, 0.3),
                    p[1] + layer as f32 * LATTICE,
                    p[2] + off(cell / columns) + rng.range(-0.3, 0.3),
                ]
            }
            None => {
                // Keep clear of the world's edges so bodies do not roll off.
                let inset = |a: usize| {
                    (r + 1.0)
                        .max(0.25 * (hi[a] - lo[a]))
                        .min(0.5 * (hi[a] - lo[a]))
                };
                let x = rng.range(lo[0] + inset(0), hi[0] - inset(0));
                let z = rng.range(lo[2] + inset(2), hi[2] - inset(2));
                let top = hi[1] + 4.0;
                let ground = world
                    .raycast_with(grid, [x, top, z], [0.0, -1.0, 0.0], f32::INFINITY, solid)?
                    .map_or(lo[1], |h| h.point[1]);
                body.position = [x, ground + 2.0 + r + rng.range(0.0, 10.0), z];
                // Climb until clear of the bodies placed before (bounding spheres) and of the
                // terrain (a cliff beside the ray's landing point).
                for _ in 0..256 {
                    let p = body.position;
                    if let Some(o) = bodies
                        .iter()
                        .find(|o| length(sub(o.position, p)) < o.shape.bounding_radius() + r + 0.2)
                    {
                        body.position[1] = o.position[1] + o.shape.bounding_radius() + r + 0.25;
                    } else if touches_terrain(world, grid, &body, &mut tris, &mut contacts)? {
                        body.position[1] += 1.0;
                    } else {
                        break;
                    }
                }
                body.position
            }
        };
        bodies.push(body);
    }
    Ok(bodies)
}

/// Drop the bodies and simulate `settings.seconds`, reporting progress per step (cancellable).
///
/// # Errors
/// As [`place_bodies`]; [`Error::Cancelled`] through `progress`; errors of the simulation step.
pub fn run_drop(
    world: &mut PhysicsWorld,
    grid: &Grid,
    table: &MaterialTable,
    settings: &DropSettings,
    progress: &Progress,
) -> Result<DropReport> {
    let bodies = place_bodies(world, grid, settings)?;
    let mut sim = Simulation::new(table, settings.sim);
    for b in &bodies {
        sim.add(*b);
    }
    let dt = settings.sim.dt;
    let steps = (f64::from(settings.seconds) / f64::from(dt))
        .round()
        .max(1.0) as u64;
    progress.start(steps);
    let mut substeps = 0u64;
    for _ in 0..steps {
        progress.check()?;
        substeps += sim.step(world, grid)?.substeps as u64;
        progress.advance(1);
    }
    let report = sim
        .bodies
        .iter()
        .zip(&sim.stats)
        .zip(&bodies)
        .map(|((b, s), start)| DropBody {
            shape: b.shape,
            size: b.shape.size(),
            density: b.material.density,
            start: start.position,
            final_position: b.position,
            max_penetration: s.max_penetration,
            at_rest: b.asleep || length(b.velocity) < REST_SPEED,
            in_water: s.water_fraction > 0.0,
        })
        .collect();
    Ok(DropReport {
        bodies: report,
        steps,
        substeps,
        seconds: sim.time,
    })
}
