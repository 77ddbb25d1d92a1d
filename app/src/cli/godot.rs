//! godot_voxel formats on the command line:
//!
//! - `export FILE OUT_DIR --format vxr [--compression lz4|zstd|none] [--lods N]`: a region forest;
//! - `import IN_DIR OUT.strata --format vxr`;
//! - `export FILE OUT --format v4 --box X0,Y0,Z0,X1,Y1,Z1 [--compression ...]`: one v4 block in a
//!   compressed container;
//! - `import IN OUT.strata --format v4 [--origin X,Y,Z]`.

use std::path::Path;

use clap::ValueEnum;
use strata_engine::format::godot::{
    block_of_box, block_to_voxel_vec, container, export_forest, import_forest, BlockData,
    ForestOptions, ImportReport, ImportRules, MAX_LODS,
};
use strata_engine::format::input::{read_input, MAX_BLOCK_BYTES};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::format::write_atomic;
use strata_engine::storage::Grid;
use strata_engine::voxel::{VoxelBox, VoxelPos, COORD_LIMIT};

use super::progress::with_bar;
use crate::{AppError, AppResult};

/// Largest v4 file `import --format v4` reads whole (a block's decompressed size is capped separately).
const MAX_V4_DECOMPRESSED: usize = 1 << 30;

/// Block compression for godot_voxel exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompressionArg {
    /// Raw LZ4 block (godot_voxel's default).
    Lz4,
    /// Zstandard frame.
    Zstd,
    /// No compression.
    None,
}

impl From<CompressionArg> for container::Compression {
    fn from(c: CompressionArg) -> Self {
        match c {
            CompressionArg::Lz4 => container::Compression::Lz4,
            CompressionArg::Zstd => container::Compression::Zstd,
            CompressionArg::None => container::Compression::None,
        }
    }
}

/// `export --format vxr`.
///
/// # Errors
/// Bad `--lods`, unreadable project, unwritable folder.
pub fn export_vxr(
    file: &Path,
    out_dir: &Path,
    compression: Option<CompressionArg>,
    lods: Option<u8>,
) -> AppResult<()> {
    let lods = lods.unwrap_or(MAX_LODS);
    if !(1..=MAX_LODS).contains(&lods) {
        return Err(AppError::Usage(format!(
            "--lods must be 1 to {MAX_LODS}, got {lods}"
        )));
    }
    let options = ForestOptions {
        compression: compression.map_or(container::Compression::Lz4, Into::into),
        lods,
    };
    let project = super::project_edit::load(file)?;
    let report = with_bar("exporting", |p| {
        export_forest(
            &project.grid,
            Some(project.header.bounds),
            out_dir,
            &options,
            p,
        )
    })?;
    note!(
        "{}: {} region files, blocks per LOD {:?}, {} bytes{}",
        out_dir.display(),
        report.files,
        report.blocks,
        report.bytes,
        if report.removed > 0 {
            format!(", {} stale region files removed", report.removed)
        } else {
            String::new()
        }
    )?;
    Ok(())
}

/// `import --format vxr`.
///
/// # Errors
/// Unreadable or malformed forest, unwritable output.
pub fn import_vxr(in_dir: &Path, out: &Path) -> AppResult<()> {
    let imported = with_bar("importing", |p| {
        import_forest(in_dir, &ImportRules::default(), p)
    })?;
    note_fallback(&imported.report)?;
    for path in &imported.skipped {
        note!(
            "note: skipped {}: not a region file name (r.X.Y.Z.vxr)",
            crate::cli::escape::display(path)
        )?;
    }
    note!(
        "{}: {} region files, {} blocks imported{}",
        in_dir.display(),
        imported.regions,
        imported.blocks,
        if imported.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} files skipped", imported.skipped.len())
        }
    )?;
    let project = Project::new(
        ProjectHeader::new(stem(in_dir), imported.bounds),
        imported.grid,
    );
    with_bar("saving", |p| project.save_with(out, p))?;
    Ok(())
}

/// `export --format v4`.
///
/// # Errors
/// A box over the block limits, unreadable project, unwritable output.
pub fn export_v4(
    file: &Path,
    out: &Path,
    region: VoxelBox,
    compression: Option<CompressionArg>,
) -> AppResult<()> {
    let project = super::project_edit::load(file)?;
    let bytes = with_bar("exporting", |_| -> AppResult<Vec<u8>> {
        let block = block_of_box(&project.grid, region)?;
        let payload = block.to_bytes()?;
        let mut bytes = Vec::new();
        let c = compression.map_or(container::Compression::Lz4, Into::into);
        container::compress(&payload, c, &mut bytes)?;
        Ok(bytes)
    })?;
    write_atomic(out, &bytes)?;
    Ok(())
}

/// `import --format v4`: a compressed container holding one block, or a bare block (what
/// godot_voxel's script API writes without compression), placed at `origin`.
///
/// # Errors
/// Unreadable or malformed input, a block past the coordinate range, unwritable output.
pub fn import_v4(input: &Path, out: &Path, origin: VoxelPos) -> AppResult<()> {
    let bytes = read_input(input, MAX_BLOCK_BYTES)?;
    let decode = || -> strata_engine::Result<BlockData> {
        if bytes.first() == Some(&strata_engine::format::godot::BLOCK_VERSION) {
            return BlockData::decode(&bytes).map_err(|e| with_offset(e, None));
        }
        let payload = container::decompress(&bytes, MAX_V4_DECOMPRESSED)?;
        BlockData::decode(&payload).map_err(|e| with_offset(e, Some("decompressed ")))
    };
    let block = decode().map_err(|e| e.in_file(input))?;
    let size = block.size.map(u32::from);
    let region = checked_region(origin, size, "--origin plus the block size")?;
    let (voxels, report) = block_to_voxel_vec(&block, &ImportRules::default())?;
    note_fallback(&report)?;
    let mut grid = Grid::new();
    grid.write_box(region, &voxels);
    let project = Project::new(ProjectHeader::new(stem(input), region), grid);
    with_bar("saving", |p| project.save_with(out, p))?;
    Ok(())
}

/// A block decode error with a byte offset: a version error is at byte 0 of the block, and errors in a
/// decompressed block are reported at the container's start with the offset inside the block.
fn with_offset(e: strata_engine::Error, decompressed: Option<&str>) -> strata_engine::Error {
    use strata_engine::Error;
    match (e, decompressed) {
        (Error::Corrupt { offset, reason }, Some(what)) => {
            Error::corrupt(0, format!("{what}byte {offset}: {reason}"))
        }
        (e @ Error::UnsupportedVersion { .. }, what) => {
            Error::corrupt(0, format!("{}byte 0: {e}", what.unwrap_or("")))
        }
        (other, _) => other,
    }
}

/// The box of `size` voxels at `origin`, refused (naming `what`) unless it lies in the world's
/// coordinate range.
///
/// # Errors
/// [`AppError::Usage`] naming the range.
pub fn checked_region(origin: VoxelPos, size: [u32; 3], what: &str) -> AppResult<VoxelBox> {
    let fits = origin
        .to_array()
        .iter()
        .zip(size)
        .all(|(&o, s)| i64::from(o) + i64::from(s) <= i64::from(COORD_LIMIT));
    let region = VoxelBox::from_min_size(origin, size);
    if !fits || !region.in_range() {
        return Err(AppError::Usage(format!(
            "{what} ({},{},{} plus {},{},{}) runs outside the world's coordinate range: every voxel \
             coordinate must be {} to {}",
            origin.x,
            origin.y,
            origin.z,
            size[0],
            size[1],
            size[2],
            -COORD_LIMIT,
            COORD_LIMIT - 1
        )));
    }
    Ok(region)
}

fn stem(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "imported".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

fn note_fallback(report: &ImportReport) -> AppResult<()> {
    if report.fallback_voxels > 0 {
        note!(
            "note: {} voxels had TYPE 0 or an unknown material id and became the fallback material",
            report.fallback_voxels
        )?;
    }
    Ok(())
}
