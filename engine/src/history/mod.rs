//! Undo/redo history of RLE+LZ4-packed boxes under a memory budget.
//!
//! Before an operation changes voxels, [`History::record`] captures the box it will touch and packs
//! it (RLE, then LZ4). Undo restores boxes newest first, capturing the current contents of each box
//! first so redo can put them back. Several boxes (a brush stroke) form one step through
//! [`History::begin_group`] / [`History::end_group`]. When the packed bytes exceed the budget
//! (256 MiB by default) the oldest steps are dropped. The history is saved in project files (the
//! `HIST` section), so undo survives closing and reopening a project.
//!
//! A step can also change project data that is not voxels (the material table):
//! [`History::record_data`] keeps that data's bytes before and after. Undo and redo cannot apply
//! those bytes themselves (they belong to the project, not the grid), so they queue them;
//! the owner takes them with [`History::take_data`] right after, and applies each one
//! (`Project::undo` and `Project::redo` do both).

mod serial;
mod undo;

pub use undo::{DataChange, DataKind, History, DEFAULT_BUDGET_BYTES};
use undo::{Snapshot, Step};

#[cfg(test)]
mod history_tests;
