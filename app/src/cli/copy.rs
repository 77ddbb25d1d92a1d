//! `strata copy FILE OUT.strata --box X0,Y0,Z0,X1,Y1,Z1`: a box of a world as a stamp, a project of
//! its own with its origin at 0,0,0 and header bounds the box's size, carrying the world's materials.

use std::path::PathBuf;

use strata_engine::region::Region;

use super::args::parse_box;
use super::progress::with_bar;
use super::project_edit::{clip_to_world, fmt_box, fmt_size, load, refuse_clobbering};
use crate::{AppError, AppResult};

/// `strata copy`.
#[derive(Debug, clap::Args)]
pub struct CopyArgs {
    /// Project file to copy from.
    file: PathBuf,
    /// Stamp file to write (.strata).
    out: PathBuf,
    /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (clipped to the world's bounds).
    #[arg(long = "box", allow_hyphen_values = true)]
    region: String,
}

impl CopyArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad or empty box, a box outside the world, unreadable input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let b = parse_box(&self.region)?;
        if strata_engine::format::names_same_file(&self.file, &self.out) {
            return Err(AppError::Usage(format!(
                "{} is the world being copied from; write the stamp to another file",
                self.out.display()
            )));
        }
        refuse_clobbering(&[&self.file], None, std::slice::from_ref(&self.out))?;
        let project = load(&self.file)?;
        let b = clip_to_world(b, project.header.bounds, &self.file)?;
        let region = with_bar("copying", |p| Region::copy_with(&project.grid, b, p))?;
        let name = self
            .out
            .file_stem()
            .map_or_else(|| "stamp".to_owned(), |s| s.to_string_lossy().into_owned());
        let stamp = region.to_project(&name, &project.header.materials)?;
        with_bar("saving", |p| stamp.save_with(&self.out, p))?;
        let counts = region.count_materials();
        out!(
            "copied {} {} voxels ({} not Air) to {}",
            fmt_box(b),
            fmt_size(region.size()),
            counts[1..].iter().sum::<u64>(),
            self.out.display()
        )?;
        Ok(())
    }
}
