//! Panels and windows. Each is one file that owns its state, draws from a read-only [`View`] of the
//! editor and pushes [`Action`]s; `EditorApp` applies them in one `match` and hands every published
//! edit box to every panel ([`Panel::on_edit`]).
//!
//! To add a panel: write `panels/<name>.rs` with a type that implements [`Panel`], declare the
//! module below and add one line to [`registry`]. Docked panels sit in the right-hand column as
//! collapsible sections (the Tools panel in the left column); windows float. The View menu shows and
//! hides both.

pub mod enhance;
pub mod generate_region;
pub mod history;
pub mod import_heightmap;
pub mod lighting;
pub mod new_world;
pub mod physics;
pub mod preferences;
pub mod recent;
pub mod region;
pub mod shortcuts;
pub mod stamps;
pub mod statistics;
pub mod tools;

use std::any::Any;
use std::path::Path;

use eframe::egui::{self, Modifiers};
use strata_engine::physics::WorldHit;
use strata_engine::voxel::VoxelBox;

use crate::action::Action;
use crate::document::Document;
use crate::files::PathPurpose;
use crate::keymap::{Command, Keymap};
use crate::prefs::Prefs;
use crate::viewport::overlay::Overlay;
use crate::viewport::scene::CursorDraw;
use crate::viewport::ViewportInput;
use crate::AppResult;

/// Every panel of the editor, in display order: one line per panel.
pub fn registry() -> Vec<Box<dyn Panel>> {
    vec![
        Box::new(tools::ToolsPanel::default()),
        Box::new(history::HistoryPanel),
        Box::new(lighting::LightingPanel::default()),
        Box::new(generate_region::GenerateRegionPanel::default()),
        Box::new(enhance::EnhancePanel::default()),
        Box::new(region::RegionPanel::default()),
        Box::new(stamps::StampsPanel::default()),
        Box::new(physics::PhysicsPanel::default()),
        Box::new(new_world::NewWorldWindow::default()),
        Box::new(import_heightmap::ImportHeightmapWindow::default()),
        Box::new(recent::RecentWindow::default()),
        Box::new(shortcuts::ShortcutsWindow),
        Box::new(statistics::StatisticsWindow::default()),
        Box::new(preferences::PreferencesWindow::default()),
    ]
}

/// Where a panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The left column (the Tools panel).
    Left,
    /// A collapsible section of the right-hand column.
    Right,
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

    /// A background job this panel started finished: its output, or why it stopped (the editor
    /// also reports errors other than a cancel to the user).
    fn on_job(&mut self, _result: AppResult<Box<dyn Any + Send>>, _out: &mut Vec<Action>) {}

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

/// A registered panel and whether it is shown.
pub struct Entry {
    /// The panel.
    pub panel: Box<dyn Panel>,
    /// Shown.
    pub open: bool,
}

/// The registered panels.
pub struct Panels {
    entries: Vec<Entry>,
}

impl Default for Panels {
    fn default() -> Self {
        Self::new(registry())
    }
}

impl Panels {
    /// These panels, each shown if it opens by default.
    pub fn new(panels: Vec<Box<dyn Panel>>) -> Self {
        let entries = panels
            .into_iter()
            .map(|panel| Entry {
                open: panel.open_by_default(),
                panel,
            })
            .collect();
        Self { entries }
    }

    /// Every entry, in registry order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every entry, mutably.
    pub fn entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
    }

    /// The panel of type `T`.
    pub fn get<T: Panel>(&self) -> Option<&T> {
        self.entries.iter().find_map(|e| {
            let any: &dyn Any = e.panel.as_ref();
            any.downcast_ref::<T>()
        })
    }

    /// The panel of type `T`, mutably.
    pub fn get_mut<T: Panel>(&mut self) -> Option<&mut T> {
        self.entries.iter_mut().find_map(|e| {
            let any: &mut dyn Any = e.panel.as_mut();
            any.downcast_mut::<T>()
        })
    }

    /// The entry called `name`.
    pub fn by_name_mut(&mut self, name: &str) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.panel.name() == name)
    }

    /// True when the panel called `name` is shown.
    pub fn is_open(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|e| e.open && e.panel.name() == name)
    }

    /// Show or hide the panel called `name`.
    pub fn set_open(&mut self, name: &str, open: bool) {
        if let Some(e) = self.by_name_mut(name) {
            e.open = open;
        }
    }

    /// The names of the shown panels (saved in the preferences).
    pub fn open_names(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|e| e.open && e.panel.placement() != Placement::Window)
            .map(|e| e.panel.name().to_owned())
            .collect()
    }

    /// Show exactly the docked panels named in `names` (windows keep their state).
    pub fn restore_open(&mut self, names: &[String]) {
        for e in &mut self.entries {
            if e.panel.placement() != Placement::Window {
                e.open = names.iter().any(|n| n == e.panel.name());
            }
        }
    }
}

/// The purpose of a file prompt for a panel's field.
pub fn panel_path(panel: &'static str, tag: u32, spec: crate::files::PathSpec) -> PathPurpose {
    PathPurpose::Panel { panel, tag, spec }
}
