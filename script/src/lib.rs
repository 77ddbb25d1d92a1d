//! Terrain scripts for Strata: sandboxed Luau ([mlua]) with Roblox's terrain API
//! (`workspace.Terrain`, `Vector3`, `CFrame`, `Region3`, `Enum.Material`, ...) and Strata's own
//! `strata` module, run on a copy of a project's voxels.
//!
//! The crate knows nothing of the editor: it edits a [`ScriptWorld`] (a grid, the material table,
//! the bounds) and reports what changed. The app installs a successful run through its one edit
//! path as one undo step; a failed or cancelled run is dropped, so the project stays exactly as
//! it was.
//!
//! ```no_run
//! use strata_script::{run, RunOptions, Script, ScriptWorld};
//! # fn demo(grid: strata_engine::storage::Grid, table: strata_engine::voxel::MaterialTable,
//! #         bounds: strata_engine::voxel::VoxelBox) {
//! let script = Script { name: "ball.luau".into(), source:
//!     "workspace.Terrain:FillBall(Vector3.new(32, 32, 32), 12, Enum.Material.Rock)".into() };
//! let world = ScriptWorld::new(grid, table, bounds, strata_script::limits::DEFAULT_MAX_VOXELS_WRITTEN);
//! let outcome = run(&script, world, RunOptions::default());
//! assert!(outcome.error.is_none());
//! let changed = outcome.world.changed_boxes();
//! # }
//! ```

pub mod error;
pub mod limits;
pub mod require;
pub mod roblox;
pub mod run;
pub mod sandbox;
pub mod state;
pub mod strata_api;
pub mod world;

pub use error::{Error, Result};
pub use limits::Limits;
pub use run::{run, RunOptions, RunOutcome, Script};
pub use world::{occupancy_voxel, ScriptWorld};
