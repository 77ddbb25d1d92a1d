//! The Materials panel's property editors: widgets that edit a draft of one material (colour,
//! liquid, shaping, enhancement thresholds, look, emission). The panel compares the draft with the
//! project's row and sends the difference as one undo step once the pointer is released, so a drag
//! of a colour or a slider is one step, not one per frame.
//!
//! Typed values (a hex colour, an emission strength) are checked when the field is left or Enter is
//! pressed; a bad value is reported and the draft keeps its old value.

use eframe::egui;
use strata_engine::voxel::{
    Emission, EnhanceThreshold, Look, Material, Pattern, Shaping, MAX_EMISSION_STRENGTH,
};

use super::material_edit::{hex, parse_color};

/// The texts of the typed fields, kept while the user types.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldTexts {
    /// The colour as typed (`#rrggbb`).
    pub color: String,
    /// The emission strength as typed.
    pub strength: String,
}

impl FieldTexts {
    /// The texts showing `m`.
    pub fn of(m: &Material) -> Self {
        Self {
            color: hex(m.color),
            strength: m
                .emission
                .map_or_else(|| "1".to_owned(), |e| format!("{}", e.strength)),
        }
    }
}

/// A labelled single-line text field; true when the user left it (or pressed Enter).
fn typed(ui: &mut egui::Ui, label: &str, hint: &str, text: &mut String) -> bool {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(text).desired_width(90.0))
            .labelled_by(l.id)
            .on_hover_text(hint)
            .lost_focus()
    })
    .inner
}

/// Colour (button and hex field), liquid and shaping.
pub fn basics(
    ui: &mut egui::Ui,
    m: &mut Material,
    texts: &mut FieldTexts,
    error: &mut Option<String>,
) {
    ui.horizontal(|ui| {
        let l = ui.label("Colour");
        let mut rgb = [m.color.0, m.color.1, m.color.2];
        if egui::color_picker::color_edit_button_srgb(ui, &mut rgb)
            .labelled_by(l.id)
            .changed()
        {
            m.color = (rgb[0], rgb[1], rgb[2]);
            texts.color = hex(m.color);
        }
    });
    if typed(
        ui,
        "Colour hex",
        "#RRGGBB or R, G, B (sRGB)",
        &mut texts.color,
    ) {
        match parse_color(&texts.color) {
            Ok(c) => m.color = c,
            Err(e) => {
                *error = Some(e);
                texts.color = hex(m.color);
            }
        }
    }
    ui.checkbox(&mut m.liquid, "Liquid")
        .on_hover_text("Not solid for physics; drawn as water is (see-through, with a surface)");
    ui.horizontal(|ui| {
        ui.label("Shaping");
        ui.radio_value(&mut m.shaping, Shaping::Smooth, "Smooth")
            .on_hover_text("Rounded surfaces (grass, sand, snow)");
        ui.radio_value(&mut m.shaping, Shaping::Sharp, "Sharp")
            .on_hover_text("Hard edges and flat faces (rock, brick)");
    });
}

/// The enhancement thresholds: the shaping's default, or an even/odd pair.
pub fn thresholds(ui: &mut egui::Ui, m: &mut Material) {
    let mut own = m.enhance.is_some();
    if ui
        .checkbox(&mut own, "Own enhancement thresholds")
        .on_hover_text(
            "Off: the shaping's default (Smooth 3, Sharp 2). Enhance makes a fragment solid when \
             at least this many of its four neighbours are",
        )
        .changed()
    {
        m.enhance = own.then(|| m.enhance_threshold());
    }
    if let Some(t) = m.enhance.as_mut() {
        ui.horizontal(|ui| {
            let l = ui.label("Even");
            ui.add(egui::DragValue::new(&mut t.even).range(1..=4))
                .labelled_by(l.id)
                .on_hover_text("Threshold at even altitudes (1 to 4)");
            let l = ui.label("Odd");
            ui.add(egui::DragValue::new(&mut t.odd).range(1..=4))
                .labelled_by(l.id)
                .on_hover_text("Threshold at odd altitudes (1 to 4); unlike Even, layered strata");
        });
    } else {
        let t: EnhanceThreshold = m.enhance_threshold();
        ui.weak(format!(
            "Thresholds {} / {} (from the shaping)",
            t.even, t.odd
        ));
    }
}

/// The look: pattern, scale (also the texture's repeat), contrast, roughness. `current` is the
/// look the material shows now (its own, or its fallback).
pub fn look(ui: &mut egui::Ui, m: &mut Material, current: Look) {
    let mut l = m.look.unwrap_or(current);
    let before = l;
    ui.horizontal(|ui| {
        let label = ui.label("Pattern");
        egui::ComboBox::from_id_salt("material pattern")
            .selected_text(format!("{:?}", l.pattern))
            .show_ui(ui, |ui| {
                for p in Pattern::ALL {
                    ui.selectable_value(&mut l.pattern, p, format!("{p:?}"));
                }
            })
            .response
            .labelled_by(label.id);
    });
    let slider = |ui: &mut egui::Ui,
                  v: &mut f32,
                  range: std::ops::RangeInclusive<f32>,
                  label: &str,
                  hint: &str,
                  log: bool| {
        ui.horizontal(|ui| {
            let l = ui.label(label);
            ui.add(egui::Slider::new(v, range).logarithmic(log))
                .labelled_by(l.id)
                .on_hover_text(hint);
        });
    };
    slider(
        ui,
        &mut l.scale,
        0.25..=64.0,
        "Scale",
        "Voxels per pattern repeat (and per texture repeat)",
        true,
    );
    slider(
        ui,
        &mut l.contrast,
        0.0..=1.0,
        "Contrast",
        "How much the pattern varies the colour",
        false,
    );
    slider(
        ui,
        &mut l.roughness,
        0.0..=1.0,
        "Roughness",
        "0 polished (sharp highlight) to 1 matte",
        false,
    );
    if l != before {
        m.look = Some(l);
    }
}

/// Emission: on or off, colour, strength (typed, checked).
pub fn emission(
    ui: &mut egui::Ui,
    m: &mut Material,
    texts: &mut FieldTexts,
    error: &mut Option<String>,
) {
    let mut on = m.emission.is_some();
    if ui
        .checkbox(&mut on, "Emits light")
        .on_hover_text("Glows in the viewport and lights its surroundings in the bake")
        .changed()
    {
        m.emission = on.then_some(Emission {
            color: m.color,
            strength: 1.0,
        });
        texts.strength = "1".into();
    }
    let Some(e) = m.emission.as_mut() else {
        return;
    };
    ui.horizontal(|ui| {
        let l = ui.label("Emission colour");
        let mut rgb = [e.color.0, e.color.1, e.color.2];
        if egui::color_picker::color_edit_button_srgb(ui, &mut rgb)
            .labelled_by(l.id)
            .changed()
        {
            e.color = (rgb[0], rgb[1], rgb[2]);
        }
    });
    if typed(
        ui,
        "Emission strength",
        "0 to 1000 (1: the colour at full brightness)",
        &mut texts.strength,
    ) {
        match texts.strength.trim().parse::<f32>() {
            Ok(s) if s.is_finite() && (0.0..=MAX_EMISSION_STRENGTH).contains(&s) => e.strength = s,
            _ => {
                *error = Some(format!(
                    "emission strength {:?} must be a number from 0 to {MAX_EMISSION_STRENGTH}",
                    texts.strength.trim()
                ));
                texts.strength = format!("{}", e.strength);
            }
        }
    }
}
