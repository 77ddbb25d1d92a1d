//! `strata render FILE OUT.png [--size W,H] [--no-light]`: a top-down shaded map of a project as a PNG,
//! written atomically, shaded with the baked light when the project has one. Without `--size`, the longer side is [`DEFAULT_LONGEST`] pixels and the aspect is the
//! world's.

use std::path::{Path, PathBuf};
use std::time::Instant;

use strata_engine::format::write_atomic;
use strata_engine::render::{fit_size, render_topdown_lit, topdown_bounds};

use super::args::parse_pair;
use super::project_edit::refuse_clobbering;
use crate::files::png::encode_rgba;
use crate::{AppError, AppResult};

/// Longer side of the image when `--size` is not given.
pub const DEFAULT_LONGEST: u32 = 512;
/// Largest side `--size` accepts.
pub const MAX_SIDE: u32 = 16384;

/// `strata render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Project file.
    file: PathBuf,
    /// Output image (.png).
    out: PathBuf,
    /// Image size W,H in pixels; default 512 on the longer side with the world's aspect.
    #[arg(long)]
    size: Option<String>,
    /// Shade with the built-in hillshade even when the project has baked light.
    #[arg(long)]
    no_light: bool,
}

impl RenderArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad `--size`, an unreadable project, an unwritable output.
    pub fn run(self) -> AppResult<()> {
        run(&self.file, &self.out, self.size.as_deref(), !self.no_light)
    }
}

fn run(file: &Path, out: &Path, size: Option<&str>, use_light: bool) -> AppResult<()> {
    let size = size
        .map(|s| parse_pair::<u32>(s, "--size W,H"))
        .transpose()?;
    if let Some([w, h]) = size {
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            return Err(AppError::Usage(format!(
                "--size {w},{h}: each side must be 1 to {MAX_SIDE} pixels"
            )));
        }
    }
    refuse_clobbering(&[file], None, &[out.to_path_buf()])?;
    let project = super::project_edit::load(file)?;
    let table = &project.header.materials;
    let started = Instant::now();
    let [width, height] = size.unwrap_or_else(|| {
        let (w, h) = fit_size(topdown_bounds(&project.grid, table), DEFAULT_LONGEST);
        [w, h]
    });
    let light = project.light.as_ref().filter(|_| use_light);
    let image = render_topdown_lit(&project.grid, table, light, width, height);
    let rendered = started.elapsed();
    write_atomic(
        out,
        &encode_rgba(&image.rgba, image.width, image.height, out)?,
    )?;
    note!(
        "{}: {width}x{height} rendered in {:.0} ms{}",
        out.display(),
        rendered.as_secs_f64() * 1000.0,
        if light.is_some() {
            ", shaded with the baked light"
        } else {
            ""
        }
    )?;
    Ok(())
}
