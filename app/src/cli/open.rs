//! `strata open FILE [--screenshot OUT.png] [--window-size W,H] [--lod on|off]`: the editor on a
//! project file; with `--screenshot` it saves a PNG of the window once the world is drawn, then exits.
//! `--light-view baked|realtime|both` picks the light the terrain shows (both, the default: the baked
//! light under the real-time sun). `--lod off` meshes every chunk at full resolution (to compare against the mip levels).
//! `--viewport-quality auto|full|fast` draws this run on the full or the fast path.
//! `--camera-path PATH --screenshots DIR` visits the camera positions listed in PATH and saves
//! screenshots of each view, while it refines and once settled, into DIR, then exits (see
//! `app::camera_tour`).

use std::path::PathBuf;

use super::args::{parse_triple, window_inputs};
use crate::app::camera_tour::read_camera_path;
use crate::app::launch::RunOptions;
use crate::app::viewport_quality::ViewportQuality;
use crate::app::Start;
use crate::viewport::LightView;
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
    /// Camera positions to visit (a JSON array of {"eye": [x, y, z], "target": [x, y, z]}),
    /// saving screenshots of each view into --screenshots, then exit.
    #[arg(long, requires = "screenshots", conflicts_with = "screenshot")]
    camera_path: Option<PathBuf>,
    /// Folder for the --camera-path screenshots and their list, tour.json.
    #[arg(long, requires = "camera_path")]
    screenshots: Option<PathBuf>,
    /// Which light the terrain shows: `baked` (the bake alone), `realtime` (the real-time sun and
    /// sky alone) or `both` (the default: the baked light under the real-time sun).
    #[arg(long, value_parser = ["baked", "realtime", "both"])]
    light_view: Option<String>,
    /// The colour behind the terrain instead of the sky, R,G,B (0 to 255): tests pick one no
    /// terrain has, to find every pixel the terrain leaves uncovered.
    #[arg(long, hide = true)]
    background: Option<String>,
    /// Viewport quality for this run: `auto` (fast on a software renderer), `full` or `fast`
    /// (default: the Preferences' choice).
    #[arg(long, value_parser = ["auto", "full", "fast"])]
    viewport_quality: Option<String>,
}

impl OpenArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad window size, a missing file, an unreadable camera path, or no window.
    pub fn run(self) -> AppResult<()> {
        let size = window_inputs(self.window_size.as_deref(), &self.file)?;
        if let Some(shot) = &self.screenshot {
            super::project_edit::refuse_clobbering(
                &[&self.file],
                None,
                std::slice::from_ref(shot),
            )?;
        }
        let background = self
            .background
            .as_deref()
            .map(|s| parse_triple::<u8>(s, "--background"))
            .transpose()?;
        let tour = match (&self.camera_path, self.screenshots) {
            (Some(path), Some(dir)) => Some((read_camera_path(path)?, dir)),
            _ => None,
        };
        crate::app::launch::run(
            Start::Open(self.file),
            RunOptions {
                size,
                screenshot: self.screenshot,
                lod: self.lod.map(|l| l == "on"),
                tour,
                background,
                light_view: self.light_view.as_deref().map(|v| match v {
                    "baked" => LightView::Baked,
                    "realtime" => LightView::Realtime,
                    _ => LightView::Both,
                }),
                quality: self
                    .viewport_quality
                    .as_deref()
                    .and_then(ViewportQuality::parse),
            },
        )
    }
}
