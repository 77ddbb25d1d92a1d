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
//!   sim        Simulation: substeps, contact gathering, the step loop
//!   drop       the drop test behind `strata drop`: N bodies over a world, simulated, summarized
//! ```
//!
//! Units are voxels, seconds and "mass per voxel³" (water is 1). Terrain contacts come from
//! [`PhysicsWorld::solid_triangles_in`](crate::physics::PhysicsWorld::solid_triangles_in); the
//! simulation never owns the world or the grid, so the editor can keep editing between steps (report
//! edits with [`Simulation::on_edit`]).
//!
//! # No tunnelling
//! Substeps keep every awake body's motion per substep under an eighth of its size, and contacts are
//! speculative: a triangle is reported while still up to one substep's travel away, and the solver lets
//! the body close that gap but not cross it.

pub mod contact;
pub mod drop;
pub mod math;
pub mod pair;
pub mod sat;
pub mod shape;
pub mod sim;
pub mod sleep;
pub mod solver;
pub mod terrain;
pub mod water;

pub use contact::Contact;
pub use drop::{run_drop, DropBody, DropReport, DropSettings, ShapeChoice};
pub use shape::{Body, BodyMaterial, Shape};
pub use sim::{BodyStats, SimSettings, Simulation, StepStats, DEFAULT_DT};
pub use water::WaterSettings;

#[cfg(test)]
mod tests;
