//! The glTF *scene* export: the world as streaming tiles with levels of detail, material slots,
//! blend weights, baked light and collision, for a game engine to take as a finished level.
//!
//! ```text
//!   world ──mesh_chunks at LOD 0..=3 (one welded mesh per level, chunk seams exact)──┐
//!                                                                                    │ cut by
//!   tile_X_Z (translation X·N, 0, Z·N)                                               │ triangle
//!    ├─ tile_X_Z_LOD0   mesh: one primitive per material   extras {triangles}        │ centroid
//!    │                  + MSFT_lod {ids: [LOD1, LOD2, ...]}                          ▼
//!    ├─ tile_X_Z_LOD1   (levels past 3: meshopt simplification of the level before)
//!    ├─ ...
//!    └─ tile_X_Z-col    positions only, ≤ ¼ of LOD0's triangles, within 1 voxel of it
//! ```
//!
//! # Crack-free tiles
//! Every level is one world mesh welded from chunk meshes (which agree bit for bit along chunk
//! faces), cut into tiles by triangle centroid: a triangle goes to exactly one tile and the vertices
//! two tiles share are the same world positions in both. Local positions are the world position less
//! the tile's integer corner, which `f32` subtracts exactly below 2²⁴, and quantized positions
//! (`--compress meshopt`) sit on one lattice of `1/q` voxel for the whole scene. Simplified levels
//! and collision keep every tile-border vertex (meshopt's `LockBorder`), so the cut stays closed.
//!
//! # Rationale
//! Levels 1 to 3 come from the mesher's mips: meshing a mip costs a fraction of level 0 and gives a
//! shape that follows the voxels rather than one triangle budget. Deeper levels and collision come
//! from meshopt's simplifier, whose error bound is what keeps collision within a voxel of the
//! surface.

mod scene_bin;
mod scene_doc;
mod scene_simplify;
#[cfg(test)]
mod scene_tests;
mod scene_tiles;

use std::path::Path;

use super::mesh_export::{chunks_to_mesh, mesh_chunks};
use super::MAX_LOD;
use crate::light::LightMap;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Textures, VoxelBox};
use crate::{Error, Result};

/// Tile side in voxels when none is given.
pub const DEFAULT_TILE_VOXELS: u32 = 128;
/// Levels of detail per tile when none is given.
pub const DEFAULT_SCENE_LODS: u32 = 3;
/// Most levels of detail a scene export writes.
pub const MAX_SCENE_LODS: u32 = 8;

/// How the scene's vertex and index data are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SceneCompression {
    /// Plain `f32` attributes and `u32` indices: every glTF reader takes it.
    #[default]
    None,
    /// `EXT_meshopt_compression` streams of `KHR_mesh_quantization` attributes (both required).
    Meshopt,
}

/// The file layout of the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SceneContainer {
    /// Binary glTF: one `.glb` file.
    #[default]
    Glb,
    /// Text glTF: one `.gltf` file with its buffers embedded as base64 data URIs.
    Gltf,
}

impl SceneContainer {
    /// The container a file name's extension asks for (`.gltf` → text, anything else → binary).
    pub fn from_path(path: &Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("gltf") => Self::Gltf,
            _ => Self::Glb,
        }
    }
}

/// What a scene export writes and from what.
#[derive(Debug, Clone, Copy)]
pub struct SceneOptions<'a> {
    /// Tile side in voxels (X and Z).
    pub tile_voxels: u32,
    /// Levels of detail per tile, 1 to [`MAX_SCENE_LODS`].
    pub lods: u32,
    /// Write a `tile_X_Z-col` collision node per tile.
    pub collision: bool,
    /// The baked light written as `COLOR_0`; `None` leaves `COLOR_0` out.
    pub light: Option<&'a LightMap>,
    /// The project's texture images, for textured materials.
    pub textures: Option<&'a Textures>,
    /// Export only this box (voxels outside read as air).
    pub region: Option<VoxelBox>,
    /// The world's bounds (the project header's), which tile and box are checked against.
    pub world: VoxelBox,
    /// Vertex and index storage.
    pub compression: SceneCompression,
    /// `.glb` or `.gltf`.
    pub container: SceneContainer,
}

impl<'a> SceneOptions<'a> {
    /// The defaults for a world of `world` bounds: 128-voxel tiles (the world's width when it is
    /// narrower), 3 levels, collision, no light, no compression, binary.
    pub fn new(world: VoxelBox) -> Self {
        let [wx, _, wz] = world.size();
        let widest = u32::try_from(wx.max(wz)).unwrap_or(u32::MAX).max(1);
        Self {
            tile_voxels: DEFAULT_TILE_VOXELS.min(widest),
            lods: DEFAULT_SCENE_LODS,
            collision: true,
            light: None,
            textures: None,
            region: None,
            world,
            compression: SceneCompression::None,
            container: SceneContainer::Glb,
        }
    }

    /// Refuse options that cannot make a scene, before any work.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a tile of 0 or wider than the world, a level count outside
    /// 1..=[`MAX_SCENE_LODS`], or a box that is empty or outside the world.
    pub fn check(&self) -> Result<()> {
        let [wx, _, wz] = self.world.size();
        let widest = wx.max(wz);
        if self.tile_voxels == 0 || self.tile_voxels as usize > widest.max(1) {
            return Err(Error::Invalid(format!(
                "tile size {} does not fit the world: give 1 to {} voxels (the world is {wx}x{wz})",
                self.tile_voxels,
                widest.max(1)
            )));
        }
        if !(1..=MAX_SCENE_LODS).contains(&self.lods) {
            return Err(Error::Invalid(format!(
                "{} levels of detail: give 1 to {MAX_SCENE_LODS}",
                self.lods
            )));
        }
        if let Some(r) = self.region {
            if r.is_empty() || r.intersect(&self.world).is_empty() {
                let f = |b: &VoxelBox| {
                    let (l, h) = (b.min, b.max);
                    format!("{},{},{},{},{},{}", l.x, l.y, l.z, h.x, h.y, h.z)
                };
                return Err(Error::Invalid(format!(
                    "the export box {} lies outside the world {}: nothing to export",
                    f(&r),
                    f(&self.world)
                )));
            }
        }
        Ok(())
    }
}

/// What a scene export wrote.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SceneStats {
    /// Tiles with any triangle.
    pub tiles: usize,
    /// Triangles of each level over all tiles, level 0 first.
    pub lod_triangles: Vec<usize>,
    /// Collision triangles over all tiles.
    pub collision_triangles: usize,
    /// Bytes of the file.
    pub bytes: usize,
}

/// Build the scene of `grid` as the bytes of a `.glb` or `.gltf` file (see the module docs).
/// Progress counts chunks meshed at every mip level, then tiles finished.
///
/// # Errors
/// As [`SceneOptions::check`]; [`Error::Cancelled`] when `progress` is cancelled; [`Error::Invalid`]
/// when the file would exceed glTF's 4 GiB.
pub fn scene_bytes(
    grid: &Grid,
    table: &MaterialTable,
    options: &SceneOptions<'_>,
    progress: &Progress,
) -> Result<(Vec<u8>, SceneStats)> {
    options.check()?;
    let mesh_levels = options.lods.min(MAX_LOD + 1);
    let chunk_lists: Vec<_> = (0..mesh_levels)
        .map(|lod| chunks_to_mesh(grid, lod, options.region))
        .collect();
    let chunk_units: usize = chunk_lists.iter().map(Vec::len).sum();
    // Tiles are counted after meshing; until then one unit per chunk of level 0 stands for them.
    progress.start((chunk_units + chunk_lists[0].len()) as u64);
    let mut levels = Vec::with_capacity(options.lods as usize);
    for (lod, chunks) in (0u32..).zip(&chunk_lists) {
        progress.check()?;
        levels.push(mesh_chunks(
            grid,
            table,
            lod,
            options.region,
            chunks,
            options.light,
            progress,
            |_, _| Ok(()),
        )?);
    }
    let tiles = scene_tiles::cut_tiles(&levels, options, chunk_lists[0].len() as u64, progress)?;
    drop(levels);
    let (bytes, mut stats) = scene_doc::write_scene(&tiles, table, options)?;
    stats.bytes = bytes.len();
    Ok((bytes, stats))
}

/// [`scene_bytes`] written atomically to `path`.
///
/// # Errors
/// As [`scene_bytes`]; [`Error::Io`] when the file cannot be written.
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
