//! Brush input: turns viewport clicks and drags into stroke actions, one undo step per stroke. The
//! Tools panel owns a [`ToolState`]; the document applies the actions.
//!
//! ```text
//!   primary down over terrain ── Alt? ──> pick the hovered material
//!            │ no
//!            ▼
//!   BeginStroke(name)     tool = chosen tool, Ctrl inverts Add/Subtract and Grow/Erode,
//!            │            Shift smooths for this stroke; plane lock fixes the plane at the first hit
//!   every frame held: Dabs spaced along the pointer's path (DabSpacer), each pinned near the
//!            │        surface the stroke started on (StrokePin) ──> Document::dab
//!            │        (undo, physics, publish); no dab changes the world's bottom layer
//!            ▼
//!   release: EndStroke ──> the Edit menu shows the step's name
//! ```
//!
//! The voxel operations themselves live in the engine's `tools` module.

use eframe::egui::Modifiers;

use strata_engine::tools::{
    pick_material, Brush, BrushShape, DabSpacer, FlattenMode, Plane, SeaLevelMode, StrokePin, Tool,
    ToolKind,
};
use strata_engine::voxel::VoxelBox;

use crate::app::action::Action;
use crate::document::Document;
use crate::viewport::scene::{CursorDraw, CursorShape};
use crate::viewport::ViewportInput;

/// How far (in brush radii) a stroke's dabs may move off the surface it started on, toward the
/// camera or into the ground: one stroke builds or digs at most this much.
pub const STROKE_BAND: f32 = 1.0;

/// The editor's tool settings and the stroke in progress.
pub struct ToolState {
    /// The chosen tool and its materials.
    pub tool: Tool,
    /// Brush shape, size and strength.
    pub brush: Brush,
    /// Keep every dab of a stroke on the plane through the first hit.
    pub plane_lock: bool,
    /// Flatten to a fixed plane instead of the horizontal plane under each dab.
    pub flatten_fixed: bool,
    /// The fixed flatten plane's height where it crosses the Y axis (X = Z = 0), voxels.
    pub flatten_height: f32,
    /// The fixed flatten plane's normal (need not be unit length; up by default).
    pub flatten_normal: [f32; 3],
    /// Which side of the plane Flatten may change.
    pub flatten_mode: FlattenMode,
    /// Sea Level: the water surface height, voxels.
    pub sea_level: f32,
    /// Sea Level: the X and Z range `[x0, z0, x1, z1]` (half-open) to fill or clear; `None` is the
    /// whole world.
    pub sea_area: Option<[i32; 4]>,
    stroke: Option<Active>,
}

/// The tool and brush a stroke started with (they stay fixed until it ends), where its dabs go.
#[derive(Debug, Clone)]
struct Active {
    tool: Tool,
    brush: Brush,
    spacer: DabSpacer,
    pin: StrokePin,
}

impl Default for ToolState {
    fn default() -> Self {
        Self {
            tool: Tool::new(ToolKind::Add, 2),
            brush: Brush::default(),
            plane_lock: false,
            flatten_fixed: false,
            flatten_height: 32.0,
            flatten_normal: [0.0, 1.0, 0.0],
            flatten_mode: FlattenMode::Both,
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

    /// The plane the stroke in progress is locked to (Plane Lock), if any.
    pub fn locked_plane(&self) -> Option<Plane> {
        self.stroke.as_ref().and_then(|a| a.brush.plane_lock)
    }

    /// The tool a stroke started now would use, given the held modifiers.
    pub fn effective(&self, modifiers: Modifiers) -> Tool {
        let mut tool = self.tool;
        if modifiers.shift {
            tool.kind = ToolKind::Smooth;
        } else if modifiers.command || modifiers.ctrl {
            tool = tool.inverted();
        }
        tool.flatten_mode = self.flatten_mode;
        if tool.kind == ToolKind::Flatten && self.flatten_fixed {
            tool.flatten_plane = Some(self.fixed_plane());
        }
        tool
    }

    /// The fixed Flatten plane: through (0, height, 0) with the chosen normal.
    pub fn fixed_plane(&self) -> Plane {
        Plane::new([0.0, self.flatten_height, 0.0], self.flatten_normal)
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
                    self.begin(modifiers, hit.point, hit.normal, doc.bounds().min.y, out);
                }
            }
        }
        if input.primary_down {
            if let (Some(active), Some(hit)) = (self.stroke.as_mut(), input.hover) {
                let mut centers = Vec::new();
                active.spacer.advance(hit.point, input.dt, &mut centers);
                for c in centers {
                    out.push(Action::Dab {
                        tool: active.tool,
                        brush: active.brush,
                        center: active.pin.pin(c),
                    });
                }
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
        world_bottom: i32,
        out: &mut Vec<Action>,
    ) {
        let tool = self.effective(modifiers);
        let mut brush = self.brush.clamped();
        if self.plane_lock {
            brush.plane_lock = Some(Plane::new(point, normal));
        }
        // The world's lowest layer stays, so the ground always has a floor.
        brush.floor_y = Some(world_bottom.saturating_add(1));
        out.push(Action::BeginStroke(tool.kind.name().to_owned()));
        self.stroke = Some(Active {
            tool,
            brush,
            spacer: DabSpacer::new(brush.radius()),
            pin: StrokePin::new(point, normal, brush.radius() * STROKE_BAND),
        });
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
