//! Physics: the Physics panel (the Drop tool, Rain, a scratch simulation drawn over the terrain) and
//! Cleanup of floating terrain and of invisible matter. The simulation reads the document's one physics world.

pub mod cleanup;
pub mod job_row;
pub mod physics_draw;
pub mod physics_panel;
pub mod playground;
pub mod stray_cleanup;

pub use cleanup::Cleanup;
pub use physics_panel::{PhysicsPanel, NAME};
pub use playground::{frame_budget, Playground, CPU_SHARE, STEP_BUDGET};
