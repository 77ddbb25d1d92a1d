//! The Region tool's state: the selection being dragged, the clipboard, the floating paste, file
//! work waiting for the document, and the tool's constants and file prompts. The panel, its
//! controls, its commands and its jobs (the sibling files) all read it.

use std::path::PathBuf;
use std::sync::Arc;

use strata_engine::region::{Axis, PasteMode, Region};
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

use super::region_files;
use crate::app::jobs::Inbox;
use crate::files::file_jobs::PathSpec;
use crate::viewport::overlay::GhostMesh;

/// The panel's name (also its viewport tool's).
pub const NAME: &str = crate::app::keymap::REGION_TOOL;

/// Path tags of the panel's file prompts.
pub(super) const TAG_STAMP: u32 = 1;
/// File ▸ Export Selection.
pub const TAG_EXPORT: u32 = 2;
/// File ▸ Import as Stamp.
pub const TAG_IMPORT: u32 = 3;

pub(super) const SELECTION_COLOR: [u8; 4] = [255, 210, 60, 255];
pub(super) const DRAG_COLOR: [u8; 4] = [255, 255, 255, 255];
pub(super) const PASTE_COLOR: [u8; 4] = [90, 200, 255, 255];
pub(super) const GHOST_COLOR: [u8; 4] = [120, 200, 255, 110];
pub(super) const SNAPS: [i32; 5] = [1, 4, 8, 16, 32];
pub(super) const HANDLE_COLOR: [u8; 4] = [255, 210, 60, 255];
pub(super) const HANDLE_ACTIVE: [u8; 4] = [255, 255, 255, 255];

/// The copied region.
pub(crate) struct Clip {
    pub(super) region: Arc<Region>,
    /// Where it was copied from (`None`: a stamp or a file).
    pub(super) source: Option<VoxelBox>,
    pub(super) name: String,
    /// The material table its ids refer to (the document it was copied from).
    pub(super) table: MaterialTable,
}

/// A region following the cursor until a click places it.
pub(super) struct Floating {
    pub(super) region: Arc<Region>,
    pub(super) name: String,
    pub(super) source: Option<VoxelBox>,
    /// Stays after a click (a stamp brush) instead of ending with it.
    pub(super) brush: bool,
    /// The box emptied when it is placed (a move).
    pub(super) moving: Option<VoxelBox>,
    pub(super) generation: u64,
    /// The ghost mesh was asked for.
    pub(super) asked: bool,
    pub(super) ghost: Option<Arc<GhostMesh>>,
    /// Where it goes, from the last hovered point.
    pub(super) target: Option<VoxelBox>,
}

/// File work waiting for the document (file prompts answer without it).
pub(super) enum Waiting {
    Write(PathBuf),
    Read(PathBuf, Option<[u32; 3]>),
}

/// What a Region tool job hands back.
pub enum Done {
    /// The ghost of the floating paste number `generation`.
    Ghost {
        /// Which floating paste it belongs to.
        generation: u64,
        /// Its surface.
        mesh: Arc<GhostMesh>,
    },
    /// A file was written.
    Wrote(String),
    /// A file was read: float it as a paste.
    Read {
        /// The voxels (the world's material ids).
        region: Region,
        /// The file's stem.
        name: String,
        /// The world's table the ids were read for.
        table: MaterialTable,
    },
}

/// The Region panel and tool.
pub struct RegionPanel {
    /// First corner of the box being dragged.
    pub(super) drag_from: Option<VoxelPos>,
    /// The box being dragged.
    pub(super) dragged: Option<VoxelBox>,
    /// A selection handle being dragged (resize, or move with Shift).
    pub(super) handle_drag: Option<super::selection_handles::HandleDrag>,
    /// The handle under the pointer.
    pub(super) hovered_handle: Option<super::selection_handles::Handle>,
    /// Voxels the dragged box reaches above the higher corner.
    pub(super) height: i32,
    /// Voxels the dragged box reaches below the lower corner.
    pub(super) depth: i32,
    /// Corners snap to multiples of this.
    pub(super) snap: i32,
    /// The typed Min and Max (X, Y, Z each).
    pub(super) fields: [i32; 6],
    /// The selection the fields last showed.
    pub(super) shown: Option<VoxelBox>,
    pub(super) clip: Option<Clip>,
    pub(super) floating: Option<Floating>,
    pub(super) generation: u64,
    pub(super) mode: PasteMode,
    pub(super) keep_height: bool,
    pub(super) rotate_axis: Axis,
    pub(super) mirror_axis: Axis,
    pub(super) fill_material: u8,
    pub(super) fill_occupancy: f32,
    pub(super) only_air: bool,
    /// Text for the system clipboard after a copy (so Ctrl+V reaches the editor as a paste).
    pub(super) clipboard_text: Option<String>,
    pub(super) waiting: Vec<Waiting>,
    /// An RLE or raw file without a sidecar, and the size typed for it.
    pub(super) size_prompt: Option<(PathBuf, [u32; 3])>,
    /// The last file message.
    pub(super) note: Option<String>,
    /// Where the tool's jobs deliver.
    pub(super) inbox: Inbox<Done>,
}

impl Default for RegionPanel {
    fn default() -> Self {
        Self {
            drag_from: None,
            dragged: None,
            handle_drag: None,
            hovered_handle: None,
            height: 16,
            depth: 8,
            snap: 1,
            fields: [0; 6],
            shown: None,
            clip: None,
            floating: None,
            generation: 0,
            mode: PasteMode::Replace,
            keep_height: true,
            rotate_axis: Axis::Y,
            mirror_axis: Axis::X,
            fill_material: 2,
            fill_occupancy: 1.0,
            only_air: false,
            clipboard_text: None,
            waiting: Vec::new(),
            size_prompt: None,
            note: None,
            inbox: Inbox::default(),
        }
    }
}

/// The prompt for File ▸ Export Selection.
pub fn export_spec() -> PathSpec {
    PathSpec {
        title: "Export Selection".into(),
        filters: region_files::filters(),
        save: true,
        suggested: Some("selection.strata".into()),
        ..Default::default()
    }
}

/// The prompt for File ▸ Import as Stamp.
pub fn import_spec() -> PathSpec {
    PathSpec {
        title: "Import as Stamp".into(),
        filters: region_files::filters(),
        ..Default::default()
    }
}
