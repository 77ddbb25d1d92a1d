//! How to enhance: the method (subdivide or resample), its parameters and their limits. A leaf that the
//! enhancer, the fragment store and the resampler read.

use super::rules::HeightBand;
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
