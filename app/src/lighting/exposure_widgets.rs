//! The Exposure and Tone curve controls of the Lighting panel: how bright the viewport shows the
//! light, and how light brighter than white rolls off instead of clipping (see
//! [`crate::viewport::exposure`]). A view setting, kept in the preferences, not in the project.

use eframe::egui;

use crate::viewport::exposure::{Exposure, ToneCurve, MAX_STOPS, MIN_STOPS};

/// The Exposure slider with a Reset exposure button and the Tone curve choice for `e`; true when one changed.
pub fn exposure_ui(ui: &mut egui::Ui, e: &mut Exposure) -> bool {
    let before = *e;
    egui::Grid::new("exposure-grid")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("Exposure").on_hover_text(
                "Brightness of the viewport's light, in stops (each stop doubles it): lower it \
                 to see detail next to bright lights and glowing materials",
            );
            ui.add(
                egui::Slider::new(&mut e.stops, MIN_STOPS..=MAX_STOPS)
                    .step_by(0.1)
                    .suffix(" EV"),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Tone curve").on_hover_text(
                "How light brighter than white is shown: Filmic and Reinhard roll it off, Clip \
                 shows it flat white",
            );
            egui::ComboBox::from_id_salt("tone-curve")
                .selected_text(e.curve.label())
                .show_ui(ui, |ui| {
                    for c in ToneCurve::ALL {
                        ui.selectable_value(&mut e.curve, c, c.label());
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
        });
    if ui
        .add_enabled(e.stops != 0.0, egui::Button::new("Reset exposure").small())
        .on_hover_text("Back to the default exposure, 0 EV")
        .clicked()
    {
        e.stops = 0.0;
    }
    if !e.stops.is_finite() {
        e.stops = 0.0;
    }
    e.stops = e.stops.clamp(MIN_STOPS, MAX_STOPS);
    *e != before
}
