//! Rigid bodies on voxel terrain: spheres, oriented boxes and capsules with gravity, water, sleeping
//! and contacts against the terrain's triangles and each other, stepped with a fixed time step.
//!
//! ```text
//!   shape      Shape (sphere | box | capsule), Body (pose, velocities, mass), BodyMaterial
//!   math       vectors, quaternions, closest points
//!   contact    Contact (normal pushes A, gap), manifold reduction to 4 points
//!   terrain    body–triangle: sphere and capsule exact, box by SAT (sat.rs)
//!   pair       body–body: every pair of the three shapes
//!   water      submerged fraction from water voxels -> buoyancy and drag
//!   solver     sequential impulses (speculative contacts, friction, restitution), position pass
//!   sleep      slow bodies sleep; contacts and edits wake them
//!   sim/       Simulation: substeps, contact gathering, edits, the step loop, views for drawing
//!   pacer      real-time play: fixed steps per frame under a compute budget
//!   spawn      checked drops at a point and rains over an area, placed clear of terrain and bodies
//!   drop       the drop test behind `strata drop`: N bodies over a world, simulated, summarized
//! ```
//!
//! Units are voxels, seconds and "mass per voxel³" (water is 1). Terrain contacts come from
//! [`PhysicsWorld::solid_triangles_in`](crate::physics::PhysicsWorld::solid_triangles_in); the
//! simulation never owns the world or the grid, so the editor can keep editing between steps (report
//! edits with [`Simulation::on_edit`]).
//!
//! # No tunnelling
//! Substeps keep every awake body's motion per substep under a sixteenth of its size, and contacts are
//! speculative: a triangle is reported while still up to one substep's travel away, and the solver lets
//! the body close that gap but not cross it.

pub mod contact;
pub mod drop;
pub mod math;
pub mod pacer;
pub mod pair;
pub mod sat;
pub mod shape;
pub mod sim;
pub mod sleep;
pub mod solver;
pub mod spawn;
pub mod terrain;
pub mod water;

pub use contact::Contact;
pub use drop::{run_drop, DropBody, DropReport, DropSettings};
pub use pacer::{Advance, Pacer};
pub use shape::{Body, BodyMaterial, Lost, Shape};
pub use sim::{
    BodyState, BodyStats, ContactPoint, SimSettings, SimStatus, Simulation, StepStats, DEFAULT_DT,
    MAX_SIM_BODIES,
};
pub use spawn::{drop_bodies, rain_bodies, DropSpec, RainSpec, ShapeChoice, MAX_DROP_COUNT};
pub use water::WaterSettings;

#[cfg(test)]
mod body_tests;
#[cfg(test)]
mod finite_tests;
