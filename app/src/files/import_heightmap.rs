//! File ▸ Import Heightmap: choose the heightmap PNG and an optional colour map, see the image's size,
//! set the world's height, horizontal size and terrace smoothing, then import (a background job that opens the new
//! world unsaved).

use std::path::{Path, PathBuf};

use eframe::egui;

use strata_engine::gen::{MAX_HORIZONTAL_SIZE, MAX_SMOOTHING_RADIUS};

use crate::app::action::Action;
use crate::app::panel::{panel_path, Panel, Placement, View};
use crate::files::file_jobs::PathSpec;
use crate::files::heightmap::{HeightmapImport, DEFAULT_HEIGHT};

/// The window's name.
pub const NAME: &str = "Import Heightmap";

const MAP: u32 = 0;
const COLORS: u32 = 1;

/// The Import Heightmap window.
pub struct ImportHeightmapWindow {
    map: Option<PathBuf>,
    colormap: Option<PathBuf>,
    /// Pixel size of the chosen heightmap, or why it cannot be read.
    image: Option<Result<[u32; 2], String>>,
    height: u32,
    size: [u32; 2],
    /// One voxel per pixel.
    native_size: bool,
    /// Terrace smoothing radius in pixels (0: off).
    smooth_radius: u32,
}

impl Default for ImportHeightmapWindow {
    fn default() -> Self {
        Self {
            map: None,
            colormap: None,
            image: None,
            height: DEFAULT_HEIGHT,
            size: [256, 256],
            native_size: true,
            smooth_radius: 0,
        }
    }
}

fn png_spec(title: &str) -> PathSpec {
    PathSpec {
        title: title.to_owned(),
        filters: vec![("PNG image".to_owned(), vec!["png".to_owned()])],
        ..Default::default()
    }
}

/// The pixel size of the PNG at `path`, read from its header only.
fn png_size(path: &Path) -> Result<[u32; 2], String> {
    let reader = image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| format!("{}: not a readable PNG image: {e}", path.display()))?;
    Ok([w, h])
}

fn file_label(path: Option<&Path>, none: &str) -> String {
    path.and_then(Path::file_name)
        .map_or_else(|| none.to_owned(), |n| n.to_string_lossy().into_owned())
}

impl ImportHeightmapWindow {
    /// The import these settings describe, when a heightmap is chosen and readable.
    pub fn import(&self) -> Option<HeightmapImport> {
        let map = self.map.clone()?;
        matches!(self.image, Some(Ok(_))).then(|| HeightmapImport {
            map,
            colormap: self.colormap.clone(),
            size: (!self.native_size).then_some(self.size),
            height: Some(self.height),
            smooth_radius: self.smooth_radius,
        })
    }
}

impl Panel for ImportHeightmapWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn on_path(&mut self, tag: u32, path: &Path, _out: &mut Vec<Action>) {
        match tag {
            MAP => {
                let size = png_size(path);
                if let Ok(s) = size {
                    self.size = s;
                }
                self.image = Some(size);
                self.map = Some(path.to_path_buf());
            }
            _ => self.colormap = Some(path.to_path_buf()),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        egui::Grid::new("heightmap-grid")
            .num_columns(3)
            .show(ui, |ui| {
                ui.label("Heightmap");
                ui.label(file_label(self.map.as_deref(), "none"));
                if ui.button("Choose…").clicked() {
                    let spec = png_spec("Heightmap (grayscale PNG)");
                    out.push(Action::AskPath(panel_path(NAME, MAP, spec)));
                }
                ui.end_row();
                ui.label("Colour map");
                ui.label(file_label(
                    self.colormap.as_deref(),
                    "none (layered materials)",
                ));
                ui.horizontal(|ui| {
                    if ui.button("Choose…").clicked() {
                        let spec = png_spec("Colour map (PNG of the same size)");
                        out.push(Action::AskPath(panel_path(NAME, COLORS, spec)));
                    }
                    if self.colormap.is_some() && ui.button("Clear").clicked() {
                        self.colormap = None;
                    }
                });
                ui.end_row();
                ui.label("Height");
                ui.add(
                    egui::DragValue::new(&mut self.height)
                        .range(1..=4096)
                        .suffix(" voxels"),
                )
                .on_hover_text("World height of the whitest sample");
                ui.end_row();
                ui.label("Size X, Z");
                ui.add_enabled_ui(!self.native_size, |ui| {
                    ui.horizontal(|ui| {
                        let max = MAX_HORIZONTAL_SIZE;
                        ui.add(egui::DragValue::new(&mut self.size[0]).range(1..=max));
                        ui.add(egui::DragValue::new(&mut self.size[1]).range(1..=max));
                    });
                });
                ui.checkbox(&mut self.native_size, "One voxel per pixel");
                ui.end_row();
                let label = ui.label("Smoothing");
                ui.add(
                    egui::DragValue::new(&mut self.smooth_radius)
                        .range(0..=MAX_SMOOTHING_RADIUS)
                        .suffix(" px"),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "Smooth away the stair steps of 8-bit heightmaps over this many pixels \
                     (0: off; 16-bit maps rarely need it)",
                );
                ui.end_row();
            });
        match &self.image {
            Some(Ok([w, h])) => {
                ui.weak(format!("The image is {w} × {h} pixels."));
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            None => {
                ui.weak("Choose a grayscale PNG (8 or 16 bit).");
            }
        }
        ui.horizontal(|ui| {
            let import = self.import();
            let button = egui::Button::new("Import");
            if ui
                .add_enabled(import.is_some() && !view.busy, button)
                .clicked()
            {
                if let Some(import) = import {
                    out.push(Action::ImportHeightmap(import));
                    out.push(Action::TogglePanel(NAME));
                }
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::TogglePanel(NAME));
            }
        });
    }
}
