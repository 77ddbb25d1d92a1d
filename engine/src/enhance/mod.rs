//! Voxel detail enhancement: fine fragments from coarse voxels, after Smith, "Two Methods for Voxel
//! Detail Enhancement" (PCG 2011).
//!
//! A voxel is *solid* for enhancement when its occupancy is at least ½ and its material is not a
//! liquid. Every voxel becomes `f³` fragments (`f` = the factor); a fragment is empty or solid with a
//! material. Two methods make them:
//!
//! - **Recursive subdivision** (`levels` 1..=4, `f = 2^levels`): each level turns a cell into 2×2×2;
//!   the child toward corner `(dx, dy, dz)` is solid when at least `threshold` of the cell and its
//!   three face neighbours on that side are solid (`rules`). Thresholds come from the material table
//!   (one per row, optionally alternating by the parity of the fragment's altitude: the paper's
//!   strata), from one `threshold` for all, or from height bands. With `material_borders` a neighbour
//!   of another material counts as empty. A fragment carries its source cell's material; a fragment
//!   of an empty cell that turns solid takes the most frequent material among the solid neighbours on
//!   its side (ties: the lower id).
//! - **Direct resampling** (`factor` 1..=16): a fixed seeded pattern of probes per fragment
//!   (`resample`).
//!
//! # Dependency window
//! One level reads a voxel and its 6 face neighbours. Over two or more levels a voxel's fragments also
//! depend on its edge and corner neighbours, but never on anything farther: a fragment on the +x face
//! of its voxel looks at the neighbour block's −x face, whose cells look back toward −x, so a step
//! across a face is never followed by a second step the same way. The window is therefore the 6 face
//! neighbours at one level (and for the approximate table), the 3×3×3 block from two levels on, and
//! the probes' reach for resampling ([`Window`]).
//!
//! # Surface only
//! A voxel whose whole window has its own state (solidity, or the material as well where materials
//! can cross voxels) has uniform fragments: it is skipped. (At one level this is the paper's test on
//! the six face neighbours; from two levels on, six matching face neighbours are not enough, since an
//! empty edge neighbour can still erode a fragment, so the 26 are tested.) Of the voxels computed,
//! only those whose fragments differ from their own uniform state are stored ([`Enhanced`]), packed
//! a bit per fragment in a sparse per-chunk structure, so time and memory follow the surface.
//!
//! ```
//! use strata_engine::enhance::{Enhanced, Method, SubdivideParams};
//! use strata_engine::progress::Progress;
//! use strata_engine::storage::Grid;
//! use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};
//!
//! let table = MaterialTable::builtin();
//! let mut grid = Grid::new();
//! grid.fill_box(VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(8, 4, 8)), Voxel::filled(7));
//! let method = Method::Subdivide(SubdivideParams { levels: 2, threshold: Some(4), ..Default::default() });
//! let enhanced = Enhanced::build(&grid, &table, &method, None, &Progress::new()).unwrap();
//! let volume = enhanced.volume(&grid);
//! assert_eq!(volume.fragment([0, 0, 0]), 0, "threshold 4 erodes the corner");
//! assert_eq!(volume.fragment([16, 8, 16]), 7, "the inside stays solid");
//! ```

mod approx;
mod block;
mod block_list;
mod bytes;
mod compute;
#[cfg(test)]
mod enhance_tests;
mod enhancer;
mod face_light;
mod face_mesh;
mod fragment_export;
#[cfg(test)]
mod fragment_export_tests;
mod fragments;
mod lit;
mod method;
mod resample;
mod rules;
mod subdivide;
mod surface;
mod volume;
mod vox;

pub use enhancer::Enhancer;
pub use face_light::{light_faces, FaceLight};
pub use face_mesh::{mesh_fragment_chunk, FragmentMesh};
pub use fragment_export::{export_mesh, export_raw, export_vox, ExportSummary, OutputFormat};
pub use fragments::{EnhanceStats, EnhanceUpdate, Enhanced};
pub use lit::{bake_fragments, fragment_settings, fragment_solidity};
pub use method::{
    Method, ResampleParams, SubdivideParams, MAX_COUNT, MAX_FACTOR, MAX_LEVELS, MAX_SPREAD,
};
pub use rules::{corner_count, plain_table, strata_table, HeightBand};
pub use subdivide::{upsample_nearest, Kernel};
pub use surface::Window;
pub use volume::{FragmentBox, FragmentVolume};
