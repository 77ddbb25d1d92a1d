//! The History panel: every undo step (oldest first) and every redo step, with the current state
//! marked; a click undoes or redoes up to that step.

use eframe::egui;

use crate::app::action::Action;
use crate::app::panel::{Panel, View};

/// The panel's name.
pub const NAME: &str = "History";

/// The History panel.
#[derive(Default)]
pub struct HistoryPanel;

impl Panel for HistoryPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("Open or create a world to see its history");
            return;
        };
        let history = doc.history();
        // Oldest first, then the redo steps in the order they would be redone.
        let mut undo: Vec<&str> = history.undo_names().collect();
        undo.reverse();
        let redo: Vec<&str> = history.redo_names().collect();
        if undo.is_empty() && redo.is_empty() {
            ui.weak("No edits yet");
            return;
        }
        let enabled = !view.busy;
        egui::ScrollArea::vertical()
            .max_height(220.0)
            .id_salt("history-steps")
            .show(ui, |ui| {
                if ui
                    .add_enabled(
                        enabled,
                        egui::Button::selectable(undo.is_empty(), "Start").small(),
                    )
                    .on_hover_text("Undo every step")
                    .clicked()
                {
                    out.push(Action::JumpTo(0));
                }
                for (i, name) in undo.iter().enumerate() {
                    let current = i + 1 == undo.len();
                    if ui
                        .add_enabled(enabled, egui::Button::selectable(current, *name))
                        .clicked()
                        && !current
                    {
                        out.push(Action::JumpTo(i + 1));
                    }
                }
                for (j, name) in redo.iter().enumerate() {
                    let text = egui::RichText::new(*name).weak().italics();
                    if ui
                        .add_enabled(enabled, egui::Button::selectable(false, text))
                        .on_hover_text("Redo up to this step")
                        .clicked()
                    {
                        out.push(Action::JumpTo(undo.len() + j + 1));
                    }
                }
            });
    }
}
