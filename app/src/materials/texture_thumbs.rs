//! Small thumbnails of the project's material textures for swatches (the Materials panel and every
//! material picker), decoded once per image and kept in egui's memory by the image's hash.
//!
//! A texture the project stores is a checked PNG; one that still fails to decode shows its
//! material's colour instead.

use std::collections::HashMap;

use eframe::egui;
use image::imageops::FilterType;
use strata_engine::voxel::{TextureRef, Textures};

/// Side of a thumbnail, pixels.
const THUMB_PIXELS: u32 = 32;

/// Loaded thumbnails by texture hash (`None`: the image did not decode).
#[derive(Clone, Default)]
struct ThumbCache(HashMap<u64, Option<egui::TextureHandle>>);

fn cache_id() -> egui::Id {
    egui::Id::unique("material texture thumbnails")
}

/// The thumbnail of texture `t` (decoded from `textures` the first time it is asked for).
pub fn thumbnail(
    ctx: &egui::Context,
    textures: &Textures,
    t: &TextureRef,
) -> Option<egui::TextureId> {
    let known = ctx.data(|d| {
        d.get_temp::<ThumbCache>(cache_id())
            .and_then(|c| c.0.get(&t.hash).cloned())
    });
    if let Some(handle) = known {
        return handle.map(|h| h.id());
    }
    let handle = textures.png(t).and_then(|png| {
        let image = crate::files::png::decode(png).ok()?;
        let small = image
            .resize_exact(THUMB_PIXELS, THUMB_PIXELS, FilterType::Triangle)
            .to_rgba8();
        let size = [small.width() as usize, small.height() as usize];
        let pixels = egui::ColorImage::from_rgba_unmultiplied(size, small.as_raw());
        Some(ctx.load_texture(
            format!("material texture {:016x}", t.hash),
            pixels,
            egui::TextureOptions::LINEAR,
        ))
    });
    let id = handle.as_ref().map(egui::TextureHandle::id);
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<ThumbCache>(cache_id())
            .0
            .insert(t.hash, handle);
    });
    id
}
