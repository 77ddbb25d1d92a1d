//! `strata cleanup FILE [--json] [-o OUT]`: turn matter no surface shows into Air, as one undo step
//! ("Clear invisible matter"): voxels thinner than the carving floor (older versions' digging left
//! them at 1/256 full) and voxels under half full with no half-full neighbour of their kind. Such
//! matter kept Sea Level from flooding dug ground and fills of only Air from reaching it.
//!
//! Saves in place (atomically, keeping `FILE.bak`) or to `OUT`; with nothing to clear the file is
//! left alone (and `OUT`, if given, is still written). `--json` prints `{"voxels": N, "chunks": N,
//! "bounds": null | {"min": [x, y, z], "max": [x, y, z]}, "saved": null | "PATH"}` (`max`
//! inclusive).

use std::path::PathBuf;

use serde_json::json;
use strata_engine::stray::find_stray;

use super::progress::with_bar;
use super::project_edit::{fmt_box, open_for_edit};
use crate::AppResult;

/// `strata cleanup`.
#[derive(Debug, clap::Args)]
pub struct CleanupArgs {
    /// Project file.
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl CleanupArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Unreadable input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let stray = with_bar("searching", |p| find_stray(doc.grid(), doc.materials(), p))?;
        let changed = doc.clear_stray(&stray);
        let target = self.out.clone().or(changed.map(|_| self.file.clone()));
        if let Some(path) = &target {
            with_bar("saving", |p| doc.project().save_with(path, p))?;
        }
        if self.json {
            let bounds = changed.map(|b| {
                json!({"min": b.min.to_array(), "max": [b.max.x - 1, b.max.y - 1, b.max.z - 1]})
            });
            let j = json!({
                "voxels": stray.voxels(),
                "chunks": stray.chunks.len(),
                "bounds": bounds,
                "saved": target.as_ref().map(|p| p.display().to_string()),
            });
            out!("{j}")?;
        } else {
            match changed {
                Some(b) => out!(
                    "cleared {} voxels of invisible matter in {} chunks within {} as one undo step",
                    stray.voxels(),
                    stray.chunks.len(),
                    fmt_box(b)
                )?,
                None => out!("no invisible matter")?,
            }
            if let Some(p) = &target {
                note!("{}: saved", p.display())?;
            }
        }
        Ok(())
    }
}
