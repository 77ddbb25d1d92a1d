//! Strata's voxel engine: everything about terrain that has no user interface.
//!
//! - [`voxel`]: the voxel (material + occupancy), the material table, coordinates.
//! - [`storage`]: the sparse chunked grid with row-packed chunks and a mip pyramid.
//! - [`format`]: the seed RLE codec, LZ4 framing and the `.strata` project file.
//! - [`history`]: undo/redo of RLE+LZ4-packed boxes under a memory budget.
//! - [`gen`]: seeded procedural terrain presets and heightmap import.
//! - [`render`]: top-down shaded map images (previews, thumbnails).
//! - [`region`]: region tools: copy, cut, paste, move, fill, delete, turn, mirror, resize, stamps.
//! - [`tools`]: terrain brushes (add, subtract, grow, erode, smooth, flatten, paint, replace, sea level).
//!
//! ```
//! use strata_engine::storage::Grid;
//! use strata_engine::voxel::{Voxel, VoxelPos};
//!
//! let mut grid = Grid::new();
//! grid.set(VoxelPos::new(-3, 5, 40), Voxel::new(2, 127));
//! assert_eq!(grid.get(VoxelPos::new(-3, 5, 40)).occupancy_f32(), 0.5);
//! grid.assert_valid();
//! ```

pub mod error;
pub mod format;
pub mod gen;
pub mod history;
pub mod mesh;
pub mod physics;
pub mod progress;
pub mod region;
pub mod render;
pub mod storage;
pub mod tools;
pub mod voxel;

pub use error::{Error, Result};
