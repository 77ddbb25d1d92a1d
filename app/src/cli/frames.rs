//! `strata frames FILE [--frames N] [--window-size W,H] [--msaa N] [--viewport-quality Q]`: open the editor on a project,
//! wait until every chunk is meshed, then orbit the camera once around the world's centre over N
//! continuously drawn frames and print the frame intervals (the same clock as the status bar) as
//! one JSON line: `{"frames", "median_ms", "mean_ms", "p95_ms", "max_ms", "triangles",
//! "first_full_frame_s", "refined_s", "first_full_frame_cpu_s", "refined_cpu_s", "refining_frames", "refining_median_ms", "refining_max_ms",
//! "peak_rss_mb", "fast_viewport"}`: also seconds from the start to the first frame that shows the whole world (from
//! coarse meshes), seconds until every mesh has its wanted level of detail (and the process's CPU
//! seconds, all threads, at those two moments: the work, without a loaded machine's waiting), the frames drawn in
//! between and their median and longest interval, and the process's peak resident memory.
//!
//! The figure for comparing viewport changes: run it before and after on the same world, machine
//! and window size (software GL under Xvfb gives relative figures).

use std::path::PathBuf;

use super::args::window_inputs;
use crate::app::launch::{FrameBench, RunOptions};
use crate::app::viewport_quality::ViewportQuality;
use crate::app::Start;
use crate::{AppError, AppResult};

/// Most frames a run may measure.
pub const MAX_FRAMES: u32 = 100_000;

/// `strata frames`.
#[derive(Debug, clap::Args)]
pub struct FramesArgs {
    /// Project file (.strata).
    file: PathBuf,
    /// Frames to measure (one full orbit over them).
    #[arg(long, default_value_t = 120)]
    frames: u32,
    /// Window size in points, W,H (default 1280,800).
    #[arg(long)]
    window_size: Option<String>,
    /// Anti-aliasing samples per pixel (0 turns MSAA off; default 4).
    #[arg(long)]
    msaa: Option<u16>,
    /// Viewport quality: `auto` (fast on a software renderer), `full` or `fast` (default: the
    /// Preferences' choice).
    #[arg(long, value_parser = ["auto", "full", "fast"])]
    viewport_quality: Option<String>,
}

impl FramesArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad frame count or window size, a missing file, or no window.
    pub fn run(self) -> AppResult<()> {
        if self.frames == 0 || self.frames > MAX_FRAMES {
            return Err(AppError::Usage(format!(
                "--frames {}: give 1 to {MAX_FRAMES}",
                self.frames
            )));
        }
        if let Some(m) = self.msaa {
            if !matches!(m, 0 | 1 | 2 | 4 | 8 | 16) {
                return Err(AppError::Usage(format!(
                    "--msaa {m}: give 0, 2, 4, 8 or 16"
                )));
            }
        }
        let size = window_inputs(self.window_size.as_deref(), &self.file)?;
        let bench = FrameBench::new(self.frames);
        let report = bench.report.clone();
        crate::app::launch::run_frames(
            Start::Open(self.file),
            RunOptions {
                size,
                screenshot: None,
                lod: None,
                tour: None,
                background: None,
                light_view: None,
                quality: self
                    .viewport_quality
                    .as_deref()
                    .and_then(ViewportQuality::parse),
            },
            bench,
            self.msaa,
        )?;
        let line = report
            .lock()
            .ok()
            .and_then(|mut r| r.take())
            .ok_or_else(|| AppError::Usage("the window closed before the run ended".into()))?;
        out!("{line}")
    }
}
