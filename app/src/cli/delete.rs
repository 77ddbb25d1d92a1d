//! `strata delete FILE --box X0,Y0,Z0,X1,Y1,Z1 [-o OUT]`: turn a box to Air as one undo step.

use std::path::PathBuf;

use super::args::parse_box;
use super::project_edit::{check_edit_size, clip_to_world, open_for_edit, region_edit, save};
use crate::region::region_op::RegionOp;
use crate::AppResult;

/// `strata delete`.
#[derive(Debug, clap::Args)]
pub struct DeleteArgs {
    /// Project file.
    file: PathBuf,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (clipped to the world's bounds).
    #[arg(long = "box", allow_hyphen_values = true)]
    region: String,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl DeleteArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad or empty box, a box outside the world, unreadable input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let b = parse_box(&self.region)?;
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let b = clip_to_world(b, doc.bounds(), &self.file)?;
        check_edit_size(&doc, b, false)?;
        let changed = region_edit(&mut doc, "Delete", &RegionOp::Delete(b))?;
        save(&doc, &self.file, self.out.as_deref(), changed)
    }
}
