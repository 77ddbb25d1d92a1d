//! What a panel or window is. Each is one file in its feature's folder that owns its state, draws
//! from a read-only [`View`] of the editor and pushes [`Action`]s; `EditorApp` applies them in one
//! `match` and hands every published edit box to every panel ([`Panel::on_edit`]).
//!
//! To add a panel: write `<feature>/<name>.rs` with a type that implements [`Panel`] and add one
//! line to [`super::panel_registry::registry`]. Docked panels are tabs of the right-hand column
//! (History below them, the Tools panel in the left column); windows float. The View menu shows and
//! hides both.

use std::any::Any;
use std::path::Path;

use eframe::egui::{self, Modifiers};
use strata_engine::physics::{PhysicsWorld, WorldHit};
use strata_engine::voxel::VoxelBox;

use crate::app::action::Action;
use crate::app::keymap::{Command, Keymap};
use crate::app::prefs::Prefs;
use crate::document::Document;
use crate::files::file_jobs::PathPurpose;
use crate::viewport::overlay::Overlay;
use crate::viewport::scene::CursorDraw;
use crate::viewport::ViewportInput;
use crate::AppResult;

/// Where a panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The left column (the Tools panel).
    Left,
    /// A tab of the right-hand column (one tab shows at a time, in a scroll area of its own).
    Right,
    /// The fixed-height section at the bottom of the right-hand column, below the tabs (History),
    /// always in view.
    RightBottom,
    /// A floating window.
    Window,
}

/// What panels may read: the document and the editor state around it, never mutably.
pub struct View<'a> {
    /// The open document, if any.
    pub doc: Option<&'a Document>,
    /// A modal job runs (document edits wait).
    pub busy: bool,
    /// The terrain under the pointer.
    pub hover: Option<WorldHit>,
    /// The panel whose tool receives viewport input.
    pub active_tool: &'static str,
    /// Modifier keys held this frame.
    pub modifiers: Modifiers,
    /// Preferences (recent files among them).
    pub prefs: &'a Prefs,
    /// The shortcuts.
    pub keymap: &'a Keymap,
    /// The config directory (`None`: nothing is remembered).
    pub config: Option<&'a Path>,
    /// Figures of the last frame.
    pub frame: FrameStats,
    /// The viewport's camera (what is visible).
    pub camera: crate::viewport::camera::EditorCamera,
}

/// Figures of the last frame, for the status bar and the Statistics window.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameStats {
    /// Time between the last frames (smoothed), milliseconds.
    pub frame_ms: f32,
    /// Chunks still waiting for a mesh.
    pub stale_chunks: usize,
    /// Triangles the last paint drew (0 without GL).
    pub triangles: usize,
    /// The viewport draws on the fast path (Preferences ▸ Viewport quality).
    pub fast_viewport: bool,
}

/// A viewport tool a panel provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolInfo {
    /// Button text.
    pub name: &'static str,
    /// Tooltip.
    pub hint: &'static str,
}

/// One panel or window.
pub trait Panel: Any {
    /// Its title: the section header, window title and View menu entry (unique).
    fn name(&self) -> &'static str;

    /// Where it shows.
    fn placement(&self) -> Placement {
        Placement::Right
    }

    /// Shown when the editor starts (until the user hides it).
    fn open_by_default(&self) -> bool {
        self.placement() != Placement::Window
    }

    /// Draw the panel's contents.
    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>);

    /// Called every frame, shown or not (poll work, advance simulations).
    fn tick(&mut self, _view: &View<'_>, _out: &mut Vec<Action>) {}

    /// The voxels in `changed` were modified (any edit path: tools, undo, redo, paste, generate).
    fn on_edit(&mut self, _doc: &Document, _changed: VoxelBox) {}

    /// A different document is open (`None`: none).
    fn on_document(&mut self, _doc: Option<&Document>) {}

    /// A background job this panel started finished: `Ok` when its result waits in the panel's
    /// [`crate::app::jobs::Inbox`], or why it stopped (the editor also reports errors other than a
    /// cancel to the user).
    fn on_job(&mut self, _result: AppResult<()>, _out: &mut Vec<Action>) {}

    /// Work on the document's physics world, lent for the call with the rest of the document
    /// read-only (see [`Document::with_physics`]). Called once a frame for every panel while a
    /// document is open, after every panel has drawn and the viewport has handled input; the world
    /// already holds every edit published so far.
    fn with_physics(&mut self, _world: &mut PhysicsWorld, _doc: &Document, _out: &mut Vec<Action>) {
    }

    /// A path this panel asked for (tagged as in [`PathPurpose::Panel`]).
    fn on_path(&mut self, _tag: u32, _path: &Path, _out: &mut Vec<Action>) {}

    /// A shortcut was pressed; return true when this panel handled it.
    fn on_command(&mut self, _command: Command, _view: &View<'_>, _out: &mut Vec<Action>) -> bool {
        false
    }

    /// Push what this panel draws over the terrain this frame (called for every panel, shown or
    /// not; a panel checks `view.active_tool` for tool-only drawings).
    fn overlays(&self, _view: &View<'_>, _out: &mut Vec<Overlay>) {}

    /// A short status-bar segment while this panel's tool is active (brush size, selection size).
    fn status(&self, _view: &View<'_>) -> Option<String> {
        None
    }

    /// A status-bar segment shown whatever tool is active (a simulation's counts while it has
    /// bodies).
    fn status_always(&self, _view: &View<'_>) -> Option<String> {
        None
    }

    /// The viewport tool this panel provides, if any.
    fn tool(&self) -> Option<ToolInfo> {
        None
    }

    /// Viewport input while this panel's tool is active; returns the cursor to draw.
    fn viewport(
        &mut self,
        _input: &ViewportInput,
        _view: &View<'_>,
        _out: &mut Vec<Action>,
    ) -> Option<CursorDraw> {
        None
    }
}

/// The purpose of a file prompt for a panel's field.
pub fn panel_path(
    panel: &'static str,
    tag: u32,
    spec: crate::files::file_jobs::PathSpec,
) -> PathPurpose {
    PathPurpose::Panel { panel, tag, spec }
}
