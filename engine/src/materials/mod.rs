//! The project's own materials: edits of its material table (add, rename, recolour, liquid or not,
//! shaping, emission, texture, reorder, duplicate, remove with the voxels remapped) and palettes that
//! travel between projects, each applied as one undo step of the project.
//!
//! ```text
//!   table_edit      MaterialTable + an edit ──> TableChange { table, remap }
//!   palette         .ron / .vox / named-colour list ──> a change of the table
//!   project_change  Project + TableChange ──> voxels remapped chunk by chunk + table swapped,
//!                                             one history step (boxes and the table's bytes)
//! ```
//!
//! The built-in table (`assets/materials.ron`) only seeds new projects; from then on every use
//! reads the project's table.

mod palette;
mod project_change;
mod table_edit;

pub use palette::{apply_palette, parse_palette, read_palette, Palette};
pub use project_change::{affected_chunks, apply_change, table_bytes, Applied};
pub use table_edit::{
    add, duplicate, identity, like, move_to, nearest_of_kind, remove, set, MaterialPatch, Remap,
    TableChange,
};
