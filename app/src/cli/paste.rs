//! `strata paste FILE STAMP.strata --at X,Y,Z [--rotate 0|90|180|270] [--mirror x|y|z]
//! [--mode replace|merge|air] [-o OUT]`: place a stamp's box (its header bounds) with its minimum
//! corner at `--at`, as one undo step saved in the history.
//!
//! `--rotate 90` turns the stamp a quarter turn about +Y, counterclockwise seen from above: voxel
//! (x, y, z) of a stamp sized (sx, sy, sz) lands at (z, y, sx − 1 − x) and the turned stamp is sized
//! (sz, sy, sx); 180 and 270 repeat the turn. `--mirror` then flips the turned stamp on that axis.
//! Material ids move to the world's table by name. Parts of the stamp past the world's bounds are
//! clipped (and said).

use std::path::PathBuf;

use clap::ValueEnum;
use strata_engine::gen::{MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE};
use strata_engine::region::{Axis, PasteMode, Region};
use strata_engine::voxel::VoxelPos;

use super::args::parse_triple;
use super::progress::with_bar;
use super::project_edit::{fmt_box, fmt_pos, fmt_size, load, open_for_edit, region_edit, save};
use crate::region::region_op::RegionOp;
use crate::{AppError, AppResult};

/// `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Write every stamp voxel, Air included.
    Replace,
    /// Keep, per voxel, the higher occupancy (Air counts 0; a tie keeps the world's voxel).
    Merge,
    /// Write stamp voxels only where the world holds Air.
    Air,
}

impl From<ModeArg> for PasteMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Replace => PasteMode::Replace,
            ModeArg::Merge => PasteMode::Merge,
            ModeArg::Air => PasteMode::AirOnly,
        }
    }
}

/// `--mirror`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MirrorArg {
    /// Flip east–west.
    X,
    /// Flip up–down.
    Y,
    /// Flip north–south.
    Z,
}

impl From<MirrorArg> for Axis {
    fn from(m: MirrorArg) -> Self {
        match m {
            MirrorArg::X => Axis::X,
            MirrorArg::Y => Axis::Y,
            MirrorArg::Z => Axis::Z,
        }
    }
}

/// `strata paste`.
#[derive(Debug, clap::Args)]
pub struct PasteArgs {
    /// Project file to paste into.
    file: PathBuf,
    /// Stamp file (a .strata project; its header bounds are the box pasted).
    stamp: PathBuf,
    /// World position of the (turned) stamp's minimum corner, X,Y,Z.
    #[arg(long, allow_hyphen_values = true)]
    at: String,
    /// Quarter turns about +Y, counterclockwise seen from above, in degrees.
    #[arg(long, default_value = "0", value_parser = ["0", "90", "180", "270"])]
    rotate: String,
    /// Flip the turned stamp on this axis.
    #[arg(long, value_enum)]
    mirror: Option<MirrorArg>,
    /// How stamp voxels combine with the world's.
    #[arg(long, value_enum, default_value = "replace")]
    mode: ModeArg,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl PasteArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad arguments, an unreadable or corrupt stamp, a stamp larger than the world or its limits,
    /// a stamp using a material the world lacks, a placement entirely outside the world,
    /// unwritable output.
    pub fn run(self) -> AppResult<()> {
        let at = VoxelPos::from(parse_triple::<i32>(&self.at, "--at")?);
        let turns = match self.rotate.as_str() {
            "90" => 1,
            "180" => 2,
            "270" => 3,
            _ => 0,
        };
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[&self.stamp])?;
        let stamp = load(&self.stamp)?;
        let stamp_size = check_stamp_size(&stamp.header.bounds, &self.stamp)?;
        let turned_size = if turns % 2 == 1 {
            [stamp_size[2], stamp_size[1], stamp_size[0]]
        } else {
            stamp_size
        };
        let world = doc.bounds().size();
        if turned_size.iter().zip(world).any(|(&s, w)| s as usize > w) {
            return Err(AppError::Usage(format!(
                "the stamp {} is {} voxels{}, larger than the world {} ({})",
                self.stamp.display(),
                fmt_size(turned_size),
                if turns % 2 == 1 { " once turned" } else { "" },
                self.file.display(),
                fmt_size(world.map(|w| w as u32))
            )));
        }
        let mut region = with_bar("reading stamp", |p| {
            Region::copy_with(&stamp.grid, stamp.header.bounds, p)
        })
        .map_err(|e| e.in_file(&self.stamp))?;
        region
            .remap_materials(&stamp.header.materials, doc.materials())
            .map_err(|e| e.in_file(&self.stamp))?;
        let mut region = region.rotated(Axis::Y, turns);
        if let Some(m) = self.mirror {
            region = region.mirrored(m.into());
        }
        let bounds = doc.bounds();
        let placed = region.placed_at(at);
        let Some((kept, local)) = region.clip_to(at, bounds) else {
            return Err(AppError::Usage(format!(
                "the stamp placed at {} covers {}, entirely outside the world {} (bounds {})",
                fmt_pos(at),
                fmt_box(placed),
                self.file.display(),
                fmt_box(bounds)
            )));
        };
        if kept != placed {
            note!(
                "note: the stamp placed at {} covers {}, past the world's bounds {}; only {} is pasted",
                fmt_pos(at),
                fmt_box(placed),
                fmt_box(bounds),
                fmt_box(kept)
            )?;
            region = region.cropped(local)?;
        }
        let mode = PasteMode::from(self.mode);
        let op = RegionOp::Place {
            clear: None,
            region: std::sync::Arc::new(region),
            at: kept.min,
            mode,
        };
        let changed = region_edit(&mut doc, "Paste", &op)?;
        save(&doc, &self.file, self.out.as_deref(), changed)
    }
}

/// The stamp's size from its header bounds, refusing an empty box or one past the world limits.
fn check_stamp_size(
    bounds: &strata_engine::voxel::VoxelBox,
    stamp: &std::path::Path,
) -> AppResult<[u32; 3]> {
    let size = bounds.size();
    let limits = [MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE, MAX_HORIZONTAL_SIZE];
    if size.contains(&0) {
        return Err(AppError::Usage(format!(
            "{}: the stamp's bounds {} are empty",
            stamp.display(),
            fmt_box(*bounds)
        )));
    }
    if size
        .iter()
        .zip(limits)
        .any(|(&s, l)| s as u64 > u64::from(l))
    {
        return Err(AppError::Usage(format!(
            "{}: the stamp is {}×{}×{} voxels, larger than the world limits ({})",
            stamp.display(),
            size[0],
            size[1],
            size[2],
            fmt_size(limits)
        )));
    }
    Ok(size.map(|s| s as u32))
}
