//! File ▸ Import Heightmap: choose the heightmap PNG and an optional colour map, see the image's size,
//! bit depth and a small preview (north up, white highest), set the world's height, horizontal size and terrace smoothing, then import (a background job that opens the new
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
    /// What the chosen heightmap's header says, or why it cannot be read.
    image: Option<Result<ImageInfo, String>>,
    /// A small grey picture of the chosen heightmap, until it is uploaded.
    preview: Option<egui::ColorImage>,
    /// The uploaded preview.
    texture: Option<egui::TextureHandle>,
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
            preview: None,
            texture: None,
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

/// Longest side of the preview picture, pixels.
const PREVIEW_SIDE: u32 = 160;
/// Heightmaps with more pixels than this are not decoded for a preview (it would stall the window).
const PREVIEW_MAX_PIXELS: u64 = 4096 * 4096;

/// What a heightmap's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageInfo {
    /// Width and height, pixels.
    pub size: [u32; 2],
    /// Bits per sample (8 or 16): 16-bit maps give smooth slopes, 8-bit ones 256 height steps.
    pub bits: u16,
    /// A colour image (read by luminance).
    pub color: bool,
}

impl ImageInfo {
    /// The line the dialog shows, e.g. `16-bit grayscale (65,536 height levels)`.
    pub fn depth_text(&self) -> String {
        let kind = if self.color {
            "colour, read by luminance"
        } else {
            "grayscale"
        };
        let levels = 1u64 << self.bits.min(16);
        format!("{}-bit {kind} ({} height levels)", self.bits, group(levels))
    }
}

fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The size and sample depth of the PNG at `path`, read from its header only.
fn png_info(path: &Path) -> Result<ImageInfo, String> {
    use image::ImageDecoder;
    let decoder = image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .map_err(|e| format!("{}: {e}", path.display()))?
        .into_decoder()
        .map_err(|e| format!("{}: not a readable PNG image: {e}", path.display()))?;
    let (w, h) = decoder.dimensions();
    let kind = decoder.original_color_type();
    let channels = u16::from(kind.channel_count().max(1));
    Ok(ImageInfo {
        size: [w, h],
        bits: kind.bits_per_pixel() / channels,
        color: channels >= 3,
    })
}

/// A grey picture of the heightmap at most [`PREVIEW_SIDE`] pixels a side, or `None` when it is
/// too large or cannot be decoded (the import itself reports why).
fn preview_of(path: &Path, info: &ImageInfo) -> Option<egui::ColorImage> {
    if u64::from(info.size[0]) * u64::from(info.size[1]) > PREVIEW_MAX_PIXELS {
        return None;
    }
    let decoded = image::ImageReader::open(path)
        .ok()?
        .with_guessed_format()
        .ok()?
        .decode()
        .ok()?;
    let small = decoded.thumbnail(PREVIEW_SIDE, PREVIEW_SIDE).into_luma8();
    let size = [small.width() as usize, small.height() as usize];
    Some(egui::ColorImage::from_gray(size, small.as_raw()))
}

fn file_label(path: Option<&Path>, none: &str) -> String {
    path.and_then(Path::file_name)
        .map_or_else(|| none.to_owned(), |n| n.to_string_lossy().into_owned())
}

impl ImportHeightmapWindow {
    /// The chosen heightmap's header, when it is readable.
    pub fn info(&self) -> Option<ImageInfo> {
        self.image.as_ref().and_then(|i| i.as_ref().ok()).copied()
    }

    fn preview_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(picture) = self.preview.take() {
            let options = egui::TextureOptions::LINEAR;
            self.texture = Some(ui.ctx().load_texture("heightmap-preview", picture, options));
        }
        match &self.texture {
            Some(texture) => {
                // Small maps are drawn larger, so every preview is PREVIEW_SIDE on its long side.
                let size = texture.size_vec2();
                let scale = PREVIEW_SIDE as f32 / size.x.max(size.y).max(1.0);
                ui.add(
                    egui::Image::new(texture)
                        .fit_to_exact_size(size * scale)
                        .alt_text("Heightmap preview"),
                )
                .on_hover_text("North is up; white is highest");
            }
            None => {
                ui.weak("No preview (the image is too large to decode here)");
            }
        }
    }

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
                let info = png_info(path);
                self.preview = info.as_ref().ok().and_then(|i| preview_of(path, i));
                self.texture = None;
                if let Ok(i) = &info {
                    self.size = i.size;
                }
                self.image = Some(info);
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
            Some(Ok(info)) => {
                let [w, h] = info.size;
                ui.weak(format!("The image is {w} × {h} pixels."));
                ui.weak(info.depth_text());
                self.preview_ui(ui);
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
