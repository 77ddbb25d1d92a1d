//! `strata export FILE OUT --format raw|rle|light --box X0,Y0,Z0,X1,Y1,Z1`: a box of voxels (or of
//! their baked light, 3 bytes each), streamed slab by slab (one Z slice at a time) into an atomically
//! written file. `--format vxr` and `--format v4` are
//! handed to [`super::godot`].

use std::io::Write;
use std::path::{Path, PathBuf};

use strata_engine::codec::rle::RleEncoder;
use strata_engine::format::project::Project;
use strata_engine::format::{refuse_same_file, AtomicFile};
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

use super::args::parse_box;
use super::godot::{export_v4, export_vxr, CompressionArg};
use super::mesh::export_mesh;
use super::progress::with_bar;
use super::Format;
use crate::{AppError, AppResult};

/// `strata export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Project file.
    file: PathBuf,
    /// Output file (a folder for --format vxr).
    out: PathBuf,
    /// Output format; defaults to the output's extension (.raw, .rle, .obj, .glb).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (raw, rle and v4; optional for obj and glb).
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
        } = self;
        refuse_same_file(&file, &out)?;
        let format = format
            .or_else(|| Format::from_extension(&out))
            .ok_or_else(|| {
                AppError::Usage(format!(
                    "cannot tell the format of {} from its extension: pass --format",
                    out.display()
                ))
            })?;
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
        if format == Format::Heightmap {
            return Err(AppError::Usage(
                "heightmap is an import format; `strata render` draws a top-down image".into(),
            ));
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
    let project = with_bar("loading", |p| Project::load_with(file, p))?;
    if format == Format::Light && project.light.is_none() {
        return Err(AppError::Usage(format!(
            "{} has no baked light: run `strata bake {}` first",
            file.display(),
            file.display()
        )));
    }
    with_bar("exporting", |p| {
        let [_, _, sz] = region.size();
        p.start(sz as u64);
        let mut writer = AtomicFile::create(out)?;
        let mut encoder = RleEncoder::new();
        let mut bytes = Vec::new();
        let mut slab = Vec::new();
        for z in region.min.z..region.max.z {
            let b = VoxelBox::new(
                VoxelPos::new(region.min.x, region.min.y, z),
                VoxelPos::new(region.max.x, region.max.y, z + 1),
            );
            slab.resize(b.volume(), Voxel::AIR);
            bytes.clear();
            match (format, &project.light) {
                (Format::Light, Some(light)) => {
                    bytes.resize(b.volume() * 3, 0);
                    light.rgb8_box(b, &mut bytes);
                }
                (Format::Raw, _) => {
                    project.grid.read_box(b, &mut slab);
                    bytes.extend(slab.iter().flat_map(|v| [v.material, v.occupancy]));
                }
                _ => {
                    project.grid.read_box(b, &mut slab);
                    encoder.push(&slab, &mut bytes);
                }
            }
            writer.write_all(&bytes).map_err(|e| AppError::io(out, e))?;
            p.advance(1);
        }
        bytes.clear();
        encoder.finish(&mut bytes);
        writer.write_all(&bytes).map_err(|e| AppError::io(out, e))?;
        writer.commit()?;
        Ok(())
    })
}
