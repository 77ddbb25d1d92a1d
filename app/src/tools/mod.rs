//! Brush input: turns viewport clicks and drags into stroke actions, one undo step per stroke. The
//! Tools panel owns a [`ToolState`]; the document applies the actions.
//!
//! ```text
//!   primary down over terrain ── Alt? ──> pick the hovered material
//!            │ no
//!            ▼
//!   BeginStroke(name)     tool = chosen tool, Ctrl inverts Add/Subtract and Grow/Erode,
//!            │            Shift smooths for this stroke; plane lock fixes the plane at the first hit
//!   every frame held: Dab at the hovered point ──> Document::dab (undo, physics, publish)
//!            ▼
//!   release: EndStroke ──> the Edit menu shows the step's name
//! ```
//!
//! The voxel operations themselves live in the engine's `tools` module.

use eframe::egui::Modifiers;

use strata_engine::tools::{pick_material, Brush, BrushShape, Plane, SeaLevelMode, Tool, ToolKind};
use strata_engine::voxel::VoxelBox;

use crate::action::Action;
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

/// The tool and brush a stroke started with (they stay fixed until it ends).
#[derive(Debug, Clone, Copy)]
struct Active {
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

    /// Handle one frame of viewport input: push the stroke actions; returns a message for the status
    /// bar (a picked material).
    pub fn handle(
        &mut self,
        input: &ViewportInput,
        modifiers: Modifiers,
        doc: &Document,
        out: &mut Vec<Action>,
    ) -> Option<String> {
        let mut message = None;
        if input.primary_pressed && self.stroke.is_none() {
            if let Some(hit) = input.hover {
                if modifiers.alt {
                    if let Some(id) = pick_material(doc.grid(), doc.materials(), hit.point) {
                        self.tool.material = id;
                        let name = doc
                            .materials()
                            .get(id)
                            .map_or_else(|| format!("#{id}"), |m| m.name.clone());
                        message = Some(format!("Picked {name}"));
                    }
                } else if self.tool.kind != ToolKind::SeaLevel {
                    self.begin(modifiers, hit.point, hit.normal, out);
                }
            }
        }
        if input.primary_down {
            if let (Some(active), Some(hit)) = (self.stroke.as_ref(), input.hover) {
                out.push(Action::Dab {
                    tool: active.tool,
                    brush: active.brush,
                    center: hit.point,
                });
            }
        }
        if input.primary_released || (!input.primary_down && !input.primary_pressed) {
            self.finish(out);
        }
        message
    }

    fn begin(
        &mut self,
        modifiers: Modifiers,
        point: [f32; 3],
        normal: [f32; 3],
        out: &mut Vec<Action>,
    ) {
        let tool = self.effective(modifiers);
        let mut brush = self.brush.clamped();
        if self.plane_lock {
            brush.plane_lock = Some(Plane::new(point, normal));
        }
        out.push(Action::BeginStroke(tool.kind.name().to_owned()));
        self.stroke = Some(Active { tool, brush });
    }

    /// End the stroke in progress, if any (mouse released, or the tool changes).
    pub fn finish(&mut self, out: &mut Vec<Action>) {
        if self.stroke.take().is_some() {
            out.push(Action::EndStroke);
        }
    }

    /// The action that fills (or clears) water up to the sea level in the chosen area (whole world
    /// by default) of a world with `bounds`, as one undo step.
    pub fn sea_level(&self, bounds: VoxelBox, mode: SeaLevelMode) -> Action {
        let mut region = bounds;
        if let Some([x0, z0, x1, z1]) = self.sea_area {
            region.min.x = x0.min(x1);
            region.min.z = z0.min(z1);
            region.max.x = x0.max(x1);
            region.max.z = z0.max(z1);
        }
        Action::SeaLevel {
            region,
            level: self.sea_level,
            mode,
        }
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
