//! `strata import IN.raw OUT.strata --format raw --size X,Y,Z [--origin X,Y,Z]`: raw voxels into a new
//! project. Every voxel is checked (known material, no Air with occupancy) before anything is saved.
//! `--format vxr` and `--format v4` are handed to [`super::godot`], `--format heightmap` (the default
//! for `.png`) to [`super::heightmap`].

use std::path::{Path, PathBuf};

use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

use super::args::parse_triple;
use super::godot::{import_v4, import_vxr};
use super::heightmap;
use super::progress::with_bar;
use super::Format;
use crate::{AppError, AppResult};

/// `strata import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Input data file (a folder for --format vxr).
    input: PathBuf,
    /// Output project file (.strata).
    out: PathBuf,
    /// Input format (raw, vxr, v4 or heightmap); defaults to heightmap for .png, raw for .raw.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Size of the raw box, X,Y,Z; for heightmap the world's X,Z (default: the image's size).
    #[arg(long)]
    size: Option<String>,
    /// World position of the box's first voxel, X,Y,Z.
    #[arg(long, default_value = "0,0,0", allow_hyphen_values = true)]
    origin: String,
    /// Heightmap only: world height in voxels of the whitest sample (default 128).
    #[arg(long)]
    height: Option<u32>,
    /// Heightmap only: PNG of the same size whose colours pick each column's surface material.
    #[arg(long)]
    colormap: Option<PathBuf>,
}

impl ImportArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad arguments, unreadable input, invalid voxels, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let format = self
            .format
            .or_else(|| format_of(&self.input))
            .ok_or_else(|| {
                AppError::Usage(format!(
                    "cannot tell the format of {} from its extension: pass --format",
                    self.input.display()
                ))
            })?;
        let heightmap = HeightmapArgs {
            height: self.height,
            colormap: self.colormap.as_deref(),
        };
        run(
            &self.input,
            &self.out,
            format,
            self.size.as_deref(),
            &self.origin,
            heightmap,
        )
    }
}

/// The options only `--format heightmap` takes.
#[derive(Debug, Clone, Copy, Default)]
struct HeightmapArgs<'a> {
    /// `--height`: world height in voxels.
    height: Option<u32>,
    /// `--colormap`: PNG of surface colours.
    colormap: Option<&'a Path>,
}

/// The import format an input's extension names: `.png` is a heightmap, others as
/// [`Format::from_extension`].
fn format_of(input: &Path) -> Option<Format> {
    let png = input
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        Some(Format::Heightmap)
    } else {
        Format::from_extension(input)
    }
}

/// Decode and check raw bytes for a box of `size`; errors name the byte offset and voxel.
///
/// # Errors
/// Length mismatch, unknown material id, Air with occupancy.
pub fn decode_raw(
    bytes: &[u8],
    size: [u32; 3],
    materials: &MaterialTable,
) -> AppResult<Vec<Voxel>> {
    let count = u64::from(size[0]) * u64::from(size[1]) * u64::from(size[2]);
    let expected = count * 2;
    if bytes.len() as u64 != expected {
        return Err(AppError::Usage(format!(
            "the file has {} bytes but --size {},{},{} needs {expected} (2 bytes per voxel)",
            bytes.len(),
            size[0],
            size[1],
            size[2]
        )));
    }
    let (sx, sy) = (size[0] as usize, size[1] as usize);
    let mut voxels = Vec::with_capacity(count as usize);
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        let (m, o) = (pair[0], pair[1]);
        let at = || {
            format!(
                "byte {} (voxel {},{},{})",
                i * 2,
                i % sx,
                (i / sx) % sy,
                i / (sx * sy)
            )
        };
        if !materials.contains(m) {
            return Err(AppError::Usage(format!(
                "{}: unknown material id {m} (the table has {})",
                at(),
                materials.len()
            )));
        }
        if m == 0 && o != 0 {
            return Err(AppError::Usage(format!("{}: Air with occupancy {o}", at())));
        }
        voxels.push(Voxel::new(m, o));
    }
    Ok(voxels)
}

fn run(
    input: &Path,
    out: &Path,
    format: Format,
    size: Option<&str>,
    origin: &str,
    hm: HeightmapArgs<'_>,
) -> AppResult<()> {
    if format != Format::Heightmap && (hm.height.is_some() || hm.colormap.is_some()) {
        return Err(AppError::Usage(format!(
            "--height and --colormap apply to --format heightmap, not {}",
            format.name()
        )));
    }
    match format {
        Format::Raw => {}
        Format::Rle | Format::Obj | Format::Glb | Format::Light => {
            return Err(AppError::Usage(
                "import supports --format raw, vxr and v4, and heightmap for PNG images".into(),
            ))
        }
        Format::Heightmap if origin != "0,0,0" => {
            return Err(AppError::Usage(
                "--origin applies to --format raw and v4, not heightmap".into(),
            ))
        }
        Format::Heightmap => return heightmap::run(input, out, size, hm.height, hm.colormap),
        Format::Vxr | Format::V4 if size.is_some() => {
            return Err(AppError::Usage(format!(
                "--size applies to --format raw, not {}",
                format.name()
            )))
        }
        Format::Vxr if origin != "0,0,0" => {
            return Err(AppError::Usage(
                "--origin applies to --format raw and v4, not vxr".into(),
            ))
        }
        Format::Vxr => return import_vxr(input, out),
        Format::V4 => {
            let origin = VoxelPos::from(parse_triple::<i32>(origin, "--origin")?);
            return import_v4(input, out, origin);
        }
    }
    let size = parse_triple::<u32>(
        size.ok_or_else(|| AppError::Usage("--size X,Y,Z is required for --format raw".into()))?,
        "--size",
    )?;
    if size.contains(&0) {
        return Err(AppError::Usage(
            "--size must be positive on every axis".into(),
        ));
    }
    let origin = VoxelPos::from(parse_triple::<i32>(origin, "--origin")?);
    let fits = origin
        .to_array()
        .iter()
        .zip(size)
        .all(|(&o, s)| i64::from(o) + i64::from(s) <= i64::from(i32::MAX));
    if !fits {
        return Err(AppError::Usage(
            "--origin plus --size runs past the largest coordinate (2147483647)".into(),
        ));
    }
    let bytes = std::fs::read(input).map_err(|e| AppError::io(input, e))?;
    let materials = MaterialTable::builtin();
    let voxels = decode_raw(&bytes, size, &materials).map_err(|e| match e {
        AppError::Usage(m) => AppError::Usage(format!("{}: {m}", input.display())),
        other => other,
    })?;
    let region = VoxelBox::from_min_size(origin, size);
    let mut grid = Grid::new();
    grid.write_box(region, &voxels);
    let name = input.file_stem().map_or_else(
        || "imported".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let project = Project::new(ProjectHeader::new(name, region), grid);
    with_bar("saving", |p| project.save_with(out, p))?;
    Ok(())
}
