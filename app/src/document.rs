//! The open document: the project (header, voxels, undo history), its physics world, where it lives on
//! disk and whether it changed since it was saved. No egui types: panels read it and tools edit it
//! through the methods here, so every edit refreshes physics and tells the viewport what to remesh.
//!
//! ```text
//!   tool stroke ─┐                      ┌─> physics.on_edit (broadphase + cached shapes)
//!   undo / redo ─┴─> Document::edited ──┼─> pending_edits (viewport remeshes overlapping chunks)
//!                                       └─> revision += 1 (title marker, autosave)
//! ```

use std::path::{Path, PathBuf};

use strata_engine::format::project::Project;
use strata_engine::physics::{PhysicsWorld, WorldHit, DEFAULT_CACHE_BYTES};
use strata_engine::voxel::{MaterialTable, VoxelBox};

use crate::AppResult;

/// One open project and its derived state.
pub struct Document {
    /// Header, voxels and history.
    pub project: Project,
    /// Physics of the current voxels (brush cursor raycasts, test drops).
    pub physics: PhysicsWorld,
    /// Where the document was loaded from or last saved to; `None` for a new world.
    pub path: Option<PathBuf>,
    /// Bumped by every change to the voxels.
    revision: u64,
    /// The revision that matches the file on disk.
    saved_revision: u64,
    /// Boxes changed since the viewport last looked.
    pending_edits: Vec<VoxelBox>,
}

impl Document {
    /// Wrap a project; `path` is where it came from (`None` for a new, unsaved world).
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let physics = PhysicsWorld::new(
            &project.grid,
            &project.header.materials,
            DEFAULT_CACHE_BYTES,
        );
        let revision = u64::from(path.is_none());
        Self {
            project,
            physics,
            path,
            revision,
            saved_revision: 0,
            pending_edits: Vec::new(),
        }
    }

    /// The material table of this document.
    pub fn materials(&self) -> &MaterialTable {
        &self.project.header.materials
    }

    /// The file name shown in the title bar.
    pub fn display_name(&self) -> String {
        self.path.as_deref().and_then(Path::file_name).map_or_else(
            || format!("{} (unsaved)", self.project.header.name),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// True when the voxels differ from the file on disk (or there is no file).
    pub fn is_modified(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// Counter bumped by every edit (autosave compares it).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Record that revision `revision` is now on disk at `path`.
    pub fn mark_saved(&mut self, path: PathBuf, revision: u64) {
        self.path = Some(path);
        self.saved_revision = revision;
    }

    /// Report that the voxels of `changed` were modified: physics refreshes there, the viewport will
    /// remesh what overlaps it and the document counts as modified.
    pub fn edited(&mut self, changed: VoxelBox) {
        if changed.is_empty() {
            return;
        }
        self.physics.on_edit(&self.project.grid, changed);
        self.pending_edits.push(changed);
        self.revision += 1;
    }

    /// Take the boxes changed since the last call.
    pub fn take_edits(&mut self) -> Vec<VoxelBox> {
        std::mem::take(&mut self.pending_edits)
    }

    /// Undo the newest step; returns its name, or `None` when there was nothing to undo.
    ///
    /// # Errors
    /// When the stored step fails to decode (a corrupt history loaded from a file).
    pub fn undo(&mut self) -> AppResult<Option<String>> {
        let region = self.project.history.undo_region();
        let name = self.project.history.undo(&mut self.project.grid)?;
        if let (Some(region), Some(_)) = (region, &name) {
            self.edited(region);
        }
        Ok(name)
    }

    /// Redo the most recently undone step; returns its name.
    ///
    /// # Errors
    /// As for [`Document::undo`].
    pub fn redo(&mut self) -> AppResult<Option<String>> {
        let region = self.project.history.redo_region();
        let name = self.project.history.redo(&mut self.project.grid)?;
        if let (Some(region), Some(_)) = (region, &name) {
            self.edited(region);
        }
        Ok(name)
    }

    /// The terrain surface along a ray (solid and water), if any within `max_t` voxels.
    pub fn raycast(&mut self, origin: [f32; 3], dir: [f32; 3], max_t: f32) -> Option<WorldHit> {
        self.physics
            .raycast(&self.project.grid, origin, dir, max_t)
            .ok()
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::format::project::ProjectHeader;
    use strata_engine::storage::Grid;
    use strata_engine::voxel::{Voxel, VoxelPos};

    /// Material id of Grass in the built-in table.
    const GRASS: u8 = 2;

    fn flat() -> Document {
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 16, 32));
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 8, 32)),
            Voxel::new(GRASS, 255),
        );
        Document::new(
            Project::new(ProjectHeader::new("flat", bounds), grid),
            Some(PathBuf::from("flat.strata")),
        )
    }

    #[test]
    fn edits_mark_modified_and_undo_reports_the_region() {
        let mut doc = flat();
        assert!(!doc.is_modified());
        let b = VoxelBox::new(VoxelPos::new(4, 8, 4), VoxelPos::new(8, 10, 8));
        let history = &mut doc.project.history;
        history.apply(&mut doc.project.grid, b, "Add", |g| {
            g.fill_box(b, Voxel::new(2, 255));
        });
        doc.edited(b);
        assert!(doc.is_modified());
        assert_eq!(doc.take_edits(), vec![b]);
        assert_eq!(doc.undo().expect("undo").as_deref(), Some("Add"));
        assert_eq!(doc.take_edits(), vec![b]);
        assert_eq!(doc.project.grid.get(VoxelPos::new(5, 9, 5)), Voxel::AIR);
        assert_eq!(doc.redo().expect("redo").as_deref(), Some("Add"));
        assert_eq!(
            doc.project.grid.get(VoxelPos::new(5, 9, 5)),
            Voxel::new(2, 255)
        );
        let rev = doc.revision();
        doc.mark_saved(PathBuf::from("x.strata"), rev);
        assert!(!doc.is_modified());
        assert_eq!(doc.display_name(), "x.strata");
    }

    #[test]
    fn raycast_finds_the_ground() {
        let mut doc = flat();
        let hit = doc
            .raycast([16.0, 40.0, 16.0], [0.0, -1.0, 0.0], 100.0)
            .expect("hit");
        assert!((hit.point[1] - 8.0).abs() < 1.0, "{:?}", hit.point);
    }
}
