//! Heightmap import: a grayscale PNG (8- or 16-bit; colour images by luminance) and an optional colour
//! map of the same size into a new project. Shared by `strata import --format heightmap` and the
//! editor's File ▸ Import Heightmap; the voxels come from the engine's `gen::heightmap_grid`.

use std::path::{Path, PathBuf};

use image::DynamicImage;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{colormap_materials, heightmap_grid, Heightmap, HeightmapSettings};
use strata_engine::progress::Progress;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

use crate::png::read_png;
use crate::{AppError, AppResult};

/// World height in voxels when none is given.
pub const DEFAULT_HEIGHT: u32 = 128;

/// What to import and how.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeightmapImport {
    /// The grayscale heightmap PNG.
    pub map: PathBuf,
    /// A colour map PNG of the same size whose colours pick each column's surface material.
    pub colormap: Option<PathBuf>,
    /// The world's X,Z size (default: one voxel per pixel).
    pub size: Option<[u32; 2]>,
    /// The world's Y size: the height of the whitest sample (default [`DEFAULT_HEIGHT`]).
    pub height: Option<u32>,
}

/// The heightmap of a decoded image: grey levels scaled to 16 bits (8-bit 255 becomes 65535).
pub fn heightmap_of(image: &DynamicImage) -> Heightmap {
    let luma = image.to_luma16();
    Heightmap {
        width: luma.width(),
        depth: luma.height(),
        samples: luma.into_raw(),
    }
}

impl HeightmapImport {
    /// Build the project.
    ///
    /// # Errors
    /// Unreadable or corrupt PNGs, a colour map whose size differs from the heightmap's, sizes out of
    /// range, cancellation.
    pub fn build(&self, progress: &Progress) -> AppResult<Project> {
        let input = self.map.as_path();
        let height = self.height.unwrap_or(DEFAULT_HEIGHT);
        let map = heightmap_of(&read_png(input)?);
        let size = self.size.unwrap_or([map.width, map.depth]);
        let table = MaterialTable::builtin();
        let materials = match self.colormap.as_deref() {
            None => None,
            Some(path) => Some(colormap(&table, path, input, &map)?),
        };
        let settings = HeightmapSettings { size, height };
        let grid = heightmap_grid(&map, materials.as_deref(), &settings, &table, progress)
            .map_err(|e| e.in_file(input))?;
        let bounds = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [size[0], height, size[1]]);
        let name = input.file_stem().map_or_else(
            || "heightmap".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let mut header = ProjectHeader::new(name, bounds);
        header.materials = table;
        Ok(Project::new(header, grid))
    }
}

fn colormap(
    table: &MaterialTable,
    path: &Path,
    input: &Path,
    map: &Heightmap,
) -> AppResult<Vec<u8>> {
    let colors = read_png(path)?.to_rgb8();
    if colors.dimensions() != (map.width, map.depth) {
        return Err(AppError::Usage(format!(
            "{}: the colour map is {}x{} but the heightmap {} is {}x{}; they must match",
            path.display(),
            colors.width(),
            colors.height(),
            input.display(),
            map.width,
            map.depth
        )));
    }
    Ok(colormap_materials(table, colors.as_raw()))
}
