//! The glTF *scene* export: the world as streaming tiles with levels of detail, material slots,
//! blend weights, baked light and collision, for a game engine to take as a finished level.
//!
//! ```text
//!   world ──chunk meshes at LOD 0, 2, 3 (chunk seams exact), welded per tile──────────┐
//!                                                                                    │ cut by
//!   tile_X_Z (translation X·N, 0, Z·N)                                               │ triangle
//!    ├─ tile_X_Z_LOD0   mesh: one primitive per material   extras {triangles}        │ centroid
//!    │                  + MSFT_lod {ids: [LOD1, LOD2, ...]}                          ▼
//!    ├─ tile_X_Z_LOD1   meshopt simplification of LOD0 (also levels past 3, of the level before)
//!    ├─ ...
//!    └─ tile_X_Z-col    LOD1's solid, positions only, ≤ ¼ of LOD0's triangles, within 1 voxel
//! ```
//!
//! # Crack-free tiles
//! Every level is meshed a chunk at a time (chunk meshes agree bit for bit along chunk faces) and
//! cut into tiles by triangle centroid: a triangle goes to exactly one tile, each tile welds its own
//! triangles by position bits, and the vertices two tiles share are the same world positions in
//! both. Local positions are the world position less
//! the tile's integer corner, which `f32` subtracts exactly below 2²⁴, and quantized positions
//! (`--compress meshopt`) sit on one lattice of `1/q` voxel for the whole scene. Simplified levels
//! and collision keep every tile-border vertex (meshopt's `LockBorder`), so the cut stays closed.
//!
//! # Rationale
//! Levels 2 and 3 come from the mesher's mips: meshing a mip costs a fraction of level 0 and gives a
//! shape that follows the voxels rather than one triangle budget. Level 1 and collision are one and
//! the same meshopt simplification of level 0 (a quarter of its triangles within 0.6 voxel): the
//! collision mesh needs that simplification anyway, it fits level 0 closer than mip 1 (which strays
//! up to 1.2 voxels), and it costs less than meshing mip 1 did. Deeper levels come from the
//! simplifier too; its error bound is what keeps collision within a voxel of the surface.

mod scene_bin;
mod scene_doc;
mod scene_level;
#[cfg(test)]
mod scene_meshopt_tests;
mod scene_options;
mod scene_simplify;
#[cfg(test)]
mod scene_tests;
mod scene_tiles;
#[cfg(test)]
mod scene_weld_tests;

pub use scene_options::{
    SceneCompression, SceneContainer, SceneOptions, SceneStats, DEFAULT_SCENE_LODS,
    DEFAULT_TILE_VOXELS, MAX_SCENE_LODS,
};

use std::path::Path;

use super::mesh_export::{chunks_to_mesh, mesh_chunk_buffers};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::MaterialTable;
use crate::Result;

/// Build the scene of `grid` as the bytes of a `.glb` or `.gltf` file (see the module docs).
/// Progress counts chunks meshed at every mip level, then tiles finished.
///
/// # Errors
/// As [`SceneOptions::check`]; [`crate::Error::Cancelled`] when `progress` is cancelled; [`crate::Error::Invalid`]
/// when the file would exceed glTF's 4 GiB.
pub fn scene_bytes(
    grid: &Grid,
    table: &MaterialTable,
    options: &SceneOptions<'_>,
    progress: &Progress,
) -> Result<(Vec<u8>, SceneStats)> {
    options.check()?;
    let lods = scene_tiles::meshed_lods(options.lods);
    let chunk_lists: Vec<_> = lods
        .iter()
        .map(|&lod| chunks_to_mesh(grid, lod, options.region))
        .collect();
    let chunk_units: usize = chunk_lists.iter().map(Vec::len).sum();
    // Tiles are counted after meshing; until then one unit per chunk of level 0 stands for them.
    progress.start((chunk_units + chunk_lists[0].len()) as u64);
    let mut levels = Vec::with_capacity(lods.len());
    for (&lod, chunks) in lods.iter().zip(&chunk_lists) {
        progress.check()?;
        let (origin, meshes) =
            mesh_chunk_buffers(grid, table, lod, options.region, chunks, progress)?;
        levels.push(scene_tiles::LevelChunks {
            lod,
            origin,
            positions: chunks.clone(),
            chunks: meshes,
        });
    }
    let tiles = scene_tiles::cut_tiles(
        &levels,
        table,
        options,
        chunk_lists[0].len() as u64,
        progress,
    )?;
    drop(levels);
    let (bytes, mut stats) = scene_doc::write_scene(&tiles, table, options)?;
    stats.bytes = bytes.len();
    Ok((bytes, stats))
}

/// [`scene_bytes`] written atomically to `path`.
///
/// # Errors
/// As [`scene_bytes`]; [`crate::Error::Io`] when the file cannot be written.
pub fn export_scene(
    grid: &Grid,
    table: &MaterialTable,
    options: &SceneOptions<'_>,
    path: &Path,
    progress: &Progress,
) -> Result<SceneStats> {
    let (bytes, stats) = scene_bytes(grid, table, options, progress)?;
    progress.check()?;
    crate::format::write_atomic(path, &bytes)?;
    Ok(stats)
}
