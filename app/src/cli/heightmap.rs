//! `strata import MAP.png OUT.strata --format heightmap [--height H] [--colormap COLORS.png]
//! [--size X,Z]`: a grayscale PNG heightmap (8- or 16-bit; colour images by luminance) into a new
//! project, with surface materials from an optional colour map of the same size.
//!
//! PNG decoding is the `image` crate's (png only), behind size limits so a hostile file cannot ask for
//! gigabytes; every failure names the file.

use std::path::Path;
use std::time::Instant;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{
    colormap_materials, heightmap_grid, Heightmap, HeightmapSettings, MAX_HORIZONTAL_SIZE,
};
use strata_engine::progress::Progress;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

use super::args::parse_pair;
use super::progress::with_bar;
use crate::{AppError, AppResult};

/// World height in voxels when `--height` is not given.
pub const DEFAULT_HEIGHT: u32 = 128;

/// Decode the PNG at `path`.
///
/// # Errors
/// Unreadable file, not a PNG, corrupt data, or sides above the largest world.
pub fn read_png(path: &Path) -> AppResult<DynamicImage> {
    let bytes = std::fs::read(path).map_err(|e| AppError::io(path, e))?;
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), ImageFormat::Png);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_HORIZONTAL_SIZE);
    limits.max_image_height = Some(MAX_HORIZONTAL_SIZE);
    limits.max_alloc = Some(2 << 30);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| AppError::Usage(format!("{}: not a readable PNG image: {e}", path.display())))
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

/// Build a project from the heightmap PNG at `input` (and the colour map at `colormap`, which must have
/// the same size): `size` is the world's X,Z (default: one voxel per pixel), `height` its Y (default
/// [`DEFAULT_HEIGHT`]). Used by this command and by the editor's File ▸ Import Heightmap.
///
/// # Errors
/// Unreadable or corrupt PNGs, a colour map whose size differs from the heightmap's, sizes out of
/// range, cancellation.
pub fn build_project(
    input: &Path,
    colormap: Option<&Path>,
    size: Option<[u32; 2]>,
    height: Option<u32>,
    progress: &Progress,
) -> AppResult<Project> {
    let height = height.unwrap_or(DEFAULT_HEIGHT);
    let map = heightmap_of(&read_png(input)?);
    let size = size.unwrap_or([map.width, map.depth]);
    let table = MaterialTable::builtin();
    let materials = match colormap {
        None => None,
        Some(path) => {
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
            Some(colormap_materials(&table, colors.as_raw()))
        }
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

/// Run the command.
///
/// # Errors
/// Bad arguments, unreadable or corrupt PNGs, a colour map whose size differs from the heightmap's,
/// an unwritable output.
pub fn run(
    input: &Path,
    out: &Path,
    size: Option<&str>,
    height: Option<u32>,
    colormap: Option<&Path>,
) -> AppResult<()> {
    let size = size
        .map(|text| parse_pair::<u32>(text, "--size X,Z"))
        .transpose()?;
    let started = Instant::now();
    let project = with_bar("building", |p| {
        build_project(input, colormap, size, height, p)
    })?;
    let built = started.elapsed();
    with_bar("saving", |p| project.save_with(out, p))?;
    let [sx, sy, sz] = project.header.bounds.size();
    eprintln!(
        "{}: {} -> {}x{}x{} voxels, {} chunks, built in {:.2}s",
        out.display(),
        input.display(),
        sx,
        sy,
        sz,
        project.grid.chunk_count(),
        built.as_secs_f64()
    );
    Ok(())
}
