//! Sparse chunked voxel storage.
//!
//! ```text
//!   Grid ── hash map ──> Chunk (32³) ── level0: PackedBox<32>   the voxels
//!                                   ├─ mip16:  PackedBox<16>   2³ -> 1 downsample
//!                                   ├─ mip8:   PackedBox<8>
//!                                   └─ mip4:   PackedBox<4>
//! ```
//!
//! Every box is stored in the row-packed format of [`PackedBox`]: packed rows are a static slice,
//! stored rows a prefix run, a few voxels and a suffix run (`stored_row.rs`), assembled in the
//! caller's [`RowBuf`] on read. Writes go
//! through the two-stage path (mark rows, rebuild once).

mod chunk;
mod grid;
mod headers;
mod memory;
mod mip;
mod packed;
mod row_table;
#[cfg(test)]
mod storage_tests;
mod stored_row;

pub use chunk::{Chunk, MIP_LEVELS};
pub use grid::{Grid, GridStats};
pub use memory::MemoryReport;
pub(crate) use mip::downsample_dense;
pub use mip::downsample_voxels;
pub use packed::PackedBox;
pub use stored_row::{filled_row, RowBuf};
