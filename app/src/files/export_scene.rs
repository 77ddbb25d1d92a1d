//! File ▸ Export Scene (glTF): the scene export's options (tile size, levels of detail, collision,
//! baked light, compression) with the defaults `strata export --format scene` uses, then a file
//! prompt and the same engine export as a background job with progress and Cancel.

use std::path::{Path, PathBuf};

use eframe::egui;

use strata_engine::mesh::{
    scene_bytes, SceneCompression, SceneContainer, SceneOptions, DEFAULT_SCENE_LODS,
    DEFAULT_TILE_VOXELS, MAX_SCENE_LODS,
};

use crate::app::action::Action;
use crate::app::job_output::JobOutput;
use crate::app::jobs::{Job, JobKind};
use crate::app::panel::{panel_path, Panel, Placement, View};
use crate::document::Document;
use crate::files::file_jobs::PathSpec;
use crate::AppError;

/// The window's name.
pub const NAME: &str = "Export Scene";

const OUT: u32 = 0;

/// What the window sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneChoices {
    /// Tile side in voxels.
    pub tile: u32,
    /// Levels of detail.
    pub lods: u32,
    /// Collision nodes.
    pub collision: bool,
    /// Baked light as `COLOR_0` (when the project has a bake).
    pub light: bool,
    /// meshopt compression.
    pub meshopt: bool,
}

impl Default for SceneChoices {
    fn default() -> Self {
        Self {
            tile: DEFAULT_TILE_VOXELS,
            lods: DEFAULT_SCENE_LODS,
            collision: true,
            light: true,
            meshopt: false,
        }
    }
}

/// The Export Scene window.
#[derive(Debug, Default)]
pub struct ExportSceneWindow {
    choices: SceneChoices,
    /// The file chosen, waiting for the next frame (which sees the document) to start the job.
    pending: Option<PathBuf>,
}

/// The job that exports `doc` as a scene to `path` with `choices`.
pub fn export_scene_job(doc: &Document, choices: SceneChoices, path: PathBuf) -> Job {
    let grid = doc.grid().clone();
    let table = doc.materials().clone();
    let textures = doc.project().textures.clone();
    let light = doc.light().filter(|_| choices.light).cloned();
    let world = doc.bounds();
    Job::spawn("Exporting scene", JobKind::Modal, move |progress| {
        let mut options = SceneOptions::new(world);
        options.tile_voxels = choices.tile;
        options.lods = choices.lods;
        options.collision = choices.collision;
        options.light = light.as_ref();
        options.textures = Some(&textures);
        options.container = SceneContainer::from_path(&path);
        if choices.meshopt {
            options.compression = SceneCompression::Meshopt;
        }
        options
            .check()
            .map_err(|e| AppError::Usage(e.to_string()))?;
        let (bytes, stats) = scene_bytes(&grid, &table, &options, progress)?;
        progress.check()?;
        strata_engine::format::write_atomic(&path, &bytes)?;
        Ok(JobOutput::Wrote {
            message: format!(
                "Exported {} tiles ({} triangles at full detail) to {}",
                stats.tiles,
                stats.lod_triangles.first().copied().unwrap_or(0),
                path.display()
            ),
        })
    })
}

fn suggested(doc: Option<&Document>) -> String {
    let stem = doc
        .and_then(Document::path)
        .and_then(Path::file_stem)
        .map_or_else(|| "scene".to_owned(), |s| s.to_string_lossy().into_owned());
    format!("{stem}.glb")
}

impl ExportSceneWindow {
    /// The options as set.
    pub fn choices(&self) -> SceneChoices {
        self.choices
    }
}

impl Panel for ExportSceneWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn on_path(&mut self, tag: u32, path: &Path, _out: &mut Vec<Action>) {
        if tag == OUT {
            self.pending = Some(path.to_path_buf());
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        if let (Some(path), Some(doc)) = (self.pending.take(), view.doc) {
            out.push(Action::Start(export_scene_job(doc, self.choices, path)));
            out.push(Action::TogglePanel(NAME));
            return;
        }
        let widest = view.doc.map_or(4096, |d| {
            let [x, _, z] = d.bounds().size();
            u32::try_from(x.max(z)).unwrap_or(u32::MAX).max(1)
        });
        let has_light = view.doc.is_some_and(|d| d.light().is_some());
        let c = &mut self.choices;
        c.tile = c.tile.clamp(1, widest);
        egui::Grid::new("export-scene-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Tile size");
                ui.add(
                    egui::DragValue::new(&mut c.tile)
                        .range(1..=widest)
                        .suffix(" voxels"),
                )
                .labelled_by(label.id)
                .on_hover_text("Each tile_X_Z node covers this many voxels along X and Z");
                ui.end_row();
                let label = ui.label("Levels of detail");
                ui.add(egui::DragValue::new(&mut c.lods).range(1..=MAX_SCENE_LODS))
                    .labelled_by(label.id)
                    .on_hover_text("tile_X_Z_LOD0 (full detail) and coarser levels");
                ui.end_row();
            });
        ui.checkbox(&mut c.collision, "Collision mesh (tile_X_Z-col)");
        ui.add_enabled_ui(has_light, |ui| {
            ui.checkbox(&mut c.light, "Baked light as vertex colour")
                .on_disabled_hover_text("The project has no baked light: bake it first");
        });
        ui.checkbox(&mut c.meshopt, "Compress (meshopt)")
            .on_hover_text("Smaller files; the reader must support EXT_meshopt_compression");
        ui.horizontal(|ui| {
            let enabled = view.doc.is_some() && !view.busy;
            if ui
                .add_enabled(enabled, egui::Button::new("Export…"))
                .clicked()
            {
                let spec = PathSpec {
                    title: "Export Scene".into(),
                    filters: vec![
                        ("glTF binary".into(), vec!["glb".into()]),
                        ("glTF text".into(), vec!["gltf".into()]),
                    ],
                    save: true,
                    suggested: Some(suggested(view.doc)),
                    ..Default::default()
                };
                out.push(Action::AskPath(panel_path(NAME, OUT, spec)));
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::TogglePanel(NAME));
            }
        });
    }
}
