//! The project's point and spot lights in the Lighting panel: a list with Add and Remove, and each
//! light's position, colour, intensity, range (and a spot's direction and angle) to edit.
//!
//! ```text
//!   doc.lights() ──copied when not being edited──> draft ──widgets──> draft
//!   drag released / field left / colour picked / Add / Remove ──> Action::ChangeLights (one undo step)
//! ```
//!
//! A drag edits the draft only, so one drag is one undo step; the document (and so the baked light's
//! staleness) changes when the drag ends.

use eframe::egui;
use strata_engine::light::placed::{MAX_INTENSITY, MAX_LIGHTS, MAX_LIGHT_COLOR, MAX_RANGE};
use strata_engine::light::{PlacedLight, Spot};

use crate::app::action::Action;
use crate::document::Document;
use crate::viewport::pointer_samples::{PointerKind, PointerSample};
use crate::viewport::ViewportInput;

use super::light_drag::{above_surface, pick, LightDrag};
use super::light_gizmo::Gizmo;

/// The keys held while the Lights tool is used in the viewport.
#[derive(Debug, Clone, Copy, Default)]
pub struct DragKeys {
    /// Shift: a light's icon drags up and down.
    pub vertical: bool,
    /// Ctrl: a light's icon drags over the terrain, and a press on the terrain places a point light.
    pub onto_terrain: bool,
    /// Where the camera is (the gizmo's arrows grow with distance).
    pub eye: [f32; 3],
}

/// The list as being edited.
#[derive(Debug, Default)]
pub struct LightsDraft {
    /// The lights shown (the document's, or the edit in progress).
    pub lights: Vec<PlacedLight>,
    /// A widget changed the draft and it is not committed yet.
    dirty: bool,
    /// The light last added, edited or picked in the viewport (drawn highlighted there).
    pub selected: Option<usize>,
    /// A light being dragged in the viewport.
    drag: Option<LightDrag>,
}

/// A new light near the middle of the world, a quarter of its height from the top.
fn new_light(doc: &Document, spot: bool) -> PlacedLight {
    let b = doc.bounds();
    let mid = |lo: i32, hi: i32| (lo as f32 + hi as f32) / 2.0;
    PlacedLight {
        position: [
            mid(b.min.x, b.max.x),
            b.min.y as f32 + (b.max.y - b.min.y) as f32 * 0.75,
            mid(b.min.z, b.max.z),
        ],
        spot: spot.then_some(Spot {
            direction: [0.0, -1.0, 0.0],
            angle_degrees: 60.0,
        }),
        ..PlacedLight::default()
    }
}

/// True when an edit through `r` is finished (a drag released, a typed field left).
fn done(r: &egui::Response) -> bool {
    r.drag_stopped() || r.lost_focus()
}

impl LightsDraft {
    /// The lights as they show now: the edit in progress, or the document's.
    pub fn shown<'a>(&'a self, doc: &'a Document) -> &'a [PlacedLight] {
        if self.dirty {
            &self.lights
        } else {
            doc.lights()
        }
    }

    /// The Lights tool in the viewport (see `light_drag`): pick, drag by the gizmo or the icon
    /// (Shift: up and down; Ctrl: over the terrain), Ctrl+click on terrain to place a point light;
    /// one [`Action::ChangeLights`] when the drag ends.
    pub fn drag_input(
        &mut self,
        input: &ViewportInput,
        doc: &Document,
        keys: DragKeys,
        out: &mut Vec<Action>,
    ) {
        if let (Some(press), None) = (input.press(), self.drag) {
            if !self.dirty {
                self.lights = doc.lights().to_vec();
            }
            self.drag = self.press(press, keys);
        }
        let Some(drag) = self.drag else {
            return;
        };
        let sample = input.samples.last();
        let ray = sample.map(|s| s.ray).or(input.ray);
        let hit = sample
            .map_or(input.hover, |s| s.hit)
            .filter(|h| !h.water)
            .map(|h| (h.point, h.normal));
        let b = doc.bounds();
        let (lo, hi) = (b.min.to_array(), b.max.to_array());
        if let Some(p) = ray.and_then(|r| drag.position(&r, hit)) {
            if let Some(l) = self.lights.get_mut(drag.index) {
                // Inside the world, where a light must be.
                l.position = [0, 1, 2].map(|a| p[a].clamp(lo[a] as f32, hi[a] as f32 - 0.01));
                self.dirty = true;
            }
        }
        let released = input.samples.iter().any(|s| s.kind == PointerKind::Release);
        if released || !input.primary_down {
            self.drag = None;
            self.dirty = false;
            let moved = self
                .lights
                .get(drag.index)
                .is_some_and(|l| l.position != drag.start);
            if drag.placed || moved {
                let name = if drag.placed {
                    "Place point light".to_owned()
                } else {
                    format!("Move light {}", drag.index)
                };
                out.push(Action::ChangeLights {
                    name,
                    lights: self.lights.clone(),
                });
            }
        }
    }

    /// What a press starts: a gizmo arrow of the selected light, a light's icon, or (Ctrl) a new
    /// point light on the terrain under the pointer.
    fn press(&mut self, press: &PointerSample, keys: DragKeys) -> Option<LightDrag> {
        let ray = &press.ray;
        let arrow = self.selected.and_then(|i| {
            let p = self.lights.get(i)?.position;
            let axis = Gizmo::seen_from(p, keys.eye).pick(ray)?;
            LightDrag::along_axis(i, p, axis, ray)
        });
        if arrow.is_some() {
            return arrow;
        }
        if let Some(i) = pick(&self.lights, ray) {
            self.selected = Some(i);
            let p = self.lights[i].position;
            return Some(if keys.onto_terrain {
                LightDrag::over_terrain(i, p, false)
            } else {
                LightDrag::start(i, p, ray, keys.vertical)
            });
        }
        let hit = press.hit.filter(|h| keys.onto_terrain && !h.water);
        let Some(hit) = hit else {
            self.selected = None;
            return None;
        };
        if self.lights.len() >= MAX_LIGHTS {
            return None;
        }
        let position = above_surface(hit.point, hit.normal);
        self.lights.push(PlacedLight {
            position,
            ..PlacedLight::default()
        });
        let i = self.lights.len() - 1;
        self.selected = Some(i);
        self.dirty = true;
        Some(LightDrag::over_terrain(i, position, true))
    }

    /// The list, its widgets, and the action that commits an edit.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
        if !self.dirty {
            self.lights = doc.lights().to_vec();
        }
        let mut commit: Option<String> = None;
        ui.horizontal(|ui| {
            ui.strong("Lights");
            if ui
                .button("Add point light")
                .on_hover_text("A light shining all around, in the middle of the world")
                .clicked()
            {
                self.lights.push(new_light(doc, false));
                commit = Some("Add point light".into());
            }
            if ui
                .button("Add spot light")
                .on_hover_text("A cone of light pointing down, in the middle of the world")
                .clicked()
            {
                self.lights.push(new_light(doc, true));
                commit = Some("Add spot light".into());
            }
        });
        if self.lights.is_empty() {
            ui.weak("No point or spot lights");
        }
        let mut remove = None;
        for (i, l) in self.lights.iter_mut().enumerate() {
            let kind = if l.spot.is_some() { "spot" } else { "point" };
            egui::CollapsingHeader::new(format!("Light {i}: {kind}"))
                .id_salt(("light", i))
                .default_open(true)
                .show(ui, |ui| {
                    let (changed, finished) = light_ui(ui, i, l);
                    self.dirty |= changed;
                    if changed {
                        self.selected = Some(i);
                    }
                    if finished {
                        commit = Some(format!("Edit light {i}"));
                    }
                    if ui.small_button(format!("Remove light {i}")).clicked() {
                        remove = Some(i);
                    }
                });
        }
        if let Some(i) = remove {
            self.lights.remove(i);
            commit = Some("Remove light".into());
        }
        if commit.as_deref().is_some_and(|c| c.starts_with("Add")) {
            self.selected = self.lights.len().checked_sub(1);
        }
        self.selected = self.selected.filter(|&i| i < self.lights.len());
        if let Some(name) = commit {
            self.dirty = false;
            out.push(Action::ChangeLights {
                name,
                lights: self.lights.clone(),
            });
        }
    }
}

/// The widgets of light `i`: (something changed, an edit finished).
fn light_ui(ui: &mut egui::Ui, i: usize, l: &mut PlacedLight) -> (bool, bool) {
    let (mut changed, mut finished) = (false, false);
    // A colour pick finishes its edit at once; drags and typed fields when released or left.
    let mut track = |r: egui::Response, at_once: bool| {
        changed |= r.changed();
        finished |= done(&r) || (at_once && r.changed());
    };
    egui::Grid::new(("light-fields", i))
        .num_columns(2)
        .show(ui, |ui| {
            for (a, name) in ["X", "Y", "Z"].into_iter().enumerate() {
                let label = ui.label(format!("Light {i} {name}"));
                track(
                    ui.add(egui::DragValue::new(&mut l.position[a]).speed(0.25))
                        .labelled_by(label.id),
                    false,
                );
                ui.end_row();
            }
            let label = ui
                .label(format!("Light {i} intensity"))
                .on_hover_text("What a surface facing the light one voxel away receives");
            track(
                ui.add(
                    egui::DragValue::new(&mut l.intensity)
                        .range(0.0..=MAX_INTENSITY)
                        .speed(0.5),
                )
                .labelled_by(label.id),
                false,
            );
            ui.end_row();
            let label = ui
                .label(format!("Light {i} range"))
                .on_hover_text("Distance in voxels at which its light reaches zero");
            track(
                ui.add(
                    egui::DragValue::new(&mut l.range)
                        .range(0.5..=MAX_RANGE)
                        .speed(0.25),
                )
                .labelled_by(label.id),
                false,
            );
            ui.end_row();
            ui.label(format!("Light {i} colour"));
            let mut c = l.color.map(|v| v.min(1.0));
            let r = egui::color_picker::color_edit_button_rgb(ui, &mut c);
            if r.changed() {
                let scale = l.color.iter().copied().fold(1.0f32, f32::max);
                l.color = c.map(|v| (v * scale).min(MAX_LIGHT_COLOR));
            }
            track(r, true);
            ui.end_row();
            if let Some(spot) = l.spot.as_mut() {
                let label = ui
                    .label(format!("Light {i} angle"))
                    .on_hover_text("The cone's full opening angle, degrees");
                track(
                    ui.add(
                        egui::DragValue::new(&mut spot.angle_degrees)
                            .range(1.0..=179.0)
                            .suffix("°"),
                    )
                    .labelled_by(label.id),
                    false,
                );
                ui.end_row();
            }
        });
    (changed, finished)
}
