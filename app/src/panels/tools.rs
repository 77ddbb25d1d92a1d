//! The Tools panel (tool buttons, brush shape, size, strength, plane lock, materials, tool options)
//! and the tool keyboard shortcuts: T / R / G for Add / Subtract / Paint, 1–9 for the tools in panel
//! order, [ and ] for brush size.

use eframe::egui::{self, Key};

use strata_engine::tools::{
    BrushShape, SeaLevelMode, ToolKind, MAX_SIZE, MAX_STRENGTH, MIN_SIZE, MIN_STRENGTH,
};
use strata_engine::voxel::MaterialTable;

use crate::app::EditorApp;

const DIGITS: [Key; 9] = [
    Key::Num1,
    Key::Num2,
    Key::Num3,
    Key::Num4,
    Key::Num5,
    Key::Num6,
    Key::Num7,
    Key::Num8,
    Key::Num9,
];

/// Apply tool shortcuts pressed this frame (only without Ctrl/Alt, and not while typing).
pub fn tool_shortcuts(app: &mut EditorApp, ctx: &egui::Context) {
    let (kind, size_step) = ctx.input(|i| {
        if i.modifiers.command || i.modifiers.ctrl || i.modifiers.alt {
            return (None, 0);
        }
        let letter = [(Key::T, 'T'), (Key::R, 'R'), (Key::G, 'G')]
            .into_iter()
            .find(|(k, _)| i.key_pressed(*k))
            .and_then(|(_, c)| ToolKind::from_letter(c));
        let digit = DIGITS
            .iter()
            .position(|k| i.key_pressed(*k))
            .and_then(|d| ToolKind::from_digit(d as u8 + 1));
        let step = i32::from(i.key_pressed(Key::CloseBracket))
            - i32::from(i.key_pressed(Key::OpenBracket));
        (letter.or(digit), step)
    });
    if let Some(kind) = kind {
        app.tools.tool.kind = kind;
        app.message = format!("{} tool", kind.name());
    }
    if size_step > 0 {
        app.tools.brush = app.tools.brush.grown();
    } else if size_step < 0 {
        app.tools.brush = app.tools.brush.shrunk();
    }
}

/// Show the Tools panel.
pub fn show(app: &mut EditorApp, ui: &mut egui::Ui) {
    ui.heading("Tools");
    egui::Grid::new("tool-grid")
        .num_columns(2)
        .spacing([6.0, 6.0])
        .show(ui, |ui| {
            for (i, kind) in ToolKind::ALL.into_iter().enumerate() {
                let selected = app.tools.tool.kind == kind;
                let hint = match kind.letter() {
                    Some(c) => format!("{} ({}, {c})", kind.name(), i + 1),
                    None => format!("{} ({})", kind.name(), i + 1),
                };
                if ui
                    .selectable_label(selected, kind.name())
                    .on_hover_text(hint)
                    .clicked()
                {
                    app.tools.tool.kind = kind;
                }
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.separator();
    let kind = app.tools.tool.kind;
    if kind == ToolKind::SeaLevel {
        sea_level(app, ui);
    } else {
        brush(app, ui);
    }
    ui.separator();
    materials(app, ui);
}

fn brush(app: &mut EditorApp, ui: &mut egui::Ui) {
    ui.label("Brush");
    ui.horizontal(|ui| {
        let shape = &mut app.tools.brush.shape;
        ui.selectable_value(shape, BrushShape::Sphere, "Sphere");
        ui.selectable_value(shape, BrushShape::Cube, "Cube");
        ui.selectable_value(shape, BrushShape::Cylinder, "Cylinder");
    });
    ui.add(egui::Slider::new(&mut app.tools.brush.size, MIN_SIZE..=MAX_SIZE).text("Size"));
    ui.add(
        egui::Slider::new(&mut app.tools.brush.strength, MIN_STRENGTH..=MAX_STRENGTH)
            .text("Strength"),
    );
    ui.label(format!("Size: {:.0}", app.tools.brush.size));
    ui.checkbox(&mut app.tools.plane_lock, "Plane Lock");
    if app.tools.tool.kind == ToolKind::Flatten {
        ui.checkbox(&mut app.tools.flatten_fixed, "Fixed Plane");
        if app.tools.flatten_fixed {
            ui.add(egui::DragValue::new(&mut app.tools.flatten_height).prefix("Height "));
        }
    }
    ui.small("Ctrl inverts · Shift smooths · Alt+click picks material");
}

fn sea_level(app: &mut EditorApp, ui: &mut egui::Ui) {
    ui.label("Sea Level");
    let max = app
        .doc
        .as_ref()
        .map_or(256.0, |d| d.project.header.bounds.max.y as f32);
    ui.add(egui::Slider::new(&mut app.tools.sea_level, 0.0..=max).text("Level"));
    let mut whole = app.tools.sea_area.is_none();
    if ui.checkbox(&mut whole, "Whole World").changed() {
        app.tools.sea_area = if whole {
            None
        } else {
            app.doc.as_ref().map(|d| {
                let b = d.project.header.bounds;
                [b.min.x, b.min.z, b.max.x, b.max.z]
            })
        };
    }
    if let Some(area) = app.tools.sea_area.as_mut() {
        egui::Grid::new("sea-area").num_columns(3).show(ui, |ui| {
            ui.label("From");
            ui.add(egui::DragValue::new(&mut area[0]).prefix("X "));
            ui.add(egui::DragValue::new(&mut area[1]).prefix("Z "));
            ui.end_row();
            ui.label("To");
            ui.add(egui::DragValue::new(&mut area[2]).prefix("X "));
            ui.add(egui::DragValue::new(&mut area[3]).prefix("Z "));
            ui.end_row();
        });
    }
    ui.horizontal(|ui| {
        let Some(doc) = app.doc.as_mut() else {
            return;
        };
        if ui.button("Fill Water").clicked() && !app.tools.sea_level(doc, SeaLevelMode::Fill) {
            app.message = "No air below the level to fill".into();
        }
        if ui.button("Clear Water").clicked() && !app.tools.sea_level(doc, SeaLevelMode::Clear) {
            app.message = "No water to clear".into();
        }
    });
    ui.small("Fills air below the level with water in the area, or clears it.");
}

fn material_name(table: &MaterialTable, id: u8) -> String {
    table
        .get(id)
        .map_or_else(|| format!("#{id}"), |m| m.name.clone())
}

fn materials(app: &mut EditorApp, ui: &mut egui::Ui) {
    let table = app
        .doc
        .as_ref()
        .map_or_else(MaterialTable::builtin, |d| d.materials().clone());
    let kind = app.tools.tool.kind;
    if kind == ToolKind::Replace {
        material_combo(ui, &table, "Source", &mut app.tools.tool.source_material);
    }
    let label = if kind == ToolKind::Replace {
        "Target"
    } else {
        "Material"
    };
    material_combo(ui, &table, label, &mut app.tools.tool.material);
}

fn material_combo(ui: &mut egui::Ui, table: &MaterialTable, label: &str, id: &mut u8) {
    ui.horizontal(|ui| {
        let label_id = ui.label(label).id;
        if let Some(m) = table.get(*id) {
            let (r, g, b) = m.color;
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
        }
        egui::ComboBox::from_id_salt(label)
            .selected_text(material_name(table, *id))
            .show_ui(ui, |ui| {
                for (i, m) in table.materials.iter().enumerate().skip(1) {
                    let Ok(i) = u8::try_from(i) else {
                        break;
                    };
                    ui.selectable_value(id, i, &m.name);
                }
            })
            .response
            .labelled_by(label_id);
    });
}
