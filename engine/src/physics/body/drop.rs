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
//! reproducible bit for bit. A body that falls off the world (more than
//! [`FALL_LIMIT`](super::sim::FALL_LIMIT) below its bottom) is reported as lost, with the place it left
//! from.

use super::shape::{Body, BodyMaterial, Lost, Shape};
use super::sim::{SimSettings, Simulation};
use super::spawn::{ground_at, Placer, Rng, ShapeChoice};
use crate::physics::world::PhysicsWorld;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::vec3::{length, V3};
use crate::voxel::{MaterialTable, CHUNK_SIZE};
use crate::{Error, Result};

/// Most bodies one drop may hold. Lowered from 100 000: 20 000 bodies took 20 s per step
/// in a release build, and 100 000 never finished the first one; 2 000 bodies simulate one second in
/// about 6 s on the 2-core test machine (dev build), growing faster than linearly as bodies pile up.
pub const MAX_BODIES: usize = 5_000;
/// Longest drop, simulated seconds.
pub const MAX_SECONDS: f32 = 3600.0;
/// Speed (voxels/s) under which an awake body still counts as at rest in the report.
pub const REST_SPEED: f32 = 0.25;
/// Spacing of the `--at` lattice, voxels.
const LATTICE: f32 = 4.5;

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
    /// Taken out of the simulation (fell off the world, or a non-finite state in a release build);
    /// `final_position` is then where it was when it left.
    pub lost: Option<Lost>,
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

fn check(settings: &DropSettings) -> Result<()> {
    settings.sim.check()?;
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

/// A random body of the chosen kind (position set later): sizes 0.8..2, density 0.4..2.5.
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
    body.orientation = rng.orientation();
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

/// The bodies of a drop, placed and ready to simulate.
///
/// # Errors
/// Invalid settings (count, seconds, point), an empty world, or errors of the world raycast.
pub fn place_bodies(
    world: &mut PhysicsWorld,
    grid: &Grid,
    settings: &DropSettings,
) -> Result<Vec<Body>> {
    place_bodies_with(world, grid, settings, &Progress::new())
}

/// [`place_bodies`], advancing `progress` by one per body placed and stopping when it is cancelled.
///
/// # Errors
/// As [`place_bodies`], and [`Error::Cancelled`].
pub fn place_bodies_with(
    world: &mut PhysicsWorld,
    grid: &Grid,
    settings: &DropSettings,
    progress: &Progress,
) -> Result<Vec<Body>> {
    check(settings)?;
    let (lo, hi) = world_bounds(grid).ok_or_else(|| Error::Invalid("the world is empty".into()))?;
    let mut rng = Rng(settings.seed ^ 0x005e_ed0f_d40b);
    let mut bodies: Vec<Body> = Vec::with_capacity(settings.count);
    let columns = (settings.count as f32).sqrt().ceil().min(8.0) as usize;
    let mut placer = Placer::default();
    for i in 0..settings.count {
        if i % 64 == 0 {
            progress.check()?;
        }
        let mut body = random_body(&mut rng, settings.shape);
        let r = body.shape.bounding_radius();
        match settings.at {
            Some(p) => {
                let (layer, cell) = (i / (columns * columns), i % (columns * columns));
                let off = |k: usize| (k as f32 - (columns as f32 - 1.0) * 0.5) * LATTICE;
                body.position = [
                    p[0] + off(cell % columns) + rng.range(-0.3, 0.3),
                    p[1] + layer as f32 * LATTICE,
                    p[2] + off(cell / columns) + rng.range(-0.3, 0.3),
                ];
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
                let ground = ground_at(world, grid, x, z, hi[1] + 4.0)?.unwrap_or(lo[1]);
                body.position = [x, ground + 2.0 + r + rng.range(0.0, 10.0), z];
                // Climb until clear of the bodies placed before (bounding spheres) and of the
                // terrain (a cliff beside the ray's landing point).
                placer.settle(world, grid, &mut body)?;
            }
        }
        bodies.push(body);
        progress.advance(1);
    }
    Ok(bodies)
}

/// Drop the bodies and simulate `settings.seconds`, reporting progress per body placed and per step
/// (cancellable).
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
    check(settings)?;
    let dt = settings.sim.dt;
    let steps = (f64::from(settings.seconds) / f64::from(dt))
        .round()
        .max(1.0) as u64;
    progress.start(settings.count as u64 + steps);
    let bodies = place_bodies_with(world, grid, settings, progress)?;
    let floor = world_bounds(grid).map_or(0.0, |(lo, _)| lo[1]);
    let mut sim = Simulation::new(
        table,
        SimSettings {
            floor_y: settings.sim.floor_y.or(Some(floor)),
            max_bodies: MAX_BODIES,
            ..settings.sim
        },
    );
    sim.add_all(&bodies)?;
    let mut substeps = 0u64;
    for _ in 0..steps {
        progress.check()?;
        substeps += sim.step(world, grid)?.substeps as u64;
        progress.advance(1);
    }
    let report = sim
        .bodies()
        .iter()
        .zip(sim.stats())
        .zip(&bodies)
        .map(|((b, s), start)| DropBody {
            shape: b.shape,
            size: b.shape.size(),
            density: b.material.density,
            start: start.position,
            final_position: b.position,
            max_penetration: s.max_penetration,
            at_rest: b.lost.is_none() && (b.asleep || length(b.velocity) < REST_SPEED),
            in_water: b.lost.is_none() && s.water_fraction > 0.0,
            lost: b.lost,
        })
        .collect();
    Ok(DropReport {
        bodies: report,
        steps,
        substeps,
        seconds: sim.time(),
    })
}
