//! Thumbnails of saved projects for the Recent Files window: a small top-down render per file,
//! stored as PNG in the config directory under a hash of the file's canonical path.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use strata_engine::format::project::Project;
use strata_engine::format::write_atomic;
use strata_engine::render::render_topdown;

use crate::{AppError, AppResult};

/// Thumbnail edge, pixels.
pub const THUMB_SIZE: u32 = 96;

/// The thumbnail folder inside the config directory.
pub fn folder(config: &Path) -> PathBuf {
    config.join("thumbs")
}

/// Where the thumbnail of the project at `project` lives in `dir`.
pub fn path_of(dir: &Path, project: &Path) -> PathBuf {
    let canonical = project
        .canonicalize()
        .unwrap_or_else(|_| project.to_path_buf());
    let mut h = DefaultHasher::new();
    canonical.hash(&mut h);
    dir.join(format!("{:016x}.png", h.finish()))
}

/// Render and store the thumbnail of `project`, saved at `path`.
///
/// # Errors
/// When the folder or the PNG cannot be written.
pub fn write(dir: &Path, path: &Path, project: &Project) -> AppResult<()> {
    let img = render_topdown(
        &project.grid,
        &project.header.materials,
        THUMB_SIZE,
        THUMB_SIZE,
    );
    let png = crate::files::png::encode_rgba(&img.rgba, img.width, img.height, path)?;
    std::fs::create_dir_all(dir).map_err(|e| AppError::io(dir, e))?;
    write_atomic(&path_of(dir, path), &png)?;
    Ok(())
}

/// Write the thumbnail of `project` unless one exists.
///
/// # Errors
/// As for [`write()`].
pub fn ensure(dir: &Path, path: &Path, project: &Project) -> AppResult<()> {
    if path_of(dir, path).is_file() {
        return Ok(());
    }
    write(dir, path, project)
}
