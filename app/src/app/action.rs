//! What panels, menus, the keymap and viewport tools ask the editor to do. They read the document
//! and return these values; `EditorApp::apply` carries them out in one `match`, so every change to
//! the document, the jobs and the windows goes through one place.

use std::path::PathBuf;

use strata_engine::gen::WorldSettings;
use strata_engine::storage::Grid;
use strata_engine::tools::{Brush, SeaLevelMode, Tool};
use strata_engine::voxel::VoxelBox;

use crate::app::jobs::Job;
use crate::files::file_jobs::PathPurpose;
use crate::files::heightmap::HeightmapImport;

/// A voxel change computed by a panel, applied by the document as one undo step: each box is
/// recorded, then `write` runs, then each box is published.
pub struct BoxEdit {
    /// The undo step's name.
    pub name: String,
    /// Every box `write` may change.
    pub boxes: Vec<VoxelBox>,
    /// The change.
    pub write: Box<dyn FnOnce(&mut Grid) + Send>,
}

impl std::fmt::Debug for BoxEdit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoxEdit")
            .field("name", &self.name)
            .field("boxes", &self.boxes)
            .finish_non_exhaustive()
    }
}

/// Something that would discard unsaved changes, held while the user answers the prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Guarded {
    /// Show the New World window.
    New,
    /// Open a file (ask for one when `None`).
    Open(Option<PathBuf>),
    /// Close the editor.
    Quit,
    /// Generate a new world (the New World window's Generate).
    Generate(WorldSettings),
    /// Build a new world from a heightmap (the Import Heightmap window's Import).
    ImportHeightmap(HeightmapImport),
    /// Ask for a folder of godot_voxel regions and build a new world from it.
    ImportVxr,
}

/// One request to the editor.
#[derive(Debug)]
pub enum Action {
    /// Show the New World window (asks about unsaved changes first).
    New,
    /// Open a project; `None` asks for a file (asks about unsaved changes first).
    Open(Option<PathBuf>),
    /// Save to the document's file, or ask for one.
    Save,
    /// Ask for a file and save there.
    SaveAs,
    /// Close the editor (asks about unsaved changes first).
    Quit,
    /// Ask for a path for `purpose`, then act on it.
    AskPath(PathPurpose),
    /// A path was chosen for `purpose`.
    PathChosen(PathPurpose, PathBuf),
    /// Build a world from a heightmap (the options the import window collected; asks about
    /// unsaved changes first).
    ImportHeightmap(HeightmapImport),
    /// Generate a new world in the background (asks about unsaved changes first).
    Generate(WorldSettings),
    /// Save, then do the guarded action (the unsaved-changes prompt's Save).
    SaveThen(Guarded),
    /// Do the guarded action without saving (the prompt's Don't Save).
    Proceed(Guarded),
    /// Cancel the modal job.
    CancelJob,
    /// Open the autosave left by a crash.
    Recover,
    /// Delete the autosave left by a crash.
    DiscardRecovery,
    /// Undo the newest step.
    Undo,
    /// Redo the most recently undone step.
    Redo,
    /// Undo or redo until this many steps remain on the undo stack.
    JumpTo(usize),
    /// Start a brush stroke (its undo step's name).
    BeginStroke(String),
    /// One dab of the open stroke.
    Dab {
        /// Tool with its materials and options.
        tool: Tool,
        /// Brush shape, size, strength, plane lock.
        brush: Brush,
        /// Dab centre, world voxels.
        center: [f32; 3],
    },
    /// Close the open stroke.
    EndStroke,
    /// Fill or clear water below `level` in `region`, one undo step.
    SeaLevel {
        /// The box to fill or clear.
        region: VoxelBox,
        /// Water surface height, voxels.
        level: f32,
        /// Fill or clear.
        mode: SeaLevelMode,
    },
    /// Apply a voxel change as one undo step.
    Edit(BoxEdit),
    /// Change the material table as one undo step (the Materials window).
    Materials(crate::materials::MaterialEdit),
    /// Turn these floating pieces to Air as one undo step (the Physics panel's Cleanup).
    DeleteFloating(std::sync::Arc<strata_engine::floating::Floating>, Vec<bool>),
    /// Turn this invisible matter (found on the current voxels) to Air as one undo step (Clean Up
    /// Invisible Matter).
    ClearStray(std::sync::Arc<strata_engine::stray::StrayMatter>),
    /// Set the region selection (`None` clears it); clipped to the world.
    Select(Option<VoxelBox>),
    /// Run a region edit as one undo step called `name`; on success select `select` (if given).
    Region {
        /// The undo step's name.
        name: String,
        /// The edit.
        op: crate::region::region_op::RegionOp,
        /// The selection afterwards (`None`: unchanged).
        select: Option<VoxelBox>,
    },
    /// Float `region` under the cursor in the Region tool until a click places it (a stamp).
    PasteBrush {
        /// The voxels (ids of this document's material table).
        region: std::sync::Arc<strata_engine::region::Region>,
        /// What to call it (the stamp's name).
        name: String,
    },
    /// Install a new bake of the whole world's light.
    InstallLight(Box<strata_engine::light::LightMap>),
    /// Install a re-bake of the stale light.
    PatchLight {
        /// The new light.
        patch: strata_engine::light::LightPatch,
        /// The solidity the re-bake walked.
        baked_on: std::sync::Arc<strata_engine::light::SolidVolume>,
        /// The solidity now (edits since stay stale).
        current: std::sync::Arc<strata_engine::light::SolidVolume>,
    },
    /// Remove the baked light.
    RemoveLight,
    /// Replace the project's point and spot lights, as one undo step.
    ChangeLights {
        /// The undo step's name.
        name: String,
        /// The new list.
        lights: Vec<strata_engine::light::PlacedLight>,
    },
    /// Shade the viewport with this light.
    LightView(crate::viewport::LightView),
    /// Show the viewport's light with this exposure and tone curve (remembered in the preferences).
    Exposure(crate::viewport::exposure::Exposure),
    /// Show, update or hide the Enhance preview's fragments in the viewport.
    FragmentPreview(crate::viewport::fragments::FragmentPreview),
    /// Run a job (its owner panel receives the result).
    Start(Job),
    /// Make the panel called this the one that receives viewport input.
    ActivateTool(&'static str),
    /// Show or hide the panel or window called this.
    TogglePanel(&'static str),
    /// Show the panel or window called this.
    ShowPanel(&'static str),
    /// Replace the preferences (the Preferences window's Apply).
    SetPrefs(Box<crate::app::prefs::Prefs>),
    /// While true, shortcuts are not run (the Preferences window is recording a key).
    CaptureKeys(bool),
    /// Say something in the status bar.
    Message(String),
    /// Show an error dialog.
    Error(String),
}
