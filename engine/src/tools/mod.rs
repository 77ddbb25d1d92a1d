//! Terrain editing tools: brushes that add, remove, reshape and paint soft-occupancy terrain.
//!
//! The editor turns a mouse stroke into *dabs*: brush stamps at points on the terrain (raycast hits).
//! One dab reads the brush box, computes every voxel's new value from the old state, and writes back
//! only the tight box of voxels that changed, which [`apply_dab`] returns so the caller can remesh
//! ([`dirty_chunks`]) and update physics (`PhysicsWorld::on_edit`).
//!
//! Occupancy is edited softly: brushes change a voxel's occupancy by fractions (strength, falloff and
//! a one-voxel coverage ramp at the brush boundary), so surfaces move finer than a voxel, as with
//! Roblox's terrain tools. Every written voxel is normalized (Air ⇔ occupancy 0).
//!
//! ```
//! use strata_engine::history::History;
//! use strata_engine::storage::Grid;
//! use strata_engine::tools::{dirty_chunks, Brush, BrushShape, Stroke, Tool, ToolKind};
//! use strata_engine::voxel::MaterialTable;
//!
//! let table = MaterialTable::builtin();
//! let (mut grid, mut history) = (Grid::new(), History::default());
//! let tool = Tool::new(ToolKind::Add, table.require("Rock").unwrap());
//! let brush = Brush::new(BrushShape::Sphere, 8.0, 1.0);
//!
//! let mut stroke = Stroke::begin(&mut history, tool.kind.name());
//! for x in [0.0, 2.0, 4.0] {
//!     if let Some(changed) = stroke.dab(&mut history, &mut grid, &table, &tool, &brush, [x, 0.0, 0.0]) {
//!         let _remesh = dirty_chunks(changed); // and physics.on_edit(&grid, changed)
//!     }
//! }
//! stroke.end(&mut history);
//! grid.assert_valid();
//! history.undo(&mut grid).unwrap();
//! assert_eq!(grid.chunk_count(), 0);
//! ```
//!
//! Files: `brush` (shape, size, strength, plane lock, falloff), `tool` (tool list, options, Ctrl
//! inversion, shortcuts), `field` (the neighbourhood a dab reads, voxel settling), `sculpt`
//! (occupancy kernels), `paint` (material kernels), `sea_level`, `dab` (plan and apply), `stroke`
//! (one undo step per stroke), `stroke_path` (dab spacing and the stroke pin), `dirty` (chunks to
//! remesh), `pick` (Alt-click material).

mod brush;
mod dab;
mod dirty;
mod paint;
mod pick;
mod sculpt;
mod sculpt_field;
mod sea_level;
mod stroke;
mod stroke_path;
mod tool;

#[cfg(test)]
mod carve_tests;
#[cfg(test)]
mod tools_tests;
#[cfg(test)]
mod undo_tests;

pub use brush::{
    falloff, Brush, BrushShape, Plane, MAX_SIZE, MAX_STRENGTH, MIN_SIZE, MIN_STRENGTH, SIZE_STEPS,
};
pub use dab::{apply_dab, apply_sea_level};
pub use dirty::{dirty_chunks, dirty_chunks_at_lod, node_reads};
pub use pick::{pick_material, PICK_RADIUS};
pub use stroke::Stroke;
pub use stroke_path::{DabSpacer, StrokePin, RESTING_DABS_PER_SECOND, SPACING_OF_RADIUS};
pub use tool::{FlattenMode, SeaLevelMode, Tool, ToolKind};
