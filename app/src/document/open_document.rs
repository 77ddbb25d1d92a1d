//! The open document: the project (header, voxels, undo history), its physics world, where it lives on
//! disk and whether it changed since it was saved. No egui types.
//!
//! Voxels change only through the methods here. Each one records the undo step, marks the document
//! modified, refreshes physics and publishes the changed box; the editor hands every published box to
//! every consumer (viewport meshes, panels) once per frame, so no edit path can forget one.
//!
//! ```text
//!   stroke dabs ─┐
//!   sea level   ─┤                         ┌─> physics.on_edit (broadphase + cached shapes), now
//!   edit_box    ─┤                         │
//!   region_edit ─┼─> record undo ─> write ─┼─> revision += 1 (title marker, autosave)
//!   undo / redo ─┘                         └─> published boxes ─> EditorApp::publish ─> consumers
//! ```
//!
//! The document also holds the region selection (a box of voxels, set by the Region tool), so any
//! panel can read it through `View::doc` (e.g. to generate into it).

use std::path::{Path, PathBuf};

use strata_engine::floating::{delete_pieces, Floating};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::format::ProjectLock;
use strata_engine::history::History;
use strata_engine::light::{LightMap, LightPatch, SolidVolume};
use strata_engine::materials::{affected_chunks, apply_change, Applied, TableChange};
use strata_engine::physics::{PhysicsRefresh, PhysicsWorld, WorldHit, DEFAULT_CACHE_BYTES};
use strata_engine::progress::Progress;
use strata_engine::region::RegionEdit;
use strata_engine::storage::Grid;
use strata_engine::stray::{StrayMatter, CLEAR_STEP_NAME};
use strata_engine::tools::{Brush, SeaLevelMode, Stroke, Tool};
use strata_engine::voxel::{MaterialTable, TextureRef, VoxelBox};

use crate::region::region_op::RegionOp;
use crate::AppResult;

/// Something that keeps state derived from the voxels and must see every change. The viewport and
/// every panel are told the same way; this trait is for consumers outside the panel registry.
pub trait EditConsumer {
    /// A name for listings and test failures.
    fn name(&self) -> &str;
    /// The voxels in `changed` were modified (by any path: tools, undo, redo, paste, generate).
    fn on_edit(&mut self, doc: &Document, changed: VoxelBox);
    /// A different document is open (`None`: none).
    fn on_document(&mut self, _doc: Option<&Document>) {}
}

/// One open project and its derived state.
pub struct Document {
    pub(super) project: Project,
    /// Built when the editor opens the document, or at first use; a command-line edit has no
    /// physics consumer and never builds it.
    pub(super) physics: Option<PhysicsWorld>,
    /// Where the document was loaded from or last saved to; `None` for a new world.
    pub(super) path: Option<PathBuf>,
    /// Bumped by every change to the voxels.
    pub(super) revision: u64,
    /// The revision that matches the file on disk.
    pub(super) saved_revision: u64,
    /// The brush stroke in progress, if any.
    pub(super) stroke: Option<Stroke>,
    /// Boxes changed since the editor last published them.
    pub(super) published: Vec<VoxelBox>,
    /// Regions whose baked light changed or went stale, for the viewport to recolour.
    pub(super) relit: Vec<VoxelBox>,
    /// Stale light of the stroke in progress, published when it ends.
    pub(super) relit_pending: VoxelBox,
    /// The region selection, inside the world's bounds.
    pub(super) selection: Option<VoxelBox>,
    /// Bumped by every change to the voxels (a background region write checks it before installing).
    pub(super) edits: u64,
    /// Bumped by every change to the material table (an edit, or an undo or redo putting another
    /// back): the viewport compares it to redraw with the new colours, looks and textures.
    pub(super) table_revision: u64,
    /// The advisory lock on the file, held while this document may save over it.
    lock: Option<ProjectLock>,
}

impl Document {
    /// Wrap a project for the editor, building its physics world; `path` is where it came from
    /// (`None` for a new, unsaved world).
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let mut doc = Self::headless(project, path);
        doc.physics_mut();
        doc
    }

    /// Wrap a project for command-line edits: the same edit path as the editor, without a physics
    /// world (built at first use, if ever).
    pub fn headless(project: Project, path: Option<PathBuf>) -> Self {
        let revision = u64::from(path.is_none());
        Self {
            project,
            physics: None,
            path,
            revision,
            saved_revision: 0,
            stroke: None,
            published: Vec::new(),
            relit: Vec::new(),
            relit_pending: VoxelBox::default(),
            selection: None,
            edits: 0,
            table_revision: 0,
            lock: None,
        }
    }

    /// Keep `lock` (on the document's file) for as long as the document is open.
    pub fn set_lock(&mut self, lock: Option<ProjectLock>) {
        self.lock = lock;
    }

    /// The lock held on the document's file, to renew after a save.
    pub fn lock_mut(&mut self) -> Option<&mut ProjectLock> {
        self.lock.as_mut()
    }

    /// The lock held on the document's file, if any.
    pub fn lock(&self) -> Option<&ProjectLock> {
        self.lock.as_ref()
    }

    /// The region selection (a box of voxels inside the world), if any.
    pub fn selection(&self) -> Option<VoxelBox> {
        self.selection
    }

    /// Select `b` clipped to the world's bounds (`None`, or nothing inside: no selection). Returns
    /// the selection as kept.
    pub fn set_selection(&mut self, b: Option<VoxelBox>) -> Option<VoxelBox> {
        self.selection = b
            .map(|b| b.intersect(&self.project.header.bounds))
            .filter(|b| !b.is_empty());
        self.selection
    }

    /// The whole project (read only).
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The voxels.
    pub fn grid(&self) -> &Grid {
        &self.project.grid
    }

    /// The header: name, bounds, materials, camera, generator settings.
    pub fn header(&self) -> &ProjectHeader {
        &self.project.header
    }

    /// The undo history.
    pub fn history(&self) -> &History {
        &self.project.history
    }

    /// The material table of this document.
    pub fn materials(&self) -> &MaterialTable {
        &self.project.header.materials
    }

    /// Counter bumped by every change to the material table (see [`Document::change_materials`]).
    pub fn materials_revision(&self) -> u64 {
        self.table_revision
    }

    /// The world's bounds from the header.
    pub fn bounds(&self) -> VoxelBox {
        self.project.header.bounds
    }

    /// The physics world of the current voxels (`None` for a headless document that never needed
    /// it).
    pub fn physics(&self) -> Option<&PhysicsWorld> {
        self.physics.as_ref()
    }

    /// The physics world, built now if it was not yet.
    pub fn physics_mut(&mut self) -> &mut PhysicsWorld {
        let Self {
            physics, project, ..
        } = self;
        physics.get_or_insert_with(|| {
            PhysicsWorld::new(
                &project.grid,
                &project.header.materials,
                DEFAULT_CACHE_BYTES,
            )
        })
    }

    /// Lend the physics world (built now if it was not yet) to `f` together with the rest of the
    /// document, read-only: a simulation steps on the document's own collision view of the voxels
    /// while it reads them. [`Document::physics`] is `None` during the call.
    pub fn with_physics<R>(&mut self, f: impl FnOnce(&mut PhysicsWorld, &Document) -> R) -> R {
        let mut world = match self.physics.take() {
            Some(world) => world,
            None => PhysicsWorld::new(self.grid(), self.materials(), DEFAULT_CACHE_BYTES),
        };
        let r = f(&mut world, self);
        self.physics = Some(world);
        r
    }

    /// Where the document lives on disk, if anywhere.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
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

    /// Keep `path` as the document's file without counting it as saved (a recovered autosave of that
    /// file: Save writes back to it).
    pub fn set_path(&mut self, path: Option<PathBuf>) {
        self.path = path;
    }

    /// A copy of the project to save or autosave on another thread; ends the stroke in progress first
    /// so the copy holds whole undo steps.
    pub fn snapshot(&mut self) -> Project {
        self.end_stroke();
        self.project.clone()
    }

    /// Take the boxes changed since the last call (the editor publishes them to every consumer).
    pub fn take_published(&mut self) -> Vec<VoxelBox> {
        std::mem::take(&mut self.published)
    }

    /// Take the regions whose baked light changed or went stale since the last call.
    pub fn take_relit(&mut self) -> Vec<VoxelBox> {
        std::mem::take(&mut self.relit)
    }

    /// Every path ends here: physics now, the baked light marked stale where the edit reaches, the
    /// revision, and the box for the other consumers.
    pub(super) fn changed(&mut self, changed: VoxelBox) {
        if changed.is_empty() {
            return;
        }
        if let Some(physics) = self.physics.as_mut() {
            physics.on_edit(&self.project.grid, changed);
        }
        self.published_edit(changed);
    }

    /// [`Document::changed`] with the physics refresh computed elsewhere (a background region
    /// write computes it on its copy of the chunks).
    pub(super) fn changed_refreshed(&mut self, changed: VoxelBox, refresh: PhysicsRefresh) {
        if changed.is_empty() {
            return;
        }
        if let Some(physics) = self.physics.as_mut() {
            physics.on_edit_refreshed(refresh);
        }
        self.published_edit(changed);
    }

    /// Everything [`Document::changed`] does after physics.
    pub(super) fn published_edit(&mut self, changed: VoxelBox) {
        if let Some(light) = self.project.light.as_mut() {
            light.mark_stale(changed);
            let reach = light.reach().ceil() as i32;
            self.relit_pending = self.relit_pending.union(&changed.grown(reach));
            if self.stroke.is_none() {
                self.flush_relit();
            }
        }
        self.published.push(changed);
        self.revision += 1;
        self.edits += 1;
    }

    pub(super) fn flush_relit(&mut self) {
        if !self.relit_pending.is_empty() {
            self.relit.push(std::mem::take(&mut self.relit_pending));
        }
    }

    /// The baked light, if the world has been baked.
    pub fn light(&self) -> Option<&LightMap> {
        self.project.light.as_ref()
    }

    /// Install a new bake (the whole world's light); the document counts as modified, since the
    /// light is saved with it.
    pub fn install_light(&mut self, light: LightMap) {
        self.project.light = Some(light);
        self.relit.push(self.project.header.bounds);
        self.revision += 1;
    }

    /// Remove the baked light.
    pub fn remove_light(&mut self) {
        if self.project.light.take().is_some() {
            self.relit.push(self.project.header.bounds);
            self.revision += 1;
        }
    }

    /// Install a re-bake of the stale regions, computed on `baked_on`; edits made since (the
    /// difference to `current`) stay stale.
    ///
    /// # Errors
    /// When there is no light, or the light was re-baked with other settings since the patch started
    /// (nothing changes then).
    pub fn patch_light(
        &mut self,
        patch: LightPatch,
        baked_on: &SolidVolume,
        current: &SolidVolume,
    ) -> AppResult<()> {
        let Some(light) = self.project.light.as_mut() else {
            return Err(crate::AppError::Usage("no baked light to update".into()));
        };
        let regions = light.stale_regions();
        light.apply(patch)?;
        light.mark_stale_between(baked_on, current);
        self.relit.extend(regions);
        self.revision += 1;
        Ok(())
    }

    /// Start a brush stroke whose undo step is called `name` (ends any stroke in progress).
    pub fn begin_stroke(&mut self, name: &str) {
        self.end_stroke();
        self.stroke = Some(Stroke::begin(&mut self.project.history, name));
    }

    /// True while a stroke is open.
    pub fn stroking(&self) -> bool {
        self.stroke.is_some()
    }

    /// One dab of the open stroke at `center`; returns the changed box (`None`: nothing changed, or
    /// no stroke is open).
    pub fn dab(&mut self, tool: &Tool, brush: &Brush, center: [f32; 3]) -> Option<VoxelBox> {
        let stroke = self.stroke.as_mut()?;
        let project = &mut self.project;
        let changed = stroke.dab(
            &mut project.history,
            &mut project.grid,
            &project.header.materials,
            tool,
            brush,
            center,
        )?;
        self.changed(changed);
        Some(changed)
    }

    /// Close the open stroke, if any, as one undo step.
    pub fn end_stroke(&mut self) {
        if let Some(stroke) = self.stroke.take() {
            stroke.end(&mut self.project.history);
        }
        self.flush_relit();
    }

    /// Fill (or clear) water up to `level` inside `region` as one undo step named after the mode.
    /// Returns the changed box, `None` when nothing changed.
    pub fn sea_level(
        &mut self,
        region: VoxelBox,
        level: f32,
        mode: SeaLevelMode,
    ) -> Option<VoxelBox> {
        self.end_stroke();
        let name = match mode {
            SeaLevelMode::Fill => "Fill Water",
            SeaLevelMode::Clear => "Clear Water",
        };
        let project = &mut self.project;
        let mut stroke = Stroke::begin(&mut project.history, name);
        let changed = stroke.sea_level(
            &mut project.history,
            &mut project.grid,
            &project.header.materials,
            region,
            level,
            mode,
        );
        stroke.end(&mut project.history);
        let changed = changed?;
        self.changed(changed);
        Some(changed)
    }

    /// Change the voxels of `boxes` with `write` as one undo step called `name`. Each box is recorded
    /// before `write` runs and published after, so `write` must change nothing outside them.
    ///
    /// # Panics
    /// In debug builds, when `write` changed a voxel outside `boxes` (a caller bug).
    pub fn edit_boxes(&mut self, name: &str, boxes: &[VoxelBox], write: impl FnOnce(&mut Grid)) {
        self.end_stroke();
        let boxes: Vec<VoxelBox> = boxes.iter().copied().filter(|b| !b.is_empty()).collect();
        if boxes.is_empty() {
            return;
        }
        let history = &mut self.project.history;
        history.begin_group(name);
        for b in &boxes {
            history.record(&self.project.grid, *b, name);
        }
        history.end_group();
        #[cfg(debug_assertions)]
        let before = self.project.grid.clone();
        write(&mut self.project.grid);
        #[cfg(debug_assertions)]
        super::edit_check::assert_wrote_inside(&before, &self.project.grid, &boxes, name);
        for b in boxes {
            self.changed(b);
        }
    }

    /// Turn the chosen pieces of `found` (`strata_engine::floating::find_floating` on the current
    /// voxels; `chosen[i]` for piece `i`) to Air as one undo step; each chunk's changed box is
    /// recorded and published. Returns the bounding box of the change, `None` when nothing was
    /// chosen.
    pub fn delete_floating(&mut self, found: &Floating, chosen: &[bool]) -> Option<VoxelBox> {
        self.end_stroke();
        let boxes = found.boxes(chosen);
        let project = &mut self.project;
        let changed = delete_pieces(&mut project.grid, &mut project.history, found, chosen)?;
        for b in boxes {
            self.changed(b);
        }
        Some(changed)
    }

    /// Turn `stray` (found by `strata_engine::stray::find_stray` on the current voxels) to Air as
    /// one undo step; returns the bounding box of the change, `None` when there was nothing.
    pub fn clear_stray(&mut self, stray: &StrayMatter) -> Option<VoxelBox> {
        if stray.is_empty() {
            return None;
        }
        self.edit_boxes(CLEAR_STEP_NAME, &stray.boxes(), |g| stray.clear(g));
        Some(stray.bounds())
    }

    /// Run `op` (clipped to the world's bounds) as one undo step called `name`: each chunk's tight
    /// changed box is recorded before it is written, and each changed box is published. Returns the
    /// union of the changed boxes (empty when nothing changed; then no step is recorded).
    ///
    /// # Errors
    /// When nothing of `op` lies inside the world, or the engine refuses it; the grid and the
    /// history are then as they were.
    pub fn region_edit(&mut self, name: &str, op: &RegionOp) -> AppResult<VoxelBox> {
        self.region_edit_with(name, op, &Progress::new())
    }

    /// [`Document::region_edit`] counting its work in `progress` (cancelling it rolls the edit
    /// back).
    ///
    /// # Errors
    /// As for [`Document::region_edit`], or [`strata_engine::Error::Cancelled`].
    pub fn region_edit_with(
        &mut self,
        name: &str,
        op: &RegionOp,
        progress: &Progress,
    ) -> AppResult<VoxelBox> {
        self.end_stroke();
        let bounds = self.project.header.bounds;
        let project = &mut self.project;
        let mut edit = RegionEdit::begin(
            &mut project.grid,
            Some(&mut project.history),
            name,
            progress,
        );
        let boxes = op.run(&mut edit, bounds)?;
        let changed = edit.finish();
        for b in boxes {
            self.changed(b);
        }
        Ok(changed)
    }

    /// Undo the newest step; returns its name, or `None` when there was nothing to undo.
    ///
    /// # Errors
    /// When the stored step fails to decode (a corrupt history loaded from a file).
    pub fn undo(&mut self) -> AppResult<Option<String>> {
        self.end_stroke();
        let region = self.project.history.undo_region();
        let table = self.project.header.materials.clone();
        let lights = self.project.lights.clone();
        let name = self.project.undo()?;
        if let (Some(region), Some(_)) = (region, &name) {
            self.changed(region);
        }
        self.table_restored(&table);
        self.lights_restored(&lights);
        Ok(name)
    }

    /// After an undo or redo: when it put back another material table, publish the chunks whose
    /// materials look different now (`old` is the table before).
    pub(crate) fn table_restored(&mut self, old: &MaterialTable) {
        if *old == self.project.header.materials {
            return;
        }
        self.table_swapped(old);
        let boxes = affected_chunks(&self.project.grid, old, &self.project.header.materials);
        for b in boxes {
            self.changed(b);
        }
    }

    /// The table is no longer `old`: count the change, and rebuild the physics world when a
    /// material turned liquid or solid (it keeps its own copy of the liquid flags).
    fn table_swapped(&mut self, old: &MaterialTable) {
        self.table_revision += 1;
        let liquids =
            |t: &MaterialTable| -> Vec<bool> { t.materials.iter().map(|m| m.liquid).collect() };
        if self.physics.is_some() && liquids(old) != liquids(&self.project.header.materials) {
            self.physics = None;
            self.physics_mut();
        }
    }

    /// Keep a texture image (checked PNG bytes) in the project, for a material to refer to.
    ///
    /// # Errors
    /// Not a PNG within the caps, or the project's textures full.
    pub fn add_texture(&mut self, png: Vec<u8>) -> AppResult<TextureRef> {
        Ok(self.project.textures.add(png)?)
    }

    /// Apply a material-table edit (`strata_engine::materials`) as one undo step called `name`:
    /// voxels remapped where ids move, the table swapped, and every chunk showing a changed material
    /// published (viewport colours, physics for liquids, baked light marked stale).
    ///
    /// # Errors
    /// [`strata_engine::Error::Cancelled`] through `progress` (nothing changes then).
    pub fn change_materials(
        &mut self,
        name: &str,
        change: TableChange,
        progress: &Progress,
    ) -> AppResult<Applied> {
        self.end_stroke();
        let old = self.project.header.materials.clone();
        let applied = apply_change(&mut self.project, name, change, progress)?;
        self.table_swapped(&old);
        for b in &applied.affected {
            self.changed(*b);
        }
        if applied.affected.is_empty() {
            // A table change no voxel shows (a new material) still changes the document.
            self.revision += 1;
            self.edits += 1;
        }
        Ok(applied)
    }

    /// Redo the most recently undone step; returns its name.
    ///
    /// # Errors
    /// As for [`Document::undo`].
    pub fn redo(&mut self) -> AppResult<Option<String>> {
        self.end_stroke();
        let region = self.project.history.redo_region();
        let table = self.project.header.materials.clone();
        let lights = self.project.lights.clone();
        let name = self.project.redo()?;
        if let (Some(region), Some(_)) = (region, &name) {
            self.changed(region);
        }
        self.table_restored(&table);
        self.lights_restored(&lights);
        Ok(name)
    }

    /// Undo or redo until `undo_len` steps remain on the undo stack (the history panel's jump).
    /// Returns how many steps were undone (negative) or redone (positive).
    ///
    /// # Errors
    /// As for [`Document::undo`].
    pub fn jump_to(&mut self, undo_len: usize) -> AppResult<i64> {
        let mut moved = 0i64;
        while self.project.history.undo_len() > undo_len {
            if self.undo()?.is_none() {
                break;
            }
            moved -= 1;
        }
        while self.project.history.undo_len() < undo_len {
            if self.redo()?.is_none() {
                break;
            }
            moved += 1;
        }
        Ok(moved)
    }

    /// The terrain surface along a ray (solid and water), if any within `max_t` voxels.
    pub fn raycast(&mut self, origin: [f32; 3], dir: [f32; 3], max_t: f32) -> Option<WorldHit> {
        self.physics_mut();
        let Self {
            physics, project, ..
        } = self;
        physics
            .as_mut()?
            .raycast(&project.grid, origin, dir, max_t)
            .ok()
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        doc.edit_boxes("Add", &[b], |g| g.fill_box(b, Voxel::new(2, 255)));
        assert!(doc.is_modified());
        assert_eq!(doc.take_published(), vec![b]);
        assert_eq!(doc.undo().expect("undo").as_deref(), Some("Add"));
        assert_eq!(doc.take_published(), vec![b]);
        assert_eq!(doc.grid().get(VoxelPos::new(5, 9, 5)), Voxel::AIR);
        assert_eq!(doc.redo().expect("redo").as_deref(), Some("Add"));
        assert_eq!(doc.grid().get(VoxelPos::new(5, 9, 5)), Voxel::new(2, 255));
        let rev = doc.revision();
        doc.mark_saved(PathBuf::from("x.strata"), rev);
        assert!(!doc.is_modified());
        assert_eq!(doc.display_name(), "x.strata");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "outside its boxes")]
    fn a_box_edit_that_writes_outside_its_boxes_fails_in_debug_builds() {
        let mut doc = flat();
        let b = VoxelBox::new(VoxelPos::new(4, 8, 4), VoxelPos::new(8, 10, 8));
        let outside = VoxelPos::new(8, 9, 5);
        doc.edit_boxes("Add", &[b], |g| {
            g.fill_box(b, Voxel::new(GRASS, 255));
            g.set(outside, Voxel::new(GRASS, 255));
        });
    }

    #[test]
    fn jump_to_undoes_and_redoes_whole_steps() {
        let mut doc = flat();
        let original = doc.grid().clone();
        let boxes: Vec<VoxelBox> = (0..3)
            .map(|i| VoxelBox::new(VoxelPos::new(4 * i, 8, 4), VoxelPos::new(4 * i + 3, 10, 8)))
            .collect();
        for (i, b) in boxes.iter().enumerate() {
            let b = *b;
            doc.edit_boxes(&format!("Step {i}"), &[b], |g| {
                g.fill_box(b, Voxel::new(GRASS, 255));
            });
        }
        let edited = doc.grid().clone();
        assert_eq!(doc.jump_to(0).expect("jump"), -3);
        assert_eq!(*doc.grid(), original);
        assert_eq!(doc.history().redo_len(), 3);
        assert_eq!(doc.jump_to(3).expect("jump"), 3);
        assert_eq!(*doc.grid(), edited);
        assert_eq!(doc.jump_to(1).expect("jump"), -2);
        assert_eq!(doc.history().undo_names().last(), Some("Step 0"));
        assert_eq!(doc.take_published().len(), 3 + 3 + 3 + 2);
    }

    #[test]
    fn raycast_finds_the_ground() {
        let mut doc = flat();
        let hit = doc
            .raycast([16.0, 40.0, 16.0], [0.0, -1.0, 0.0], 100.0)
            .expect("hit");
        assert!((hit.point[1] - 8.0).abs() < 1.0, "{:?}", hit.point);
    }

    #[test]
    fn physics_sees_an_edit_at_once() {
        let mut doc = flat();
        let b = VoxelBox::new(VoxelPos::new(12, 8, 12), VoxelPos::new(20, 16, 20));
        doc.edit_boxes("Add", &[b], |g| g.fill_box(b, Voxel::new(GRASS, 255)));
        let hit = doc
            .raycast([16.0, 40.0, 16.0], [0.0, -1.0, 0.0], 100.0)
            .expect("hit");
        assert!((hit.point[1] - 16.0).abs() < 1.0, "{:?}", hit.point);
    }
}
