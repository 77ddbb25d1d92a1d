//! Sparse chunked voxel storage.
//!
//! ```text
//!   Grid ── hash map ──> Chunk (32³) ── level0: PackedBox<32>   the voxels
//!                                   ├─ mip16:  PackedBox<16>   2³ -> 1 downsample
//!                                   ├─ mip8:   PackedBox<8>
//!                                   └─ mip4:   PackedBox<4>
//! ```
//!
//! Every box is stored in the row-packed format of [`PackedBox`]; reads of a whole X row are a slice
//! borrow in constant time. Writes go through the two-stage path (mark rows, repack once, write).

mod chunk;
mod grid;
mod headers;
mod memory;
mod mip;
mod packed;
#[cfg(test)]
mod storage_tests;

pub use chunk::{Chunk, MIP_LEVELS};
pub use grid::{Grid, GridStats};
pub use memory::MemoryReport;
pub(crate) use mip::downsample_dense;
pub use mip::downsample_voxels;
pub use packed::{filled_row, PackedBox};
