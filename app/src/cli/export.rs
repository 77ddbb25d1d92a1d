//! `strata export FILE OUT --format raw|rle --box X0,Y0,Z0,X1,Y1,Z1`: a box of voxels, streamed slab by
//! slab (one Z slice at a time) into an atomically written file. `--format vxr` and `--format v4` are
//! handed to [`super::godot`].

use std::io::Write;
use std::path::Path;

use strata_engine::format::project::Project;
use strata_engine::format::rle::RleEncoder;
use strata_engine::format::AtomicFile;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

use super::args::parse_box;
use super::godot::{export_v4, export_vxr, CompressionArg};
use super::progress::with_bar;
use super::Format;
use crate::{AppError, AppResult};

/// The options that only godot_voxel formats take.
#[derive(Debug, Clone, Copy, Default)]
pub struct GodotArgs {
    /// `--compression` (vxr and v4).
    pub compression: Option<CompressionArg>,
    /// `--lods` (vxr).
    pub lods: Option<u8>,
}

/// Run the command.
///
/// # Errors
/// Missing or bad box, options that do not apply to the format, unreadable project, unwritable
/// output.
pub fn run(
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
    if godot.compression.is_some() && matches!(format, Format::Raw | Format::Rle) {
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
            project.grid.read_box(b, &mut slab);
            bytes.clear();
            match format {
                Format::Raw => bytes.extend(slab.iter().flat_map(|v| [v.material, v.occupancy])),
                _ => encoder.push(&slab, &mut bytes),
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
