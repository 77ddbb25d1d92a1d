//! The simulation: a set of bodies stepped with a fixed time step against terrain and each other.
//!
//! ```text
//!   step():  n = substeps so no awake body moves more than an eighth of its size per substep
//!     each substep h = dt / n:
//!       forces     v += g·h, buoyancy and drag from water (water.rs)
//!       terrain    per awake body: triangles in its AABB grown by its margin, contacts per triangle,
//!                  grouped by physics chunk, each group reduced to <= 4 points (one manifold per
//!                  body–chunk pair)
//!       bodies     AABB sweep along X, narrow test per overlapping pair (pair.rs); sleeping bodies
//!                  are immovable unless an awake body runs into them
//!       solve      velocities (speculative contacts), integrate, positions (solver.rs)
//!     sleep:       bodies slow for SLEEP_TIME stop being simulated (sleep.rs)
//! ```
//!
//! Everything runs on one thread in body order, so the same bodies on the same world give bit-identical
//! results.

use super::contact::{reduce_manifold, Contact};
use super::math::integrate_rotation;
use super::pair::body_pair;
use super::shape::Body;
use super::sleep;
use super::solver::{self, Constraint, Mass};
use super::terrain::body_triangle;
use super::water::{submerged_fraction, WaterSettings};
use crate::physics::broadphase::{MatterTable, Touch, PHYSICS_CHUNK};
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::vec3::{add_scaled, length, scale};
use crate::voxel::{MaterialTable, VoxelBox};
use crate::{Error, Result};

/// Default fixed time step (seconds).
pub const DEFAULT_DT: f32 = 1.0 / 120.0;
/// Most substeps per step.
pub const MAX_SUBSTEPS: usize = 64;
/// Angular velocity damping (1/s) while a body touches something.
pub const ROLLING_DAMPING: f32 = 1.0;
/// Rolling resistance coefficient: while touching, |ω| drops by this · g / radius per second, so a
/// ball comes to rest on gentle slopes instead of rolling forever.
pub const ROLLING_FRICTION: f32 = 0.08;

/// Simulation settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimSettings {
    /// Gravity, voxels per second².
    pub gravity: [f32; 3],
    /// Fixed time step, seconds.
    pub dt: f32,
    /// Water buoyancy and drag.
    pub water: WaterSettings,
    /// Let resting bodies sleep.
    pub sleeping: bool,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            gravity: [0.0, -9.81, 0.0],
            dt: DEFAULT_DT,
            water: WaterSettings::default(),
            sleeping: true,
        }
    }
}

/// What the simulation tracked for one body.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyStats {
    /// Deepest terrain penetration seen at any substep (voxels).
    pub max_penetration: f32,
    /// Deepest terrain penetration in the last substep (voxels).
    pub penetration: f32,
    /// Submerged fraction in the last substep.
    pub water_fraction: f32,
    /// Body–chunk pairs with water in the last substep.
    pub water_contacts: u32,
    /// Body–chunk pairs with solid contacts in the last substep.
    pub solid_contacts: u32,
}

/// Work done by one step.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepStats {
    /// Substeps taken.
    pub substeps: usize,
    /// Bodies simulated (awake).
    pub awake: usize,
    /// Contact constraints solved in the last substep.
    pub constraints: usize,
}

/// Bodies and the state to step them (see the module docs).
#[derive(Debug)]
pub struct Simulation {
    /// The bodies; indices are stable.
    pub bodies: Vec<Body>,
    /// Per-body tracking, parallel to `bodies`.
    pub stats: Vec<BodyStats>,
    /// Settings.
    pub settings: SimSettings,
    matter: MatterTable,
    tris: Vec<[[f32; 3]; 3]>,
    contacts: Vec<Contact>,
    keyed: Vec<([i32; 3], Contact)>,
    touches: Vec<Touch>,
    constraints: Vec<Constraint>,
    masses: Vec<Mass>,
    touching: Vec<bool>,
    /// Simulated seconds.
    pub time: f64,
}

impl Simulation {
    /// An empty simulation; `table` tells water from solid.
    pub fn new(table: &MaterialTable, settings: SimSettings) -> Self {
        Self {
            bodies: Vec::new(),
            stats: Vec::new(),
            settings,
            matter: MatterTable::new(table),
            tris: Vec::new(),
            contacts: Vec::new(),
            keyed: Vec::new(),
            touches: Vec::new(),
            constraints: Vec::new(),
            masses: Vec::new(),
            touching: Vec::new(),
            time: 0.0,
        }
    }

    /// Add a body; returns its index.
    pub fn add(&mut self, body: Body) -> usize {
        self.bodies.push(body);
        self.stats.push(BodyStats::default());
        self.bodies.len() - 1
    }

    /// Report an edit of the voxels in `changed`: updates `world` and wakes the bodies near it.
    pub fn on_edit(&mut self, world: &mut PhysicsWorld, grid: &Grid, changed: VoxelBox) {
        world.on_edit(grid, changed);
        let (lo, hi) = (changed.min, changed.max);
        let (lo, hi) = ([lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z]);
        for b in &mut self.bodies {
            let (min, max) = b.aabb();
            let near = (0..3).all(|i| max[i] + 1.0 >= lo[i] as f32 && min[i] - 1.0 <= hi[i] as f32);
            if near {
                sleep::wake(b);
            }
        }
    }

    /// Advance every awake body by one fixed step.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the settings' time step is not positive and finite; errors of building
    /// chunk shapes.
    pub fn step(&mut self, world: &mut PhysicsWorld, grid: &Grid) -> Result<StepStats> {
        let dt = self.settings.dt;
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::Invalid(format!("time step {dt} must be positive")));
        }
        let g = length(self.settings.gravity);
        let mut substeps = 1usize;
        let mut awake = 0;
        for b in self.bodies.iter().filter(|b| !b.asleep) {
            awake += 1;
            let reach = (length(b.velocity) + g * dt) * dt
                + length(b.angular_velocity) * b.shape.bounding_radius() * dt;
            let n = (reach / (0.125 * b.shape.size())).ceil();
            substeps = substeps.max(n.clamp(1.0, MAX_SUBSTEPS as f32) as usize);
        }
        let h = dt / substeps as f32;
        for _ in 0..substeps {
            self.substep(world, grid, h)?;
        }
        if self.settings.sleeping {
            for b in &mut self.bodies {
                sleep::update(b, dt);
            }
        }
        self.time += f64::from(dt);
        Ok(StepStats {
            substeps,
            awake,
            constraints: self.constraints.len(),
        })
    }

    fn substep(&mut self, world: &mut PhysicsWorld, grid: &Grid, h: f32) -> Result<()> {
        let g = length(self.settings.gravity);
        self.apply_forces(world, grid, h);
        self.masses.clear();
        self.masses.extend(self.bodies.iter().map(|b| Mass {
            inv_mass: if b.asleep { 0.0 } else { b.inv_mass },
            inv_inertia_scale: if b.asleep { 0.0 } else { 1.0 },
        }));
        self.constraints.clear();
        self.terrain_contacts(world, grid, h)?;
        self.body_contacts(h, g);
        solver::solve_velocities(&mut self.bodies, &self.masses, &mut self.constraints, h);
        let touching = &mut self.touching;
        touching.clear();
        touching.resize(self.bodies.len(), false);
        for c in &self.constraints {
            touching[c.a] = true;
            if let Some(b) = c.b {
                touching[b] = true;
            }
        }
        for (b, &t) in self.bodies.iter_mut().zip(touching.iter()) {
            if b.asleep {
                continue;
            }
            if t {
                let w = length(b.angular_velocity);
                let drop = ROLLING_FRICTION * g * h / b.shape.bounding_radius();
                let keep = if w > drop { (w - drop) / w } else { 0.0 };
                b.angular_velocity = scale(b.angular_velocity, keep / (1.0 + ROLLING_DAMPING * h));
            }
            b.position = add_scaled(b.position, b.velocity, h);
            b.orientation = integrate_rotation(b.orientation, b.angular_velocity, h);
        }
        solver::solve_positions(&mut self.bodies, &self.masses, &self.constraints);
        Ok(())
    }

    /// Gravity, buoyancy and water drag on awake bodies.
    fn apply_forces(&mut self, world: &PhysicsWorld, grid: &Grid, h: f32) {
        let w = self.settings.water;
        for (b, s) in self.bodies.iter_mut().zip(&mut self.stats) {
            if b.asleep {
                continue;
            }
            let (min, max) = b.aabb();
            let (f, chunks) =
                submerged_fraction(world, grid, &self.matter, min, max, &mut self.touches);
            s.water_fraction = f;
            s.water_contacts = chunks;
            // a = g · (1 − ρw·V·f / m)
            let lift = w.density * b.shape.volume() * f * b.inv_mass;
            b.velocity = add_scaled(b.velocity, self.settings.gravity, h * (1.0 - lift));
            if f > 0.0 {
                b.velocity = scale(b.velocity, 1.0 / (1.0 + w.linear_drag * f * h));
                b.angular_velocity =
                    scale(b.angular_velocity, 1.0 / (1.0 + w.angular_drag * f * h));
            }
        }
    }

    /// Contacts of every awake body with the terrain, one manifold per body–chunk pair.
    fn terrain_contacts(&mut self, world: &mut PhysicsWorld, grid: &Grid, h: f32) -> Result<()> {
        for i in 0..self.bodies.len() {
            let b = self.bodies[i];
            if b.asleep {
                continue;
            }
            let margin = margin(&b, h);
            let (min, max) = b.aabb();
            let (min, max) = (min.map(|c| c - margin), max.map(|c| c + margin));
            self.tris.clear();
            world.solid_triangles_in(grid, min, max, &mut self.tris)?;
            self.keyed.clear();
            for &t in &self.tris {
                self.contacts.clear();
                body_triangle(&b, t, margin, &mut self.contacts);
                let centroid: [f32; 3] =
                    std::array::from_fn(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
                let key = centroid.map(|c| (c / PHYSICS_CHUNK as f32).floor() as i32);
                self.keyed.extend(self.contacts.iter().map(|&c| (key, c)));
            }
            self.keyed.sort_by_key(|(k, _)| (k[2], k[1], k[0]));
            let stats = &mut self.stats[i];
            stats.penetration = self
                .keyed
                .iter()
                .map(|(_, c)| -c.separation)
                .fold(0.0, f32::max);
            stats.max_penetration = stats.max_penetration.max(stats.penetration);
            stats.solid_contacts = 0;
            let mut start = 0;
            while start < self.keyed.len() {
                let key = self.keyed[start].0;
                let end = self.keyed[start..]
                    .iter()
                    .position(|(k, _)| *k != key)
                    .map_or(self.keyed.len(), |p| start + p);
                self.contacts.clear();
                self.contacts
                    .extend(self.keyed[start..end].iter().map(|(_, c)| *c));
                reduce_manifold(&mut self.contacts);
                stats.solid_contacts += 1;
                for c in &self.contacts {
                    let k = solver::prepare(&self.bodies, &self.masses, i, None, c);
                    self.constraints.push(k);
                }
                start = end;
            }
        }
        Ok(())
    }

    /// Contacts between bodies whose grown AABBs overlap (sweep along X), at least one awake.
    fn body_contacts(&mut self, h: f32, g: f32) {
        let n = self.bodies.len();
        if n < 2 {
            return;
        }
        let boxes: Vec<([f32; 3], [f32; 3])> = self
            .bodies
            .iter()
            .map(|b| {
                let m = margin(b, h);
                let (lo, hi) = b.aabb();
                (lo.map(|c| c - m), hi.map(|c| c + m))
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| boxes[a].0[0].total_cmp(&boxes[b].0[0]).then(a.cmp(&b)));
        let mut pairs = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                if boxes[j].0[0] > boxes[i].1[0] {
                    break;
                }
                let overlap = (1..3)
                    .all(|a| boxes[i].0[a] <= boxes[j].1[a] && boxes[j].0[a] <= boxes[i].1[a]);
                if overlap && !(self.bodies[i].asleep && self.bodies[j].asleep) {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        }
        pairs.sort_unstable();
        for (i, j) in pairs {
            let m = margin(&self.bodies[i], h).max(margin(&self.bodies[j], h));
            self.contacts.clear();
            body_pair(&self.bodies[i], &self.bodies[j], m, &mut self.contacts);
            if self.contacts.is_empty() {
                continue;
            }
            // An awake body running into a sleeping one wakes it.
            for (x, y) in [(i, j), (j, i)] {
                if self.bodies[x].asleep && sleep::disturbs(&self.bodies[y], g * h) {
                    sleep::wake(&mut self.bodies[x]);
                    self.masses[x] = Mass {
                        inv_mass: self.bodies[x].inv_mass,
                        inv_inertia_scale: 1.0,
                    };
                }
            }
            reduce_manifold(&mut self.contacts);
            for c in &self.contacts {
                let k = solver::prepare(&self.bodies, &self.masses, i, Some(j), c);
                self.constraints.push(k);
            }
        }
    }
}

/// Contact margin: the distance the body can cover in one substep, plus a little.
fn margin(b: &Body, h: f32) -> f32 {
    let speed = length(b.velocity) + length(b.angular_velocity) * b.shape.bounding_radius();
    speed * h + 0.02 * b.shape.size().max(0.5)
}
