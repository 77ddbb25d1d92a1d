//! Terrain scripts meet the document here: a script runs on a copy of the document's voxels
//! ([`Document::script_world`]), and a run that succeeded is installed as one undo step named
//! after the script (or its `ChangeHistoryService` name) through [`Document::edit_boxes`], so
//! physics, baked light and meshes are told as for any edit. A failed or cancelled run is never
//! installed: the document stays exactly as it was.

use strata_engine::light::{
    bake_scene, LightMap, LightScene, LightSettings, PlacedLight, SolidVolume,
};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, VoxelBox};
use strata_script::{RunOutcome, ScriptWorld};

use super::open_document::Document;

impl Document {
    /// A copy of the voxels, material table and bounds for a script to edit, writing at most
    /// `max_voxels_written` voxels.
    pub fn script_world(&self, max_voxels_written: u64) -> ScriptWorld {
        ScriptWorld::new(
            self.grid().clone(),
            self.materials().clone(),
            self.bounds(),
            max_voxels_written,
        )
    }

    /// Install what a successful run changed as one undo step; returns the changed box (empty:
    /// nothing changed, and no step is recorded). A run with an error installs nothing.
    pub fn install_script(&mut self, outcome: &RunOutcome) -> VoxelBox {
        if outcome.error.is_some() {
            return VoxelBox::default();
        }
        let boxes = outcome.world.changed_boxes();
        if boxes.is_empty() {
            return VoxelBox::default();
        }
        let world = &outcome.world;
        self.edit_boxes(&outcome.step_name, &boxes, |grid| {
            for b in &boxes {
                grid.write_box(*b, &world.read_box(*b));
            }
        });
        world.changed_bounds()
    }
}

/// The light a script's `strata.bake{...}` asked for, baked on `grid` (the voxels after the run)
/// with the project's material table and placed lights; install it with
/// [`Document::install_light`].
///
/// # Errors
/// A cancelled bake, or a world with nothing to light.
pub fn bake_for_script(
    grid: &Grid,
    table: &MaterialTable,
    lights: &[PlacedLight],
    settings: &LightSettings,
    progress: &Progress,
) -> crate::AppResult<LightMap> {
    let volume = SolidVolume::from_grid(grid, table)?;
    let scene = LightScene::new(grid, table, &volume, lights, settings);
    let (light, _) = bake_scene(&volume, &scene, settings, progress)?;
    if light.is_empty() {
        return Err(crate::AppError::Usage(
            "strata.bake: nothing to light: the world has no solid voxel".into(),
        ));
    }
    Ok(light)
}
