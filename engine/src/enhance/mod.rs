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
mod bytes;
mod compute;
mod enhancer;
mod export;
#[cfg(test)]
mod export_tests;
mod face_light;
mod face_mesh;
mod fragments;
mod lit;
mod resample;
mod rules;
mod subdivide;
mod surface;
#[cfg(test)]
mod tests;
mod volume;
mod vox;

pub use enhancer::Enhancer;
pub use export::{export_mesh, export_raw, export_vox, ExportSummary, OutputFormat};
pub use face_light::{light_faces, FaceLight};
pub use face_mesh::{mesh_fragment_chunk, FragmentMesh};
pub use fragments::{EnhanceStats, EnhanceUpdate, Enhanced};
pub use lit::{bake_fragments, fragment_settings, fragment_solidity};
pub use rules::{corner_count, plain_table, strata_table, HeightBand};
pub use subdivide::{upsample_nearest, Kernel};
pub use surface::Window;
pub use volume::{FragmentBox, FragmentVolume};

use crate::{Error, Result};

/// Deepest recursive subdivision (16 fragments per voxel edge).
pub const MAX_LEVELS: u32 = 4;
/// Largest resampling factor.
pub const MAX_FACTOR: u32 = 16;
/// Most probes per fragment.
pub const MAX_COUNT: u32 = 4096;
/// Largest probe spread, in voxels.
pub const MAX_SPREAD: f32 = 16.0;

/// Parameters of recursive subdivision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubdivideParams {
    /// Levels, 1..=4: `2^levels` fragments per voxel edge.
    pub levels: u32,
    /// One threshold (1..=4) for every material; `None` uses the material table's thresholds.
    pub threshold: Option<u8>,
    /// Altitude bands whose thresholds replace the materials' (the first band holding a source wins).
    pub bands: Vec<HeightBand>,
    /// Count a neighbour of another material as empty, so borders between materials stay crisp.
    pub material_borders: bool,
    /// Use the paper's single 7-bit table of whole blocks: an approximation from two levels on.
    pub approximate_table: bool,
}

impl Default for SubdivideParams {
    fn default() -> Self {
        Self {
            levels: 2,
            threshold: None,
            bands: Vec::new(),
            material_borders: false,
            approximate_table: false,
        }
    }
}

/// Parameters of direct resampling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResampleParams {
    /// Fragments per voxel edge, 1..=16.
    pub factor: u32,
    /// Probes per fragment, 1..=4096.
    pub count: u32,
    /// Probe offsets lie within ±`spread` voxels (0..=16).
    pub spread: f32,
    /// A fragment is solid when more than this fraction (0..=1) of its probes land in solid voxels.
    pub fraction: f32,
    /// Seed of the probe pattern.
    pub seed: u64,
}

impl Default for ResampleParams {
    fn default() -> Self {
        Self {
            factor: 4,
            count: 16,
            spread: 1.0,
            fraction: 0.25,
            seed: 1,
        }
    }
}

/// An enhancement method with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    /// Recursive subdivision.
    Subdivide(SubdivideParams),
    /// Direct resampling.
    Resample(ResampleParams),
}

impl Default for Method {
    fn default() -> Self {
        Method::Subdivide(SubdivideParams::default())
    }
}

fn check_threshold(t: u8, what: &str) -> Result<()> {
    if (1..=4).contains(&t) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "{what} {t} is out of range: a threshold counts 1 to 4 solid voxels"
        )))
    }
}

impl Method {
    /// Fragments per voxel edge.
    pub fn factor(&self) -> u32 {
        match self {
            Method::Subdivide(p) => 1 << p.levels.min(MAX_LEVELS),
            Method::Resample(p) => p.factor,
        }
    }

    /// `subdivide` or `resample`.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Subdivide(_) => "subdivide",
            Method::Resample(_) => "resample",
        }
    }

    /// Check every parameter.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first parameter out of range.
    pub fn validate(&self) -> Result<()> {
        match self {
            Method::Subdivide(p) => {
                if !(1..=MAX_LEVELS).contains(&p.levels) {
                    return Err(Error::Invalid(format!(
                        "levels {} is out of range: 1 to {MAX_LEVELS}",
                        p.levels
                    )));
                }
                if let Some(t) = p.threshold {
                    check_threshold(t, "threshold")?;
                }
                for b in &p.bands {
                    if b.min_y >= b.max_y {
                        return Err(Error::Invalid(format!(
                            "height band {}..{} is empty",
                            b.min_y, b.max_y
                        )));
                    }
                    check_threshold(b.threshold.even, "band threshold")?;
                    check_threshold(b.threshold.odd, "band threshold")?;
                }
                Ok(())
            }
            Method::Resample(p) => {
                if !(1..=MAX_FACTOR).contains(&p.factor) {
                    return Err(Error::Invalid(format!(
                        "factor {} is out of range: 1 to {MAX_FACTOR}",
                        p.factor
                    )));
                }
                if !(1..=MAX_COUNT).contains(&p.count) {
                    return Err(Error::Invalid(format!(
                        "count {} is out of range: 1 to {MAX_COUNT} probes",
                        p.count
                    )));
                }
                if !p.spread.is_finite() || !(0.0..=MAX_SPREAD).contains(&p.spread) {
                    return Err(Error::Invalid(format!(
                        "spread {} is out of range: 0 to {MAX_SPREAD} voxels",
                        p.spread
                    )));
                }
                if !p.fraction.is_finite() || !(0.0..=1.0).contains(&p.fraction) {
                    return Err(Error::Invalid(format!(
                        "fraction {} is out of range: 0 to 1",
                        p.fraction
                    )));
                }
                Ok(())
            }
        }
    }
}
