//! The New World window: preset, size and seed of a generated world, checked as they are typed.

use eframe::egui;

use strata_engine::gen::{GeneratorSettings, Preset};

use super::{Panel, Placement, View};
use crate::action::Action;

/// The window's name.
pub const NAME: &str = "New World";

/// The New World window; it edits the generator settings directly.
pub struct NewWorldWindow {
    /// The settings the Generate button uses.
    pub settings: GeneratorSettings,
}

impl Default for NewWorldWindow {
    fn default() -> Self {
        Self {
            settings: crate::app::default_world(),
        }
    }
}

impl Panel for NewWorldWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let form = &mut self.settings;
        egui::Grid::new("generator-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label_id = ui.label("Preset").id;
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(form.preset.name())
                    .show_ui(ui, |ui| {
                        for p in Preset::ALL {
                            ui.selectable_value(&mut form.preset, p, p.name())
                                .on_hover_text(p.description());
                        }
                    })
                    .response
                    .labelled_by(label_id);
                ui.end_row();
                ui.label("Size X");
                ui.add(egui::DragValue::new(&mut form.size[0]).range(32..=4096));
                ui.end_row();
                ui.label("Size Y (up)");
                ui.add(egui::DragValue::new(&mut form.size[1]).range(32..=1024));
                ui.end_row();
                ui.label("Size Z");
                ui.add(egui::DragValue::new(&mut form.size[2]).range(32..=4096));
                ui.end_row();
                ui.label("Seed");
                ui.add(egui::DragValue::new(&mut form.seed));
                ui.end_row();
            });
        ui.weak(form.preset.description());
        let valid = form.validate();
        if let Err(e) = &valid {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        }
        ui.horizontal(|ui| {
            let generate =
                ui.add_enabled(valid.is_ok() && !view.busy, egui::Button::new("Generate"));
            if generate.clicked() {
                out.push(Action::Generate(form.clone()));
                out.push(Action::TogglePanel(NAME));
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::TogglePanel(NAME));
            }
        });
    }
}
