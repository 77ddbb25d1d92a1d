//! Recent files with thumbnails. Each save also renders a small top-down map of the world (the same
//! renderer as `strata render`) into `<config>/thumbs/`, named by a hash of the file's path, so the
//! list shows what each world looks like without loading it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use eframe::egui;
use rustc_hash::FxHashMap;

use strata_engine::format::project::Project;
use strata_engine::format::write_atomic;
use strata_engine::render::render_topdown;

use crate::app::{EditorApp, Guarded};
use crate::{AppError, AppResult};

/// Thumbnail edge, pixels.
pub const THUMB_SIZE: u32 = 96;

/// The thumbnail folder inside the config directory.
pub fn folder(config: &Path) -> PathBuf {
    config.join("thumbs")
}

fn thumb_path(dir: &Path, project: &Path) -> PathBuf {
    let canonical = project
        .canonicalize()
        .unwrap_or_else(|_| project.to_path_buf());
    let mut h = DefaultHasher::new();
    canonical.hash(&mut h);
    dir.join(format!("{:016x}.png", h.finish()))
}

/// Render and store the thumbnail of `project`, saved at `path`.
///
/// # Errors
/// When the folder or the PNG cannot be written.
pub fn write_thumbnail(dir: &Path, path: &Path, project: &Project) -> AppResult<()> {
    let img = render_topdown(
        &project.grid,
        &project.header.materials,
        THUMB_SIZE,
        THUMB_SIZE,
    );
    let png = crate::png::encode_rgba(&img.rgba, img.width, img.height, path)?;
    std::fs::create_dir_all(dir).map_err(|e| AppError::io(dir, e))?;
    write_atomic(&thumb_path(dir, path), &png)?;
    Ok(())
}

/// Write the thumbnail of `project` unless one exists.
///
/// # Errors
/// As for [`write_thumbnail`].
pub fn ensure_thumbnail(dir: &Path, path: &Path, project: &Project) -> AppResult<()> {
    if thumb_path(dir, path).is_file() {
        return Ok(());
    }
    write_thumbnail(dir, path, project)
}

/// Loaded thumbnail textures (`None`: no thumbnail on disk).
#[derive(Default)]
pub struct Thumbnails {
    textures: FxHashMap<PathBuf, Option<egui::TextureHandle>>,
}

impl Thumbnails {
    fn get(
        &mut self,
        ctx: &egui::Context,
        dir: &Path,
        project: &Path,
    ) -> Option<egui::TextureHandle> {
        self.textures
            .entry(project.to_path_buf())
            .or_insert_with(|| {
                let bytes = std::fs::read(thumb_path(dir, project)).ok()?;
                let img = crate::png::decode(&bytes).ok()?.to_rgba8();
                let size = [img.width() as usize, img.height() as usize];
                let color = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
                Some(ctx.load_texture(
                    project.display().to_string(),
                    color,
                    egui::TextureOptions::LINEAR,
                ))
            })
            .clone()
    }
}

/// Show the Recent Files window when open.
pub fn show(app: &mut EditorApp, ctx: &egui::Context) {
    if !app.dialogs.recent {
        return;
    }
    let mut open = true;
    let mut chosen = None;
    let dir = app.config.as_deref().map(folder);
    egui::Window::new("Recent Files")
        .open(&mut open)
        .show(ctx, |ui| {
            if app.prefs.recent.is_empty() {
                ui.label("No recent files yet.");
            }
            for path in app.prefs.recent.clone() {
                ui.horizontal(|ui| {
                    let thumb = dir
                        .as_deref()
                        .and_then(|d| app.thumbnails.get(ctx, d, &path));
                    match thumb {
                        Some(t) => {
                            ui.add(egui::Image::new(&t).max_size(egui::vec2(64.0, 64.0)));
                        }
                        None => {
                            ui.allocate_exact_size(egui::vec2(64.0, 64.0), egui::Sense::hover());
                        }
                    }
                    ui.vertical(|ui| {
                        let name = path.file_name().map_or_else(
                            || path.display().to_string(),
                            |n| n.to_string_lossy().into_owned(),
                        );
                        let exists = path.is_file();
                        if ui.add_enabled(exists, egui::Button::new(name)).clicked() {
                            chosen = Some(path.clone());
                        }
                        ui.weak(if exists {
                            path.display().to_string()
                        } else {
                            format!("{} (missing)", path.display())
                        });
                    });
                });
            }
        });
    app.dialogs.recent = open && chosen.is_none();
    if let Some(path) = chosen {
        app.guard(Guarded::Open(Some(path)));
    }
}
