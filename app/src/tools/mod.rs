//! Tool input: turns viewport clicks and drags into engine tool strokes, one undo step per stroke.
//!
//! ```text
//!   primary down over terrain ── Alt? ──> pick the hovered material
//!            │ no
//!            ▼
//!   Stroke::begin(name)   tool = chosen tool, Ctrl inverts Add/Subtract and Grow/Erode,
//!            │            Shift smooths for this stroke; plane lock fixes the plane at the first hit
//!   every frame held: one dab at the hovered point ──> Document::edited (physics, remesh)
//!            ▼
//!   release: Stroke::end ──> the Edit menu shows the step's name
//! ```
//!
//! The voxel operations themselves live in the engine's `tools` module.

use eframe::egui::Modifiers;

use strata_engine::tools::{
    pick_material, Brush, BrushShape, Plane, SeaLevelMode, Stroke, Tool, ToolKind,
};
use strata_engine::voxel::VoxelBox;

use crate::document::Document;
use crate::viewport::scene::{CursorDraw, CursorShape};
use crate::viewport::ViewportInput;

/// The editor's tool settings and the stroke in progress.
pub struct ToolState {
    /// The chosen tool and its materials.
    pub tool: Tool,
    /// Brush shape, size and strength.
    pub brush: Brush,
    /// Keep every dab of a stroke on the plane through the first hit.
    pub plane_lock: bool,
    /// Flatten to a fixed height instead of the plane under the first hit.
    pub flatten_fixed: bool,
    /// The fixed flatten height, voxels.
    pub flatten_height: f32,
    /// Sea Level: the water surface height, voxels.
    pub sea_level: f32,
    /// Sea Level: the X and Z range `[x0, z0, x1, z1]` (half-open) to fill or clear; `None` is the
    /// whole world.
    pub sea_area: Option<[i32; 4]>,
    stroke: Option<Active>,
}

struct Active {
    stroke: Stroke,
    tool: Tool,
    brush: Brush,
}

impl Default for ToolState {
    fn default() -> Self {
        Self {
            tool: Tool::new(ToolKind::Add, 2),
            brush: Brush::default(),
            plane_lock: false,
            flatten_fixed: false,
            flatten_height: 32.0,
            sea_level: 24.0,
            sea_area: None,
            stroke: None,
        }
    }
}

impl ToolState {
    /// True while the primary button is held in a stroke.
    pub fn stroking(&self) -> bool {
        self.stroke.is_some()
    }

    /// The tool a stroke started now would use, given the held modifiers.
    pub fn effective(&self, modifiers: Modifiers) -> Tool {
        let mut tool = self.tool;
        if modifiers.shift {
            tool.kind = ToolKind::Smooth;
        } else if modifiers.command || modifiers.ctrl {
            tool = tool.inverted();
        }
        if tool.kind == ToolKind::Flatten && self.flatten_fixed {
            tool.flatten_plane = Some(Plane::horizontal(self.flatten_height));
        }
        tool
    }

    /// Handle one frame of viewport input. Returns a message for the status bar (a picked material).
    pub fn handle(
        &mut self,
        input: &ViewportInput,
        modifiers: Modifiers,
        doc: &mut Document,
    ) -> Option<String> {
        let mut message = None;
        if input.primary_pressed && self.stroke.is_none() {
            if let Some(hit) = input.hover {
                if modifiers.alt {
                    let grid = &doc.project.grid;
                    if let Some(id) = pick_material(grid, doc.materials(), hit.point) {
                        self.tool.material = id;
                        let name = doc
                            .materials()
                            .get(id)
                            .map_or_else(|| format!("#{id}"), |m| m.name.clone());
                        message = Some(format!("Picked {name}"));
                    }
                } else if self.tool.kind != ToolKind::SeaLevel {
                    self.begin(doc, modifiers, hit.point, hit.normal);
                }
            }
        }
        if input.primary_down {
            if let (Some(active), Some(hit)) = (self.stroke.as_mut(), input.hover) {
                let project = &mut doc.project;
                let changed = active.stroke.dab(
                    &mut project.history,
                    &mut project.grid,
                    &project.header.materials,
                    &active.tool,
                    &active.brush,
                    hit.point,
                );
                if let Some(b) = changed {
                    doc.edited(b);
                }
            }
        }
        if input.primary_released || (!input.primary_down && !input.primary_pressed) {
            self.finish(doc);
        }
        message
    }

    fn begin(
        &mut self,
        doc: &mut Document,
        modifiers: Modifiers,
        point: [f32; 3],
        normal: [f32; 3],
    ) {
        let tool = self.effective(modifiers);
        let mut brush = self.brush.clamped();
        if self.plane_lock {
            brush.plane_lock = Some(Plane::new(point, normal));
        }
        let stroke = Stroke::begin(&mut doc.project.history, tool.kind.name());
        self.stroke = Some(Active {
            stroke,
            tool,
            brush,
        });
    }

    /// End the stroke in progress, if any (mouse released, or the document is about to change).
    pub fn finish(&mut self, doc: &mut Document) {
        if let Some(active) = self.stroke.take() {
            active.stroke.end(&mut doc.project.history);
        }
    }

    /// Fill (or clear) water up to the sea level in the chosen area (whole world by default), as one
    /// undo step. Returns false when nothing changed.
    pub fn sea_level(&mut self, doc: &mut Document, mode: SeaLevelMode) -> bool {
        self.finish(doc);
        let project = &mut doc.project;
        let mut bounds: VoxelBox = project.header.bounds;
        if let Some([x0, z0, x1, z1]) = self.sea_area {
            bounds.min.x = x0.min(x1);
            bounds.min.z = z0.min(z1);
            bounds.max.x = x0.max(x1);
            bounds.max.z = z0.max(z1);
        }
        let name = match mode {
            SeaLevelMode::Fill => "Fill Water",
            SeaLevelMode::Clear => "Clear Water",
        };
        let mut stroke = Stroke::begin(&mut project.history, name);
        let changed = stroke.sea_level(
            &mut project.history,
            &mut project.grid,
            &project.header.materials,
            bounds,
            self.sea_level,
            mode,
        );
        stroke.end(&mut project.history);
        if let Some(b) = changed {
            doc.edited(b);
            return true;
        }
        false
    }

    /// The cursor to draw at a hovered point.
    pub fn cursor(&self, point: [f32; 3], modifiers: Modifiers) -> Option<CursorDraw> {
        let tool = self.effective(modifiers);
        if tool.kind == ToolKind::SeaLevel {
            return None;
        }
        let brush = self.brush.clamped();
        let color = match tool.kind {
            ToolKind::Subtract | ToolKind::Erode => [235, 80, 60, 90],
            ToolKind::Paint | ToolKind::Replace => [240, 200, 60, 90],
            ToolKind::Smooth | ToolKind::Flatten => [90, 200, 240, 90],
            _ => [90, 230, 110, 90],
        };
        Some(CursorDraw {
            shape: match brush.shape {
                BrushShape::Sphere => CursorShape::Sphere,
                BrushShape::Cube => CursorShape::Cube,
                BrushShape::Cylinder => CursorShape::Cylinder,
            },
            center: point,
            radius: brush.radius(),
            color,
        })
    }
}
