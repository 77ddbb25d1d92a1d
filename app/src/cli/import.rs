//! `strata import IN.raw OUT.strata --format raw --size X,Y,Z [--origin X,Y,Z]`: raw voxels into a new
//! project, and `strata import IN.rle OUT.strata --format rle --size X,Y,Z [--origin X,Y,Z]` the same
//! from the RLE stream `export --format rle` writes. Every voxel is checked (known material, no
//! Air with occupancy; for RLE also the stream's own rules) before anything is saved.
//! `--format vxr` and `--format v4` are handed to [`super::godot`], `--format heightmap` (the default
//! for `.png`) to [`super::heightmap`].

use std::path::{Path, PathBuf};

use strata_engine::codec::rle::Runs;
use strata_engine::format::input::{check_input, read_input, MAX_VOXEL_STREAM_BYTES};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

use super::args::parse_triple;
use super::godot::{checked_region, import_v4, import_vxr};
use super::heightmap;
use super::progress::with_bar;
use super::project_edit::refuse_clobbering;
use super::Format;
use crate::{AppError, AppResult};

/// `strata import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Input data file (a folder for --format vxr).
    input: PathBuf,
    /// Output project file (.strata).
    out: PathBuf,
    /// Input format (raw, rle, vxr, v4 or heightmap); defaults to heightmap for .png, raw for .raw,
    /// rle for .rle.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Size of the raw or rle box, X,Y,Z; for heightmap the world's X,Z (default: the image's size).
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
    /// Heightmap only: smooth away the terraces of 8-bit maps, over a radius of R pixels (0 to 64;
    /// 8 when R is left out). Cliffs stay sharp: no sample moves by more than half a grey level.
    #[arg(long, value_name = "R", num_args = 0..=1, default_missing_value = "8")]
    smooth: Option<u32>,
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
            smooth: self.smooth,
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
    /// `--smooth`: terrace smoothing radius.
    smooth: Option<u32>,
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
    let mut reads = vec![input];
    reads.extend(hm.colormap);
    refuse_clobbering(&reads, None, &[out.to_path_buf()])?;
    if format != Format::Heightmap
        && (hm.height.is_some() || hm.colormap.is_some() || hm.smooth.is_some())
    {
        return Err(AppError::Usage(format!(
            "--height, --colormap and --smooth apply to --format heightmap, not {}",
            format.name()
        )));
    }
    match format {
        Format::Raw | Format::Rle => {}
        Format::Obj | Format::Glb | Format::Light | Format::Scene => {
            return Err(AppError::Usage(
                "import supports --format raw, rle, vxr and v4, and heightmap for PNG images"
                    .into(),
            ))
        }
        Format::Heightmap if origin != "0,0,0" => {
            return Err(AppError::Usage(
                "--origin applies to --format raw, rle and v4, not heightmap".into(),
            ))
        }
        Format::Heightmap => {
            return heightmap::run(input, out, size, hm.height, hm.colormap, hm.smooth)
        }
        Format::Vxr | Format::V4 if size.is_some() => {
            return Err(AppError::Usage(format!(
                "--size applies to --format raw and rle, not {}",
                format.name()
            )))
        }
        Format::Vxr if origin != "0,0,0" => {
            return Err(AppError::Usage(
                "--origin applies to --format raw, rle and v4, not vxr".into(),
            ))
        }
        Format::Vxr => return import_vxr(input, out),
        Format::V4 => {
            let origin = VoxelPos::from(parse_triple::<i32>(origin, "--origin")?);
            return import_v4(input, out, origin);
        }
    }
    let size = parse_triple::<u32>(
        size.ok_or_else(|| {
            AppError::Usage(format!(
                "--size X,Y,Z is required for --format {}",
                format.name()
            ))
        })?,
        "--size",
    )?;
    if size.contains(&0) {
        return Err(AppError::Usage(
            "--size must be positive on every axis".into(),
        ));
    }
    let origin = VoxelPos::from(parse_triple::<i32>(origin, "--origin")?);
    let region = checked_region(origin, size, "--origin plus --size")?;
    if format == Format::Raw {
        // The length is known from --size: refuse a mismatch before reading anything.
        let len = check_input(input, MAX_VOXEL_STREAM_BYTES)?;
        let expected = region.volume() as u64 * 2;
        if len != expected {
            return Err(AppError::Usage(format!(
                "{}: the file has {len} bytes but --size {},{},{} needs {expected} (2 bytes per voxel)",
                input.display(),
                size[0],
                size[1],
                size[2]
            )));
        }
    }
    let bytes = read_input(input, MAX_VOXEL_STREAM_BYTES)?;
    let materials = MaterialTable::builtin();
    let in_input = |e: AppError| match e {
        AppError::Usage(m) => AppError::Usage(format!("{}: {m}", input.display())),
        AppError::Engine(e) => AppError::Engine(e.in_file(input)),
        other => other,
    };
    let grid = if format == Format::Rle {
        with_bar("decoding", |p| rle_grid(&bytes, region, &materials, p)).map_err(in_input)?
    } else {
        let voxels = decode_raw(&bytes, size, &materials).map_err(in_input)?;
        let mut grid = Grid::new();
        grid.write_box(region, &voxels);
        grid
    };
    let name = input.file_stem().map_or_else(
        || "imported".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let project = Project::new(ProjectHeader::new(name, region), grid);
    with_bar("saving", |p| project.save_with(out, p))?;
    Ok(())
}

/// Most voxels one RLE byte can describe: a two-byte record holds at most 256.
const RLE_VOXELS_PER_BYTE: u64 = 128;
/// Voxels decoded before they are written to the grid (whole X rows of one Z slab at a time).
const RLE_BATCH_VOXELS: usize = 1 << 20;

/// Decode an RLE stream for `region` into a new grid, a batch of whole X rows at a time, so memory
/// stays near the size of the stored grid whatever the box's size. Errors name the byte offset (and
/// for unknown materials the voxel), relative to the box.
///
/// # Errors
/// A stream that cannot describe the box (too short for `--size`, cut short, runs past it, bytes
/// after it), the reserved count byte, Air with occupancy, unknown material ids.
pub fn rle_grid(
    bytes: &[u8],
    region: VoxelBox,
    materials: &MaterialTable,
    progress: &strata_engine::progress::Progress,
) -> AppResult<Grid> {
    let [sx, sy, sz] = region.size().map(|s| s as u64);
    let total = sx * sy * sz;
    let most = bytes.len() as u64 * RLE_VOXELS_PER_BYTE;
    if total > most {
        return Err(AppError::Usage(format!(
            "the stream has {} bytes, which can describe at most {most} voxels, but --size {sx},{sy},{sz} needs {total}",
            bytes.len()
        )));
    }
    let at = |i: u64| format!("{},{},{}", i % sx, (i / sx) % sy, i / (sx * sy));
    // Batches are whole X rows of one Z slab: at most RLE_BATCH_VOXELS, at least one row.
    let rows_per_batch = (RLE_BATCH_VOXELS as u64 / sx).clamp(1, sy);
    let batch_at = |first: u64| {
        let (y, z) = ((first / sx) % sy, first / (sx * sy));
        let rows = rows_per_batch.min(sy - y);
        let min = region.min;
        let lo = VoxelPos::new(min.x, min.y + y as i32, min.z + z as i32);
        VoxelBox::from_min_size(lo, [sx as u32, rows as u32, 1])
    };
    progress.start(total);
    let mut grid = Grid::new();
    let mut batch = batch_at(0);
    let mut buf: Vec<Voxel> = Vec::with_capacity(batch.volume());
    let mut first = 0u64;
    for run in Runs::new(bytes, total) {
        let run = run?;
        let v = run.voxel;
        if !materials.contains(v.material) {
            return Err(AppError::Usage(format!(
                "byte {} (voxel {}): unknown material id {} (the table has {})",
                run.offset,
                at(run.first),
                v.material,
                materials.len()
            )));
        }
        let mut left = run.count;
        while left > 0 {
            let take = left.min(batch.volume() - buf.len());
            buf.resize(buf.len() + take, v);
            left -= take;
            if buf.len() == batch.volume() {
                // The grid starts empty, so an all-Air batch changes nothing.
                if buf.iter().any(|&w| w != Voxel::AIR) {
                    grid.write_box(batch, &buf);
                }
                first += buf.len() as u64;
                progress.advance(buf.len() as u64);
                buf.clear();
                if first < total {
                    batch = batch_at(first);
                }
            }
        }
    }
    Ok(grid)
}
