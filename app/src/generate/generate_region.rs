//! The Generate Terrain panel: fill a box of the open world (the Region tool's selection, a typed box,
//! or all of it) with a biome mix, as one undo step.
//!
//! The terrain is computed on a worker thread with the document's own material table and the
//! document's size, so a box gets exactly what a whole world of those settings holds there and
//! neighbouring boxes join seamlessly. The result is installed through the document's box edit,
//! which records the undo step and tells every consumer; a cancelled or failed job changes nothing.

use std::sync::Arc;

use eframe::egui;

use strata_engine::gen::{
    generate_region, BiomeSettings, RegionFill, WorldSettings, MAX_BIOME_SIZE, MIN_BIOME_SIZE,
};
use strata_engine::progress::Progress;
use strata_engine::voxel::{VoxelBox, VoxelPos};

use super::new_world::biome_checkboxes;
use crate::app::action::{Action, BoxEdit};
use crate::app::jobs::{Inbox, JobKind};
use crate::app::panel::{Panel, View};
use crate::document::Document;
use crate::AppResult;

/// The panel's name.
pub const NAME: &str = "Generate Terrain";

/// The Generate Terrain panel.
pub struct GenerateRegionPanel {
    /// The biome mix, biome size and caves.
    pub biomes: BiomeSettings,
    /// The generator's seed.
    pub seed: u32,
    /// The box to fill: minimum corner (inclusive) and maximum corner (exclusive), in voxels.
    pub region: [[i32; 3]; 2],
    /// The bounds of the document the box was last set for.
    world: Option<VoxelBox>,
    running: Option<Arc<Progress>>,
    /// What the last run said (an error, or what it changed).
    message: Option<Result<String, String>>,
    /// Where the generation job delivers.
    inbox: Inbox<Filled>,
}

impl Default for GenerateRegionPanel {
    fn default() -> Self {
        Self {
            biomes: BiomeSettings::default(),
            seed: 1,
            region: [[0; 3]; 2],
            world: None,
            running: None,
            message: None,
            inbox: Inbox::default(),
        }
    }
}

/// The fill a job produced.
struct Filled(RegionFill);

impl GenerateRegionPanel {
    /// The box to fill.
    pub fn region_box(&self) -> VoxelBox {
        let [a, b] = self.region;
        VoxelBox::new(
            VoxelPos::new(a[0], a[1], a[2]),
            VoxelPos::new(b[0], b[1], b[2]),
        )
    }

    /// The generator settings for a world the size of `bounds` (the generator's world starts at the
    /// origin, so it reaches the document's maximum corner).
    fn world_settings(&self, bounds: VoxelBox) -> WorldSettings {
        let size = [bounds.max.x, bounds.max.y, bounds.max.z].map(|v| v.max(0) as u32);
        WorldSettings::with_biomes(size, self.seed, self.biomes.clone())
    }

    /// Why the settings cannot run on `doc`, if they cannot.
    fn problem(&self, doc: &Document) -> Option<String> {
        let bounds = doc.bounds();
        let region = self.region_box();
        if region.is_empty() {
            return Some("The box is empty: each maximum must exceed its minimum.".into());
        }
        if region.intersect(&bounds) != region {
            return Some(format!(
                "The box must lie inside the world ({}).",
                show_box(bounds)
            ));
        }
        if region.min.x < 0 || region.min.y < 0 || region.min.z < 0 {
            return Some("The generator covers non-negative coordinates only.".into());
        }
        self.world_settings(bounds)
            .validate()
            .err()
            .map(|e| e.to_string())
    }

    fn start(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let world = self.world_settings(doc.bounds());
        let region = self.region_box();
        let materials = doc.materials().clone();
        let job = self
            .inbox
            .spawn("Generating terrain", JobKind::Background, move |progress| {
                Ok(Filled(generate_region(
                    &world, region, &materials, progress,
                )?))
            })
            .owned_by(NAME);
        self.running = Some(job.progress());
        self.message = None;
        out.push(Action::Start(job));
    }
}

fn show_box(b: VoxelBox) -> String {
    format!(
        "{},{},{} to {},{},{}",
        b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z
    )
}

impl Panel for GenerateRegionPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn open_by_default(&self) -> bool {
        false
    }

    fn on_document(&mut self, doc: Option<&Document>) {
        let Some(doc) = doc else { return };
        let bounds = doc.bounds();
        if self.world != Some(bounds) {
            self.world = Some(bounds);
            self.region = [
                [bounds.min.x, bounds.min.y, bounds.min.z],
                [bounds.max.x, bounds.max.y, bounds.max.z],
            ];
        }
        if let Some(world) = doc.header().world() {
            self.seed = world.seed;
            self.biomes = world.biomes;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("Open or create a world to generate terrain into it");
            return;
        };
        ui.label("Biomes");
        biome_checkboxes(ui, &mut self.biomes);
        egui::Grid::new("generate-region-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Biome size");
                ui.add(
                    egui::DragValue::new(&mut self.biomes.biome_size)
                        .range(MIN_BIOME_SIZE..=MAX_BIOME_SIZE)
                        .suffix(" voxels"),
                )
                .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.biomes.caves, "Caves");
                ui.end_row();
                for (corner, name) in [(0, "Box min"), (1, "Box max")] {
                    let label = ui.label(name);
                    ui.horizontal(|ui| {
                        for (axis, a) in ["X", "Y", "Z"].iter().enumerate() {
                            ui.add(egui::DragValue::new(&mut self.region[corner][axis]).prefix(*a))
                                .labelled_by(label.id);
                        }
                    });
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            if ui
                .button("Whole world")
                .on_hover_text("Set the box to the world's bounds")
                .clicked()
            {
                let b = doc.bounds();
                self.region = [[b.min.x, b.min.y, b.min.z], [b.max.x, b.max.y, b.max.z]];
            }
            let selection = doc.selection();
            if ui
                .add_enabled(selection.is_some(), egui::Button::new("Use selection"))
                .on_hover_text("Set the box to the Region tool's selection")
                .clicked()
            {
                if let Some(b) = selection {
                    self.region = [[b.min.x, b.min.y, b.min.z], [b.max.x, b.max.y, b.max.z]];
                }
            }
            let [sx, sy, sz] = self.region_box().size();
            ui.weak(format!("{sx} × {sy} × {sz} voxels"));
        });
        let problem = self.problem(doc);
        if let Some(p) = &problem {
            ui.colored_label(ui.visuals().error_fg_color, p);
        }
        ui.horizontal(|ui| {
            if let Some(progress) = &self.running {
                ui.add(egui::ProgressBar::new(progress.fraction()).show_percentage());
                if ui.button("Cancel").clicked() {
                    progress.cancel();
                }
            } else if ui
                .add_enabled(
                    problem.is_none() && !view.busy,
                    egui::Button::new("Generate into box"),
                )
                .on_hover_text("Replace the box with generated terrain (one undo step)")
                .clicked()
            {
                self.start(doc, out);
            }
        });
        match &self.message {
            Some(Ok(m)) => {
                ui.weak(m);
            }
            Some(Err(m)) => {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
            None => {}
        }
    }

    fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        self.running = None;
        match result {
            Ok(()) => {
                let Some(filled) = self.inbox.take() else {
                    return;
                };
                let fill = filled.0;
                let region = fill.region();
                let boxes: Vec<VoxelBox> = region
                    .chunks()
                    .map(|pos| pos.voxel_box().intersect(&region))
                    .collect();
                self.message = Some(Ok(format!("Generated {}", show_box(region))));
                out.push(Action::Edit(BoxEdit {
                    name: "Generate terrain".into(),
                    boxes,
                    write: Box::new(move |grid| fill.write_into(grid)),
                }));
            }
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.message = Some(Ok("Cancelled; nothing changed".into()));
            }
            Err(e) => self.message = Some(Err(e.to_string())),
        }
    }
}
