//! The material picker every panel shares (brush tools, region fill, replace) and the swatches the
//! Materials panel lists: the open project's materials, liquids included, each with its colour and,
//! when it has one, a thumbnail of its texture.
//!
//! ```text
//!   [■ Grass      ▾]      popup:  ■ Grass  hard edges  ■ Rock  hard edges
//!                                 ■ Moss   textured    ...
//!                                 ■ Water  liquid      ■ Lava  liquid, glows
//! ```

use eframe::egui;
use strata_engine::voxel::{Material, MaterialTable, Shaping, Textures};

use super::texture_thumbs;

/// Side of a swatch, points.
pub const SWATCH: f32 = 16.0;

/// Draw a swatch of `m`: its texture's thumbnail when it has one (and the project holds it),
/// else its colour.
pub fn swatch(ui: &mut egui::Ui, m: &Material, textures: Option<&Textures>) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
    let (r, g, b) = m.color;
    let thumb = m
        .texture
        .zip(textures)
        .and_then(|(t, store)| texture_thumbs::thumbnail(ui.ctx(), store, &t));
    match thumb {
        Some(id) => {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            ui.painter().image(id, rect, uv, egui::Color32::WHITE);
        }
        None => {
            ui.painter()
                .rect_filled(rect, 3.0, egui::Color32::from_rgb(r, g, b));
        }
    }
    if m.emission.is_some_and(|e| !e.is_dark()) {
        let (er, eg, eb) = m.emission.map_or((255, 255, 255), |e| e.color);
        ui.painter().circle_filled(
            rect.right_bottom() - egui::vec2(3.5, 3.5),
            2.5,
            egui::Color32::from_rgb(er, eg, eb),
        );
    }
    ui.painter().rect_stroke(
        rect,
        3.0,
        egui::Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );
    response
}

/// What a material is beyond its colour, in a few words.
pub fn kind_text(m: &Material) -> String {
    let mut parts = vec![match (m.liquid, m.shaping) {
        (true, _) => "liquid",
        (false, Shaping::Sharp) => "hard edges",
        (false, Shaping::Smooth) => "smooth",
    }];
    if m.texture.is_some() {
        parts.push("textured");
    }
    if m.emission.is_some_and(|e| !e.is_dark()) {
        parts.push("glows");
    }
    parts.join(", ")
}

/// A material chooser labelled `label`: the current material's swatch and name; the popup lists
/// every material but Air (solids first, then liquids) with its swatch, two columns. `textures`
/// are the project's (thumbnails); `None` shows colours only.
pub fn material_picker(
    ui: &mut egui::Ui,
    table: &MaterialTable,
    textures: Option<&Textures>,
    label: &str,
    id: &mut u8,
) -> egui::Response {
    ui.horizontal(|ui| {
        let label_id = ui.label(label).id;
        if let Some(m) = table.get(*id) {
            swatch(ui, m, textures);
        }
        let name = table
            .get(*id)
            .map_or_else(|| format!("#{id}"), |m| m.name.clone());
        egui::ComboBox::from_id_salt(label)
            .selected_text(name)
            .height(400.0)
            .show_ui(ui, |ui| {
                egui::Grid::new((label, "materials"))
                    .num_columns(2)
                    .show(ui, |ui| {
                        let mut column = 0;
                        for liquid in [false, true] {
                            for (i, m) in table.materials.iter().enumerate().skip(1) {
                                let Ok(i) = u8::try_from(i) else {
                                    break;
                                };
                                if m.liquid != liquid {
                                    continue;
                                }
                                ui.horizontal(|ui| {
                                    swatch(ui, m, textures);
                                    ui.selectable_value(id, i, &m.name)
                                        .on_hover_text(kind_text(m));
                                });
                                column += 1;
                                if column % 2 == 0 {
                                    ui.end_row();
                                }
                            }
                        }
                    });
            })
            .response
            .labelled_by(label_id);
    })
    .response
}
