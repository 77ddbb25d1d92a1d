//! Top-down shaded map of a world: a plain RGBA image for previews, thumbnails and `strata render`.
//!
//! ```text
//!   Grid ──occupied_bounds──> XZ rectangle to the voxel ──fit, keep aspect──> voxels per pixel s
//!     │                                                                          │ level = ⌊log2 s⌋ (mips ≤ 3, coarser merged)
//!     └──HeightField::read(level)──> ground + water heights, materials ──rows in parallel──> RGBA
//! ```
//!
//! North (−Z) is up and east (+X) right. The world's occupied rectangle is centred in the image;
//! pixels outside it, and columns holding nothing, are transparent. When the image is smaller than the
//! world, the height field is read from the chunk mips, so a half-size map reads an eighth of the
//! voxels. See the `shade` module for how a pixel is coloured.

mod bounds;
mod height_field;
#[cfg(test)]
mod render_tests;
mod shade;

use rayon::prelude::*;

pub use bounds::XzBounds;
pub(crate) use height_field::{HeightField, NONE};
use shade::{Palette, Shader};

use crate::light::LightMap;
use crate::storage::Grid;
use crate::voxel::MaterialTable;

/// An 8-bit sRGB image with straight alpha, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes: R, G, B, A per pixel, row by row.
    pub rgba: Vec<u8>,
}

impl Image {
    /// The pixel at (`x`, `y`), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.rgba.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }
}

/// Shade `field` one pixel per cell into a `width × height` image with the field's cells drawn from
/// pixel (`x0`, `y0`); other pixels stay transparent. For fields sampled without a grid (the
/// generator's preview), lit and tinted exactly as [`render_topdown`].
pub(crate) fn shade_cells(
    field: &HeightField,
    table: &MaterialTable,
    (width, height): (u32, u32),
    (x0, y0): (usize, usize),
) -> Image {
    let mut image = Image {
        width,
        height,
        rgba: vec![0; width as usize * height as usize * 4],
    };
    let palette = Palette::new(table);
    let (min_height, max_height) = Shader::height_range(field);
    let shader = Shader {
        field,
        palette: &palette,
        min_height,
        max_height,
        step_cells: 1.0,
        light: None,
    };
    image
        .rgba
        .par_chunks_mut(width as usize * 4)
        .enumerate()
        .for_each(|(py, row)| {
            let Some(cz) = py.checked_sub(y0).filter(|&z| z < field.depth) else {
                return;
            };
            for (px, out) in row.chunks_exact_mut(4).enumerate() {
                if let Some(cx) = px.checked_sub(x0).filter(|&x| x < field.width) {
                    out.copy_from_slice(&shader.pixel(cx as f32 + 0.5, cz as f32 + 0.5));
                }
            }
        });
    image
}

/// The columns a top-down render shows: every column holding ground or water (occupancy ≥ 0.5), or
/// `None` for a world with none.
pub fn topdown_bounds(grid: &Grid, table: &MaterialTable) -> Option<XzBounds> {
    bounds::occupied_bounds(grid, &Palette::new(table).liquid)
}

/// The image size whose longer side is `longest` pixels and whose aspect is that of `bounds`
/// (`longest × longest` when there are no bounds). Each side is at least 1.
pub fn fit_size(bounds: Option<XzBounds>, longest: u32) -> (u32, u32) {
    let longest = longest.max(1);
    let Some(b) = bounds else {
        return (longest, longest);
    };
    let (w, d) = (b.width().max(1) as f64, b.depth().max(1) as f64);
    let side = |a: f64, b: f64| ((f64::from(longest) * a / b).round() as u32).clamp(1, longest);
    if w >= d {
        (longest, side(d, w))
    } else {
        (side(w, d), longest)
    }
}

/// Render `grid` seen from above into a `width × height` image, coloured from `table`, with the
/// occupied columns fitted inside and centred (aspect kept). An empty grid or a zero size gives a
/// transparent (or empty) image.
pub fn render_topdown(grid: &Grid, table: &MaterialTable, width: u32, height: u32) -> Image {
    render_topdown_lit(grid, table, None, width, height)
}

/// [`render_topdown`], shading the ground with baked `light` when given (see `shade`).
pub fn render_topdown_lit(
    grid: &Grid,
    table: &MaterialTable,
    light: Option<&LightMap>,
    width: u32,
    height: u32,
) -> Image {
    let mut image = Image {
        width,
        height,
        rgba: vec![0; width as usize * height as usize * 4],
    };
    let palette = Palette::new(table);
    let Some(b) = bounds::occupied_bounds(grid, &palette.liquid) else {
        return image;
    };
    if width == 0 || height == 0 || b.width() == 0 || b.depth() == 0 {
        return image;
    }
    let voxels_per_pixel =
        (b.width() as f64 / f64::from(width)).max(b.depth() as f64 / f64::from(height));
    let level = voxels_per_pixel
        .max(1.0)
        .log2()
        .floor()
        .clamp(0.0, f64::from(height_field::MAX_FIELD_LEVEL)) as u32;
    let Some(field) = HeightField::read(grid, level, &palette.liquid) else {
        return image;
    };
    let (min_height, max_height) = Shader::height_range(&field);
    let cell = field.cell_voxels() as f64;
    let shader = Shader {
        field: &field,
        palette: &palette,
        min_height,
        max_height,
        step_cells: (voxels_per_pixel / cell).max(1.0) as f32,
        light,
    };
    // Centre the drawn rectangle: its size in pixels is the bounds divided by the scale.
    let offset_x = (f64::from(width) - b.width() as f64 / voxels_per_pixel) / 2.0;
    let offset_z = (f64::from(height) - b.depth() as f64 / voxels_per_pixel) / 2.0;
    image
        .rgba
        .par_chunks_mut(width as usize * 4)
        .enumerate()
        .for_each(|(py, row)| {
            let wz = b.z0 as f64 + (py as f64 + 0.5 - offset_z) * voxels_per_pixel;
            if wz < b.z0 as f64 || wz >= b.z1 as f64 {
                return;
            }
            let fz = ((wz - field.origin_z as f64) / cell) as f32;
            for (px, out) in row.chunks_exact_mut(4).enumerate() {
                let wx = b.x0 as f64 + (px as f64 + 0.5 - offset_x) * voxels_per_pixel;
                if wx < b.x0 as f64 || wx >= b.x1 as f64 {
                    continue;
                }
                let fx = ((wx - field.origin_x as f64) / cell) as f32;
                out.copy_from_slice(&shader.pixel(fx, fz));
            }
        });
    image
}
