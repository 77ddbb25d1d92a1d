//! Physics: the Physics panel (the Drop tool, Rain, a scratch simulation drawn over the terrain) and
//! Cleanup of floating terrain. The simulation reads the document's one physics world.

pub mod cleanup;
pub mod physics_draw;
pub mod physics_panel;
pub mod playground;

pub use cleanup::Cleanup;
pub use physics_panel::{PhysicsPanel, NAME};
pub use playground::{Playground, STEP_BUDGET};
