//! What an editor draws and counts: each body's state, the totals for a status bar, and contact points
//! with their normals.

use super::super::contact::Contact;
use super::super::shape::Lost;
use super::simulation::Simulation;
use crate::vec3::V3;

/// How a body is doing, for colouring it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyState {
    /// Awake and out of the water.
    Moving,
    /// Awake and touching water.
    InWater,
    /// At rest, not simulated until something wakes it.
    Asleep,
    /// Out of the simulation (see [`Lost`]).
    Lost(Lost),
}

/// Totals for a status bar.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SimStatus {
    /// Bodies in the simulation.
    pub bodies: usize,
    /// Bodies asleep (lost ones not counted).
    pub asleep: usize,
    /// Bodies touching water in their last simulated substep (lost ones not counted).
    pub in_water: usize,
    /// Bodies out of the simulation.
    pub lost: usize,
    /// Simulated seconds.
    pub time: f64,
}

/// One contact for drawing: a point on the surface of B (terrain or another body) and the normal
/// pushing body A away from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// Body A.
    pub body: usize,
    /// Body B, or `None` for the terrain.
    pub other: Option<usize>,
    /// The point on B, world voxel units.
    pub point: V3,
    /// Unit normal from B towards A.
    pub normal: V3,
    /// Gap along the normal (negative: penetration), voxels.
    pub separation: f32,
}

impl ContactPoint {
    pub(super) fn new(body: usize, other: Option<usize>, c: &Contact) -> Self {
        Self {
            body,
            other,
            point: c.point_b,
            normal: c.normal,
            separation: c.separation,
        }
    }
}

impl Simulation {
    /// The state of body `i`.
    ///
    /// # Panics
    /// When `i` is not a body index (caller contract).
    pub fn state(&self, i: usize) -> BodyState {
        let b = &self.bodies[i];
        match b.lost {
            Some(why) => BodyState::Lost(why),
            None if b.asleep => BodyState::Asleep,
            None if self.stats[i].water_fraction > 0.0 => BodyState::InWater,
            None => BodyState::Moving,
        }
    }

    /// Counts of bodies by state, and the simulated time.
    pub fn status(&self) -> SimStatus {
        let mut s = SimStatus {
            bodies: self.bodies.len(),
            time: self.time(),
            ..SimStatus::default()
        };
        for (b, st) in self.bodies.iter().zip(&self.stats) {
            if b.lost.is_some() {
                s.lost += 1;
                continue;
            }
            s.asleep += usize::from(b.asleep);
            s.in_water += usize::from(st.water_fraction > 0.0);
        }
        s
    }
}
