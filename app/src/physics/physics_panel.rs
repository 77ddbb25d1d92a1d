//! The Physics panel: the Drop tool (a click drops spheres, boxes or capsules above the hovered
//! point), Rain over the visible terrain, Play / Pause / Step / Reset / Clear of a scratch simulation
//! drawn as shapes coloured by state, contacts on demand, and Cleanup of floating terrain.
//!
//! ```text
//!   click (Drop tool) ──> DropSpec at the hovered point ──> playground.rs: checked, placed, added, Play
//!   Rain              ──> RainSpec over the view (or the world)
//!   tick              ──> playground.rs: fixed steps owed in real time, within STEP_BUDGET
//!   on_edit           ──> playground.rs: collision refreshed, bodies near the edit woken / lifted;
//!                         cleanup.rs: a listed search result goes out of date
//!   overlays          ──> physics_draw.rs: bodies, contacts, floating pieces
//! ```
//!
//! Every number typed into the panel is checked by the engine's specs before anything is dropped; a
//! bad one (size 0, negative density, 10,000 bodies, a point outside the world) is shown in red and
//! in the status bar, and nothing is dropped.

use eframe::egui;
use strata_engine::physics::body::{DropSpec, RainSpec, ShapeChoice, MAX_DROP_COUNT};
use strata_engine::physics::PhysicsWorld;
use strata_engine::voxel::VoxelBox;

use super::cleanup::Cleanup;
use super::physics_draw;
use super::playground::{Playground, STEP_BUDGET};
use crate::app::action::Action;
use crate::app::keymap::Command;
use crate::app::panel::{Panel, ToolInfo, View};
use crate::document::Document;
use crate::viewport::overlay::Overlay;
use crate::viewport::scene::{CursorDraw, CursorShape};
use crate::viewport::ViewportInput;
use crate::AppResult;

/// The panel's name (also its viewport tool's).
pub const NAME: &str = "Physics";

/// The Physics panel.
/// What the panel asked of the simulation that needs the physics world.
enum Request {
    Drop(DropSpec),
    Rain(RainSpec),
    Step,
}

/// The Physics panel (see the module docs).
pub struct PhysicsPanel {
    /// Shapes the Drop tool drops.
    pub shape: ShapeChoice,
    /// Body size, voxels (a sphere's diameter, a cube's edge, a capsule's width).
    pub size: f32,
    /// Mass per voxel³; water is 1.
    pub density: f32,
    /// Bodies per click.
    pub count: usize,
    /// Radius of the disc the bodies of one click scatter over, voxels.
    pub spread: f32,
    /// Bodies per Rain.
    pub rain_count: usize,
    /// Rain over the whole world instead of the visible terrain.
    pub rain_whole_world: bool,
    /// Draw contact points and normals.
    pub show_contacts: bool,
    seed: u64,
    play: Playground,
    /// Drops, rains and steps asked for since the last frame, carried out with the document's
    /// physics world ([`Panel::with_physics`]).
    requests: Vec<Request>,
    /// Boxes edited since the last frame, whose bodies wake (and lift) in the next one.
    edited: Vec<VoxelBox>,
    cleanup: Cleanup,
    error: Option<String>,
    note: Option<String>,
    repaint: Option<egui::Context>,
}

impl Default for PhysicsPanel {
    fn default() -> Self {
        Self {
            shape: ShapeChoice::Box,
            size: 2.0,
            density: 0.8,
            count: 1,
            spread: 0.0,
            rain_count: 32,
            rain_whole_world: false,
            show_contacts: false,
            seed: 1,
            play: Playground::default(),
            requests: Vec::new(),
            edited: Vec::new(),
            cleanup: Cleanup::default(),
            error: None,
            note: None,
            repaint: None,
        }
    }
}

impl PhysicsPanel {
    /// The simulation and its world.
    pub fn playground(&self) -> &Playground {
        &self.play
    }

    /// The Cleanup section.
    pub fn cleanup(&self) -> &Cleanup {
        &self.cleanup
    }

    /// The last error the panel shows, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The status text: bodies, asleep, in water, lost, steps per second.
    pub fn summary(&self) -> String {
        let s = self.play.status();
        let mut text = format!(
            "{} bodies · {} asleep · {} in water",
            s.bodies, s.asleep, s.in_water
        );
        if s.lost > 0 {
            text.push_str(&format!(" · {} lost", s.lost));
        }
        if self.play.playing {
            text.push_str(&format!(" · {:.0} steps/s", self.play.steps_per_second()));
        } else if s.bodies > 0 {
            text.push_str(" · paused");
        }
        text
    }

    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(1);
        self.seed
    }

    fn report(&mut self, result: Result<usize, String>, what: &str, out: &mut Vec<Action>) {
        match result {
            Ok(n) => {
                self.error = None;
                let bodies = if n == 1 { "body" } else { "bodies" };
                out.push(Action::Message(format!("{what} {n} {bodies}")));
            }
            Err(e) => {
                out.push(Action::Message(format!("Nothing dropped: {e}")));
                self.error = Some(e);
            }
        }
    }

    /// Drop the panel's bodies above `at`.
    fn drop_at(&mut self, at: [f32; 3]) {
        let spec = DropSpec {
            at,
            shape: self.shape,
            size: self.size,
            density: self.density,
            count: self.count,
            spread: self.spread,
            seed: self.next_seed(),
        };
        self.requests.push(Request::Drop(spec));
    }

    fn rain(&mut self, view: &View<'_>, doc: &Document) {
        let b = doc.bounds();
        let world = (
            [b.min.x as f32, b.min.z as f32],
            [b.max.x as f32, b.max.z as f32],
        );
        let (min, max) = match visible_area(view, b) {
            // Looking at the sky or past an edge, the view shows no width of the world.
            Some(area) if !self.rain_whole_world => area,
            _ => world,
        };
        let spec = RainSpec {
            min,
            max,
            count: self.rain_count,
            shape: self.shape,
            seed: self.next_seed(),
            ..RainSpec::default()
        };
        self.requests.push(Request::Rain(spec));
    }

    fn settings_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let s = &mut self.shape;
            ui.selectable_value(s, ShapeChoice::Sphere, "Sphere");
            ui.selectable_value(s, ShapeChoice::Box, "Box");
            ui.selectable_value(s, ShapeChoice::Capsule, "Capsule");
            ui.selectable_value(s, ShapeChoice::Mixed, "Mixed")
                .on_hover_text("Each body picks one of the three");
        });
        egui::Grid::new("drop-settings")
            .num_columns(2)
            .show(ui, |ui| {
                number(
                    ui,
                    "Size",
                    "Voxels: a sphere's diameter, a cube's edge, a capsule's width (0.1 to 32)",
                    egui::DragValue::new(&mut self.size).speed(0.05),
                );
                number(
                    ui,
                    "Density",
                    "Mass per voxel³ (0.05 to 50). Water is 1.0: lighter floats, heavier sinks",
                    egui::DragValue::new(&mut self.density).speed(0.02),
                );
                let hint = format!("Bodies per click (1 to {MAX_DROP_COUNT})");
                number(
                    ui,
                    "Count",
                    &hint,
                    egui::DragValue::new(&mut self.count).speed(0.2),
                );
                number(
                    ui,
                    "Spread",
                    "Radius in voxels of the disc the bodies of one click scatter over",
                    egui::DragValue::new(&mut self.spread).speed(0.1),
                );
            });
        ui.weak("Water is 1.0: lighter bodies float, heavier ones sink");
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui) {
        let has_bodies = self.play.status().bodies > 0;
        ui.horizontal(|ui| {
            if self.play.playing {
                if ui
                    .button("Pause")
                    .on_hover_text("Stop the simulation (P)")
                    .clicked()
                {
                    self.play.pause();
                }
            } else if ui
                .add_enabled(has_bodies, egui::Button::new("Play"))
                .on_hover_text("Run the simulation in real time (P)")
                .clicked()
            {
                self.play.play();
            }
            if ui
                .add_enabled(has_bodies, egui::Button::new("Step"))
                .on_hover_text("Pause and advance one fixed step (1/120 s)")
                .clicked()
            {
                self.requests.push(Request::Step);
            }
            if ui
                .add_enabled(has_bodies, egui::Button::new("Reset"))
                .on_hover_text("Put every body back where it was dropped")
                .clicked()
            {
                self.play.reset();
            }
            if ui
                .add_enabled(has_bodies, egui::Button::new("Clear"))
                .on_hover_text("Remove every body")
                .clicked()
            {
                self.play.clear();
            }
        });
        ui.checkbox(&mut self.show_contacts, "Show Contacts")
            .on_hover_text("Draw contact points (red) and their normals (yellow)");
        ui.label(self.summary());
        if self.play.playing && self.play.steps_per_second() > 0.0 {
            let speed = self.play.speed();
            if speed < 0.95 {
                ui.weak(format!(
                    "Running at {speed:.2}× real time: the steps cost more than {} ms a frame",
                    STEP_BUDGET.as_millis()
                ));
            }
        }
        legend(ui);
    }
}

/// A labelled number field (the label names the field for screen readers and tests).
fn number(ui: &mut egui::Ui, label: &str, hint: &str, field: egui::DragValue<'_>) {
    let id = ui.label(label).on_hover_text(hint).id;
    ui.add(field).labelled_by(id).on_hover_text(hint);
    ui.end_row();
}

fn legend(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        for (color, name) in [
            (physics_draw::MOVING, "moving"),
            (physics_draw::ASLEEP, "asleep"),
            (physics_draw::IN_WATER, "in water"),
        ] {
            let [r, g, b, _] = color;
            ui.colored_label(egui::Color32::from_rgb(r, g, b), name);
        }
    });
}

/// The XZ area around the point the camera looks at, as wide as the view there, within `bounds`
/// (`None` when less than a voxel of it is inside).
fn visible_area(view: &View<'_>, bounds: VoxelBox) -> Option<([f32; 2], [f32; 2])> {
    let cam = &view.camera;
    let t = cam.target();
    let half = (cam.focus_distance * (cam.fov_y / 2.0).tan()).clamp(8.0, 4096.0);
    let clamp_x = |x: f32| x.clamp(bounds.min.x as f32, bounds.max.x as f32);
    let clamp_z = |z: f32| z.clamp(bounds.min.z as f32, bounds.max.z as f32);
    let (min, max) = (
        [clamp_x(t.x - half), clamp_z(t.z - half)],
        [clamp_x(t.x + half), clamp_z(t.z + half)],
    );
    (max[0] - min[0] >= 1.0 && max[1] - min[1] >= 1.0).then_some((min, max))
}

impl Panel for PhysicsPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        self.repaint = Some(ui.ctx().clone());
        let Some(doc) = view.doc else {
            ui.weak("Open a world to drop bodies on it");
            return;
        };
        let active = view.active_tool == NAME;
        if ui
            .selectable_label(active, "Drop Tool")
            .on_hover_text("Click the terrain to drop bodies above the point (B)")
            .clicked()
        {
            out.push(Action::ActivateTool(NAME));
        }
        self.settings_ui(ui);
        ui.horizontal(|ui| {
            let label = format!("Rain {}", self.rain_count);
            let rain = ui.button(label).on_hover_text(
                "Drop this many random bodies (sizes 0.8 to 2, densities 0.4 to 2.5)",
            );
            let id = ui.label("bodies").id;
            ui.add(egui::DragValue::new(&mut self.rain_count).speed(0.5))
                .labelled_by(id)
                .on_hover_text(format!("Bodies per Rain (1 to {MAX_DROP_COUNT})"));
            if rain.clicked() {
                self.rain(view, doc);
            }
        });
        ui.checkbox(&mut self.rain_whole_world, "Rain Over Whole World")
            .on_hover_text("Unticked: over the terrain in view");
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        self.controls_ui(ui);
        if let Some(n) = &self.note {
            ui.weak(n);
        }
        ui.separator();
        ui.label("Cleanup");
        self.cleanup.ui(ui, doc, view.busy, NAME, out);
    }

    fn tick(&mut self, _view: &View<'_>, _out: &mut Vec<Action>) {
        if self.play.playing {
            if let Some(ctx) = &self.repaint {
                ctx.request_repaint();
            }
        }
    }

    fn with_physics(&mut self, world: &mut PhysicsWorld, doc: &Document, out: &mut Vec<Action>) {
        for changed in std::mem::take(&mut self.edited) {
            if let Err(e) = self.play.on_edit(world, doc, changed) {
                self.error = Some(e);
            }
        }
        for request in std::mem::take(&mut self.requests) {
            match request {
                Request::Drop(spec) => {
                    let r = self.play.drop_at(world, doc, &spec);
                    self.report(r, "Dropped", out);
                }
                Request::Rain(spec) => {
                    let r = self.play.rain(world, doc, &spec);
                    self.report(r, "Rained", out);
                }
                Request::Step => {
                    if let Err(e) = self.play.step(world, doc) {
                        self.error = Some(e);
                    }
                }
            }
        }
        if let Err(e) = self.play.frame(world, doc) {
            self.error = Some(e);
        }
        if self.show_contacts {
            if let Err(e) = self.play.refresh_contacts(world, doc) {
                self.error = Some(e);
            }
        }
    }

    fn on_edit(&mut self, _doc: &Document, changed: VoxelBox) {
        self.edited.push(changed);
        self.cleanup.on_edit();
    }

    fn on_document(&mut self, _doc: Option<&Document>) {
        self.play.reset_all();
        self.requests.clear();
        self.edited.clear();
        self.cleanup.reset();
        self.error = None;
        self.note = None;
    }

    fn on_job(&mut self, result: AppResult<()>, _out: &mut Vec<Action>) {
        self.cleanup.on_job(result);
    }

    fn on_command(&mut self, command: Command, _view: &View<'_>, out: &mut Vec<Action>) -> bool {
        match command {
            Command::DropTool => {
                out.push(Action::ActivateTool(NAME));
                out.push(Action::Message("Drop tool: click the terrain".into()));
                true
            }
            Command::PlayPause => {
                if self.play.playing {
                    self.play.pause();
                } else if self.play.status().bodies > 0 {
                    self.play.play();
                }
                true
            }
            _ => false,
        }
    }

    fn overlays(&self, view: &View<'_>, out: &mut Vec<Overlay>) {
        if let Some(sim) = self.play.sim() {
            physics_draw::bodies(sim, out);
        }
        if self.show_contacts {
            physics_draw::contacts(self.play.contacts(), out);
        }
        if view.doc.is_some() {
            physics_draw::pieces(self.cleanup.pieces(), out);
        }
    }

    fn status(&self, _view: &View<'_>) -> Option<String> {
        Some(self.summary())
    }

    fn status_always(&self, view: &View<'_>) -> Option<String> {
        // With the Drop tool active, `status` already shows it.
        (view.active_tool != NAME && self.play.status().bodies > 0).then(|| self.summary())
    }

    fn tool(&self) -> Option<ToolInfo> {
        Some(ToolInfo {
            name: "Drop",
            hint: "Drop test bodies on the terrain",
        })
    }

    fn viewport(
        &mut self,
        input: &ViewportInput,
        view: &View<'_>,
        _out: &mut Vec<Action>,
    ) -> Option<CursorDraw> {
        view.doc?;
        let hit = input.hover?;
        if input.primary_pressed {
            self.drop_at(hit.point);
        }
        Some(CursorDraw {
            shape: match self.shape {
                ShapeChoice::Box => CursorShape::Cube,
                ShapeChoice::Capsule => CursorShape::Cylinder,
                ShapeChoice::Sphere | ShapeChoice::Mixed => CursorShape::Sphere,
            },
            center: hit.point,
            radius: (self.spread + self.size / 2.0).clamp(0.25, 64.0),
            color: [235, 140, 40, 160],
        })
    }
}
