//! What the commands that read or edit a project share: loading it (with the loader's warnings),
//! opening it as the editor's [`Document`] so every command-line edit takes the editor's one edit
//! path, clipping a box to the world, running a region edit as one undo step with a progress bar,
//! and saving in place or to `-o OUT`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use strata_engine::format::project::Project;
use strata_engine::format::{names_same_file, LockWait, ProjectLock};
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

/// [`open`] for a command that saves `file` in place or to `out`, after checking that the save
/// replaces none of its other inputs (`also_reads`, such as a stamp).
///
/// # Errors
/// As for [`open`] and [`refuse_clobbering`].
pub fn open_for_edit(file: &Path, out: Option<&Path>, also_reads: &[&Path]) -> AppResult<Document> {
    let mut reads = vec![file];
    reads.extend_from_slice(also_reads);
    let target = out.unwrap_or(file).to_path_buf();
    refuse_clobbering(&reads, Some(file), std::slice::from_ref(&target))?;
    let lock = if names_same_file(&target, file) {
        Some(lock_for_edit(file)?)
    } else {
        None
    };
    let mut doc = open(file)?;
    doc.set_lock(lock);
    Ok(doc)
}

/// How long an in-place edit waits for another program's edit of the same file to finish.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);

/// The lock on `file` for a read-modify-write: taken at once when free, else after saying on stderr
/// that another program holds it and waiting up to [`LOCK_WAIT`] for it.
///
/// # Errors
/// The file cannot be opened, or the lock is still held after the wait.
pub fn lock_for_edit(file: &Path) -> AppResult<ProjectLock> {
    if let Ok(lock) = ProjectLock::acquire(file, LockWait::Never) {
        return Ok(lock);
    }
    note!(
        "{}: another program is editing it; waiting up to {} s for it to finish",
        file.display(),
        LOCK_WAIT.as_secs()
    )?;
    Ok(ProjectLock::acquire(file, LockWait::Up(LOCK_WAIT))?)
}

/// Refuse a command whose writes would replace one of its inputs: `writes` are every file it writes
/// (sidecars included; each save's `.bak` is added), `in_place` the project it edits in place.
///
/// # Errors
/// [`AppError::Usage`] naming the output and the input.
pub fn refuse_clobbering(
    reads: &[&Path],
    in_place: Option<&Path>,
    writes: &[PathBuf],
) -> AppResult<()> {
    strata_engine::format::refuse_overwriting_inputs(reads, in_place, writes)
        .map_err(|e| AppError::Usage(e.to_string()))
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

/// The most chunks one `fill` or `delete` may change (4 Mi chunks, 2³⁷ voxels: a 16384 × 512 ×
/// 16384 slab). Each changed chunk costs about [`EDIT_BYTES_PER_CHUNK`] while the edit runs and is
/// saved (its undo record, its new contents, its share of the encoded file).
pub const MAX_EDIT_CHUNKS: u64 = 1 << 22;
/// Peak memory per changed chunk of a whole-chunk fill or delete, measured (2048 × 512 × 2048 flat
/// world filled and deleted whole: 66 and 80 MB for 65 536 chunks) and rounded up.
pub const EDIT_BYTES_PER_CHUNK: u64 = 1536;

/// Refuse a fill or delete of `b` that would change more chunks than [`MAX_EDIT_CHUNKS`], or need
/// more memory than the machine has free, before anything is read or written. `adds_matter`: a
/// fill (every chunk of the box may change), not a delete (only stored chunks can).
///
/// # Errors
/// [`AppError::Usage`] with the estimate and what to do instead.
pub fn check_edit_size(doc: &Document, b: VoxelBox, adds_matter: bool) -> AppResult<()> {
    let chunks = if adds_matter {
        let last = VoxelPos::new(b.max.x - 1, b.max.y - 1, b.max.z - 1).chunk();
        let first = b.min.chunk();
        [last.x - first.x, last.y - first.y, last.z - first.z]
            .iter()
            .map(|&d| u64::try_from(d).map_or(0, |d| d + 1))
            .product()
    } else {
        doc.grid()
            .chunks()
            .filter(|(p, _)| !p.voxel_box().intersect(&b).is_empty())
            .count() as u64
    };
    let bytes = chunks.saturating_mul(EDIT_BYTES_PER_CHUNK);
    let free = super::new_estimate::available_bytes();
    let too_big = chunks > MAX_EDIT_CHUNKS || free.is_some_and(|f| bytes > f);
    if too_big {
        let gib = |v: u64| v as f64 / f64::from(1u32 << 30);
        return Err(AppError::Usage(format!(
            "--box {} would change up to {chunks} chunks of 32³, about {:.1} GiB of memory{}; one \
             edit may change at most {MAX_EDIT_CHUNKS} chunks: edit smaller boxes",
            fmt_box(b),
            gib(bytes),
            free.map_or_else(String::new, |f| format!(" ({:.1} GiB free)", gib(f)))
        )));
    }
    Ok(())
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
