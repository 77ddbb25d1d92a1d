//! What a terrain-map export is asked for and what it hands back, in memory: the request, the
//! heights, the splat map and the weight layers (the files' encoders in `sidecar` and the caller read
//! these; kept apart from the work in `mod.rs` so no module imports its parent).

use crate::voxel::VoxelBox;

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainMapsRequest {
    /// The columns (X, Z) and the Y range (mapped to 0..=65535) to export: usually the world's box.
    pub region: VoxelBox,
    /// The maps' size in pixels; `None`: one pixel per column.
    pub size: Option<[u32; 2]>,
    /// Make an RGBA splat map of the four most used surface materials.
    pub splat: bool,
    /// Make one weight map per surface material.
    pub layers: bool,
}

/// An RGBA splat map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplatMap {
    /// The materials of channels R, G, B, A in order (at most four).
    pub materials: Vec<u8>,
    /// 4 bytes per pixel, rows by Z; each pixel's bytes sum to 255.
    pub rgba: Vec<u8>,
}

/// One 8-bit weight map per surface material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightLayers {
    /// The materials, most used first.
    pub materials: Vec<u8>,
    /// One plane of one byte per pixel per material, in `materials` order; at each pixel the planes
    /// sum to 255.
    pub planes: Vec<Vec<u8>>,
}

/// Everything an export writes, in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainMaps {
    /// The box exported.
    pub region: VoxelBox,
    /// Its columns along X and Z.
    pub columns: [usize; 2],
    /// Map width in pixels (along X).
    pub width: u32,
    /// Map height in pixels (along Z).
    pub height: u32,
    /// World Y of sample 0 and of sample 65535.
    pub y_range: [i32; 2],
    /// `width × height` samples, rows by Z.
    pub samples: Vec<u16>,
    /// Surface materials with the columns each covers, most first.
    pub surface_materials: Vec<(u8, u64)>,
    /// Columns whose surface hides matter below air.
    pub overhang_columns: u64,
    /// Columns with no surface (exported at `y_range[0]`).
    pub empty_columns: u64,
    /// The splat map, when asked for.
    pub splat: Option<SplatMap>,
    /// The weight layers, when asked for.
    pub layers: Option<WeightLayers>,
}
