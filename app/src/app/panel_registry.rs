//! The registered panels: every panel and window of the editor in one list, in display order, and
//! which of them are shown. To add a panel, write it in its feature's folder and add one line to
//! [`registry`].

use std::any::Any;

use super::history_panel::HistoryPanel;
use super::panel::{Panel, Placement};
use super::preferences::PreferencesWindow;
use super::shortcuts::ShortcutsWindow;
use super::statistics::StatisticsWindow;
use crate::brush::ToolsPanel;
use crate::enhance::EnhancePanel;
use crate::files::export_heightmap::ExportHeightmapWindow;
use crate::files::export_scene::ExportSceneWindow;
use crate::files::import_heightmap::ImportHeightmapWindow;
use crate::files::recent::RecentWindow;
use crate::generate::{GenerateRegionPanel, NewWorldWindow};
use crate::lighting::LightingPanel;
use crate::materials::MaterialsPanel;
use crate::physics::PhysicsPanel;
use crate::region::{RegionPanel, StampsPanel};
use crate::scripts::ScriptsPanel;

/// Every panel of the editor, in display order: one line per panel.
pub fn registry() -> Vec<Box<dyn Panel>> {
    vec![
        Box::new(ToolsPanel::default()),
        Box::new(HistoryPanel::default()),
        Box::new(LightingPanel::default()),
        Box::new(GenerateRegionPanel::default()),
        Box::new(EnhancePanel::default()),
        Box::new(RegionPanel::default()),
        Box::new(StampsPanel::default()),
        Box::new(PhysicsPanel::default()),
        Box::new(MaterialsPanel::default()),
        Box::new(ScriptsPanel::default()),
        Box::new(NewWorldWindow::default()),
        Box::new(ImportHeightmapWindow::default()),
        Box::new(ExportHeightmapWindow::default()),
        Box::new(ExportSceneWindow::default()),
        Box::new(RecentWindow::default()),
        Box::new(ShortcutsWindow),
        Box::new(StatisticsWindow::default()),
        Box::new(PreferencesWindow::default()),
    ]
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
    /// The tab of the right-hand column the user (or the active tool) chose last.
    tab: Option<&'static str>,
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
        Self { entries, tab: None }
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

    /// Bring the right-hand column's tab called `name` to the front (a panel that is not a tab of
    /// that column is ignored).
    pub fn select_tab(&mut self, name: &str) {
        if let Some(e) = self
            .entries
            .iter()
            .find(|e| e.panel.name() == name && e.panel.placement() == Placement::Right)
        {
            self.tab = Some(e.panel.name());
        }
    }

    /// The names of the right-hand column's tabs that are shown, in registry order.
    pub fn tabs(&self) -> Vec<&'static str> {
        self.entries
            .iter()
            .filter(|e| e.open && e.panel.placement() == Placement::Right)
            .map(|e| e.panel.name())
            .collect()
    }

    /// The tab in front: the one chosen last while it is shown, else the first shown.
    pub fn front_tab(&self) -> Option<&'static str> {
        let tabs = self.tabs();
        self.tab
            .filter(|t| tabs.contains(t))
            .or_else(|| tabs.first().copied())
    }
}
