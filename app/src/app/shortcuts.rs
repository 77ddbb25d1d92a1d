//! Help ▸ Keyboard Shortcuts: generated from the keymap, plus the mouse controls.

use eframe::egui;

use crate::app::action::Action;
use crate::app::keymap::{shortcut_text, MOUSE};
use crate::app::panel::{Panel, Placement, View};

/// The shortcuts window.
pub struct ShortcutsWindow;

/// The window's name.
pub const NAME: &str = "Keyboard Shortcuts";

impl Panel for ShortcutsWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, _out: &mut Vec<Action>) {
        egui::ScrollArea::vertical()
            .max_height(480.0)
            .show(ui, |ui| {
                egui::Grid::new("shortcut-grid")
                    .striped(true)
                    .show(ui, |ui| {
                        for b in view.keymap.bindings() {
                            ui.monospace(shortcut_text(&b.keys));
                            match b.tool {
                                Some(tool) => ui.label(format!("{} ({tool})", b.command.name())),
                                None => ui.label(b.command.name()),
                            };
                            ui.end_row();
                        }
                        for (keys, what) in MOUSE {
                            ui.monospace(*keys);
                            ui.label(*what);
                            ui.end_row();
                        }
                    });
            });
    }
}
