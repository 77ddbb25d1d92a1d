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
use strata_engine::light::placed::{MAX_INTENSITY, MAX_LIGHT_COLOR, MAX_RANGE};
use strata_engine::light::{PlacedLight, Spot};

use crate::app::action::Action;
use crate::document::Document;
use crate::viewport::pointer_samples::PointerKind;
use crate::viewport::ViewportInput;

use super::light_drag::{pick, LightDrag};

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

    /// The Lights tool's viewport input: a press on an icon selects that light and starts a drag
    /// (`vertical`: up and down instead of across), the release commits the move as one undo step.
    pub fn drag_input(
        &mut self,
        input: &ViewportInput,
        doc: &Document,
        vertical: bool,
        out: &mut Vec<Action>,
    ) {
        if let (Some(press), None) = (input.press(), self.drag) {
            if !self.dirty {
                self.lights = doc.lights().to_vec();
            }
            self.selected = pick(&self.lights, &press.ray);
            self.drag = self
                .selected
                .map(|i| LightDrag::start(i, self.lights[i].position, &press.ray, vertical));
        }
        let Some(drag) = self.drag else {
            return;
        };
        let ray = input.samples.last().map(|s| s.ray).or(input.ray);
        let b = doc.bounds();
        let (lo, hi) = (b.min.to_array(), b.max.to_array());
        if let Some(p) = ray.and_then(|r| drag.position(&r)) {
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
            if moved {
                out.push(Action::ChangeLights {
                    name: format!("Move light {}", drag.index),
                    lights: self.lights.clone(),
                });
            }
        }
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
