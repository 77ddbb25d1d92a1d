//! The History panel: every undo step (oldest first) and every redo step, with the current state
//! marked; a click undoes or redoes up to that step. It sits below the right column's tabs at a
//! fixed height, and scrolls to the current step whenever the history changes (an edit, undo,
//! redo or a jump), so the latest step is in view without scrolling by hand.

use eframe::egui;

use crate::app::action::Action;
use crate::app::panel::{Panel, Placement, View};

/// The panel's name.
pub const NAME: &str = "History";

/// The History panel.
#[derive(Default)]
pub struct HistoryPanel {
    /// The undo and redo step counts last drawn: a change scrolls to the current step.
    shown: Option<(usize, usize)>,
}

impl Panel for HistoryPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::RightBottom
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
        let counts = (undo.len(), redo.len());
        let follow = self.shown != Some(counts);
        self.shown = Some(counts);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .id_salt("history-steps")
            .show(ui, |ui| {
                let start = ui
                    .add_enabled(
                        enabled,
                        egui::Button::selectable(undo.is_empty(), "Start").small(),
                    )
                    .on_hover_text("Undo every step");
                if undo.is_empty() && follow {
                    start.scroll_to_me(Some(egui::Align::Center));
                }
                if start.clicked() {
                    out.push(Action::JumpTo(0));
                }
                for (i, name) in undo.iter().enumerate() {
                    let current = i + 1 == undo.len();
                    let step = ui.add_enabled(enabled, egui::Button::selectable(current, *name));
                    if current && follow {
                        step.scroll_to_me(Some(egui::Align::Center));
                    }
                    if step.clicked() && !current {
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
