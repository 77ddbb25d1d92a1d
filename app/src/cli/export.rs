//! `strata export FILE OUT --format raw|rle|light --box X0,Y0,Z0,X1,Y1,Z1`: a box of voxels (or of
//! their baked light, 3 bytes each), streamed slab by slab (one Z slice at a time) into an atomically
//! written file. `--format vxr` and `--format v4` are
//! handed to [`super::godot`], `--format heightmap` to [`super::heightmap_export`].

use std::io::Write;
use std::path::{Path, PathBuf};

use strata_engine::codec::rle::RleEncoder;
use strata_engine::format::project::Project;
use strata_engine::format::AtomicFile;
use strata_engine::mesh::obj_material_path;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

use super::args::parse_box;
use super::godot::{export_v4, export_vxr, CompressionArg};
use super::heightmap_export::HeightmapArgs;
use super::mesh::export_mesh;
use super::progress::with_bar;
use super::project_edit::refuse_clobbering;
use super::scene::{export_scene, CompressArg, LightArg, OnOff, SceneArgs};
use super::Format;
use crate::{AppError, AppResult};

/// `strata export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Project file.
    file: PathBuf,
    /// Output file (a folder for --format vxr).
    out: PathBuf,
    /// Output format; defaults to the output's extension (.raw, .rle, .obj, .glb; .png and .r16
    /// are heightmaps).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (raw, rle and v4; optional for obj, glb and heightmap).
    #[arg(long = "box", allow_hyphen_values = true)]
    region: Option<String>,
    /// Block compression for vxr and v4 (default lz4).
    #[arg(long, value_enum)]
    compression: Option<CompressionArg>,
    /// Number of LOD levels for vxr, 1 to 4 (default 4).
    #[arg(long)]
    lods: Option<u8>,
    /// Mesh level of detail for obj and glb: 0 = full resolution, 1..=3 = coarser mips.
    #[arg(long)]
    lod: Option<u32>,
    /// Leave baked light out of obj and glb vertex colours.
    #[arg(long)]
    no_light: bool,
    /// Heightmap size W,H in pixels, resampled bilinearly (default: one pixel per column; Unity
    /// takes 1025, Unreal 1009).
    #[arg(long, allow_hyphen_values = true)]
    size: Option<String>,
    /// Heightmap: also write an RGBA splat map of the four most used surface materials.
    #[arg(long)]
    splat: Option<PathBuf>,
    /// Heightmap: also write one 8-bit weight map per surface material into this folder.
    #[arg(long)]
    layers: Option<PathBuf>,
    /// Tile side in voxels for --format scene (default 128).
    #[arg(long)]
    tile: Option<u32>,
    /// Collision nodes for --format scene (default on).
    #[arg(long, value_enum)]
    collision: Option<OnOff>,
    /// Baked light as COLOR_0 for --format scene (default: bake when the project has one).
    #[arg(long, value_enum)]
    light: Option<LightArg>,
    /// Vertex compression for --format scene (default none).
    #[arg(long, value_enum)]
    compress: Option<CompressArg>,
}

impl ExportArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Missing or bad box, options that do not apply to the format, unreadable project,
    /// unwritable output.
    pub fn run(self) -> AppResult<()> {
        let Self {
            file,
            out,
            format,
            region,
            compression,
            lods,
            lod,
            no_light,
            size,
            splat,
            layers,
            tile,
            collision,
            light,
            compress,
        } = self;
        let scene = SceneArgs {
            tile,
            lods,
            collision,
            light,
            compress,
            region: region.clone(),
        };
        let format = format
            .or_else(|| Format::from_extension(&out))
            .or_else(|| heightmap_extension(&out))
            .ok_or_else(|| {
                AppError::Usage(format!(
                    "cannot tell the format of {} from its extension: pass --format",
                    out.display()
                ))
            })?;
        let heightmap = HeightmapArgs {
            size,
            splat,
            layers,
            region,
        };
        if format == Format::Heightmap {
            if compression.is_some() || lods.is_some() || lod.is_some() || no_light || scene.any() {
                return Err(AppError::Usage(
                    "--compression, --lods, --lod, --no-light, --tile, --collision, --light and \
                     --compress do not apply to --format heightmap"
                        .into(),
                ));
            }
            return super::heightmap_export::run(&file, &out, heightmap);
        }
        if heightmap.size.is_some() || heightmap.splat.is_some() || heightmap.layers.is_some() {
            return Err(AppError::Usage(format!(
                "--size, --splat and --layers apply to --format heightmap, not {}",
                format.name()
            )));
        }
        let region = heightmap.region;
        let mut writes = vec![out.clone()];
        if format == Format::Obj {
            writes.push(obj_material_path(&out));
        }
        refuse_clobbering(&[&file], None, &writes)?;
        if format == Format::Scene {
            if compression.is_some() || lod.is_some() || no_light {
                return Err(AppError::Usage(
                    "--compression, --lod and --no-light do not apply to --format scene (see --compress, --lods, --light)".into(),
                ));
            }
            return export_scene(&file, &out, &scene);
        }
        if scene.any() {
            return Err(AppError::Usage(format!(
                "--tile, --collision, --light and --compress apply to --format scene, not {}",
                format.name()
            )));
        }
        if let Format::Obj | Format::Glb = format {
            if compression.is_some() || lods.is_some() {
                return Err(AppError::Usage(
                    "--compression and --lods apply to vxr and v4, not mesh exports".into(),
                ));
            }
            return export_mesh(
                &file,
                &out,
                format,
                lod.unwrap_or(0),
                region.as_deref(),
                !no_light,
            );
        }
        if no_light {
            return Err(AppError::Usage(format!(
                "--no-light applies to obj and glb exports, not {}",
                format.name()
            )));
        }
        if lod.is_some() {
            return Err(AppError::Usage(format!(
                "--lod applies to obj and glb exports, not {}",
                format.name()
            )));
        }
        run(
            &file,
            &out,
            format,
            region.as_deref(),
            GodotArgs { compression, lods },
        )
    }
}

/// `.png` and `.r16` outputs are heightmaps.
fn heightmap_extension(out: &Path) -> Option<Format> {
    let ext = out.extension()?.to_str()?.to_ascii_lowercase();
    matches!(ext.as_str(), "png" | "r16").then_some(Format::Heightmap)
}

/// The options that only godot_voxel formats take.
#[derive(Debug, Clone, Copy, Default)]
struct GodotArgs {
    /// `--compression` (vxr and v4).
    compression: Option<CompressionArg>,
    /// `--lods` (vxr).
    lods: Option<u8>,
}

fn run(
    file: &Path,
    out: &Path,
    format: Format,
    region: Option<&str>,
    godot: GodotArgs,
) -> AppResult<()> {
    let name = format.name();
    if godot.lods.is_some() && format != Format::Vxr {
        return Err(AppError::Usage(format!(
            "--lods applies to --format vxr, not {name}"
        )));
    }
    if godot.compression.is_some() && matches!(format, Format::Raw | Format::Rle | Format::Light) {
        return Err(AppError::Usage(format!(
            "--compression applies to --format vxr and v4, not {name}"
        )));
    }
    if format == Format::Vxr {
        if region.is_some() {
            return Err(AppError::Usage(
                "--format vxr exports the whole world; --box does not apply".into(),
            ));
        }
        return export_vxr(file, out, godot.compression, godot.lods);
    }
    let region = parse_box(region.ok_or_else(|| {
        AppError::Usage(format!(
            "--box X0,Y0,Z0,X1,Y1,Z1 is required for --format {name}"
        ))
    })?)?;
    if format == Format::V4 {
        return export_v4(file, out, region, godot.compression);
    }
    check_box_size(region, format)?;
    let project = super::project_edit::load(file)?;
    if format == Format::Light && project.light.is_none() {
        return Err(AppError::Usage(format!(
            "{} has no baked light: run `strata bake {}` first",
            file.display(),
            file.display()
        )));
    }
    check_free_space(&project, region, format, out)?;
    with_bar("exporting", |p| {
        p.start(region.size()[2] as u64);
        let mut writer = AtomicFile::create(out)?;
        let target = writer.target().to_path_buf();
        stream_box(&project, region, format, p, &mut |bytes| {
            writer
                .write_all(bytes)
                .map_err(|e| AppError::io(&target, e))
        })?;
        writer.commit()?;
        Ok(())
    })
}

/// Largest box `export --format raw|rle|light` accepts: 2³⁴ voxels (a raw file of 32 GiB).
pub const MAX_EXPORT_VOXELS: u64 = 1 << 34;
/// Voxels read from the grid at a time: the export's memory stays near this many voxels (2 MiB raw)
/// whatever the box's size.
const PIECE_VOXELS: usize = 1 << 20;

/// Refuse boxes outside the coordinate range or over [`MAX_EXPORT_VOXELS`], before anything is read
/// or written.
fn check_box_size(region: VoxelBox, format: Format) -> AppResult<()> {
    region.check_range("--box")?;
    let volume = region.volume() as u64;
    if volume > MAX_EXPORT_VOXELS {
        let [x, y, z] = region.size();
        return Err(AppError::Usage(format!(
            "--box is {x}x{y}x{z} = {volume} voxels; --format {} exports at most {MAX_EXPORT_VOXELS} \
             voxels (2^34) at once: split the box",
            format.name()
        )));
    }
    Ok(())
}

/// Refuse an export that cannot fit on the output's disk, before writing anything. Raw and light
/// sizes are exact (2 or 3 bytes per voxel); an RLE stream's size is counted with a dry run only when
/// its worst case (2 bytes per voxel) would not fit.
fn check_free_space(
    project: &Project,
    region: VoxelBox,
    format: Format,
    out: &Path,
) -> AppResult<()> {
    let Some(free) = free_space(out) else {
        return Ok(());
    };
    let per_voxel = if format == Format::Light { 3 } else { 2 };
    let mut need = region.volume() as u64 * per_voxel;
    if format == Format::Rle && need > free {
        need = 0;
        stream_box(
            project,
            region,
            format,
            &strata_engine::progress::Progress::new(),
            &mut |b| {
                need += b.len() as u64;
                Ok(())
            },
        )?;
    }
    if need > free {
        return Err(AppError::Usage(format!(
            "{}: the export needs {need} bytes but its disk has {free} bytes free; nothing was written",
            out.display()
        )));
    }
    Ok(())
}

/// Bytes free for an unprivileged writer on the disk that holds `out`'s folder, where known.
#[cfg(unix)]
fn free_space(out: &Path) -> Option<u64> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
fn free_space(_out: &Path) -> Option<u64> {
    None
}

/// Encode `region` of `project` as `format` (raw, RLE or light) in file order (X fastest, then Y, then
/// Z), handing the bytes to `sink` a piece at a time: whole Z slabs when they hold at most
/// [`PIECE_VOXELS`], else runs of whole rows, else pieces of a row. Memory stays constant.
fn stream_box(
    project: &Project,
    region: VoxelBox,
    format: Format,
    progress: &strata_engine::progress::Progress,
    sink: &mut dyn FnMut(&[u8]) -> AppResult<()>,
) -> AppResult<()> {
    let [sx, sy, _] = region.size();
    let (rows, x_step) = if sx.saturating_mul(sy) <= PIECE_VOXELS {
        (sy, sx)
    } else if sx <= PIECE_VOXELS {
        (PIECE_VOXELS / sx, sx)
    } else {
        (1, PIECE_VOXELS)
    };
    let mut encoder = RleEncoder::new();
    let mut bytes = Vec::new();
    let mut voxels = Vec::new();
    let min = region.min;
    for z in region.min.z..region.max.z {
        progress.check()?;
        for y in (0..sy).step_by(rows) {
            for x in (0..sx).step_by(x_step) {
                let lo = VoxelPos::new(min.x + x as i32, min.y + y as i32, z);
                let size = [(sx - x).min(x_step) as u32, (sy - y).min(rows) as u32, 1];
                let b = VoxelBox::from_min_size(lo, size);
                bytes.clear();
                match (format, &project.light) {
                    (Format::Light, Some(light)) => {
                        bytes.resize(b.volume() * 3, 0);
                        light.rgb8_box(b, &mut bytes);
                    }
                    (Format::Raw, _) => {
                        voxels.resize(b.volume(), Voxel::AIR);
                        project.grid.read_box(b, &mut voxels);
                        bytes.extend(voxels.iter().flat_map(|v| [v.material, v.occupancy]));
                    }
                    _ => {
                        voxels.resize(b.volume(), Voxel::AIR);
                        project.grid.read_box(b, &mut voxels);
                        encoder.push(&voxels, &mut bytes);
                    }
                }
                sink(&bytes)?;
            }
        }
        progress.advance(1);
    }
    bytes.clear();
    encoder.finish(&mut bytes);
    sink(&bytes)
}
