//! The project header: the human-readable RON part of a project file.

use serde::{Deserialize, Serialize};

use crate::gen::{BiomeSettings, GeneratorSettings, WorldSettings};
use crate::voxel::{MaterialTable, VoxelBox};
use crate::{Error, Result};

/// Where the editor's orbit camera looks from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Orbit centre in voxels.
    pub target: [f32; 3],
    /// Heading around +Y, degrees.
    pub yaw_degrees: f32,
    /// Elevation, degrees (positive looks down).
    pub pitch_degrees: f32,
    /// Distance from the target in voxels.
    pub distance: f32,
}

impl Camera {
    /// A three-quarter view of `bounds`.
    pub fn overview(bounds: &VoxelBox) -> Self {
        let [sx, sy, sz] = bounds.size().map(|s| s as f32);
        let c = |a: i32, s: f32| a as f32 + s / 2.0;
        Self {
            target: [
                c(bounds.min.x, sx),
                bounds.min.y as f32 + sy * 0.25,
                c(bounds.min.z, sz),
            ],
            yaw_degrees: 45.0,
            pitch_degrees: 35.0,
            distance: sx.max(sz).max(sy) * 1.2,
        }
    }
}

/// Everything in a project besides voxels and history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectHeader {
    /// Display name.
    pub name: String,
    /// The world's intended extent (voxels may lie outside it after edits).
    pub bounds: VoxelBox,
    /// Materials used by this project's voxels.
    pub materials: MaterialTable,
    /// How the world was generated, if it was: preset (or `custom`), size and seed.
    pub generator: Option<GeneratorSettings>,
    /// The biome mix of a generated world: biomes, biome size, caves. Headers written before biomes
    /// existed have none (and omit the field); their world is the preset's one-biome world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub biomes: Option<BiomeSettings>,
    /// Last editor camera.
    pub camera: Camera,
}

impl ProjectHeader {
    /// A header with the built-in materials and an overview camera.
    pub fn new(name: impl Into<String>, bounds: VoxelBox) -> Self {
        Self {
            name: name.into(),
            camera: Camera::overview(&bounds),
            bounds,
            materials: MaterialTable::builtin(),
            generator: None,
            biomes: None,
        }
    }

    /// Record the settings a world was generated with (`generator` and `biomes`).
    pub fn set_world(&mut self, world: &WorldSettings) {
        self.generator = Some(world.generator());
        self.biomes = Some(world.biomes.clone());
    }

    /// The full settings of a generated world, `None` for imported ones. Files without biome
    /// settings give the preset's one-biome world.
    pub fn world(&self) -> Option<WorldSettings> {
        let generator = self.generator.as_ref()?;
        Some(WorldSettings::from_header(generator, self.biomes.as_ref()))
    }

    /// Serialize as pretty RON.
    ///
    /// # Errors
    /// [`Error::Invalid`] if serialization fails.
    pub fn to_ron(&self) -> Result<String> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| Error::Invalid(format!("cannot serialize header: {e}")))
    }

    /// Parse and validate a header from RON bytes found at `offset` in a file.
    ///
    /// # Errors
    /// [`Error::Corrupt`] at `offset` for bad UTF-8, bad RON or an invalid material table.
    pub fn from_ron(bytes: &[u8], offset: usize) -> Result<Self> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::corrupt(offset + e.valid_up_to(), "header is not UTF-8"))?;
        let header: ProjectHeader =
            ron::from_str(text).map_err(|e| Error::corrupt(offset, format!("header: {e}")))?;
        header
            .materials
            .validate()
            .map_err(|e| Error::corrupt(offset, format!("header: {e}")))?;
        Ok(header)
    }
}
