//! The simulation: a set of bodies stepped with a fixed time step against terrain and each other.
//!
//! ```text
//!   step():  n = substeps so no awake body moves more than a sixteenth of its size per substep
//!     each substep h = dt / n:
//!       forces     v += g·h, buoyancy and drag from water (water.rs)
//!       terrain    per awake body: triangles in its AABB grown by its margin, contacts per triangle,
//!                  grouped by physics cell, each group reduced to <= 4 points (one manifold per
//!                  body–cell pair)                                              (gather.rs)
//!       bodies     AABB sweep along X, narrow test per overlapping pair (pair.rs); sleeping bodies
//!                  are immovable unless an awake body runs into them           (gather.rs)
//!       solve      velocities (speculative contacts), integrate, positions (solver.rs)
//!     sleep:       bodies slow for SLEEP_TIME stop being simulated (sleep.rs)
//!     lost:        a body below the fall floor, or (release builds) with a non-finite state, leaves
//!   edits:   on_edit wakes bodies near the edit and lifts any whose centre it buried (edit.rs)
//!   views:   body states, counts and contact points for drawing (view.rs)
//! ```
//!
//! Everything runs on one thread in body order, so the same bodies on the same world give bit-identical
//! results. Bodies are only added through [`Simulation::add`] / [`Simulation::add_all`], which check
//! them and keep the body count under [`MAX_SIM_BODIES`]; each remembers the state it was added in, so
//! [`Simulation::reset`] puts every body back where it was dropped.

mod edit;
mod gather;
mod scratch;
mod simulation;
mod view;

pub use simulation::{
    BodyStats, SimSettings, Simulation, StepStats, DEFAULT_DT, FALL_LIMIT, MAX_BODY_LIMIT,
    MAX_SIM_BODIES, MAX_SPEED, MAX_SUBSTEPS, ROLLING_DAMPING, ROLLING_FRICTION, SUBSTEP_TRAVEL,
};
pub use view::{BodyState, ContactPoint, SimStatus};

#[cfg(test)]
mod sim_tests;
