//! `strata fill FILE --box X0,Y0,Z0,X1,Y1,Z1 --material NAME [--occupancy F] [-o OUT]`: fill a box
//! with one material as one undo step. The occupancy `0 < F <= 1` (default 1) is stored as the occupancy
//! byte, `round(F × 256) − 1`.

use std::path::PathBuf;

use strata_engine::region::Fill;
use strata_engine::voxel::{MaterialTable, Voxel, AIR};

use super::args::parse_box;
use super::project_edit::{check_edit_size, clip_to_world, open_for_edit, region_edit, save};
use crate::region::region_op::RegionOp;
use crate::{AppError, AppResult};

/// `strata fill`.
#[derive(Debug, clap::Args)]
pub struct FillArgs {
    /// Project file.
    file: PathBuf,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (clipped to the world's bounds).
    #[arg(long = "box", allow_hyphen_values = true)]
    region: String,
    /// Material name from the world's material table (any case).
    #[arg(long)]
    material: String,
    /// Occupancy, greater than 0 and at most 1 (default 1).
    #[arg(long)]
    occupancy: Option<String>,
    /// Only fill voxels that hold Air.
    #[arg(long)]
    only_air: bool,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl FillArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad or empty box, a box outside the world, unknown material, occupancy out of range,
    /// unreadable input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let b = parse_box(&self.region)?;
        let occupancy = self.occupancy.as_deref().map(occupancy_byte).transpose()?;
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let voxel = fill_voxel(doc.materials(), &self.material, occupancy)?;
        let b = clip_to_world(b, doc.bounds(), &self.file)?;
        let fill = if self.only_air {
            Fill::only_air(voxel)
        } else {
            Fill::new(voxel)
        };
        check_edit_size(&doc, b, !voxel.is_air())?;
        let changed = region_edit(&mut doc, "Fill", &RegionOp::Fill { b, fill })?;
        save(&doc, &self.file, self.out.as_deref(), changed)
    }
}

/// The stored occupancy byte of `--occupancy F`: `round(F × 256) − 1`.
fn occupancy_byte(text: &str) -> AppResult<u8> {
    let f: f64 = text
        .trim()
        .parse()
        .map_err(|_| AppError::Usage(format!("--occupancy {text:?} is not a number")))?;
    if !f.is_finite() || f <= 0.0 || f > 1.0 {
        return Err(AppError::Usage(format!(
            "--occupancy must be greater than 0 and at most 1, got {text}"
        )));
    }
    let steps = (f * 256.0).round();
    if steps < 1.0 {
        return Err(AppError::Usage(format!(
            "--occupancy {text} rounds to nothing: round(F × 256) − 1 is below 0; the smallest \
             storable occupancy is 1/256 (0.00390625), and values under 0.001953125 round to none"
        )));
    }
    Ok((steps - 1.0) as u8)
}

/// The voxel `--material NAME` and the occupancy byte make.
fn fill_voxel(table: &MaterialTable, name: &str, occupancy: Option<u8>) -> AppResult<Voxel> {
    let Some(id) = table.id_of(name.trim()) else {
        let names: Vec<&str> = table.materials.iter().map(|m| m.name.as_str()).collect();
        return Err(AppError::Usage(format!(
            "unknown material {name:?}; this world's materials are: {}",
            names.join(", ")
        )));
    };
    if id == AIR && occupancy.is_some() {
        return Err(AppError::Usage(
            "Air has no occupancy: drop --occupancy (or use `strata delete`)".into(),
        ));
    }
    Ok(Voxel::new(id, occupancy.unwrap_or(255)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_is_the_seed_byte() {
        for (text, byte) in [("1", 255), ("0.5", 127), ("0.25", 63), ("1e-2", 2)] {
            assert_eq!(occupancy_byte(text).ok(), Some(byte), "{text}");
        }
        for f in 1..=256u32 {
            let text = format!("{}", f as f64 / 256.0);
            assert_eq!(occupancy_byte(&text).ok(), Some((f - 1) as u8), "{text}");
        }
        for bad in ["0", "-0.5", "1.0001", "nan", "inf", "x", "0.001"] {
            assert!(occupancy_byte(bad).is_err(), "{bad}");
        }
    }
}
