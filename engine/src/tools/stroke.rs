//! A brush stroke: every dab from mouse down to mouse up is one undo step.
//!
//! ```text
//!   mouse down   Stroke::begin(history, "Add")      closes any open group
//!   each dab     stroke.dab(...)                    plan → history.record(changed box) → write
//!   mouse up     stroke.end(history)                closes the step (none if nothing changed)
//! ```
//!
//! The history group opens at the first dab that changes something, so a click that changes nothing
//! leaves no empty step and keeps the redo stack. Each dab records exactly the box it is about to
//! change, before changing it; undo restores those boxes newest first, which rebuilds the grid
//! bit-exactly even where dabs overlap.

use super::brush::Brush;
use super::dab::{plan_dab, plan_sea_level, Edit};
use super::sculpt_field::Palette;
use super::tool::{SeaLevelMode, Tool};
use crate::history::History;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, VoxelBox};

/// One undoable stroke in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stroke {
    name: String,
    open: bool,
    changed: VoxelBox,
    dabs: usize,
}

impl Stroke {
    /// Start a stroke whose undo step will be called `name` (usually [`super::ToolKind::name`]).
    pub fn begin(history: &mut History, name: &str) -> Self {
        history.end_group();
        Self {
            name: name.to_owned(),
            open: false,
            changed: VoxelBox::default(),
            dabs: 0,
        }
    }

    /// Apply one dab (see [`super::apply_dab`]) as part of this stroke; returns the changed box.
    pub fn dab(
        &mut self,
        history: &mut History,
        grid: &mut Grid,
        table: &MaterialTable,
        tool: &Tool,
        brush: &Brush,
        center: [f32; 3],
    ) -> Option<VoxelBox> {
        let edit = plan_dab(grid, &Palette::new(table), tool, brush, center);
        self.commit(history, grid, edit)
    }

    /// Fill or clear water in `region` (see [`super::apply_sea_level`]) as part of this stroke.
    pub fn sea_level(
        &mut self,
        history: &mut History,
        grid: &mut Grid,
        table: &MaterialTable,
        region: VoxelBox,
        level: f32,
        mode: SeaLevelMode,
    ) -> Option<VoxelBox> {
        let edit = plan_sea_level(grid, &Palette::new(table), region, level, mode);
        self.commit(history, grid, edit)
    }

    fn commit(
        &mut self,
        history: &mut History,
        grid: &mut Grid,
        edit: Option<Edit>,
    ) -> Option<VoxelBox> {
        let edit = edit?;
        if !self.open {
            history.begin_group(&self.name);
            self.open = true;
        }
        history.record(grid, edit.region, &self.name);
        edit.write(grid);
        self.changed = self.changed.union(&edit.region);
        self.dabs += 1;
        Some(edit.region)
    }

    /// The undo step name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The union of every box changed so far (empty if none).
    pub fn changed(&self) -> VoxelBox {
        self.changed
    }

    /// Number of dabs that changed something.
    pub fn changing_dabs(&self) -> usize {
        self.dabs
    }

    /// Finish the stroke: close its undo step. Returns the union of every changed box.
    pub fn end(self, history: &mut History) -> VoxelBox {
        if self.open {
            history.end_group();
        }
        self.changed
    }
}
