//! The New World window: a preset or a mix of biomes, size, seed and caves, checked as they are
//! typed, with a live top-down preview of the settings before anything is generated.
//!
//! The preview is the engine's [`preview_topdown`]: the generator's height and material rules sampled
//! once per pixel (no voxels built), drawn on a worker thread. A change of settings starts a new
//! preview when the previous one finishes, so typing never queues more than one.

use std::sync::Arc;

use eframe::egui;

use strata_engine::gen::{
    preview_topdown, Biome, BiomeSettings, GeneratorSettings, Preset, WorldSettings,
    MAX_BIOME_SIZE, MIN_BIOME_SIZE,
};
use strata_engine::progress::Progress;
use strata_engine::render::Image;
use strata_engine::voxel::MaterialTable;

use crate::app::action::Action;
use crate::app::jobs::{Inbox, JobKind};
use crate::app::panel::{Panel, Placement, View};
use crate::AppResult;

/// The default world: hills, 256 × 96 × 256, seed 1.
pub fn default_world() -> GeneratorSettings {
    GeneratorSettings {
        preset: Preset::Hills,
        size: [256, 96, 256],
        seed: 1,
    }
}

/// The window's name.
pub const NAME: &str = "New World";

/// Longest side of the preview, in pixels.
const PREVIEW_PIXELS: u32 = 200;

/// What the world is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of the presets (a one-biome world).
    Preset,
    /// A mix of biomes placed by cells.
    Biomes,
}

/// A finished preview.
struct Drawn {
    world: WorldSettings,
    image: Image,
}

/// The preview: the picture shown, the settings it shows, and the one being drawn.
#[derive(Default)]
struct Preview {
    shown: Option<WorldSettings>,
    texture: Option<egui::TextureHandle>,
    /// A drawn picture waiting for upload (uploads need the UI context).
    fresh: Option<Image>,
    /// The settings last sent to a worker (not sent again until they change).
    requested: Option<WorldSettings>,
    running: Option<Arc<Progress>>,
    error: Option<String>,
}

/// The New World window.
pub struct NewWorldWindow {
    /// Preset, size and seed.
    pub settings: GeneratorSettings,
    /// Preset or biome mix.
    pub kind: Kind,
    /// The biome mix (used when `kind` is [`Kind::Biomes`]).
    pub biomes: BiomeSettings,
    /// Carve caves (reset to the preset's choice when the preset changes).
    pub caves: bool,
    preview: Preview,
    /// Where the preview job delivers.
    inbox: Inbox<Drawn>,
}

impl Default for NewWorldWindow {
    fn default() -> Self {
        let settings = default_world();
        Self {
            caves: settings.preset.has_caves(),
            settings,
            kind: Kind::Preset,
            biomes: BiomeSettings::default(),
            preview: Preview::default(),
            inbox: Inbox::default(),
        }
    }
}

impl NewWorldWindow {
    /// The world these settings describe.
    pub fn world(&self) -> WorldSettings {
        let mut world = match self.kind {
            Kind::Preset => WorldSettings::from_preset(&self.settings),
            Kind::Biomes => WorldSettings::with_biomes(
                self.settings.size,
                self.settings.seed,
                self.biomes.clone(),
            ),
        };
        world.biomes.caves = self.caves;
        world
    }

    /// True when the preview shows exactly the current settings.
    pub fn preview_current(&self) -> bool {
        self.preview.texture.is_some() && self.preview.shown.as_ref() == Some(&self.world())
    }

    /// The settings the preview shows, if any.
    pub fn preview_settings(&self) -> Option<&WorldSettings> {
        self.preview.shown.as_ref()
    }

    fn request_preview(&mut self, world: &WorldSettings, out: &mut Vec<Action>) {
        if self.preview.running.is_some() || self.preview.requested.as_ref() == Some(world) {
            return;
        }
        let for_job = world.clone();
        let job = self
            .inbox
            .spawn("Previewing world", JobKind::Background, move |_| {
                let image = preview_topdown(&for_job, &MaterialTable::builtin(), PREVIEW_PIXELS)?;
                Ok(Drawn {
                    world: for_job,
                    image,
                })
            })
            .owned_by(NAME);
        self.preview.running = Some(job.progress());
        self.preview.requested = Some(world.clone());
        out.push(Action::Start(job));
    }

    fn form(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("generator-grid")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Terrain");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.kind, Kind::Preset, "Preset")
                        .on_hover_text("One landscape over the whole world");
                    ui.radio_value(&mut self.kind, Kind::Biomes, "Biome mix")
                        .on_hover_text("Several landscapes in cells with blended borders");
                });
                ui.end_row();
                if self.kind == Kind::Preset {
                    let label_id = ui.label("Preset").id;
                    let before = self.settings.preset;
                    egui::ComboBox::from_id_salt("preset")
                        .selected_text(self.settings.preset.name())
                        .show_ui(ui, |ui| {
                            for p in Preset::ALL {
                                ui.selectable_value(&mut self.settings.preset, p, p.name())
                                    .on_hover_text(p.description());
                            }
                        })
                        .response
                        .labelled_by(label_id);
                    if self.settings.preset != before {
                        self.caves = self.settings.preset.has_caves();
                    }
                    ui.end_row();
                } else {
                    ui.label("Biomes");
                    biome_checkboxes(ui, &mut self.biomes);
                    ui.end_row();
                    let label = ui.label("Biome size");
                    ui.add(
                        egui::DragValue::new(&mut self.biomes.biome_size)
                            .range(MIN_BIOME_SIZE..=MAX_BIOME_SIZE)
                            .suffix(" voxels"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("Typical width of one biome's cell");
                    ui.end_row();
                }
                let form = &mut self.settings;
                let label = ui.label("Size X");
                ui.add(egui::DragValue::new(&mut form.size[0]).range(32..=4096))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Size Y (up)");
                ui.add(egui::DragValue::new(&mut form.size[1]).range(32..=1024))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Size Z");
                ui.add(egui::DragValue::new(&mut form.size[2]).range(32..=4096))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut form.seed))
                    .labelled_by(label.id);
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.caves, "Caves")
                    .on_hover_text("Carve cave tunnels below the surface");
                ui.end_row();
            });
        match self.kind {
            Kind::Preset => ui.weak(self.settings.preset.description()),
            Kind::Biomes => ui.weak(Preset::Custom.description()),
        };
    }

    fn preview_ui(&mut self, ui: &mut egui::Ui, valid: bool) {
        if let Some(image) = self.preview.fresh.take() {
            let pixels = egui::ColorImage::from_rgba_unmultiplied(
                [image.width as usize, image.height as usize],
                &image.rgba,
            );
            self.preview.texture = Some(ui.ctx().load_texture(
                "new-world-preview",
                pixels,
                egui::TextureOptions::LINEAR,
            ));
        }
        let current = self.preview_current();
        ui.horizontal(|ui| {
            ui.label("Preview");
            if self.preview.running.is_some() || (valid && !current) {
                ui.spinner();
                ui.weak("drawing...");
            } else if current {
                ui.weak("north is up");
            }
        });
        if let Some(texture) = &self.preview.texture {
            let size = texture.size_vec2();
            let scale = (PREVIEW_PIXELS as f32 / size.x.max(size.y)).max(1.0);
            let tint = if current {
                egui::Color32::WHITE
            } else {
                egui::Color32::from_gray(140)
            };
            ui.add(
                egui::Image::new((texture.id(), size * scale))
                    .tint(tint)
                    .alt_text("Top-down preview of the world"),
            );
        }
        if let Some(e) = &self.preview.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

impl Panel for NewWorldWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        self.form(ui);
        let world = self.world();
        let valid = world.validate();
        if let Err(e) = &valid {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        } else {
            self.request_preview(&world, out);
        }
        ui.separator();
        self.preview_ui(ui, valid.is_ok());
        ui.separator();
        ui.horizontal(|ui| {
            let generate =
                ui.add_enabled(valid.is_ok() && !view.busy, egui::Button::new("Generate"));
            if generate.clicked() {
                out.push(Action::Generate(world));
                out.push(Action::TogglePanel(NAME));
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::TogglePanel(NAME));
            }
        });
        if self.preview.running.is_some() {
            // Keep drawing until the worker's picture arrives.
            ui.ctx().request_repaint();
        }
    }

    fn on_job(&mut self, result: AppResult<()>, _out: &mut Vec<Action>) {
        self.preview.running = None;
        match result {
            Ok(()) => {
                if let Some(drawn) = self.inbox.take() {
                    self.preview.shown = Some(drawn.world);
                    self.preview.fresh = Some(drawn.image);
                    self.preview.error = None;
                }
            }
            Err(e) => self.preview.error = Some(format!("No preview: {e}")),
        }
    }
}

/// One checkbox per biome, three to a row; the list stays in [`Biome::ALL`] order.
pub fn biome_checkboxes(ui: &mut egui::Ui, biomes: &mut BiomeSettings) {
    ui.vertical(|ui| {
        egui::Grid::new("biome-boxes")
            .num_columns(3)
            .show(ui, |ui| {
                for (i, biome) in Biome::ALL.iter().copied().enumerate() {
                    let mut on = biomes.biomes.contains(&biome);
                    if ui
                        .checkbox(&mut on, biome.name())
                        .on_hover_text(biome.description())
                        .changed()
                    {
                        if on {
                            biomes.biomes.push(biome);
                        } else {
                            biomes.biomes.retain(|b| *b != biome);
                        }
                        biomes.biomes = biomes.normalized();
                    }
                    if i % 3 == 2 {
                        ui.end_row();
                    }
                }
            });
    });
}
