//! The bake's quality preset, bounces, filter and emission, as widgets of the Lighting panel.
//!
//! Choosing a preset sets particles, steps, step length, bounce and filter at once; changing any of
//! them by hand makes the preset read Custom.

use eframe::egui;
use strata_engine::light::settings::MAX_BOUNCE;
use strata_engine::light::{LightSettings, Quality};

/// The preset's name as the panel shows it.
fn label(q: Quality) -> &'static str {
    match q {
        Quality::Draft => "Draft",
        Quality::Medium => "Medium",
        Quality::Final => "Final",
        Quality::Custom => "Custom",
    }
}

/// Quality, Bounce, Denoise and Emission for `s`.
pub fn bake_options_ui(ui: &mut egui::Ui, s: &mut LightSettings) {
    egui::Grid::new("bake-options")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("Quality").on_hover_text(
            "Draft: fast and grainy, to iterate. Medium: the default. Final: more particles, one \
             bounce and the filter",
        );
            let now = Quality::of(s);
            egui::ComboBox::from_id_salt("bake-quality")
                .selected_text(label(now))
                .show_ui(ui, |ui| {
                    for q in Quality::ALL {
                        if ui.selectable_label(q == now, label(q)).clicked() && q != now {
                            *s = q.apply(s);
                        }
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Bounce").on_hover_text(
                "Light bounced off lit surfaces, times their colour (0 to 2 bounces)",
            );
            ui.add(egui::DragValue::new(&mut s.bounce).range(0..=MAX_BOUNCE))
                .labelled_by(l.id);
            ui.end_row();
        });
    ui.horizontal(|ui| {
        ui.checkbox(&mut s.denoise, "Denoise").on_hover_text(
            "Smooth the light over neighbouring surface of the same material and facing",
        );
        ui.checkbox(&mut s.emission, "Emission")
            .on_hover_text("Glowing materials light what is around them");
    });
}
