//! The Region tool: select a box of voxels and copy, cut, paste, delete, duplicate, rotate, mirror
//! or fill it, each edit one undo step; save the selection as a stamp, export and import it.
//!
//! ```text
//!   drag on terrain ─> box (snapped; Height above / Depth below the dragged corners) ─> Select
//!   drag a face handle ─> that face moves along its axis (Shift: the whole box) ────────> Select
//!   typed Min / Max ─────────────────────────────────────────────────────────────────> Select
//!   Ctrl+C copies into the clipboard (a Region); Ctrl+V floats it under the cursor as a ghost of
//!   its surface (meshed in the background) until a click places it; R / M turn or mirror the
//!   floating paste, or the selected voxels in place when nothing floats; Move floats the selection
//!   and the click that places it also empties where it was (one undo step)
//! ```
//!
//! The selection lives in the document (`Document::selection`), so other panels read it too. Edits
//! go out as `Action::Region` (a `RegionOp`), which `Document::region_edit` runs as one undo step
//! with its exact changed boxes. Reads of the world (copy, turn in place) run on the UI thread: a
//! region copy reads packed chunk rows and takes milliseconds for selections of millions of
//! voxels. Meshing the ghost and file work run as background jobs.

use std::path::Path;
use std::sync::Arc;

use eframe::egui;
use strata_engine::region::Region;
use strata_engine::voxel::{VoxelBox, VoxelPos};

use super::region_commands::{box_size, size_text};
use super::region_controls;
use super::region_state::*;
use super::region_work;
use super::selection_handles;
use crate::app::action::Action;
use crate::app::keymap::Command;
use crate::app::panel::{Panel, ToolInfo, View};
use crate::document::Document;
use crate::region::region_files::{self, SelectionFormat};
use crate::viewport::overlay::{Overlay, SolidKind};
use crate::viewport::scene::CursorDraw;
use crate::viewport::ViewportInput;
use crate::AppResult;

impl RegionPanel {
    /// Float `region` under the cursor as a brush (a stamp): each click places a copy.
    pub fn float(&mut self, region: Arc<Region>, name: &str) {
        self.start_floating(region, name, None, true);
    }

    /// True while a paste follows the cursor.
    pub fn floating(&self) -> bool {
        self.floating.is_some()
    }

    /// The size of the floating paste, if any.
    pub fn floating_size(&self) -> Option<[u32; 3]> {
        self.floating.as_ref().map(|f| f.region.size())
    }

    /// True when the floating paste's ghost mesh is ready.
    pub fn ghost_ready(&self) -> bool {
        self.floating.as_ref().is_some_and(|f| f.ghost.is_some())
    }

    /// The selection handle under the pointer: its axis (0 = X, 1 = Y, 2 = Z) and whether it is on
    /// the maximum face.
    pub fn hovered_handle(&self) -> Option<(usize, bool)> {
        self.hovered_handle.map(|h| (h.axis, h.max_side))
    }

    /// The copied region, if any.
    pub fn clipboard(&self) -> Option<&Region> {
        self.clip.as_ref().map(|c| c.region.as_ref())
    }

    /// Where the floating paste would land now, if it floats over terrain.
    pub fn paste_target(&self) -> Option<VoxelBox> {
        self.floating.as_ref().and_then(|f| f.target)
    }

    /// The size of the copied region, if any.
    pub fn clipboard_size(&self) -> Option<[u32; 3]> {
        self.clip.as_ref().map(|c| c.region.size())
    }

    pub(super) fn start_floating(
        &mut self,
        region: Arc<Region>,
        name: &str,
        source: Option<VoxelBox>,
        brush: bool,
    ) {
        self.generation += 1;
        self.floating = Some(Floating {
            region,
            name: name.to_owned(),
            source,
            brush,
            moving: None,
            generation: self.generation,
            asked: false,
            ghost: None,
            target: None,
        });
    }

    /// Place the floating paste at its target.
    pub(super) fn place(&mut self, out: &mut Vec<Action>) {
        let Some(f) = self.floating.as_ref() else {
            return;
        };
        let Some(target) = f.target else {
            return;
        };
        out.push(Action::Region {
            name: if f.brush {
                format!("Stamp {}", f.name)
            } else if f.moving.is_some() {
                "Move".into()
            } else {
                "Paste".into()
            },
            op: crate::region::region_op::RegionOp::Place {
                clear: f.moving,
                region: f.region.clone(),
                at: target.min,
                mode: self.mode,
            },
            select: Some(target),
        });
        if !f.brush {
            self.floating = None;
        }
    }

    /// Handles of the selection: hover, press, drag (a face, or the box with Shift), release
    /// selects the new box. True when the input was a handle's.
    pub(super) fn handle_input(
        &mut self,
        input: &ViewportInput,
        view: &View<'_>,
        out: &mut Vec<Action>,
    ) -> bool {
        let Some(doc) = view.doc else { return false };
        if let Some(drag) = self.handle_drag {
            if let Some(ray) = input.ray {
                self.dragged = Some(drag.dragged(&ray, self.snap, doc.bounds()));
            }
            if !input.primary_down && !input.primary_pressed {
                if let Some(b) = self.dragged.take() {
                    out.push(Action::Select(Some(b)));
                }
                self.handle_drag = None;
            }
            return true;
        }
        let (Some(sel), Some(ray)) = (doc.selection(), input.ray) else {
            self.hovered_handle = None;
            return false;
        };
        self.hovered_handle = selection_handles::pick(sel, &ray);
        if input.primary_pressed {
            if let Some(h) = self.hovered_handle {
                self.handle_drag =
                    selection_handles::HandleDrag::start(sel, h, &ray, view.modifiers.shift);
                return self.handle_drag.is_some();
            }
        }
        false
    }

    /// The voxel a hit lies in (just inside the surface).
    pub(super) fn voxel_at(&self, point: [f32; 3], normal: [f32; 3]) -> VoxelPos {
        let p = |k: usize| (point[k] - 0.5 * normal[k]).floor() as i32;
        VoxelPos::new(p(0), p(1), p(2))
    }

    /// The box dragged from corner `a` to corner `b`, grown by the height and depth and snapped.
    pub(super) fn drag_box(&self, a: VoxelPos, b: VoxelPos) -> VoxelBox {
        let s = self.snap.max(1);
        let down = |v: i32| v.div_euclid(s) * s;
        let up = |v: i32| -(-v).div_euclid(s) * s;
        let min = VoxelPos::new(
            down(a.x.min(b.x)),
            down(a.y.min(b.y) - self.depth.max(0)),
            down(a.z.min(b.z)),
        );
        let max = VoxelPos::new(
            up(a.x.max(b.x) + 1),
            up(a.y.max(b.y) + 1 + self.height.max(0)),
            up(a.z.max(b.z) + 1),
        );
        VoxelBox::new(min, max)
    }

    pub(super) fn start_waiting(&mut self, doc: &Document, out: &mut Vec<Action>) {
        for w in std::mem::take(&mut self.waiting) {
            match w {
                Waiting::Write(path) => match self.copy(doc) {
                    Ok(region) => out.push(Action::Start(region_work::write_job(
                        &self.inbox,
                        path,
                        region,
                        doc.materials().clone(),
                    ))),
                    Err(e) => out.push(Action::Error(e)),
                },
                Waiting::Read(path, size) => out.push(Action::Start(region_work::read_job(
                    &self.inbox,
                    path,
                    size,
                    doc.materials().clone(),
                ))),
            }
        }
    }

    pub(super) fn import(&mut self, path: &Path, out: &mut Vec<Action>) {
        let format = SelectionFormat::from_path(path);
        if format.is_some_and(SelectionFormat::needs_size) {
            match region_files::read_sidecar(path) {
                Ok(Some(size)) => self.waiting.push(Waiting::Read(path.into(), Some(size))),
                Ok(None) => {
                    self.size_prompt = Some((path.into(), [32, 32, 32]));
                    out.push(Action::ShowPanel(NAME));
                }
                Err(e) => out.push(Action::Error(e.to_string())),
            }
        } else {
            self.waiting.push(Waiting::Read(path.into(), None));
        }
    }
}

impl Panel for RegionPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        if let Some(text) = self.clipboard_text.take() {
            ui.ctx().copy_text(text);
        }
        region_controls::show(self, ui, view, out);
    }

    fn tick(&mut self, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            return;
        };
        if doc.selection() != self.shown {
            self.shown = doc.selection();
            if let Some(b) = self.shown {
                self.fields = [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z];
            }
        }
        if !self.waiting.is_empty() && !view.busy {
            self.start_waiting(doc, out);
        }
        if let Some(f) = self.floating.as_mut() {
            if !f.asked {
                out.push(Action::Start(region_work::ghost_job(
                    &self.inbox,
                    f.region.clone(),
                    doc.materials().clone(),
                    f.generation,
                )));
                f.asked = true;
            }
        }
    }

    fn on_document(&mut self, _doc: Option<&Document>) {
        self.floating = None;
        self.drag_from = None;
        self.dragged = None;
        self.shown = None;
    }

    fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        if result.is_err() {
            return;
        }
        let Some(done) = self.inbox.take() else {
            return;
        };
        match done {
            Done::Ghost { generation, mesh } => {
                if let Some(f) = self
                    .floating
                    .as_mut()
                    .filter(|f| f.generation == generation)
                {
                    f.ghost = Some(mesh);
                }
            }
            Done::Wrote(message) => {
                self.note = Some(message.clone());
                out.push(Action::Message(message));
            }
            Done::Read {
                region,
                name,
                table,
            } => {
                let region = Arc::new(region);
                let message = format!("Imported {} ({})", name, size_text(region.size()));
                self.clip = Some(Clip {
                    region: region.clone(),
                    source: None,
                    name: name.clone(),
                    table,
                });
                self.start_floating(region, &name, None, false);
                out.push(Action::ActivateTool(NAME));
                out.push(Action::Message(format!("{message}: click to place it")));
            }
        }
    }

    fn on_path(&mut self, tag: u32, path: &Path, out: &mut Vec<Action>) {
        let mut path = path.to_path_buf();
        match tag {
            TAG_STAMP | TAG_EXPORT => {
                if SelectionFormat::from_path(&path).is_none() {
                    path.set_extension("strata");
                }
                self.waiting.push(Waiting::Write(path));
            }
            TAG_IMPORT => self.import(&path, out),
            _ => {}
        }
    }

    fn on_command(&mut self, command: Command, view: &View<'_>, out: &mut Vec<Action>) -> bool {
        let Some(doc) = view.doc else {
            return false;
        };
        match command {
            Command::RegionCopy => self.copy_action(doc, out),
            Command::RegionCut => self.cut(doc, out),
            Command::RegionPaste => self.paste(doc, out),
            Command::RegionDelete => self.delete(doc, "Delete", out),
            Command::RegionDuplicate => self.duplicate(doc, out),
            Command::RegionRotate => self.transform(doc, false, out),
            Command::RegionMirror => self.transform(doc, true, out),
            Command::RegionCancel => {
                if self.floating.take().is_none() {
                    out.push(Action::Select(None));
                }
            }
            _ => return false,
        }
        true
    }

    fn tool(&self) -> Option<ToolInfo> {
        Some(ToolInfo {
            name: NAME,
            hint: "Select a box of voxels: copy, paste, move, rotate, fill",
        })
    }

    fn viewport(
        &mut self,
        input: &ViewportInput,
        view: &View<'_>,
        out: &mut Vec<Action>,
    ) -> Option<CursorDraw> {
        if self.floating.is_none() && self.handle_input(input, view, out) {
            return None;
        }
        if self.floating.is_some() {
            if let Some(hit) = input.hover {
                let target = self.floating.as_ref().map(|f| {
                    let source = f.source;
                    self.paste_box(&f.region, source, hit.point)
                });
                if let Some(f) = self.floating.as_mut() {
                    f.target = target;
                }
            }
            if input.primary_pressed {
                self.place(out);
            }
            return None;
        }
        let corner = input.hover.map(|h| self.voxel_at(h.point, h.normal));
        if input.primary_pressed {
            self.drag_from = corner;
        }
        if let (Some(a), Some(b)) = (self.drag_from, corner) {
            if input.primary_down || input.primary_pressed {
                self.dragged = Some(self.drag_box(a, b));
            }
        }
        if input.primary_released || (!input.primary_down && !input.primary_pressed) {
            if let Some(b) = self.dragged.take() {
                out.push(Action::Select(Some(b)));
            }
            self.drag_from = None;
        }
        None
    }

    fn overlays(&self, view: &View<'_>, out: &mut Vec<Overlay>) {
        let wire = |b: VoxelBox, color| Overlay::WireBox {
            min: b.min.to_array().map(|v| v as f32),
            max: b.max.to_array().map(|v| v as f32),
            color,
        };
        let shown = self
            .dragged
            .or_else(|| view.doc.and_then(Document::selection));
        if let Some(b) = self.dragged {
            out.push(wire(b, DRAG_COLOR));
        } else if let Some(b) = shown {
            out.push(wire(b, SELECTION_COLOR));
        }
        if view.active_tool != NAME {
            return;
        }
        if let (Some(b), None) = (shown, &self.floating) {
            let half = selection_handles::handle_half_size(b);
            for h in selection_handles::HANDLES {
                let active = self.handle_drag.map(|d| d.handle) == Some(h)
                    || (self.handle_drag.is_none() && self.hovered_handle == Some(h));
                out.push(Overlay::Solid {
                    kind: SolidKind::Box,
                    center: selection_handles::handle_center(b, h),
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    half_extents: [half; 3],
                    color: if active { HANDLE_ACTIVE } else { HANDLE_COLOR },
                });
            }
        }
        let Some(f) = &self.floating else {
            return;
        };
        let Some(target) = f.target else {
            return;
        };
        out.push(wire(target, PASTE_COLOR));
        if let Some(mesh) = f.ghost.as_ref().filter(|m| !m.indices.is_empty()) {
            out.push(Overlay::Ghost {
                mesh: mesh.clone(),
                offset: target.min.to_array().map(|v| v as f32),
                color: GHOST_COLOR,
            });
        }
    }

    fn status(&self, view: &View<'_>) -> Option<String> {
        if let Some(f) = &self.floating {
            let at = f.target.map_or_else(String::new, |t| {
                format!(" at {}, {}, {}", t.min.x, t.min.y, t.min.z)
            });
            return Some(format!(
                "Paste {}{at} · click places · R rotates · M mirrors · Esc cancels",
                size_text(f.region.size())
            ));
        }
        let b = self
            .dragged
            .or_else(|| view.doc.and_then(Document::selection));
        Some(match b {
            Some(b) => format!(
                "Selection {} = {} voxels",
                size_text(box_size(b)),
                b.volume()
            ),
            None => "Drag a box on the terrain to select".into(),
        })
    }
}
