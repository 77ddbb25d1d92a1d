//! Large region writes off the UI thread: paste, fill, delete, move, turn in place, and undo, redo
//! or a history jump over them, when they touch more than [`SYNC_VOXELS`] voxels.
//!
//! ```text
//!   UI thread                              job thread (a Document job: modal progress + Cancel)
//!   Document::prepare_* ── RegionWork ───> copies of the chunks the write touches + the steps
//!     (edits wait: the editor is busy)       RegionEdit / History::undo_with on the copies
//!   Document::install_region  <──────────  RegionWritten: new chunks, the step, changed boxes
//!     chunks swapped in, step spliced into the history, changed(box) for every box
//! ```
//!
//! The job works on copies, so a cancelled or failed write never touches the document: the world
//! is unchanged and no undo step is recorded. Installing is cheap (chunk swaps and a history splice)
//! and goes through `Document::changed` like every other edit, so every consumer hears of it. Small
//! writes stay synchronous (`Document::region_edit`, `undo`, `redo`): below the threshold they take
//! about a frame and need no window.

use strata_engine::history::History;
use strata_engine::physics::{PhysicsRefresh, PhysicsRefresher, REFRESH_REACH};
use strata_engine::progress::Progress;
use strata_engine::region::RegionEdit;
use strata_engine::storage::Grid;
use strata_engine::voxel::VoxelBox;

use super::open_document::Document;
use crate::app::jobs::{Inbox, Job, JobKind};
use crate::region::region_op::RegionOp;
use crate::{AppError, AppResult};

/// Writes touching more voxels than this (about 1 M: a 128×64×128 box) run as a background job;
/// smaller ones run at once on the UI thread (at most a few tens of milliseconds).
pub const SYNC_VOXELS: u64 = 1 << 20;

/// The job owner that marks a region write's result (see [`RegionWork::job`]).
pub const REGION_WRITE: &str = "Region write";

/// What a region write does.
#[derive(Debug, Clone)]
pub enum WriteKind {
    /// A region edit; on success the selection becomes `select` (if given).
    Edit {
        /// The edit.
        op: RegionOp,
        /// The selection afterwards.
        select: Option<VoxelBox>,
    },
    /// Undo this many steps.
    Undo(usize),
    /// Redo this many steps.
    Redo(usize),
}

/// A region write prepared on the UI thread, to run on a job thread: copies of every chunk it may
/// touch and of the history steps it needs.
pub struct RegionWork {
    name: String,
    kind: WriteKind,
    grid: Grid,
    history: History,
    boxes: Vec<VoxelBox>,
    bounds: VoxelBox,
    edits: u64,
    voxels: u64,
    physics: PhysicsRefresher,
}

/// A finished region write, for [`Document::install_region`].
pub struct RegionWritten {
    name: String,
    kind: WriteKind,
    grid: Grid,
    history: History,
    boxes: Vec<VoxelBox>,
    changed: Vec<(VoxelBox, PhysicsRefresh)>,
    edits: u64,
}

impl RegionWork {
    /// What the progress window says.
    pub fn label(&self) -> String {
        let what = match self.kind {
            WriteKind::Edit { .. } => self.name.clone(),
            WriteKind::Undo(1) => format!("Undo {}", self.name),
            WriteKind::Redo(1) => format!("Redo {}", self.name),
            WriteKind::Undo(n) => format!("Undo {n} steps"),
            WriteKind::Redo(n) => format!("Redo {n} steps"),
        };
        format!("{what}: {} voxels", thousands(self.voxels))
    }

    /// Do the write on the copies (any thread); reports progress and stops when cancelled.
    ///
    /// # Errors
    /// `Cancelled`; errors of the engine's region edit or of a corrupt history step.
    pub fn run(mut self, progress: &Progress) -> AppResult<RegionWritten> {
        let changed = match &self.kind {
            WriteKind::Edit { op, .. } => {
                let mut edit = RegionEdit::begin(
                    &mut self.grid,
                    Some(&mut self.history),
                    &self.name,
                    progress,
                );
                let boxes = op.run(&mut edit, self.bounds)?;
                edit.finish();
                boxes
            }
            WriteKind::Undo(n) | WriteKind::Redo(n) => {
                let redo = matches!(self.kind, WriteKind::Redo(_));
                progress.start(self.history.box_count(redo, *n));
                let mut changed = Vec::new();
                for _ in 0..*n {
                    let region = if redo {
                        self.history.redo_region()
                    } else {
                        self.history.undo_region()
                    };
                    if redo {
                        self.history.redo_with(&mut self.grid, progress)?;
                    } else {
                        self.history.undo_with(&mut self.grid, progress)?;
                    }
                    changed.extend(region);
                }
                changed
            }
        };
        // The physics refresh reads the changed voxels and REFRESH_REACH around them: all in
        // the copied chunks.
        let changed = changed
            .into_iter()
            .filter(|b| !b.is_empty())
            .map(|b| (b, self.physics.refresh(&self.grid, b)))
            .collect();
        Ok(RegionWritten {
            name: self.name,
            kind: self.kind,
            grid: self.grid,
            history: self.history,
            boxes: self.boxes,
            changed,
            edits: self.edits,
        })
    }

    /// The write as a Document job (modal progress with Cancel; other edits wait). Its result comes
    /// into `inbox`, owned by [`REGION_WRITE`].
    pub fn job(self, inbox: &Inbox<RegionWritten>) -> Job {
        inbox
            .spawn(self.label(), JobKind::Document, move |progress| {
                self.run(progress)
            })
            .owned_by(REGION_WRITE)
    }
}

/// `n` with commas between thousands.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Document {
    /// Voxels `op` may change inside the world (what decides between a job and an edit at once).
    pub fn region_voxels(&self, op: &RegionOp) -> u64 {
        op_boxes(op, self.bounds())
            .iter()
            .map(|b| b.volume() as u64)
            .sum()
    }

    /// Voxels the `count` newest undo steps (or, with `redo`, the next redo steps) restore.
    pub fn history_voxels(&self, redo: bool, count: usize) -> u64 {
        self.project.history.voxels_to(redo, count)
    }

    /// Prepare `op` as a job (see the module docs): copies of the chunks it may touch. The undo
    /// step will be called `name`; on success the selection becomes `select` (if given).
    pub fn prepare_region_edit(
        &mut self,
        name: &str,
        op: RegionOp,
        select: Option<VoxelBox>,
    ) -> RegionWork {
        self.end_stroke();
        let bounds = self.bounds();
        let writes = op_boxes(&op, bounds);
        let voxels = writes.iter().map(|b| b.volume() as u64).sum();
        let boxes: Vec<VoxelBox> = writes.iter().map(|b| b.grown(REFRESH_REACH)).collect();
        RegionWork {
            name: name.to_owned(),
            kind: WriteKind::Edit { op, select },
            grid: self.project.grid.copy_chunks(&boxes),
            history: History::new(self.project.history.budget_bytes()),
            boxes,
            bounds,
            edits: self.edits,
            voxels,
            physics: self.physics_mut().refresher(),
        }
    }

    /// Prepare undoing the `count` newest steps (or, with `redo`, redoing the next `count`) as a
    /// job; `None` when there are fewer steps.
    pub fn prepare_history(&mut self, redo: bool, count: usize) -> Option<RegionWork> {
        self.end_stroke();
        let history = &mut self.project.history;
        let copy = if redo {
            history.copy_redo(count)?
        } else {
            history.copy_undo(count)?
        };
        let name = if redo {
            history.redo_names().next()
        } else {
            history.undo_names().next()
        }
        .unwrap_or_default()
        .to_owned();
        let voxels = history.voxels_to(redo, count);
        let boxes: Vec<VoxelBox> = copy
            .regions()
            .into_iter()
            .map(|b| b.grown(REFRESH_REACH))
            .collect();
        Some(RegionWork {
            name,
            kind: if redo {
                WriteKind::Redo(count)
            } else {
                WriteKind::Undo(count)
            },
            grid: self.project.grid.copy_chunks(&boxes),
            history: copy,
            boxes,
            bounds: self.bounds(),
            edits: self.edits,
            voxels,
            physics: self.physics_mut().refresher(),
        })
    }

    /// Install a finished region write: swap in its chunks, splice its step into the history and
    /// publish every changed box. Returns what to tell the user.
    ///
    /// # Errors
    /// When the voxels changed since the write was prepared (nothing is applied then).
    pub fn install_region(&mut self, done: RegionWritten) -> AppResult<String> {
        if done.edits != self.edits {
            return Err(AppError::Usage(format!(
                "{}: the world changed while it ran; nothing was applied",
                done.name
            )));
        }
        self.end_stroke();
        let message = match done.kind {
            WriteKind::Edit { select, .. } => {
                let union = done
                    .changed
                    .iter()
                    .fold(VoxelBox::default(), |u, (b, _)| u.union(b));
                if !union.is_empty() {
                    self.project.grid.replace_chunks(&done.boxes, done.grid);
                    self.project.history.append(done.history);
                }
                if select.is_some() {
                    self.set_selection(select);
                }
                if union.is_empty() {
                    format!("{}: nothing changed", done.name)
                } else {
                    let [x, y, z] = union.size();
                    format!("{}: {x}×{y}×{z} voxels changed", done.name)
                }
            }
            WriteKind::Undo(n) | WriteKind::Redo(n) => {
                let redo = matches!(done.kind, WriteKind::Redo(_));
                self.project.grid.replace_chunks(&done.boxes, done.grid);
                let table = self.project.header.materials.clone();
                let lights = self.project.lights.clone();
                let verb = if redo {
                    self.project.history.install_redone(done.history);
                    "Redid"
                } else {
                    self.project.history.install_undone(done.history);
                    "Undid"
                };
                self.project.apply_history_data()?;
                self.table_restored(&table);
                self.lights_restored(&lights);
                if n == 1 {
                    format!("{verb} {}", done.name)
                } else {
                    format!("{verb} {n} steps")
                }
            }
        };
        for (b, refresh) in done.changed {
            self.changed_refreshed(b, refresh);
        }
        Ok(message)
    }
}

/// The boxes of the world `op` may write (clipped to `bounds`, empty ones left out).
fn op_boxes(op: &RegionOp, bounds: VoxelBox) -> Vec<VoxelBox> {
    let boxes = match op {
        RegionOp::Place {
            clear, region, at, ..
        } => vec![clear.unwrap_or_default(), region.placed_at(*at)],
        RegionOp::Turn { sel, axis, mirror } => {
            vec![
                *sel,
                crate::region::region_op::turned_box(*sel, *axis, *mirror),
            ]
        }
        RegionOp::Fill { b, .. } | RegionOp::Delete(b) => vec![*b],
    };
    boxes
        .into_iter()
        .map(|b| b.intersect(&bounds))
        .filter(|b| !b.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;
    use strata_engine::format::project::{Project, ProjectHeader};
    use strata_engine::region::{Fill, PasteMode, Region};
    use strata_engine::voxel::{Voxel, VoxelPos};

    fn world() -> Document {
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(96, 40, 80));
        let mut grid = Grid::new();
        grid.modify_box(bounds, |p, _| {
            let h = 12 + (p.x / 7 + p.z / 5) % 9;
            match p.y {
                y if y < h - 2 => Voxel::filled(3),
                y if y < h => Voxel::new(2, (p.x * 37 + p.z) as u8),
                _ => Voxel::AIR,
            }
        });
        Document::new(
            Project::new(ProjectHeader::new("w", bounds), grid),
            Some(PathBuf::from("w.strata")),
        )
    }

    /// The broadphase entries of every physics cell of the world and a margin around it.
    fn broadphase_cells(doc: &Document) -> Vec<String> {
        let b = doc.bounds();
        let cell = |v: i32| v.div_euclid(8);
        let mut out = Vec::new();
        for z in cell(b.min.z) - 2..=cell(b.max.z) + 1 {
            for y in cell(b.min.y) - 2..=cell(b.max.y) + 1 {
                for x in cell(b.min.x) - 2..=cell(b.max.x) + 1 {
                    let entry = doc.physics().expect("built").broadphase().cell([x, y, z]);
                    out.push(format!("{x},{y},{z}: {entry:?}"));
                }
            }
        }
        out
    }

    /// Every kind of write, each as a job and at once on a twin document: the same voxels, history,
    /// published boxes and physics broadphase; a cancelled job leaves the document as it was.
    #[test]
    fn jobs_match_writes_done_at_once() {
        let (mut job_doc, mut now) = (world(), world());
        let sel = VoxelBox::new(VoxelPos::new(5, 3, 7), VoxelPos::new(60, 30, 50));
        let region = Arc::new(Region::copy(now.grid(), sel).expect("copies"));
        let ops = [
            RegionOp::Fill {
                b: sel,
                fill: Fill::only_air(Voxel::new(4, 200)),
            },
            RegionOp::Place {
                clear: Some(sel),
                region: region.clone(),
                at: VoxelPos::new(50, 20, 40),
                mode: PasteMode::Merge,
            },
            RegionOp::Turn {
                sel: VoxelBox::new(VoxelPos::new(30, 2, 20), VoxelPos::new(70, 25, 37)),
                axis: strata_engine::region::Axis::Y,
                mirror: false,
            },
            RegionOp::Turn {
                sel,
                axis: strata_engine::region::Axis::Z,
                mirror: true,
            },
            RegionOp::Delete(VoxelBox::new(
                VoxelPos::new(-10, 0, 0),
                VoxelPos::new(20, 90, 20),
            )),
        ];
        let progress = Progress::new();
        for (i, op) in ops.iter().enumerate() {
            let name = format!("op {i}");
            let work = job_doc.prepare_region_edit(&name, op.clone(), Some(sel));
            let done = work.run(&progress).expect("runs");
            job_doc.install_region(done).expect("installs");
            now.region_edit(&name, op).expect("edits");
            assert_eq!(job_doc.grid(), now.grid(), "{name}");
            assert_eq!(job_doc.history(), now.history(), "{name}");
            assert_eq!(job_doc.take_published(), now.take_published(), "{name}");
            assert_eq!(broadphase_cells(&job_doc), broadphase_cells(&now), "{name}");
        }
        for (redo, count) in [(false, 2), (true, 1), (false, 1), (true, 2)] {
            let work = job_doc.prepare_history(redo, count).expect("steps");
            job_doc
                .install_region(work.run(&progress).expect("runs"))
                .expect("installs");
            for _ in 0..count {
                if redo {
                    now.redo().expect("redo");
                } else {
                    now.undo().expect("undo");
                }
            }
            assert_eq!(job_doc.grid(), now.grid(), "redo {redo} count {count}");
            assert_eq!(job_doc.history(), now.history());
            assert_eq!(job_doc.take_published(), now.take_published());
            assert_eq!(broadphase_cells(&job_doc), broadphase_cells(&now));
        }
        // Cancelled, or overtaken by another edit: nothing changes.
        let before = (job_doc.grid().clone(), job_doc.history().clone());
        let work = job_doc.prepare_region_edit("late", ops[0].clone(), None);
        let cancelled = Progress::new();
        cancelled.cancel();
        assert!(work.run(&cancelled).is_err());
        let work = job_doc.prepare_region_edit("late", ops[4].clone(), None);
        let done = work.run(&progress).expect("runs");
        job_doc
            .region_edit("meanwhile", &ops[0])
            .expect("edits at once");
        let after_edit = (job_doc.grid().clone(), job_doc.history().clone());
        assert_ne!(after_edit, before);
        assert!(job_doc.install_region(done).is_err());
        assert_eq!(
            (job_doc.grid().clone(), job_doc.history().clone()),
            after_edit
        );
    }
}
