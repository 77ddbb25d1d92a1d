//! The Tools panel: tool buttons, the brush (shape, size, strength, plane lock), the options of the
//! chosen tool (Flatten's mode and plane, Sea Level's level and area) and the materials, each with
//! a tooltip; controls that do nothing for the chosen tool are hidden. It owns the brush tool's
//! state, turns viewport drags into stroke actions, and previews Sea Level and Plane Lock planes.

use eframe::egui;

use strata_engine::tools::{
    BrushShape, FlattenMode, SeaLevelMode, ToolKind, MAX_SIZE, MAX_STRENGTH, MIN_SIZE, MIN_STRENGTH,
};
use strata_engine::voxel::{MaterialTable, Shaping};

use crate::app::action::Action;
use crate::app::keymap::Command;
use crate::app::panel::{Panel, Placement, ToolInfo, View};
use crate::brush::brush_input::ToolState;
use crate::document::Document;
use crate::viewport::overlay::Overlay;
use crate::viewport::scene::CursorDraw;
use crate::viewport::ViewportInput;

/// The panel's name (also the name of its viewport tool).
pub const NAME: &str = "Tools";

/// Translucent blue of preview planes.
const PLANE_COLOR: [u8; 4] = [70, 150, 230, 70];

/// The Tools panel.
#[derive(Default)]
pub struct ToolsPanel {
    /// The brush tool's settings and the stroke in progress.
    pub state: ToolState,
}

fn what(kind: ToolKind) -> &'static str {
    match kind {
        ToolKind::Add => "Add matter of the chosen material",
        ToolKind::Subtract => "Remove matter",
        ToolKind::Grow => "Raise the surface where matter meets air",
        ToolKind::Erode => "Wear the surface away where matter meets air",
        ToolKind::Smooth => "Smooth bumps and edges",
        ToolKind::Flatten => "Level the ground to a plane",
        ToolKind::Paint => "Change the material of the surface",
        ToolKind::Replace => "Swap one material for another inside the brush",
        ToolKind::SeaLevel => "Fill air below a level with water, or clear water",
    }
}

/// The material a fresh document's Replace tool takes as its source: Grass when the table has
/// it, else the first solid material.
fn default_source(table: &MaterialTable) -> u8 {
    table.require("Grass").ok().unwrap_or_else(|| {
        (1..table.len())
            .find(|&i| table.get(i as u8).is_some_and(|m| !m.liquid))
            .map_or(0, |i| i as u8)
    })
}

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

    fn on_document(&mut self, doc: Option<&Document>) {
        let Some(doc) = doc else {
            return;
        };
        let table = doc.materials();
        let fits = |id: u8| id != 0 && table.get(id).is_some_and(|m| !m.liquid);
        if !fits(self.state.tool.source_material) {
            self.state.tool.source_material = default_source(table);
        }
        if !fits(self.state.tool.material) {
            self.state.tool.material = default_source(table);
        }
    }

    fn tool(&self) -> Option<ToolInfo> {
        Some(ToolInfo {
            name: NAME,
            hint: "Sculpt and paint with brushes",
        })
    }

    fn on_command(&mut self, command: Command, _view: &View<'_>, out: &mut Vec<Action>) -> bool {
        let kind = match command {
            Command::AddTool => ToolKind::Add,
            Command::SubtractTool => ToolKind::Subtract,
            Command::PaintTool => ToolKind::Paint,
            Command::BrushTool(i) => match ToolKind::from_digit(i + 1) {
                Some(k) => k,
                None => return false,
            },
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
        self.state.tool.kind = kind;
        out.push(Action::ActivateTool(NAME));
        out.push(Action::Message(format!("{} tool", kind.name())));
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

    fn overlays(&self, view: &View<'_>, out: &mut Vec<Overlay>) {
        if view.active_tool != NAME {
            return;
        }
        let Some(doc) = view.doc else {
            return;
        };
        let state = &self.state;
        if state.tool.kind == ToolKind::SeaLevel {
            let b = doc.bounds();
            let [x0, z0, x1, z1] = state
                .sea_area
                .unwrap_or([b.min.x, b.min.z, b.max.x, b.max.z]);
            out.push(Overlay::Level {
                min: [x0.min(x1) as f32, z0.min(z1) as f32],
                max: [x0.max(x1) as f32, z0.max(z1) as f32],
                y: state.sea_level,
                color: PLANE_COLOR,
            });
            return;
        }
        let size = state.brush.radius() * 2.5;
        if let Some(plane) = state.locked_plane() {
            let center = view.hover.map_or(plane.point, |h| plane.project(h.point));
            out.push(Overlay::Plane {
                center,
                normal: plane.normal,
                half_size: size,
                color: PLANE_COLOR,
            });
        } else if let Some(hit) = view.hover {
            if state.tool.kind == ToolKind::Flatten && state.flatten_fixed {
                let plane = state.fixed_plane();
                out.push(Overlay::Plane {
                    center: plane.project(hit.point),
                    normal: plane.normal,
                    half_size: size,
                    color: PLANE_COLOR,
                });
            } else if state.plane_lock {
                out.push(Overlay::Plane {
                    center: hit.point,
                    normal: hit.normal,
                    half_size: size,
                    color: PLANE_COLOR,
                });
            }
        }
    }

    fn status(&self, view: &View<'_>) -> Option<String> {
        let state = &self.state;
        let mut text = if state.tool.kind == ToolKind::SeaLevel {
            format!("Sea level {:.1}", state.sea_level)
        } else {
            format!("Brush {:.0}", state.brush.clamped().size)
        };
        if let Some(hit) = view.hover {
            let above = hit.point[1] - state.sea_level;
            let slope = hit.normal[1].clamp(-1.0, 1.0).acos().to_degrees();
            text.push_str(&format!(
                " · {above:+.1} above sea level · slope {slope:.0}°"
            ));
        }
        Some(text)
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
                    Some(c) => format!("{} ({}, {c})", what(kind), i + 1),
                    None => format!("{} ({})", what(kind), i + 1),
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
        if kind == ToolKind::Flatten {
            flatten(state, ui, view);
        }
    }
    ui.separator();
    materials(state, ui, view);
}

fn brush(state: &mut ToolState, ui: &mut egui::Ui) {
    ui.label("Brush");
    ui.horizontal(|ui| {
        let shape = &mut state.brush.shape;
        ui.selectable_value(shape, BrushShape::Sphere, "Sphere")
            .on_hover_text("A ball");
        ui.selectable_value(shape, BrushShape::Cube, "Cube")
            .on_hover_text("An axis-aligned cube: flat faces and sharp edges");
        ui.selectable_value(shape, BrushShape::Cylinder, "Cylinder")
            .on_hover_text("An upright cylinder: vertical walls");
    });
    ui.add(egui::Slider::new(&mut state.brush.size, MIN_SIZE..=MAX_SIZE).text("Size"))
        .on_hover_text("Brush diameter in voxels ([ and ] step it)");
    let kind = state.tool.kind;
    if kind.sculpts() {
        ui.add(
            egui::Slider::new(&mut state.brush.strength, MIN_STRENGTH..=MAX_STRENGTH)
                .text("Strength"),
        )
        .on_hover_text("How far one dab moves the surface");
    }
    ui.label(format!("Size: {:.0}", state.brush.size));
    ui.checkbox(&mut state.plane_lock, "Plane Lock")
        .on_hover_text(
        "Keep the whole stroke on the plane through the first click (shown in blue while hovering)",
    );
    ui.small("Ctrl inverts · Shift smooths · Alt+click picks material");
}

fn flatten(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>) {
    ui.separator();
    ui.label("Flatten");
    ui.horizontal(|ui| {
        let mode = &mut state.flatten_mode;
        ui.selectable_value(mode, FlattenMode::Both, "Cut and fill")
            .on_hover_text("Cut matter above the plane and fill below it");
        ui.selectable_value(mode, FlattenMode::Erode, "Cut")
            .on_hover_text("Only remove matter above the plane");
        ui.selectable_value(mode, FlattenMode::Grow, "Fill")
            .on_hover_text("Only add matter below the plane");
    });
    ui.checkbox(&mut state.flatten_fixed, "Fixed Plane")
        .on_hover_text(
            "Flatten to one plane for the whole stroke instead of the level under each dab",
        );
    if state.flatten_fixed {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut state.flatten_height).prefix("Height "))
                .on_hover_text("Where the plane crosses the vertical axis, voxels");
            if let Some(hit) = view.hover {
                if ui
                    .button("Here")
                    .on_hover_text("Take the plane from the surface under the cursor")
                    .clicked()
                {
                    state.flatten_normal = hit.normal;
                    let n = hit.normal;
                    let p = hit.point;
                    // The plane through the hit: its height where it crosses the Y axis.
                    if n[1].abs() > 1e-3 {
                        state.flatten_height = p[1] + (n[0] * p[0] + n[2] * p[2]) / n[1];
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("Normal");
            for (c, name) in state.flatten_normal.iter_mut().zip(["X ", "Y ", "Z "]) {
                ui.add(
                    egui::DragValue::new(c)
                        .speed(0.01)
                        .range(-1.0..=1.0)
                        .prefix(name),
                );
            }
        })
        .response
        .on_hover_text("Up is 0, 1, 0; tilt it for slopes");
    }
}

fn sea_level(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    ui.label("Sea Level");
    let max = view.doc.map_or(256.0, |d| d.bounds().max.y as f32);
    ui.add(egui::Slider::new(&mut state.sea_level, 0.0..=max).text("Level"))
        .on_hover_text("The water surface height, shown as a blue plane");
    let mut whole = state.sea_area.is_none();
    if ui
        .checkbox(&mut whole, "Whole World")
        .on_hover_text("Fill or clear over the whole world, or only inside an X/Z range")
        .changed()
    {
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
            .on_hover_text("Fill air below the level with water (one undo step)")
            .clicked()
        {
            out.push(state.sea_level(doc.bounds(), SeaLevelMode::Fill));
        }
        if ui
            .add_enabled(enabled, egui::Button::new("Clear Water"))
            .on_hover_text("Turn water below the level into air (one undo step)")
            .clicked()
        {
            out.push(state.sea_level(doc.bounds(), SeaLevelMode::Clear));
        }
    });
    ui.small("Fills air below the level with water in the area, or clears it.");
}

fn materials(state: &mut ToolState, ui: &mut egui::Ui, view: &View<'_>) {
    let kind = state.tool.kind;
    if !matches!(
        kind,
        ToolKind::Add
            | ToolKind::Paint
            | ToolKind::Replace
            | ToolKind::Grow
            | ToolKind::Smooth
            | ToolKind::Flatten
    ) {
        return;
    }
    let table = view
        .doc
        .map_or_else(MaterialTable::builtin, |d| d.materials().clone());
    if kind == ToolKind::Replace {
        material_picker(ui, &table, "Source", &mut state.tool.source_material)
            .on_hover_text("The material to replace");
    }
    let (label, hint) = match kind {
        ToolKind::Replace => ("Target", "The material it becomes"),
        ToolKind::Add | ToolKind::Paint => ("Material", "The material to add or paint"),
        _ => (
            "Material",
            "Used where new matter has no neighbour to take a material from",
        ),
    };
    material_picker(ui, &table, label, &mut state.tool.material).on_hover_text(hint);
    if kind == ToolKind::Replace && state.tool.material == state.tool.source_material {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "Source and Target are the same: choose another Target",
        );
    }
}

fn swatch(ui: &mut egui::Ui, color: (u8, u8, u8)) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
    let (r, g, b) = color;
    ui.painter()
        .rect_filled(rect, 3.0, egui::Color32::from_rgb(r, g, b));
    ui.painter().rect_stroke(
        rect,
        3.0,
        egui::Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );
}

/// What a material looks like beyond its colour.
fn look(shaping: Shaping, liquid: bool) -> &'static str {
    match (liquid, shaping) {
        (true, _) => "liquid",
        (false, Shaping::Sharp) => "hard edges",
        (false, Shaping::Smooth) => "smooth",
    }
}

/// A material chooser: the current material's swatch and name; the popup lists every solid
/// material with its swatch and look, two columns.
pub(crate) fn material_picker(
    ui: &mut egui::Ui,
    table: &MaterialTable,
    label: &str,
    id: &mut u8,
) -> egui::Response {
    ui.horizontal(|ui| {
        let label_id = ui.label(label).id;
        if let Some(m) = table.get(*id) {
            swatch(ui, m.color);
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
                        for (i, m) in table.materials.iter().enumerate().skip(1) {
                            let Ok(i) = u8::try_from(i) else {
                                break;
                            };
                            if m.liquid {
                                continue;
                            }
                            ui.horizontal(|ui| {
                                swatch(ui, m.color);
                                ui.selectable_value(id, i, &m.name)
                                    .on_hover_text(look(m.shaping, m.liquid));
                            });
                            column += 1;
                            if column % 2 == 0 {
                                ui.end_row();
                            }
                        }
                    });
            })
            .response
            .labelled_by(label_id);
    })
    .response
}
