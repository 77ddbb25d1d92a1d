//! What the commands that read or edit a project share: loading it (with the loader's warnings),
//! opening it as the editor's [`Document`] so every command-line edit takes the editor's one edit
//! path, clipping a box to the world, running a region edit as one undo step with a progress bar,
//! and saving in place or to `-o OUT`.

use std::path::Path;

use strata_engine::format::project::Project;
use strata_engine::voxel::{VoxelBox, VoxelPos};

use super::progress::with_bar;
use crate::document::Document;
use crate::region::region_op::RegionOp;
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

/// Load a project with a progress bar, printing what loading repaired (light that no longer fit
/// its voxels, say) as warnings on stderr.
///
/// # Errors
/// Unreadable or corrupt file (the message names it).
pub fn load(file: &Path) -> AppResult<Project> {
    let project = with_bar("loading", |p| Project::load_with(file, p))?;
    for w in &project.warnings {
        note!("warning: {w}")?;
    }
    Ok(project)
}

/// Load a project to edit it: the editor's [`Document`], so an edit here has the editor's
/// consequences (one undo step, the baked light marked stale where the edit reaches).
///
/// # Errors
/// As for [`load`].
pub fn open(file: &Path) -> AppResult<Document> {
    Ok(Document::headless(load(file)?, Some(file.to_path_buf())))
}

/// `b` clipped to the world's bounds; says so on stderr when it was cut.
///
/// # Errors
/// [`AppError::Usage`] when nothing of `b` lies inside the world.
pub fn clip_to_world(b: VoxelBox, bounds: VoxelBox, file: &Path) -> AppResult<VoxelBox> {
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

/// Run `op` on `doc` as one undo step called `name`, with a progress bar; returns the exact changed
/// box (empty when nothing changed, and then no step is recorded).
///
/// # Errors
/// Whatever the edit reports; the voxels and history are then as they were.
pub fn region_edit(doc: &mut Document, name: &str, op: &RegionOp) -> AppResult<VoxelBox> {
    with_bar(name, |p| doc.region_edit_with(name, op, p))
}

/// Save the edited project to `out`, or over `file` (atomically, keeping `.bak`), and report the
/// changed box on stdout. In place, a project nothing changed in is left alone.
///
/// # Errors
/// The file cannot be written.
pub fn save(doc: &Document, file: &Path, out: Option<&Path>, changed: VoxelBox) -> AppResult<()> {
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
    with_bar("saving", |p| doc.project().save_with(target, p))?;
    note!(
        "{}: saved (undo steps in its history: {})",
        target.display(),
        doc.history().undo_len()
    )?;
    Ok(())
}
