//! Thumbnail textures for the windows that list files (Recent Files, Stamps): each file's thumbnail
//! PNG is read and uploaded once, the first time it is shown, and kept until it is forgotten.

use std::path::{Path, PathBuf};

use eframe::egui;
use rustc_hash::FxHashMap;

use super::thumbnails;

/// Loaded thumbnail textures by file (`None`: no thumbnail on disk, or it did not decode).
#[derive(Default)]
pub struct ThumbnailTextures {
    textures: FxHashMap<PathBuf, Option<egui::TextureHandle>>,
}

impl ThumbnailTextures {
    /// The thumbnail of `file` (kept in the thumbnail folder `dir`), loaded the first time.
    pub fn get(
        &mut self,
        ctx: &egui::Context,
        dir: &Path,
        file: &Path,
    ) -> Option<egui::TextureHandle> {
        self.textures
            .entry(file.to_path_buf())
            .or_insert_with(|| {
                let bytes = std::fs::read(thumbnails::path_of(dir, file)).ok()?;
                let img = super::png::decode(&bytes).ok()?.to_rgba8();
                let size = [img.width() as usize, img.height() as usize];
                let color = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
                Some(ctx.load_texture(
                    file.display().to_string(),
                    color,
                    egui::TextureOptions::LINEAR,
                ))
            })
            .clone()
    }

    /// Load `file`'s thumbnail again the next time it is shown (it was rewritten).
    pub fn forget(&mut self, file: &Path) {
        self.textures.remove(file);
    }
}
