//! The scene export's options and figures: what to write (tile size, levels, collision, light,
//! box, compression, container) and what was written. A leaf the scene's other files read.

use std::path::Path;

use crate::light::LightMap;
use crate::voxel::{Textures, VoxelBox};
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
