//! The undo and redo stacks: steps of packed boxes (and of project data such as the material
//! table), recorded before an edit and restored newest first, under a memory budget. The project
//! file's `HIST` section ([`super::serial`]) reads and writes the same steps.

use std::collections::VecDeque;

use crate::codec::lz4::PackedVoxels;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox};
use crate::Result;

/// Default memory budget for packed history data.
pub const DEFAULT_BUDGET_BYTES: usize = 256 << 20;

/// One box's contents before (and, once undone, after) a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Snapshot {
    pub(super) region: VoxelBox,
    pub(super) before: PackedVoxels,
    pub(super) after: Option<PackedVoxels>,
}

impl Snapshot {
    fn bytes(&self) -> usize {
        self.before.bytes.len() + self.after.as_ref().map_or(0, |a| a.bytes.len())
    }
}

/// What kind of project data a [`DataChange`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataKind {
    /// The material table (the header's RON of it).
    Materials,
    /// The placed lights (the project file's `LAMP` payload).
    Lights,
}

impl DataKind {
    /// The byte the history's file form stores.
    pub(crate) fn code(self) -> u8 {
        match self {
            DataKind::Materials => 1,
            DataKind::Lights => 2,
        }
    }

    /// The kind of a stored byte.
    pub(crate) fn from_code(c: u8) -> Option<Self> {
        match c {
            1 => Some(DataKind::Materials),
            2 => Some(DataKind::Lights),
            _ => None,
        }
    }
}

/// Project data a step changed, as its owner stores it, before and after the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataChange {
    /// What the bytes are.
    pub kind: DataKind,
    /// The data before the step.
    pub before: Vec<u8>,
    /// The data after the step.
    pub after: Vec<u8>,
}

impl DataChange {
    fn bytes(&self) -> usize {
        self.before.len() + self.after.len()
    }
}

/// One undoable step: a name for the Edit menu, the boxes it touched in order, and the project data
/// it changed in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Step {
    pub(super) name: String,
    pub(super) boxes: Vec<Snapshot>,
    pub(super) data: Vec<DataChange>,
}

impl Step {
    fn bytes(&self) -> usize {
        self.boxes.iter().map(Snapshot::bytes).sum::<usize>()
            + self.data.iter().map(DataChange::bytes).sum::<usize>()
            + self.name.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.boxes.is_empty() && self.data.is_empty()
    }
}

/// The undo/redo stacks of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    pub(super) undo: VecDeque<Step>,
    pub(super) redo: Vec<Step>,
    pub(super) open: Option<Step>,
    pub(super) budget_bytes: usize,
    pub(super) used_bytes: usize,
    /// Data the last undo or redo restored, for the owner to apply ([`History::take_data`]).
    applied: Vec<(DataKind, Vec<u8>)>,
}

impl Default for History {
    fn default() -> Self {
        Self::new(DEFAULT_BUDGET_BYTES)
    }
}

pub(super) fn capture(grid: &Grid, region: VoxelBox, scratch: &mut Vec<u8>) -> PackedVoxels {
    PackedVoxels::pack(&grid.read_box_vec(region), scratch)
}

pub(super) fn restore(
    grid: &mut Grid,
    region: VoxelBox,
    packed: &PackedVoxels,
    scratch: &mut Vec<u8>,
) -> Result<()> {
    let mut voxels = vec![Voxel::AIR; region.volume()];
    packed.unpack(&mut voxels, scratch)?;
    grid.write_box(region, &voxels);
    Ok(())
}

impl History {
    /// An empty history with a budget in bytes.
    pub fn new(budget_bytes: usize) -> Self {
        Self {
            undo: VecDeque::new(),
            redo: Vec::new(),
            open: None,
            budget_bytes,
            used_bytes: 0,
            applied: Vec::new(),
        }
    }

    /// The budget in bytes.
    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    /// Change the budget, dropping old steps if needed.
    pub fn set_budget_bytes(&mut self, budget_bytes: usize) {
        self.budget_bytes = budget_bytes;
        self.enforce_budget();
    }

    /// Packed bytes currently held.
    pub fn used_bytes(&self) -> usize {
        self.used_bytes
    }

    /// True when there is nothing to undo or redo.
    pub fn is_empty(&self) -> bool {
        self.undo.is_empty() && self.redo.is_empty() && self.open.is_none()
    }

    /// Names of undoable steps, newest first.
    pub fn undo_names(&self) -> impl Iterator<Item = &str> {
        self.undo.iter().rev().map(|s| s.name.as_str())
    }

    /// Names of redoable steps, next first.
    pub fn redo_names(&self) -> impl Iterator<Item = &str> {
        self.redo.iter().rev().map(|s| s.name.as_str())
    }

    /// Number of undoable steps.
    pub fn undo_len(&self) -> usize {
        self.undo.len() + usize::from(self.open.as_ref().is_some_and(|s| !s.is_empty()))
    }

    /// Number of redoable steps.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Start a step that collects every following [`History::record`] until
    /// [`History::end_group`]. An already open group is closed first.
    pub fn begin_group(&mut self, name: &str) {
        self.end_group();
        self.clear_redo();
        self.open = Some(Step {
            name: name.to_owned(),
            boxes: Vec::new(),
            data: Vec::new(),
        });
    }

    /// Close the open group (an empty group leaves no step).
    pub fn end_group(&mut self) {
        if let Some(step) = self.open.take() {
            if !step.is_empty() {
                self.used_bytes += step.name.len();
                self.undo.push_back(step);
                self.enforce_budget();
            }
        }
    }

    /// Roll back the open group and forget it: restore its boxes newest first, so `grid` is bit for
    /// bit as it was when the group began (for an edit cancelled halfway). Nothing goes to the redo
    /// stack. Does nothing without an open group.
    ///
    /// # Errors
    /// As for [`History::undo`] (not expected: the boxes were packed by this history).
    pub fn discard_group(&mut self, grid: &mut Grid) -> Result<()> {
        let Some(step) = self.open.take() else {
            return Ok(());
        };
        self.used_bytes -= step.bytes() - step.name.len();
        let mut scratch = Vec::new();
        for snap in step.boxes.iter().rev() {
            restore(grid, snap.region, &snap.before, &mut scratch)?;
        }
        self.applied = step
            .data
            .into_iter()
            .rev()
            .map(|d| (d.kind, d.before))
            .collect();
        Ok(())
    }

    /// Capture `region` of `grid` before an operation changes it. Inside a group the box joins the
    /// group's step; otherwise it becomes a step called `name`. Clears the redo stack.
    pub fn record(&mut self, grid: &Grid, region: VoxelBox, name: &str) {
        if region.is_empty() {
            return;
        }
        self.clear_redo();
        let mut scratch = Vec::new();
        let snap = Snapshot {
            region,
            before: capture(grid, region, &mut scratch),
            after: None,
        };
        self.used_bytes += snap.bytes();
        match &mut self.open {
            Some(step) => step.boxes.push(snap),
            None => {
                self.used_bytes += name.len();
                self.undo.push_back(Step {
                    name: name.to_owned(),
                    boxes: vec![snap],
                    data: Vec::new(),
                });
                self.enforce_budget();
            }
        }
    }

    /// Keep a change of project data that is not voxels: its bytes before and after (the caller has
    /// made the change). Inside a group it joins the group's step; otherwise it becomes a step
    /// called `name`. Clears the redo stack. A change whose bytes are equal is not kept.
    pub fn record_data(&mut self, change: DataChange, name: &str) {
        if change.before == change.after {
            return;
        }
        self.clear_redo();
        self.used_bytes += change.bytes();
        match &mut self.open {
            Some(step) => step.data.push(change),
            None => {
                self.used_bytes += name.len();
                self.undo.push_back(Step {
                    name: name.to_owned(),
                    boxes: Vec::new(),
                    data: vec![change],
                });
                self.enforce_budget();
            }
        }
    }

    /// Every project-data payload the history keeps (before and after of each change, in every
    /// step): what a save must keep alive (the textures a stored table names).
    pub fn data_payloads(&self) -> impl Iterator<Item = (DataKind, &[u8])> {
        self.undo
            .iter()
            .chain(&self.redo)
            .chain(&self.open)
            .flat_map(|s| &s.data)
            .flat_map(|d| [(d.kind, d.before.as_slice()), (d.kind, d.after.as_slice())])
    }

    /// The project data the last undo, redo or discarded group restored, in the order to apply it:
    /// each entry is the bytes its kind now holds. Empty when the step changed voxels only.
    pub fn take_data(&mut self) -> Vec<(DataKind, Vec<u8>)> {
        std::mem::take(&mut self.applied)
    }

    /// Record `region`, then run `edit` on the grid: the usual way to make an undoable change.
    pub fn apply(
        &mut self,
        grid: &mut Grid,
        region: VoxelBox,
        name: &str,
        edit: impl FnOnce(&mut Grid),
    ) {
        self.record(grid, region, name);
        edit(grid);
    }

    /// The bounding box of every region the next undo would restore (the open group counts), so a
    /// caller can refresh what depends on those voxels. `None` when there is nothing to undo.
    pub fn undo_region(&self) -> Option<VoxelBox> {
        let step = self.open.as_ref().or_else(|| self.undo.back())?;
        bounding(step)
    }

    /// The bounding box of every region the next redo would restore; `None` when there is nothing to
    /// redo.
    pub fn redo_region(&self) -> Option<VoxelBox> {
        bounding(self.redo.last()?)
    }

    /// Undo the newest step (closing an open group first); returns its name.
    ///
    /// # Errors
    /// When a packed box fails to decode (only possible for a corrupt loaded history); the grid may
    /// then be partly restored.
    pub fn undo(&mut self, grid: &mut Grid) -> Result<Option<String>> {
        self.undo_with(grid, &Progress::new())
    }

    /// Redo the most recently undone step; returns its name.
    ///
    /// # Errors
    /// As for [`History::undo`].
    pub fn redo(&mut self, grid: &mut Grid) -> Result<Option<String>> {
        self.redo_with(grid, &Progress::new())
    }

    /// A history holding copies of the `count` newest undo steps alone (closing an open group
    /// first), to undo them on another thread against [`Grid::copy_chunks`] of
    /// [`History::regions`]; [`History::install_undone`] takes the result back. `None` when fewer
    /// steps are there.
    pub fn copy_undo(&mut self, count: usize) -> Option<History> {
        self.end_group();
        let first = self.undo.len().checked_sub(count)?;
        let mut copy = History::new(self.budget_bytes);
        copy.undo = self.undo.range(first..).cloned().collect();
        copy.recount();
        Some(copy)
    }

    /// A history holding copies of the `count` next redo steps alone, for
    /// [`History::install_redone`]; `None` when fewer steps are there.
    pub fn copy_redo(&mut self, count: usize) -> Option<History> {
        self.end_group();
        let first = self.redo.len().checked_sub(count)?;
        let mut copy = History::new(self.budget_bytes);
        copy.redo = self.redo[first..].to_vec();
        copy.recount();
        Some(copy)
    }

    /// Take back a [`History::copy_undo`] whose steps were all undone: our newest undo steps move to
    /// the redo stack as the copy holds them (with the voxels redo puts back).
    pub fn install_undone(&mut self, copy: History) {
        self.end_group();
        for step in &copy.redo {
            let ours = self.undo.pop_back();
            debug_assert_eq!(ours.map(|s| s.name), Some(step.name.clone()));
        }
        // Undone newest first, and pushed on the copy's redo stack in that order: applying each
        // step's old data in stack order leaves the oldest undone step's.
        self.applied = copy
            .redo
            .iter()
            .flat_map(|s| s.data.iter().rev().map(|d| (d.kind, d.before.clone())))
            .collect();
        self.redo.extend(copy.redo);
        self.recount();
        self.enforce_budget();
    }

    /// Take back a [`History::copy_redo`] whose steps were all redone: our next redo steps move to
    /// the undo stack.
    pub fn install_redone(&mut self, copy: History) {
        self.end_group();
        for step in &copy.undo {
            let ours = self.redo.pop();
            debug_assert_eq!(ours.map(|s| s.name), Some(step.name.clone()));
        }
        self.applied = copy
            .undo
            .iter()
            .flat_map(|s| s.data.iter().map(|d| (d.kind, d.after.clone())))
            .collect();
        self.undo.extend(copy.undo);
        self.recount();
        self.enforce_budget();
    }

    /// Append the undo steps of `other` (recorded on a copy of the grid's chunks) as our newest
    /// steps; clears the redo stack when there is one to append.
    pub fn append(&mut self, other: History) {
        self.end_group();
        if other.undo.is_empty() {
            return;
        }
        self.clear_redo();
        self.undo.extend(other.undo);
        self.recount();
        self.enforce_budget();
    }

    /// The bounding box of each undo and redo step (what a copy of the chunks must cover to undo
    /// or redo them elsewhere).
    pub fn regions(&self) -> Vec<VoxelBox> {
        let steps = self.undo.iter().chain(&self.redo).chain(&self.open);
        steps.filter_map(bounding).collect()
    }

    /// Voxels the `count` newest undo steps (or, with `redo`, the next redo steps) restore, counting
    /// each step's bounding box: how long undoing them will take.
    pub fn voxels_to(&self, redo: bool, count: usize) -> u64 {
        let volume = |s: &Step| bounding(s).map_or(0, |b| b.volume() as u64);
        if redo {
            self.redo.iter().rev().take(count).map(volume).sum()
        } else {
            let open = self.open.iter().filter(|s| !s.is_empty());
            open.chain(self.undo.iter().rev())
                .take(count)
                .map(volume)
                .sum()
        }
    }

    /// [`History::undo`], checking `progress` before each box. Made for copies
    /// ([`History::copy_undo`]): after [`crate::Error::Cancelled`] the grid and this history are part
    /// way through the step and are meant to be dropped.
    ///
    /// # Errors
    /// As for [`History::undo`]; [`crate::Error::Cancelled`].
    pub fn undo_with(&mut self, grid: &mut Grid, progress: &Progress) -> Result<Option<String>> {
        self.end_group();
        let Some(mut step) = self.undo.pop_back() else {
            return Ok(None);
        };
        let mut scratch = Vec::new();
        for snap in step.boxes.iter_mut().rev() {
            progress.check()?;
            let after = capture(grid, snap.region, &mut scratch);
            restore(grid, snap.region, &snap.before, &mut scratch)?;
            self.used_bytes += after.bytes.len();
            self.used_bytes -= snap.after.replace(after).map_or(0, |a| a.bytes.len());
            progress.advance(1);
        }
        self.applied = step
            .data
            .iter()
            .rev()
            .map(|d| (d.kind, d.before.clone()))
            .collect();
        let name = step.name.clone();
        self.redo.push(step);
        self.enforce_budget();
        Ok(Some(name))
    }

    /// [`History::redo`], checking `progress` before each box; as for [`History::undo_with`], made
    /// for copies.
    ///
    /// # Errors
    /// As for [`History::redo`]; [`crate::Error::Cancelled`].
    pub fn redo_with(&mut self, grid: &mut Grid, progress: &Progress) -> Result<Option<String>> {
        self.end_group();
        let Some(mut step) = self.redo.pop() else {
            return Ok(None);
        };
        let mut scratch = Vec::new();
        for snap in &mut step.boxes {
            progress.check()?;
            if let Some(after) = snap.after.take() {
                restore(grid, snap.region, &after, &mut scratch)?;
                self.used_bytes -= after.bytes.len();
            }
            progress.advance(1);
        }
        self.applied = step
            .data
            .iter()
            .map(|d| (d.kind, d.after.clone()))
            .collect();
        let name = step.name.clone();
        self.undo.push_back(step);
        Ok(Some(name))
    }

    /// Boxes in the `count` newest undo steps (or next redo steps): progress units of
    /// [`History::undo_with`] and [`History::redo_with`].
    pub fn box_count(&self, redo: bool, count: usize) -> u64 {
        let n = |s: &Step| s.boxes.len() as u64;
        if redo {
            self.redo.iter().rev().take(count).map(n).sum()
        } else {
            self.undo.iter().rev().take(count).map(n).sum()
        }
    }

    fn clear_redo(&mut self) {
        let freed: usize = self.redo.iter().map(Step::bytes).sum();
        self.used_bytes -= freed;
        self.redo.clear();
    }

    /// Drop the oldest undo steps while over budget (the newest step always stays).
    pub(super) fn enforce_budget(&mut self) {
        while self.used_bytes > self.budget_bytes && self.undo.len() > 1 {
            if let Some(old) = self.undo.pop_front() {
                self.used_bytes -= old.bytes();
            }
        }
    }

    pub(super) fn recount(&mut self) {
        self.used_bytes = self.undo.iter().chain(&self.redo).map(Step::bytes).sum();
    }
}

pub(super) fn bounding(step: &Step) -> Option<VoxelBox> {
    step.boxes
        .iter()
        .map(|snap| snap.region)
        .reduce(|a, b| a.union(&b))
}
