//! The bit broadphase: which 8³ physics cells an AABB can touch, answered from one bit per voxel.
//!
//! Every physics cell (8³ voxels; the 32³ storage units are chunks) keeps two masks: *solid*
//! (non-air, non-liquid matter) and *water* (liquid matter). A bit is set when the voxel **or any of
//! its 26 neighbours** holds that kind of matter, because the mesher's surface for a voxel can reach
//! into its neighbours. So a cell's masks are computed from the 10³ box around it:
//!
//! ```text
//!   one axis, cell origin O:   O−1 │ O  O+1 ... O+7 │ O+8        10 samples in, 8 bits out
//!   row bits (X):     b9 ........ b1 b0  ->  d = b | b<<1 | b>>1     (dilate X with shifts)
//!   then Y, then Z:   d[y][z] = d[y−1][z] | d[y][z] | d[y+1][z]      (dilate by OR-ing neighbour rows)
//!   keep bits 1..=8 of rows y, z in 1..=8
//! ```
//!
//! Stored layout, per mask (`[u64; 8]`): one word per Y slice, one byte per Z row, one bit per X:
//!
//! ```text
//!   word y:  byte 7 (z = 7) | ... | byte 1 (z = 1) | byte 0 (z = 0)      bit x of byte z = voxel (x, y, z)
//! ```
//!
//! A query expands the AABB by one voxel, visits the cells it covers, and for each one builds the XZ
//! footprint as `MASKS_X[x0][x1] & MASKS_Z[z0][z1]` (two table lookups), then ANDs it with the OR of
//! the Y slices it spans (one branch-free reduction over the eight words): up to 64 voxels per
//! instruction. Cells live in 4³-cell blocks (see `broadphase_store.rs`), so the walk finds each
//! run of cells along X with one array read, and a cell the box covers whole answers from its
//! slot word's flags without reading its masks.
//!
//! Cells whose 10³ box is all Air store nothing. Cells whose 10³ box is entirely solid or entirely
//! water are tagged ([`CellBits::Solid`], [`CellBits::Water`]) and keep no masks: the mesher makes no
//! surface there, but a body can still be inside rock or under water.
//!
//! # Rationale
//! The broadphase must cover the whole world at all times, so it has to be far smaller than the voxels
//! (at most 2 bits per voxel, usually much less) and cheap to rebuild for one edit. Bit masks give both,
//! and they make the reject test exact at voxel resolution instead of "the AABB overlaps the cell".

mod broadphase_bulk;
mod broadphase_cell;
mod broadphase_grid;
mod broadphase_query;
mod broadphase_store;
mod broadphase_two_cells;

pub use broadphase_cell::{
    cell_bits, expanded_voxel_range, physics_cell_of, CellBits, CellEntry, CellMasks, Mask, Matter,
    MatterTable, Touch, MASKS_X, MASKS_Z, PHYSICS_CELL, PHYSICS_CELL_BITS,
};
use broadphase_cell::{masks_from_rows, matter_bits, Rows, PADDED};
pub use broadphase_grid::{
    Broadphase, BroadphaseMemory, BroadphaseRefresh, BuildScratch, REFRESH_REACH,
};

#[cfg(test)]
mod broadphase_tests;
