//! The Tools panel: tool buttons, brush shape, size, strength, plane lock, materials and tool
//! options. It owns the brush tool's state and turns viewport drags into stroke actions; its
//! shortcuts (T / R / G, 1–9, [ and ]) come from the keymap.

use eframe::egui;

use strata_engine::tools::{
    BrushShape, SeaLevelMode, ToolKind, MAX_SIZE, MAX_STRENGTH, MIN_SIZE, MIN_STRENGTH,
};
use strata_engine::voxel::MaterialTable;

use super::{Panel, Placement, ToolInfo, View};
use crate::action::Action;
use crate::keymap::Command;
use crate::tools::ToolState;
use crate::viewport::scene::CursorDraw;
use crate::viewport::ViewportInput;

/// The Tools panel.
#[derive(Default)]
pub struct ToolsPanel {
    /// The brush tool's settings and the stroke in progress.
    pub state: ToolState,
}

/// The panel's name (also the name of its viewport tool).
pub const NAME: &str = "Tools";

impl Panel for ToolsPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Left
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        show(&mut self.state, ui, view, out);
    }

    fn tool(&self) -> Option<ToolInfo> {
        Some(ToolInfo {
            name: NAME,
            hint: "Sculpt and paint with brushes",
        })
    }

    fn on_command(&mut self, command: Command, _view: &View<'_>, out: &mut Vec<Action>) -> bool {
        let kind = match command {
            Command::AddTool => Some(ToolKind::Add),
            Command::SubtractTool => Some(ToolKind::Subtract),
            Command::PaintTool => Some(ToolKind::Paint),
            Command::BrushTool(i) => ToolKind::from_digit(i + 1),
            Command::BrushLarger => {
                self.state.brush = self.state.brush.grown();
                return true;
            }
            Command::BrushSmaller => {
                self.state.brush = self.state.brush.shrunk();
                return true;
            }
            _ => return false,
        };
        if let Some(kind) = kind {
            self.state.tool.kind = kind;
            out.push(Action::ActivateTool(NAME));
            out.push(Action::Message(format!("{} tool", kind.name())));
        }
        true
    }

    fn viewport(
        &mut self,
        input: &ViewportInput,
        view: &View<'_>,
        out: &mut Vec<Action>,
    ) -> Option<CursorDraw> {
        let doc = view.doc?;
        if let Some(message) = self.state.handle(input, view.modifiers, doc, out) {
            out.push(Action::Message(message));
        }
        let hit = input.hover?;
        self.state.cursor(hit.point, view.modifiers)
    }
}

fn show(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    ui.heading("Tools");
    egui::Grid::new("tool-grid")
        .num_columns(2)
        .spacing([6.0, 6.0])
        .show(ui, |ui| {
            for (i, kind) in ToolKind::ALL.into_iter().enumerate() {
                let selected = view.active_tool == NAME && state.tool.kind == kind;
                let hint = match kind.letter() {
                    Some(c) => format!("{} ({}, {c})", kind.name(), i + 1),
                    None => format!("{} ({})", kind.name(), i + 1),
                };
                if ui
                    .selectable_label(selected, kind.name())
                    .on_hover_text(hint)
                    .clicked()
                {
                    state.tool.kind = kind;
                    out.push(Action::ActivateTool(NAME));
                }
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.separator();
    let kind = state.tool.kind;
    if kind == ToolKind::SeaLevel {
        sea_level(state, ui, view, out);
    } else {
        brush(state, ui);
    }
    ui.separator();
    materials(state, ui, view);
}

fn brush(state: &mut ToolState, ui: &mut egui::Ui) {
    ui.label("Brush");
    ui.horizontal(|ui| {
        let shape = &mut state.brush.shape;
        ui.selectable_value(shape, BrushShape::Sphere, "Sphere");
        ui.selectable_value(shape, BrushShape::Cube, "Cube");
        ui.selectable_value(shape, BrushShape::Cylinder, "Cylinder");
    });
    ui.add(egui::Slider::new(&mut state.brush.size, MIN_SIZE..=MAX_SIZE).text("Size"));
    ui.add(
        egui::Slider::new(&mut state.brush.strength, MIN_STRENGTH..=MAX_STRENGTH).text("Strength"),
    );
    ui.label(format!("Size: {:.0}", state.brush.size));
    ui.checkbox(&mut state.plane_lock, "Plane Lock");
    if state.tool.kind == ToolKind::Flatten {
        ui.checkbox(&mut state.flatten_fixed, "Fixed Plane");
        if state.flatten_fixed {
            ui.add(egui::DragValue::new(&mut state.flatten_height).prefix("Height "));
        }
    }
    ui.small("Ctrl inverts · Shift smooths · Alt+click picks material");
}

fn sea_level(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    ui.label("Sea Level");
    let max = view.doc.map_or(256.0, |d| d.bounds().max.y as f32);
    ui.add(egui::Slider::new(&mut state.sea_level, 0.0..=max).text("Level"));
    let mut whole = state.sea_area.is_none();
    if ui.checkbox(&mut whole, "Whole World").changed() {
        state.sea_area = if whole {
            None
        } else {
            view.doc.map(|d| {
                let b = d.bounds();
                [b.min.x, b.min.z, b.max.x, b.max.z]
            })
        };
    }
    if let Some(area) = state.sea_area.as_mut() {
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
        let Some(doc) = view.doc else {
            return;
        };
        let enabled = !view.busy;
        if ui
            .add_enabled(enabled, egui::Button::new("Fill Water"))
            .clicked()
        {
            out.push(state.sea_level(doc.bounds(), SeaLevelMode::Fill));
        }
        if ui
            .add_enabled(enabled, egui::Button::new("Clear Water"))
            .clicked()
        {
            out.push(state.sea_level(doc.bounds(), SeaLevelMode::Clear));
        }
    });
    ui.small("Fills air below the level with water in the area, or clears it.");
}

fn material_name(table: &MaterialTable, id: u8) -> String {
    table
        .get(id)
        .map_or_else(|| format!("#{id}"), |m| m.name.clone())
}

fn materials(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>) {
    let table = view
        .doc
        .map_or_else(MaterialTable::builtin, |d| d.materials().clone());
    let kind = state.tool.kind;
    if kind == ToolKind::Replace {
        material_combo(ui, &table, "Source", &mut state.tool.source_material);
    }
    let label = if kind == ToolKind::Replace {
        "Target"
    } else {
        "Material"
    };
    material_combo(ui, &table, label, &mut state.tool.material);
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
