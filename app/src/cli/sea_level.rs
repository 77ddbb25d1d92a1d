//! `strata sea-level FILE --height Y [--box X0,Y0,Z0,X1,Y1,Z1] [--clear] [-o OUT]`: the editor's
//! Sea Level tool. Every empty (Air) voxel below height `Y` in the box (default: the whole world)
//! takes the world's water, the voxel spanning `y..y+1` filled to `clamp(Y − y, 0, 1)`, so the water
//! surface sits at `Y`; ground is never touched. `--clear` turns every liquid voxel of the box to Air
//! instead. One undo step, through the editor's edit path (`Document::sea_level`).

use std::path::PathBuf;

use strata_engine::tools::SeaLevelMode;
use strata_engine::voxel::COORD_LIMIT;

use super::args::{parse_box, parse_in_range};
use super::project_edit::{clip_to_world, open_for_edit, save};
use crate::{AppError, AppResult};

/// `strata sea-level`.
#[derive(Debug, clap::Args)]
pub struct SeaLevelArgs {
    /// Project file.
    file: PathBuf,
    /// The water surface's height in world units (voxel y spans y..y+1).
    #[arg(long, allow_hyphen_values = true)]
    height: String,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 to fill (clipped to the world's bounds; default the world).
    #[arg(long = "box", allow_hyphen_values = true)]
    region: Option<String>,
    /// Turn the box's liquid voxels to Air instead of filling.
    #[arg(long)]
    clear: bool,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl SeaLevelArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad height or box, a box outside the world, a world without a liquid material, unreadable
    /// input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let limit = f64::from(COORD_LIMIT);
        let level = parse_in_range(&self.height, "--height", -limit, limit)? as f32;
        let b = self.region.as_deref().map(parse_box).transpose()?;
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let region = match b {
            Some(b) => clip_to_world(b, doc.bounds(), &self.file)?,
            None => doc.bounds(),
        };
        let mode = if self.clear {
            SeaLevelMode::Clear
        } else {
            SeaLevelMode::Fill
        };
        if mode == SeaLevelMode::Fill && !doc.materials().materials.iter().any(|m| m.liquid) {
            return Err(AppError::Usage(format!(
                "{} has no liquid material to fill with",
                self.file.display()
            )));
        }
        let changed = doc.sea_level(region, level, mode).unwrap_or_default();
        save(&doc, &self.file, self.out.as_deref(), changed)
    }
}
