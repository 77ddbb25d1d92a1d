//! Region tools: a box of voxels lifted out of the grid (copy, cut), changed as a whole (rotate,
//! mirror, resize) and written back (paste, move, fill, delete), each write one undo step.
//!
//! ```text
//!   Grid ──Region::copy (clones of the chunks' packed boxes)──> Region (chunk pieces, or X rows of runs)
//!                                                                      │ rotated / mirrored / resized
//!   Grid <──RegionEdit::paste (per chunk: decode, combine, diff)───────┘
//!     │           └─ history.record(tight changed box of the chunk) before each write
//!     └─ RegionEdit::{fill, delete, cut, move_box}; finish() = one undo step; abort() rolls back
//!
//!   Region <──> stamp project (.strata, origin 0,0,0), v4 block, RLE stream, raw bytes
//!   Region ──surface──> chunk meshes (the editor's paste ghost)
//! ```
//!
//! A copied region keeps the row-packed boxes of the chunks it meets, cloned as they are (chunk
//! pieces), so a copy moves only the chunks' packed bytes and looks at no voxel; every other
//! region (turned, mirrored, resized, imported) stores each X row as runs of equal voxels, and
//! pieces convert to runs where an operation needs them (see [`Region`]). Terrain, mostly long runs
//! of rock and air, costs a small fraction of a dense copy in either form.
//!
//! Coordinates inside a region are relative to its minimum corner: voxel `(x, y, z)` with
//! `0 <= x < size[0]` and so on, rows X fastest, then Y, then Z, like every box in the engine.
//!
//! Files: `rows` (the [`Region`] type, copy from a grid, row reads), `pieces` (the chunk-piece
//! form), `copy` (encoding chunk boxes as runs), `builder` (assembling rows),
//! `transform` (quarter turns and mirrors), `resample` (resize), `edit` ([`RegionEdit`]: paste,
//! fill, delete, cut, move as undo steps), `convert` (stamps and block formats), `surface` (ghost mesh).

mod builder;
mod convert;
mod copy;
mod edit;
mod piece_runs;
mod pieces;
mod resample;
mod rows;
mod run;
mod surface;
mod transform;

#[cfg(test)]
mod edit_tests;
#[cfg(test)]
mod pieces_tests;
#[cfg(test)]
mod region_tests;

pub use convert::STAMP_EXTENSION;
pub use edit::{center_anchor, Fill, PasteMode, RegionEdit};
pub use resample::Resample;
pub use rows::{Region, MAX_REGION_EDGE, MAX_REGION_VOXELS};
pub use run::Run;
pub use surface::{ghost_lod, RegionSurface, GHOST_SAMPLES};
pub use transform::Axis;
