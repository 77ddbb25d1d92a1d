//! What `copy`, `paste`, `fill` and `delete` share: clipping a box to the world, running an edit as
//! one undo step with a progress bar, and saving in place or to `-o OUT`.

use std::path::Path;

use strata_engine::format::project::Project;
use strata_engine::history::History;
use strata_engine::progress::Progress;
use strata_engine::region::RegionEdit;
use strata_engine::storage::Grid;
use strata_engine::voxel::{VoxelBox, VoxelPos};

use super::progress::with_bar;
use crate::{AppError, AppResult};

/// `X,Y,Z`.
pub fn fmt_pos(p: VoxelPos) -> String {
    format!("{},{},{}", p.x, p.y, p.z)
}

/// `X0,Y0,Z0,X1,Y1,Z1` (half-open, as `--box` takes it).
pub fn fmt_box(b: VoxelBox) -> String {
    format!("{},{}", fmt_pos(b.min), fmt_pos(b.max))
}

/// `A×B×C`.
pub fn fmt_size(s: [u32; 3]) -> String {
    format!("{}×{}×{}", s[0], s[1], s[2])
}

/// Load a project with a progress bar.
///
/// # Errors
/// Unreadable or corrupt file (the message names it).
pub fn load(file: &Path) -> AppResult<Project> {
    Ok(with_bar("loading", |p| Project::load_with(file, p))?)
}

/// `b` clipped to the world's bounds; says so on stderr when it was cut.
///
/// # Errors
/// [`AppError::Usage`] when nothing of `b` lies inside the world.
pub fn clip_to_world(b: VoxelBox, project: &Project, file: &Path) -> AppResult<VoxelBox> {
    let bounds = project.header.bounds;
    let kept = b.intersect(&bounds);
    if kept.is_empty() {
        return Err(AppError::Usage(format!(
            "--box {} lies outside the world {} (bounds {}): nothing to do",
            fmt_box(b),
            file.display(),
            fmt_box(bounds)
        )));
    }
    if kept != b {
        note!(
            "note: --box {} reaches outside the world's bounds {}; clipped to {}",
            fmt_box(b),
            fmt_box(bounds),
            fmt_box(kept)
        )?;
    }
    Ok(kept)
}

/// Run `op` as one undo step called `name` in the project's history, with a progress bar; returns
/// the exact changed box (empty when nothing changed, and then no step is recorded).
///
/// # Errors
/// Whatever `op` reports; the grid and history are then as they were.
pub fn edit(
    project: &mut Project,
    name: &str,
    op: impl FnOnce(&mut RegionEdit<'_>) -> strata_engine::Result<VoxelBox> + Send,
) -> AppResult<VoxelBox> {
    let Project { grid, history, .. } = project;
    let run = |grid: &mut Grid, history: &mut History, progress: &Progress| {
        let mut edit = RegionEdit::begin(grid, Some(history), name, progress);
        op(&mut edit)?;
        Ok::<_, strata_engine::Error>(edit.finish())
    };
    Ok(with_bar(name, |p| run(grid, history, p))?)
}

/// Save the edited project to `out`, or over `file` (atomically, keeping `.bak`), and report the
/// changed box on stdout. In place, a project nothing changed in is left alone.
///
/// # Errors
/// The file cannot be written.
pub fn save(
    project: &Project,
    file: &Path,
    out: Option<&Path>,
    changed: VoxelBox,
) -> AppResult<()> {
    if changed.is_empty() {
        out!("changed nothing")?;
    } else {
        out!("changed {} ({} voxels)", fmt_box(changed), changed.volume())?;
    }
    let target = match out {
        Some(o) => o,
        None if changed.is_empty() => {
            note!("{}: left as it was", file.display())?;
            return Ok(());
        }
        None => file,
    };
    with_bar("saving", |p| project.save_with(target, p))?;
    note!(
        "{}: saved (undo steps in its history: {})",
        target.display(),
        project.history.undo_len()
    )?;
    Ok(())
}
