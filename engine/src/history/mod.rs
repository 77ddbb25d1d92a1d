//! Undo/redo history of RLE+LZ4-packed boxes under a memory budget.
//!
//! Before an operation changes voxels, [`History::record`] captures the box it will touch and packs
//! it (RLE, then LZ4). Undo restores boxes newest first, capturing the current contents of each box
//! first so redo can put them back. Several boxes (a brush stroke) form one step through
//! [`History::begin_group`] / [`History::end_group`]. When the packed bytes exceed the budget
//! (256 MiB by default) the oldest steps are dropped. The history is saved in project files (the
//! `HIST` section), so undo survives closing and reopening a project.

mod serial;
mod undo;

pub use undo::{History, DEFAULT_BUDGET_BYTES};
use undo::{Snapshot, Step};

#[cfg(test)]
mod history_tests;
