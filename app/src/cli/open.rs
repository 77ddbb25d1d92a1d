//! `strata open FILE [--screenshot OUT.png] [--window-size W,H] [--lod on|off]`: the editor on a
//! project file; with `--screenshot` it saves a PNG of the window once the world is drawn, then exits.
//! `--lod off` meshes every chunk at full resolution (to compare against the mip levels).

use std::path::PathBuf;

use super::args::window_inputs;
use crate::app::launch::RunOptions;
use crate::app::Start;
use crate::AppResult;

/// `strata open`.
#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    /// Project file (.strata).
    file: PathBuf,
    /// Save a PNG screenshot of the window once the world is shown, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Window size in points, W,H (default 1280,800).
    #[arg(long)]
    window_size: Option<String>,
    /// Level of detail for distant chunks: `on` (the default) or `off` (full resolution everywhere).
    #[arg(long, value_parser = ["on", "off"])]
    lod: Option<String>,
}

impl OpenArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad window size, a missing file, or no window.
    pub fn run(self) -> AppResult<()> {
        let size = window_inputs(self.window_size.as_deref(), &self.file)?;
        if let Some(shot) = &self.screenshot {
            super::project_edit::refuse_clobbering(
                &[&self.file],
                None,
                std::slice::from_ref(shot),
            )?;
        }
        crate::app::launch::run(
            Start::Open(self.file),
            RunOptions {
                size,
                screenshot: self.screenshot,
                lod: self.lod.map(|l| l == "on"),
            },
        )
    }
}
