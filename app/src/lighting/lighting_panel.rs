//! The Lighting panel: the snowflake bake's settings (sun direction on a small sky disc or as
//! azimuth and elevation, sun and sky colours, particles, steps, step length, bias, seed), the
//! quality preset, bounce, filter and emission (`bake_options`), the project's point and spot
//! lights (`lights_list`), Bake with progress and Cancel, a Live toggle that re-bakes the stale
//! light after each stroke or light change, and which light the viewport shows.
//!
//! ```text
//!   Bake ──job: SolidVolume::from_grid (first time), LightScene::new ─> light::bake_scene ─> Baked
//!        ──> InstallLight
//!   edit ──on_edit: volume.patch(box), scene.patch(box) (the document marks the light stale itself)
//!   Live ──tick, no stroke, light stale ──job: light::rebake_scene(stale request) ─> PatchLight
//! ```
//!
//! Jobs work on a shared snapshot of the solidity (`Arc<SolidVolume>`; the panel's copy is patched
//! copy-on-write while they run), so painting never waits. Edits made while a job ran stay stale:
//! the result is installed with the difference between the job's volume and the current one marked.

use std::sync::Arc;

use eframe::egui;

use strata_engine::light::{
    self, BakeStats, LightMap, LightPatch, LightScene, LightSettings, PlacedLight, SolidVolume,
};
use strata_engine::progress::Progress;
use strata_engine::voxel::MaterialTable;
use strata_engine::voxel::VoxelBox;

use crate::app::action::Action;
use crate::app::jobs::{Inbox, JobKind};
use crate::app::panel::{Panel, ToolInfo, View};
use crate::document::Document;
use crate::viewport::exposure::Exposure;
use crate::viewport::overlay::Overlay;
use crate::viewport::scene::CursorDraw;
use crate::viewport::{LightView, ViewportInput};
use crate::AppResult;

use super::sky_widgets::{angles, colour, direction, sky_disc};

/// The panel's name.
pub const NAME: &str = "Lighting";

/// What a bake job hands back.
struct Baked {
    light: LightMap,
    stats: BakeStats,
    volume: Arc<SolidVolume>,
    scene: Arc<LightScene>,
}

/// What a Live re-bake hands back.
struct Rebaked {
    patch: LightPatch,
    stats: BakeStats,
    volume: Arc<SolidVolume>,
}

/// What a job that only builds the solidity hands back (Live on a world baked earlier).
struct Built {
    volume: Arc<SolidVolume>,
    scene: Arc<LightScene>,
}

/// What a job of this panel hands back.
enum Done {
    Baked(Baked),
    Rebaked(Rebaked),
    Built(Built),
}

/// A job of this panel in flight.
struct Running {
    progress: Arc<Progress>,
    live: bool,
}

/// The Lighting panel.
pub struct LightingPanel {
    /// The settings the next bake uses.
    pub settings: LightSettings,
    /// Re-bake the stale light after each stroke.
    pub live: bool,
    /// Which light the viewport shows.
    pub view: LightView,
    /// The viewport's exposure and tone curve.
    pub exposure: Exposure,
    /// The current solidity, once a bake built it; patched after every edit.
    volume: Option<Arc<SolidVolume>>,
    /// What the bake lights with (lights, glowing materials), built with the volume; patched after
    /// every edit, its lights refreshed before each re-bake.
    scene: Option<Arc<LightScene>>,
    /// The material table the scene was built with (another table rebuilds it).
    scene_table: Option<MaterialTable>,
    /// The light list being edited.
    pub lights: super::lights_list::LightsDraft,
    /// Edits made while the first bake built the volume (patched in when it arrives).
    pending: Vec<VoxelBox>,
    running: Option<Running>,
    /// A finished job's result, installed on the next frame (when the document can be read).
    finished: Option<Done>,
    /// Where this panel's jobs deliver.
    inbox: Inbox<Done>,
    /// The last bake or re-bake, for the panel.
    report: Option<String>,
    error: Option<String>,
}

impl Default for LightingPanel {
    fn default() -> Self {
        Self {
            settings: LightSettings::default(),
            live: false,
            view: LightView::Both,
            exposure: Exposure::default(),
            volume: None,
            scene: None,
            scene_table: None,
            lights: super::lights_list::LightsDraft::default(),
            pending: Vec::new(),
            running: None,
            finished: None,
            inbox: Inbox::default(),
            report: None,
            error: None,
        }
    }
}

impl LightingPanel {
    /// True while a bake or a Live re-bake runs.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// The last error the panel shows, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    fn start_bake(&mut self, doc: &Document, out: &mut Vec<Action>) {
        if let Err(e) = self.settings.validate() {
            self.error = Some(e.to_string());
            return;
        }
        self.error = None;
        let settings = self.settings;
        let volume = self.volume.clone();
        let (grid, table) = (doc.grid().clone(), doc.materials().clone());
        let lights = doc.lights().to_vec();
        self.scene_table = Some(table.clone());
        let job = self
            .inbox
            .spawn("Baking light", JobKind::Background, move |progress| {
                let volume = match volume {
                    Some(v) => v,
                    None => Arc::new(SolidVolume::from_grid(&grid, &table)?),
                };
                let scene = Arc::new(LightScene::new(&grid, &table, &volume, &lights, &settings));
                let (light, stats) = light::bake_scene(&volume, &scene, &settings, progress)?;
                Ok(Done::Baked(Baked {
                    light,
                    stats,
                    volume,
                    scene,
                }))
            })
            .owned_by(NAME);
        self.running = Some(Running {
            progress: job.progress(),
            live: false,
        });
        out.push(Action::Start(job));
    }

    fn start_volume(&mut self, doc: &Document, settings: LightSettings, out: &mut Vec<Action>) {
        let (grid, table) = (doc.grid().clone(), doc.materials().clone());
        let lights = doc.lights().to_vec();
        self.scene_table = Some(table.clone());
        let job = self
            .inbox
            .spawn("Reading solidity", JobKind::Background, move |_| {
                let volume = Arc::new(SolidVolume::from_grid(&grid, &table)?);
                let scene = Arc::new(LightScene::new(&grid, &table, &volume, &lights, &settings));
                Ok(Done::Built(Built { volume, scene }))
            })
            .owned_by(NAME);
        self.running = Some(Running {
            progress: job.progress(),
            live: true,
        });
        out.push(Action::Start(job));
    }

    fn start_rebake(&mut self, light: &LightMap, lights: &[PlacedLight], out: &mut Vec<Action>) {
        let (Some(volume), Some(scene)) = (self.volume.clone(), self.scene.as_mut()) else {
            return;
        };
        if scene.lights() != lights {
            Arc::make_mut(scene).set_lights(lights);
        }
        let scene = scene.clone();
        let request = light.stale_request();
        let job = self
            .inbox
            .spawn("Live light", JobKind::Background, move |progress| {
                let (patch, stats) = light::rebake_scene(&volume, &scene, &request, progress)?;
                Ok(Done::Rebaked(Rebaked {
                    patch,
                    stats,
                    volume,
                }))
            })
            .owned_by(NAME);
        self.running = Some(Running {
            progress: job.progress(),
            live: true,
        });
        out.push(Action::Start(job));
    }

    /// Install what a job finished, now that the document can be read.
    fn install(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let Some(result) = self.finished.take() else {
            return;
        };
        match result {
            Done::Baked(Baked {
                mut light,
                stats,
                volume,
                scene,
            }) => {
                let current = self.current_volume(doc, &volume, &scene);
                light.mark_stale_between(&volume, &current);
                self.report = Some(format!(
                    "Baked {} surface voxels in {:.1} s ({:.0} M steps/s)",
                    stats.surface_voxels,
                    stats.seconds,
                    stats.steps_per_second() / 1e6
                ));
                out.push(Action::InstallLight(Box::new(light)));
            }
            Done::Built(built) => {
                let _ = self.current_volume(doc, &built.volume, &built.scene);
            }
            Done::Rebaked(Rebaked {
                patch,
                stats,
                volume,
            }) => {
                let current = self.volume.clone().unwrap_or(volume.clone());
                self.report = Some(format!(
                    "Live: {} voxels re-baked in {:.0} ms",
                    stats.surface_voxels,
                    stats.seconds * 1000.0
                ));
                out.push(Action::PatchLight {
                    patch,
                    baked_on: volume,
                    current,
                });
            }
        }
    }

    /// The panel's volume and scene, first built from a job's result plus the edits made since.
    fn current_volume(
        &mut self,
        doc: &Document,
        from_job: &Arc<SolidVolume>,
        scene: &Arc<LightScene>,
    ) -> Arc<SolidVolume> {
        let volume = self.volume.get_or_insert_with(|| from_job.clone());
        let scene = self.scene.get_or_insert_with(|| scene.clone());
        for b in self.pending.drain(..) {
            if let Err(e) = Arc::make_mut(volume).patch(doc.grid(), doc.materials(), b) {
                self.error = Some(e.to_string());
            }
            Arc::make_mut(scene).patch(doc.grid(), doc.materials(), volume, b);
        }
        volume.clone()
    }

    fn settings_ui(&mut self, ui: &mut egui::Ui) {
        let s = &mut self.settings;
        ui.horizontal(|ui| {
            sky_disc(ui, &mut s.sun_dir);
            ui.vertical(|ui| {
                let (mut azimuth, mut elevation) = angles(s.sun_dir);
                let a = ui
                    .add(
                        egui::Slider::new(&mut azimuth, 0.0..=360.0)
                            .text("Azimuth")
                            .suffix("°"),
                    )
                    .on_hover_text("Compass direction of the sun: 0° is +Z, 90° is +X");
                let e = ui
                    .add(
                        egui::Slider::new(&mut elevation, 1.0..=90.0)
                            .text("Elevation")
                            .suffix("°"),
                    )
                    .on_hover_text(
                        "Height of the sun above the horizon: low suns cast long shadows",
                    );
                if a.changed() || e.changed() {
                    s.sun_dir = direction(azimuth, elevation);
                }
            });
        });
        colour(
            ui,
            "Sun",
            "Colour and strength of the light sun particles bring",
            &mut s.sun_color,
        );
        colour(
            ui,
            "Sky",
            "Colour and strength of the light sky particles bring",
            &mut s.sky_color,
        );
        egui::Grid::new("light-grid").num_columns(2).show(ui, |ui| {
            let l = ui.label("Particles").on_hover_text(
                "Sun and sky particles per surface voxel: more is smoother and slower",
            );
            ui.add(egui::DragValue::new(&mut s.particles).range(1..=65536))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Steps").on_hover_text(
                "Steps a particle must survive: more gives longer shadows and darker caves",
            );
            ui.add(egui::DragValue::new(&mut s.steps).range(1..=1023))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui
                .label("Step length")
                .on_hover_text("Length of one step, voxels");
            ui.add(
                egui::DragValue::new(&mut s.step_length)
                    .range(0.1..=16.0)
                    .speed(0.05),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Sun bias").on_hover_text(
                "How straight sun particles walk toward the sun: high values give hard shadows",
            );
            ui.add(
                egui::DragValue::new(&mut s.sun_bias)
                    .range(0.0..=64.0)
                    .speed(0.05),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut s.seed)).labelled_by(l.id);
            ui.end_row();
        });
        if ui.small_button("Defaults").clicked() {
            *s = LightSettings::default();
        }
    }
}

impl Panel for LightingPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn on_document(&mut self, doc: Option<&Document>) {
        if let Some(running) = &self.running {
            running.progress.cancel();
        }
        let settings = doc.and_then(Document::light).map(|l| *l.settings());
        *self = Self {
            settings: settings.unwrap_or_default(),
            live: self.live,
            view: self.view,
            exposure: self.exposure,
            ..Self::default()
        };
    }

    fn tool(&self) -> Option<ToolInfo> {
        Some(ToolInfo {
            name: "Lights",
            hint:
                "Click a light's icon to select it; drag to move it across, Shift-drag up and down",
        })
    }

    fn viewport(
        &mut self,
        input: &ViewportInput,
        view: &View<'_>,
        out: &mut Vec<Action>,
    ) -> Option<CursorDraw> {
        if let Some(doc) = view.doc {
            let keys = super::lights_list::DragKeys {
                vertical: view.modifiers.shift,
                onto_terrain: view.modifiers.command,
                eye: view.camera.position.into(),
            };
            self.lights.drag_input(input, doc, keys, out);
        }
        None
    }

    fn overlays(&self, view: &View<'_>, out: &mut Vec<Overlay>) {
        if let Some(doc) = view.doc {
            let shown = self.lights.shown(doc);
            super::light_icons::light_icons(shown, self.lights.selected, out);
            let selected = self.lights.selected.and_then(|i| shown.get(i));
            if let (Some(l), true) = (selected, view.active_tool == NAME) {
                let eye = view.camera.position.into();
                super::light_gizmo::Gizmo::seen_from(l.position, eye).draw(out);
            }
        }
    }

    fn on_edit(&mut self, doc: &Document, changed: VoxelBox) {
        match self.volume.as_mut() {
            Some(volume) => {
                if let Err(e) = Arc::make_mut(volume).patch(doc.grid(), doc.materials(), changed) {
                    self.error = Some(e.to_string());
                    self.volume = None;
                    self.scene = None;
                } else if let Some(scene) = self.scene.as_mut() {
                    Arc::make_mut(scene).patch(doc.grid(), doc.materials(), volume, changed);
                }
            }
            None if self.running.is_some() => self.pending.push(changed),
            None => {}
        }
    }

    fn on_job(&mut self, result: AppResult<()>, _out: &mut Vec<Action>) {
        let live = self.running.take().is_some_and(|r| r.live);
        match result {
            Ok(()) => self.finished = self.inbox.take(),
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.report = Some(if live {
                    "Live update cancelled".into()
                } else {
                    "Bake cancelled: the previous light is kept".into()
                });
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn tick(&mut self, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            return;
        };
        self.install(doc, out);
        let Some(light) = doc.light() else {
            return;
        };
        let due = self.live
            && self.running.is_none()
            && !doc.stroking()
            && !light.is_fresh()
            && light.settings() == &self.settings;
        if due {
            if self.scene_table.as_ref() != Some(doc.materials()) {
                // Another material table (a colour or an emission changed): read the scene again.
                self.volume = None;
                self.scene = None;
            }
            if self.volume.is_some() && self.scene.is_some() {
                self.start_rebake(light, doc.lights(), out);
            } else {
                self.start_volume(doc, *light.settings(), out);
            }
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("Open a world to bake its light");
            return;
        };
        self.settings_ui(ui);
        super::bake_options::bake_options_ui(ui, &mut self.settings);
        ui.separator();
        if ui
            .selectable_label(view.active_tool == NAME, "Lights Tool")
            .on_hover_text(
                "Click a light's icon in the viewport to select it; drag to move it across, \
                 Shift-drag up and down, Ctrl-drag over the terrain, or drag an arrow of its \
                 gizmo to move it along that axis; Ctrl+click on the terrain places a point light",
            )
            .clicked()
        {
            out.push(Action::ActivateTool(NAME));
        }
        self.lights.ui(ui, doc, out);
        ui.separator();
        ui.horizontal(|ui| {
            let baking = self.running.as_ref().is_some_and(|r| !r.live);
            if baking {
                if ui.button("Cancel").on_hover_text("Stop; the previous light is kept").clicked() {
                    if let Some(r) = &self.running {
                        r.progress.cancel();
                    }
                }
            } else {
                let enabled = self.running.is_none();
                if ui
                    .add_enabled(enabled, egui::Button::new("Bake"))
                    .on_hover_text("Bake the whole world's light in the background")
                    .clicked()
                {
                    self.start_bake(doc, out);
                }
            }
            ui.checkbox(&mut self.live, "Live").on_hover_text(
                "After each stroke, re-bake the light the edit made stale, without blocking painting",
            );
            if doc.light().is_some()
                && ui
                    .small_button("Remove")
                    .on_hover_text("Delete the baked light from the document")
                    .clicked()
            {
                out.push(Action::RemoveLight);
            }
        });
        if let Some(running) = &self.running {
            ui.add(egui::ProgressBar::new(running.progress.fraction()).show_percentage());
        }
        ui.horizontal(|ui| {
            ui.label("Show");
            let before = self.view;
            ui.selectable_value(&mut self.view, LightView::Baked, "Baked")
                .on_hover_text("Only the baked light");
            ui.selectable_value(&mut self.view, LightView::Realtime, "Sun")
                .on_hover_text("Only the real-time sun");
            ui.selectable_value(&mut self.view, LightView::Both, "Both")
                .on_hover_text("The baked light under the real-time sun");
            if self.view != before {
                out.push(Action::LightView(self.view));
            }
        });
        if super::exposure_widgets::exposure_ui(ui, &mut self.exposure) {
            out.push(Action::Exposure(self.exposure));
        }
        match doc.light() {
            None => {
                ui.weak("Not baked yet");
            }
            Some(light) => {
                let stale = light.stale_boxes().count() + light.relit_boxes().count();
                ui.weak(format!(
                    "{} lit surface voxels{}",
                    light.len(),
                    if stale > 0 {
                        format!(" · {stale} edits or light changes stale (shown grey)")
                    } else {
                        String::new()
                    }
                ));
                if light.settings() != &self.settings {
                    ui.weak("Settings differ from the bake: Bake to apply them");
                }
            }
        }
        if let Some(r) = &self.report {
            ui.weak(r);
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}
