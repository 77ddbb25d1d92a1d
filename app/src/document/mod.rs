//! The open document: the project (header, voxels, undo history), its one physics world, where it
//! lives on disk, and the background writes of large region edits. No egui types.

#[cfg(debug_assertions)]
mod edit_check;
mod lights_edit;
pub mod open_document;
pub mod region_job;
pub mod script_edit;

pub use open_document::{Document, EditConsumer};
