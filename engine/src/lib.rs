//! Strata's voxel engine: everything about terrain that has no user interface.
//!
//! Modules, lowest layer first (a module only imports modules above it in this list):
//!
//! - [`error`]: the one [`Error`] enum and [`Result`] alias.
//! - [`vec3`]: small vector math on `[f32; 3]` (and the few `f64` operations the exact ray test needs).
//! - [`progress`]: lock-free progress counters and a cancel flag shared by a long job and its watcher.
//! - [`voxel`]: the voxel (material + occupancy), the material table and its sRGB/linear colours,
//!   coordinates and boxes.
//! - [`codec`]: the run-length (RLE) voxel codec, LZ4 packing of RLE streams and a bounds-checked
//!   reader; shared by `format` and `history`, which is why it sits below both.
//! - [`storage`]: the sparse chunked grid with row-packed chunks and a mip pyramid.
//! - [`history`]: undo/redo of RLE+LZ4-packed boxes under a memory budget.
//! - [`light`]: the snowflake lighting bake (packed solidity, random walks, baked light).
//! - [`render`]: top-down shaded map images (previews, thumbnails).
//! - [`gen`]: seeded procedural terrain (presets, biome mixes), region fills, previews, heightmap import.
//! - [`floating`]: pieces of solid terrain not connected to the world's bottom layer (parallel
//!   per-chunk labelling, union–find across chunk faces), and their deletion as one undo step.
//! - [`stray`]: matter no surface shows (thinner than the carving floor, or under half full with no
//!   half-full neighbour), found to be cleared.
//! - [`format`](mod@format): atomic writes, the `.strata` project file (which stores the history) and the
//!   godot_voxel block, container and region formats.
//! - [`materials`]: the project's own material table: edits (add, recolour, remove with the voxels
//!   remapped...) and palettes, each one undo step.
//! - [`mesh`]: the smooth-surface mesher (surface nets with sharp-material placement, LOD skirts) and
//!   OBJ / glb export.
//! - [`physics`]: bit broadphase, lazy kD trees over chunk meshes, world raycasts and rigid bodies.
//! - [`enhance`]: voxel detail enhancement (recursive subdivision, direct resampling), surface only
//!   and incremental, with raw / MagicaVoxel / mesh export.
//! - [`region`]: region tools: copy, cut, paste, move, fill, delete, turn, mirror, resize, stamps
//!   (over storage, history, format and the mesher).
//! - [`export`]: terrain maps for game engines' terrain systems (a 16-bit heightmap of the top
//!   surface, splat and weight maps of its materials, their JSON sidecar).
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

pub mod codec;
pub mod enhance;
pub mod error;
pub mod export;
pub mod floating;
pub mod format;
pub mod gen;
pub mod history;
pub mod light;
pub mod materials;
pub mod mesh;
pub mod physics;
pub mod progress;
pub mod region;
pub mod render;
pub mod storage;
pub mod stray;
pub mod tools;
pub mod vec3;
pub mod voxel;

pub use error::{explain_io, Error, Result};
