//! The simulation: its settings and limits, the bodies with their statistics, and a step (see the
//! module above for what a step does). Contact gathering, edits and the read-only views add their
//! methods from the sibling files.

use std::time::{Duration, Instant};

use super::super::math::integrate_rotation;
use super::super::pacer::{Advance, Pacer};
use super::super::shape::{check_material, check_shape, Body, Lost};
use super::super::sleep;
use super::super::solver::{self, Constraint, Mass};
use super::super::water::{submerged_fraction, WaterSettings};
use super::scratch::Scratch;
use crate::physics::broadphase::{MatterTable, Touch};
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::vec3::{add_scaled, length, scale};
use crate::voxel::MaterialTable;
use crate::{Error, Result};

/// Default fixed time step (seconds).
pub const DEFAULT_DT: f32 = 1.0 / 120.0;
/// Fraction of its size an awake body may travel in one substep.
pub const SUBSTEP_TRAVEL: f32 = 1.0 / 16.0;
/// Most substeps per step.
pub const MAX_SUBSTEPS: usize = 64;
/// Most bodies one simulation holds: a step of this many bodies stays within a few milliseconds on
/// one core (see docs/benchmarks.md), so an editor stepping on its UI thread never stalls.
pub const MAX_SIM_BODIES: usize = 2048;
/// Fastest linear (voxels/s) and angular (rad/s) speed a body may be added with.
pub const MAX_SPEED: f32 = 1000.0;
/// Largest [`SimSettings::max_bodies`].
pub const MAX_BODY_LIMIT: usize = 100_000;
/// How far (voxels) below [`SimSettings::floor_y`] a body may fall before it is lost.
pub const FALL_LIMIT: f32 = 64.0;
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
    /// The world's bottom (voxels): a body more than [`FALL_LIMIT`] below it has fallen off the world
    /// and is lost ([`Lost::FellOut`]). `None`: bodies may fall forever.
    pub floor_y: Option<f32>,
    /// Most bodies the simulation holds (default [`MAX_SIM_BODIES`], for interactive use; batch drops
    /// raise it).
    pub max_bodies: usize,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            gravity: [0.0, -9.81, 0.0],
            dt: DEFAULT_DT,
            water: WaterSettings::default(),
            sleeping: true,
            floor_y: None,
            max_bodies: MAX_SIM_BODIES,
        }
    }
}

impl SimSettings {
    /// Check settings that may come from a user.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the time step is not in `(0, 0.1]` s, gravity or water numbers are
    /// not finite, the water density or drags are negative, or `max_bodies` is above
    /// [`MAX_BODY_LIMIT`].
    pub fn check(&self) -> Result<()> {
        let dt = self.dt;
        if !(dt.is_finite() && dt > 0.0 && dt <= 0.1) {
            return Err(Error::Invalid(format!(
                "time step {dt} s must be positive and at most 0.1 s"
            )));
        }
        if self.gravity.iter().any(|g| !g.is_finite()) {
            return Err(Error::Invalid(format!(
                "gravity {:?} must be finite",
                self.gravity
            )));
        }
        let w = self.water;
        if [w.density, w.linear_drag, w.angular_drag]
            .iter()
            .any(|v| !(v.is_finite() && *v >= 0.0))
        {
            return Err(Error::Invalid(format!(
                "water density and drags must be finite and not negative: {w:?}"
            )));
        }
        if self.max_bodies > MAX_BODY_LIMIT {
            return Err(Error::Invalid(format!(
                "a simulation holds at most {MAX_BODY_LIMIT} bodies, not {}",
                self.max_bodies
            )));
        }
        if self.floor_y.is_some_and(|y| !y.is_finite()) {
            return Err(Error::Invalid("the fall floor must be finite".into()));
        }
        Ok(())
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
    /// Body–cell pairs with water in the last substep.
    pub water_contacts: u32,
    /// Body–cell pairs with solid contacts in the last substep.
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
    /// Bodies lost in this step.
    pub lost: usize,
}

/// Bodies and the state to step them (see the module docs).
#[derive(Debug)]
pub struct Simulation {
    pub(super) bodies: Vec<Body>,
    pub(super) stats: Vec<BodyStats>,
    /// Each body as it was added: what [`Simulation::reset`] restores.
    pub(super) starts: Vec<Body>,
    /// Each body before the current step (a body lost to a non-finite state is put back to this).
    pub(super) before_step: Vec<Body>,
    pub(super) settings: SimSettings,
    pub(super) matter: MatterTable,
    pub(super) scratch: Scratch,
    pub(super) constraints: Vec<Constraint>,
    pub(super) masses: Vec<Mass>,
    pub(super) touching: Vec<bool>,
    pub(super) touches: Vec<Touch>,
    pub(super) steps: u64,
    pub(super) pacer: Pacer,
}

impl Simulation {
    /// An empty simulation; `table` tells water from solid.
    ///
    /// # Panics
    /// When `settings` fail [`SimSettings::check`] (caller contract; check settings from users first).
    pub fn new(table: &MaterialTable, settings: SimSettings) -> Self {
        if let Err(e) = settings.check() {
            panic!("invalid simulation settings: {e}");
        }
        Self {
            bodies: Vec::new(),
            stats: Vec::new(),
            starts: Vec::new(),
            before_step: Vec::new(),
            settings,
            matter: MatterTable::new(table),
            scratch: Scratch::default(),
            constraints: Vec::new(),
            masses: Vec::new(),
            touching: Vec::new(),
            touches: Vec::new(),
            steps: 0,
            pacer: Pacer::new(),
        }
    }

    /// The bodies, in the order they were added (indices are stable until [`Simulation::clear`]).
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Per-body tracking, parallel to [`Simulation::bodies`].
    pub fn stats(&self) -> &[BodyStats] {
        &self.stats
    }

    /// Each body as it was added (its drop pose), parallel to [`Simulation::bodies`].
    pub fn starts(&self) -> &[Body] {
        &self.starts
    }

    /// The settings.
    pub fn settings(&self) -> &SimSettings {
        &self.settings
    }

    /// Fixed steps taken since the start or the last reset.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated seconds since the start or the last reset.
    pub fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.settings.dt)
    }

    /// Add a body, awake; returns its index. It may be added while the simulation runs.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the body's shape, material or state is out of range (see
    /// [`Body::checked`]) or the simulation already holds [`SimSettings::max_bodies`].
    pub fn add(&mut self, body: Body) -> Result<usize> {
        self.add_all(std::slice::from_ref(&body))
            .map(|range| range.start)
    }

    /// Add bodies, all or none; returns their index range.
    ///
    /// # Errors
    /// As [`Simulation::add`]; nothing is added then.
    pub fn add_all(&mut self, bodies: &[Body]) -> Result<std::ops::Range<usize>> {
        let start = self.bodies.len();
        let max = self.settings.max_bodies;
        if bodies.len() > max.saturating_sub(start) {
            return Err(Error::Invalid(format!(
                "{} more bodies would make {}; the simulation holds at most {max}",
                bodies.len(),
                start + bodies.len()
            )));
        }
        for (i, b) in bodies.iter().enumerate() {
            check_body(b).map_err(|e| Error::Invalid(format!("body {i}: {e}")))?;
        }
        for b in bodies {
            // Mass properties always follow the shape and density.
            let fresh = Body::new(b.shape, b.material, b.position);
            let mut b = *b;
            (b.inv_mass, b.inv_inertia) = (fresh.inv_mass, fresh.inv_inertia);
            b.asleep = false;
            b.rest_time = 0.0;
            b.lost = None;
            self.bodies.push(b);
            self.stats.push(BodyStats::default());
            self.starts.push(b);
        }
        Ok(start..self.bodies.len())
    }

    /// Put every body back where it was added, at rest and awake; time starts again from zero.
    pub fn reset(&mut self) {
        self.bodies.clone_from(&self.starts);
        self.stats.fill(BodyStats::default());
        self.steps = 0;
        self.pacer.reset();
    }

    /// Remove every body.
    pub fn clear(&mut self) {
        self.bodies.clear();
        self.stats.clear();
        self.starts.clear();
        self.steps = 0;
        self.pacer.reset();
    }

    /// The real-time pacing state ([`Simulation::advance`]): steps per second, time behind.
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }

    /// Play one frame in real time: run the fixed steps owed for `real_seconds` of wall time, but
    /// stop once they cost `budget` (see [`Pacer`]). When steps cost more than the budget the
    /// simulation runs slower than real time; the caller's frame does not get longer than the budget
    /// plus one step. After a pause call [`Pacer::reset`] through [`Simulation::pause`].
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn advance(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        real_seconds: f64,
        budget: Duration,
    ) -> Result<Advance> {
        let dt = f64::from(self.settings.dt);
        self.pacer.begin_frame(real_seconds, budget.as_secs_f64());
        let mut out = Advance::default();
        while self.pacer.wants_step(dt) {
            let t = Instant::now();
            self.step(world, grid)?;
            let cost = t.elapsed().as_secs_f64();
            self.pacer.stepped(dt, cost);
            out.steps += 1;
            out.cost_seconds += cost;
        }
        out.dropped_seconds = self.pacer.end_frame(dt);
        Ok(out)
    }

    /// Forget the time owed to real-time play (call on Pause, so Play does not catch up).
    pub fn pause(&mut self) {
        self.pacer.reset();
    }

    /// Advance every awake body by one fixed step.
    ///
    /// # Errors
    /// Errors of building narrowphase shapes (the step is then partly done; bodies stay finite).
    pub fn step(&mut self, world: &mut PhysicsWorld, grid: &Grid) -> Result<StepStats> {
        let dt = self.settings.dt;
        let g = length(self.settings.gravity);
        let mut substeps = 1usize;
        let mut awake = 0;
        for b in self.bodies.iter().filter(|b| !b.asleep) {
            awake += 1;
            let reach = (length(b.velocity) + g * dt) * dt
                + length(b.angular_velocity) * b.shape.bounding_radius() * dt;
            // A sixteenth of its size: an eighth let tumbling bodies that hit at 10 voxels/s sink
            // 6 % of their size in one substep (rotation moves a capsule's ends farther than the
            // contacts of the substep's start foresee).
            let n = (reach / (SUBSTEP_TRAVEL * b.shape.size())).ceil();
            substeps = substeps.max(n.clamp(1.0, MAX_SUBSTEPS as f32) as usize);
        }
        self.before_step.clone_from(&self.bodies);
        let h = dt / substeps as f32;
        for _ in 0..substeps {
            self.substep(world, grid, h)?;
        }
        if self.settings.sleeping {
            for b in &mut self.bodies {
                sleep::update(b, dt);
            }
        }
        let lost = self.retire_lost();
        self.steps += 1;
        Ok(StepStats {
            substeps,
            awake,
            constraints: self.constraints.len(),
            lost,
        })
    }

    /// Take out bodies that fell off the world or (release builds only: debug builds assert where it
    /// happens) whose state is no longer finite, so they cannot spread NaN to the bodies they touch.
    fn retire_lost(&mut self) -> usize {
        let floor = self.settings.floor_y.map(|y| y - FALL_LIMIT);
        let mut lost = 0;
        for (b, before) in self.bodies.iter_mut().zip(&self.before_step) {
            if b.lost.is_some() {
                continue;
            }
            let why = if !b.is_finite() {
                *b = *before;
                Some(Lost::NonFinite)
            } else if floor.is_some_and(|f| b.position[1] < f) {
                Some(Lost::FellOut)
            } else {
                None
            };
            if let Some(why) = why {
                b.lost = Some(why);
                b.asleep = true;
                b.velocity = [0.0; 3];
                b.angular_velocity = [0.0; 3];
                lost += 1;
            }
        }
        lost
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
        // Bodies first: a sleeper woken by a body gets its terrain contacts in this substep, and the
        // terrain's constraints come last in every solver pass, so the ground wins a conflict.
        self.body_contacts(h, g);
        self.terrain_contacts(world, grid, h)?;
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
        for (i, (b, &t)) in self.bodies.iter_mut().zip(touching.iter()).enumerate() {
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
            debug_assert!(
                b.is_finite(),
                "body {i} became non-finite integrating {b:?}"
            );
        }
        solver::solve_positions(&mut self.bodies, &self.masses, &self.constraints);
        Ok(())
    }

    /// Gravity, buoyancy and water drag on awake bodies.
    fn apply_forces(&mut self, world: &PhysicsWorld, grid: &Grid, h: f32) {
        let w = self.settings.water;
        for (i, (b, s)) in self.bodies.iter_mut().zip(&mut self.stats).enumerate() {
            if b.asleep {
                continue;
            }
            let (min, max) = b.aabb();
            let (f, cells) =
                submerged_fraction(world, grid, &self.matter, min, max, &mut self.touches);
            s.water_fraction = f;
            s.water_contacts = cells;
            // a = g · (1 − ρw·V·f / m)
            let lift = w.density * b.shape.volume() * f * b.inv_mass;
            b.velocity = add_scaled(b.velocity, self.settings.gravity, h * (1.0 - lift));
            if f > 0.0 {
                b.velocity = scale(b.velocity, 1.0 / (1.0 + w.linear_drag * f * h));
                b.angular_velocity =
                    scale(b.angular_velocity, 1.0 / (1.0 + w.angular_drag * f * h));
            }
            debug_assert!(
                b.is_finite(),
                "body {i} became non-finite from gravity and water (submerged fraction {f}): {b:?}"
            );
        }
    }
}

/// Check a body from a caller: its shape and material as for [`Body::checked`], and a finite state.
pub(super) fn check_body(b: &Body) -> Result<()> {
    check_shape(&b.shape)?;
    check_material(&b.material)?;
    if !b.is_finite() {
        return Err(Error::Invalid(format!("body state must be finite: {b:?}")));
    }
    let too_fast = |v: [f32; 3], limit: f32| length(v) > limit;
    if too_fast(b.velocity, MAX_SPEED) || too_fast(b.angular_velocity, MAX_SPEED) {
        return Err(Error::Invalid(format!(
            "body speeds must be at most {MAX_SPEED} voxels/s and rad/s: {:?}, {:?}",
            b.velocity, b.angular_velocity
        )));
    }
    let q = b.orientation;
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if (norm - 1.0).abs() > 1e-3 {
        return Err(Error::Invalid(format!(
            "body orientation {q:?} must be a unit quaternion"
        )));
    }
    Ok(())
}

/// Contact margin: the distance the body can cover in one substep, plus a little.
pub(super) fn margin(b: &Body, h: f32) -> f32 {
    let speed = length(b.velocity) + length(b.angular_velocity) * b.shape.bounding_radius();
    speed * h + 0.02 * b.shape.size().max(0.5)
}
