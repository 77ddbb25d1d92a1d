//! Heightmap import: a grid of 16-bit height samples (and optionally a material per sample, from a
//! colour map) becomes terrain, Roblox-style.
//!
//! ```text
//!   sample s (0..=65535) ──> surface height h = s / 65535 · H      (H = world height in voxels)
//!
//!   y ▲   occupancy = clamp(½ + (h − y − ½) / (√(1 + |∇h|²) · w), 0, 1): the distance from the
//!     │   ▒  ← partial voxels       voxel's centre to the surface over a band w wide, so the ½
//!     │   █                         iso-surface follows slopes up to vertical instead of stepping
//!     │   █                         (exactly as generated terrain does, see `gen::column`)
//!     │   █  surface layer (1 voxel)  grass / rock on slopes steeper than 45° / snow up high,
//!     │   █  soil (3 voxels)          Ground                     or the colour map's material
//!     │   █  below                    Rock
//!     │   █  y = 0: always full       a one-voxel floor, so black pixels leave no hole
//! ```
//!
//! The map is resampled to the world size (bilinear heights, nearest materials), so a 512² image can
//! make a 1024² world. With a smoothing radius, 8-bit terraces are smoothed first
//! ([`terrace_smoothing`]). Chunk columns are filled in parallel; chunks wholly below the soil are
//! built as uniform Rock, and chunks of flat ground layer by layer, without touching their voxels.
//! The result depends only on the inputs.

mod terrace_smoothing;

use rayon::prelude::*;

pub use terrace_smoothing::MAX_SMOOTHING_RADIUS;

use super::column::band;
use super::{MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE};
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, MaterialTable, Voxel, CHUNK_SIZE};
use crate::{Error, Result};

/// Height (in voxels per voxel of horizontal distance) above which the surface is bare rock.
const STEEP_SLOPE: f32 = 1.0;
/// Fraction of the world height above which flat ground is snow.
const SNOW_LINE: f32 = 0.8;
/// Voxels of soil (Ground) under the one-voxel surface layer.
const SOIL_DEPTH: f32 = 3.0;

/// Height samples, `width × depth`, X fastest (an image's rows, north first). 65535 is the top of
/// the world, 0 its floor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heightmap {
    /// Samples along X.
    pub width: u32,
    /// Samples along Z.
    pub depth: u32,
    /// `width × depth` samples.
    pub samples: Vec<u16>,
}

/// How a heightmap becomes a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeightmapSettings {
    /// World size in voxels along X and Z (the map is resampled to it).
    pub size: [u32; 2],
    /// World height in voxels: the height of a sample of 65535.
    pub height: u32,
    /// Terrace smoothing radius in map samples (0 = off, at most [`MAX_SMOOTHING_RADIUS`]).
    pub smooth_radius: u32,
}

/// The material ids the default layering uses.
#[derive(Debug, Clone, Copy)]
struct Layers {
    grass: u8,
    ground: u8,
    rock: u8,
    snow: u8,
}

impl Layers {
    fn new(table: &MaterialTable) -> Result<Self> {
        Ok(Self {
            grass: table.require("Grass")?,
            ground: table.require("Ground")?,
            rock: table.require("Rock")?,
            snow: table.require("Snow")?,
        })
    }
}

/// The solid material whose colour is nearest to `rgb` (squared sRGB distance; ties go to the lower
/// id). Air and liquids are never chosen; a table with no solid gives Air.
pub fn nearest_material(table: &MaterialTable, rgb: [u8; 3]) -> u8 {
    let dist = |c: (u8, u8, u8)| {
        let d = [
            i32::from(c.0) - i32::from(rgb[0]),
            i32::from(c.1) - i32::from(rgb[1]),
            i32::from(c.2) - i32::from(rgb[2]),
        ];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    };
    table
        .materials
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, m)| !m.liquid)
        .min_by_key(|(_, m)| dist(m.color))
        .map_or(0, |(i, _)| i as u8)
}

/// Map every pixel of an RGB colour map (3 bytes per pixel) to its [`nearest_material`].
pub fn colormap_materials(table: &MaterialTable, rgb: &[u8]) -> Vec<u8> {
    let mut cache = rustc_hash::FxHashMap::default();
    rgb.chunks_exact(3)
        .map(|p| {
            let c = [p[0], p[1], p[2]];
            *cache.entry(c).or_insert_with(|| nearest_material(table, c))
        })
        .collect()
}

/// How many chunks the world of `map` under `settings` will store, counted before any voxel is made:
/// per chunk column, the chunks wholly below the soil under its lowest surface (stored as uniform
/// Rock, a few hundred bytes each) and the chunks from there up to its highest surface (stored voxel
/// by voxel). Heights are read on a 3 × 3 lattice of each column (corners and centre), without
/// terrace smoothing, which moves heights by well under a chunk.
///
/// # Errors
/// [`Error::Invalid`] for the inputs [`heightmap_grid`] refuses.
pub fn heightmap_chunk_counts(map: &Heightmap, settings: &HeightmapSettings) -> Result<[u64; 2]> {
    check(map, None, settings)?;
    let scale = settings.height as f32 / 65535.0;
    let heights: Vec<f32> = map.samples.iter().map(|&h| f32::from(h) * scale).collect();
    let n = CHUNK_SIZE as u32;
    let [sx, sz] = settings.size;
    let top = settings.height.div_ceil(n);
    let mut counts = [0u64; 2];
    for cz in 0..sz.div_ceil(n) {
        for cx in 0..sx.div_ceil(n) {
            let (mut lo, mut hi) = (f32::MAX, f32::MIN);
            for dz in [0, n / 2, n - 1] {
                for dx in [0, n / 2, n - 1] {
                    let h = bilinear(map, &heights, settings.size, cx * n + dx, cz * n + dz);
                    lo = lo.min(h);
                    hi = hi.max(h);
                }
            }
            let buried = ((lo - SOIL_DEPTH - 1.0).max(0.0) as u32 / n).min(top);
            let surface = ((hi.max(0.0) as u32 + 2).div_ceil(n)).clamp(buried, top);
            counts[0] += u64::from(buried);
            counts[1] += u64::from(surface - buried).max(1);
        }
    }
    Ok(counts)
}

/// Bilinear height of world column (`x`, `z`) from `heights` (the map's samples in voxels): column
/// centres map onto sample centres, so the map stretches to any world size.
fn bilinear(map: &Heightmap, heights: &[f32], size: [u32; 2], x: u32, z: u32) -> f32 {
    let to_map = |x: u32, world: u32, m: u32| {
        ((x.min(world - 1) as f32 + 0.5) * m as f32 / world as f32 - 0.5).clamp(0.0, (m - 1) as f32)
    };
    let (w, d) = (map.width, map.depth);
    let (u, v) = (to_map(x, size[0], w), to_map(z, size[1], d));
    let (u0, v0) = (u.floor() as usize, v.floor() as usize);
    let (u1, v1) = ((u0 + 1).min(w as usize - 1), (v0 + 1).min(d as usize - 1));
    let (tu, tv) = (u - u0 as f32, v - v0 as f32);
    let s = |a: usize, b: usize| heights[b * w as usize + a];
    let top = s(u0, v0) + (s(u1, v0) - s(u0, v0)) * tu;
    let bottom = s(u0, v1) + (s(u1, v1) - s(u0, v1)) * tu;
    top + (bottom - top) * tv
}

fn check(map: &Heightmap, materials: Option<&[u8]>, s: &HeightmapSettings) -> Result<()> {
    let bad = |m: String| Err(Error::Invalid(m));
    if map.width == 0 || map.depth == 0 {
        return bad(format!(
            "heightmap is {}x{}: it must not be empty",
            map.width, map.depth
        ));
    }
    if map.width > MAX_HORIZONTAL_SIZE || map.depth > MAX_HORIZONTAL_SIZE {
        return bad(format!(
            "heightmap is {}x{} samples; at most {MAX_HORIZONTAL_SIZE} on a side (the largest world)",
            map.width, map.depth
        ));
    }
    let cells = map.width as usize * map.depth as usize;
    if map.samples.len() != cells {
        return bad(format!(
            "heightmap has {} samples, {}x{} needs {cells}",
            map.samples.len(),
            map.width,
            map.depth
        ));
    }
    if let Some(m) = materials {
        if m.len() != cells {
            return bad(format!(
                "colour map has {} pixels but the heightmap has {cells}",
                m.len()
            ));
        }
    }
    for (axis, v) in [("X", s.size[0]), ("Z", s.size[1])] {
        if v == 0 || v > MAX_HORIZONTAL_SIZE {
            return bad(format!(
                "world size {axis} = {v}: must be 1 to {MAX_HORIZONTAL_SIZE}"
            ));
        }
    }
    if s.height == 0 || s.height > MAX_VERTICAL_SIZE {
        return bad(format!(
            "world height {}: must be 1 to {MAX_VERTICAL_SIZE}",
            s.height
        ));
    }
    if s.smooth_radius > MAX_SMOOTHING_RADIUS {
        return bad(format!(
            "smoothing radius {}: must be 0 to {MAX_SMOOTHING_RADIUS} samples",
            s.smooth_radius
        ));
    }
    Ok(())
}

/// Build the terrain of `map` (with `materials`, one id per sample, for the surface layers, or the
/// default layering when `None`). `progress` counts chunk columns; cancelling stops the job.
///
/// # Errors
/// [`Error::Invalid`] for empty or mismatched inputs, a map or sizes out of range, or a table lacking
/// Grass, Ground, Rock or Snow; a colour-map id the table does not have; [`Error::Cancelled`].
pub fn heightmap_grid(
    map: &Heightmap,
    materials: Option<&[u8]>,
    settings: &HeightmapSettings,
    table: &MaterialTable,
    progress: &Progress,
) -> Result<Grid> {
    check(map, materials, settings)?;
    if let Some(bad) = materials.and_then(|m| m.iter().find(|&&id| !table.contains(id))) {
        return Err(Error::Invalid(format!(
            "colour map material id {bad} is not in the table"
        )));
    }
    let layers = Layers::new(table)?;
    let scale = settings.height as f32 / 65535.0;
    let mut heights = terrace_smoothing::smooth_terraces(
        &map.samples,
        map.width as usize,
        map.depth as usize,
        settings.smooth_radius as usize,
    );
    heights.par_iter_mut().for_each(|h| *h *= scale);
    let sampler = Sampler {
        map,
        heights: &heights,
        materials,
        settings: *settings,
        layers,
    };
    let n = CHUNK_SIZE as u32;
    let columns: Vec<(u32, u32)> = (0..settings.size[1].div_ceil(n))
        .flat_map(|cz| (0..settings.size[0].div_ceil(n)).map(move |cx| (cx, cz)))
        .collect();
    progress.start(columns.len() as u64);
    let chunks: Vec<Vec<(ChunkPos, Chunk)>> = columns
        .par_iter()
        .map(|&(cx, cz)| {
            progress.check()?;
            let out = sampler.fill_column(cx, cz);
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(chunks.into_iter().flatten().collect())
}

/// Reads heights and materials at world columns.
struct Sampler<'a> {
    map: &'a Heightmap,
    /// Map heights in voxels (smoothed when asked), `width × depth`.
    heights: &'a [f32],
    materials: Option<&'a [u8]>,
    settings: HeightmapSettings,
    layers: Layers,
}

/// One world column of a chunk column.
#[derive(Debug, Clone, Copy, Default)]
struct Column {
    /// Surface height in voxels.
    h: f32,
    /// Height the material layers count down from (`h`, lower on steep slopes).
    layers_from: f32,
    /// Occupancy change per voxel of height (see [`super::column::band`]).
    inv_band: f32,
    /// Surface material.
    surface: u8,
    /// Highest voxel holding matter.
    top: i32,
    /// Voxels below this are full Rock.
    rock_below: i32,
}

impl Sampler<'_> {
    /// Surface height of world column (`x`, `z`), clamped to the world's edge.
    fn height(&self, x: i64, z: i64) -> f32 {
        let [sx, sz] = self.settings.size;
        let x = x.clamp(0, i64::from(sx) - 1) as u32;
        let z = z.clamp(0, i64::from(sz) - 1) as u32;
        bilinear(self.map, self.heights, self.settings.size, x, z)
    }

    /// Surface material of column (`x`, `z`) with surface height `h` and slope `slope`.
    fn surface(&self, x: i64, z: i64, h: f32, slope: f32) -> u8 {
        if let Some(m) = self.materials {
            let [sx, sz] = self.settings.size;
            let u = ((x as f32 + 0.5) * self.map.width as f32 / sx as f32) as usize;
            let v = ((z as f32 + 0.5) * self.map.depth as f32 / sz as f32) as usize;
            let u = u.min(self.map.width as usize - 1);
            let v = v.min(self.map.depth as usize - 1);
            return m[v * self.map.width as usize + u];
        }
        if slope > STEEP_SLOPE {
            self.layers.rock
        } else if h >= SNOW_LINE * self.settings.height as f32 {
            self.layers.snow
        } else {
            self.layers.grass
        }
    }

    /// The columns of chunk column (`cx`, `cz`) by `lz * 32 + lx`, and whether all lie in the world.
    fn columns(&self, cx: u32, cz: u32) -> (Vec<Column>, bool) {
        let n = CHUNK_SIZE;
        let [sx, sz] = self.settings.size;
        let world_top = self.settings.height as i32 - 1;
        let (x0, z0) = (i64::from(cx) * n as i64, i64::from(cz) * n as i64);
        // Heights with a one-column border for slopes.
        let e = n + 2;
        let mut border = vec![0.0f32; e * e];
        for (j, row) in border.chunks_exact_mut(e).enumerate() {
            for (i, h) in row.iter_mut().enumerate() {
                *h = self.height(x0 + i as i64 - 1, z0 + j as i64 - 1);
            }
        }
        let mut cols = vec![
            Column {
                top: -1,
                ..Column::default()
            };
            n * n
        ];
        let mut all_inside = true;
        for lz in 0..n {
            for lx in 0..n {
                let (x, z) = (x0 + lx as i64, z0 + lz as i64);
                if x >= i64::from(sx) || z >= i64::from(sz) {
                    all_inside = false;
                    continue;
                }
                let at = |i: usize, j: usize| border[j * e + i];
                let h = at(lx + 1, lz + 1);
                let dx = (at(lx + 2, lz + 1) - at(lx, lz + 1)) / 2.0;
                let dz = (at(lx + 1, lz + 2) - at(lx + 1, lz)) / 2.0;
                let slope = (dx * dx + dz * dz).sqrt();
                let (band, inv_band) = band(f64::from(slope));
                let surface = self.surface(x, z, h, slope);
                let full_below = (h - 0.5 - 0.5 * band).floor() as i32 + 1;
                let soil = if surface == self.layers.rock {
                    1.0
                } else {
                    1.0 + SOIL_DEPTH
                };
                // Layers count down from the surface, or from the first partial voxel below it where
                // the slope's band is wide, so a full voxel of the surface material stays on top.
                let layers_from = h.min(full_below as f32);
                let rock_from = (layers_from - 1.0 - soil).floor() as i32 + 1;
                cols[lz * n + lx] = Column {
                    h,
                    layers_from,
                    inv_band,
                    surface,
                    top: ((h - 0.5 + 0.5 * band).ceil() as i32 - 1).clamp(0, world_top),
                    rock_below: full_below.min(rock_from).clamp(0, world_top + 1),
                };
            }
        }
        (cols, all_inside)
    }

    /// Every non-empty chunk of chunk column (`cx`, `cz`).
    fn fill_column(&self, cx: u32, cz: u32) -> Vec<(ChunkPos, Chunk)> {
        let n = CHUNK_SIZE;
        let (cols, all_inside) = self.columns(cx, cz);
        let inside = cols.iter().filter(|c| c.top >= 0);
        let highest = inside.clone().map(|c| c.top).max().unwrap_or(-1);
        let rock_floor = inside.map(|c| c.rock_below).min().unwrap_or(0);
        let uniform = all_inside
            && cols.iter().all(|c| {
                c.h == cols[0].h
                    && c.layers_from == cols[0].layers_from
                    && c.inv_band == cols[0].inv_band
                    && c.surface == cols[0].surface
            });
        let mut out = Vec::new();
        if highest < 0 {
            return out;
        }
        let mut dense = Vec::new();
        for cy in 0..=highest / n as i32 {
            let pos = ChunkPos::new(cx as i32, cy, cz as i32);
            let y0 = cy * n as i32;
            if all_inside && y0 + n as i32 <= rock_floor {
                out.push((pos, Chunk::uniform(self.layers.rock)));
                continue;
            }
            if uniform {
                // Flat ground: every column alike, so the chunk is one column's voxels repeated.
                let layers = std::array::from_fn(|i| self.voxel(&cols[0], y0 + i as i32));
                let chunk = Chunk::from_layers(&layers);
                if !chunk.is_air() {
                    out.push((pos, chunk));
                }
                continue;
            }
            if dense.is_empty() {
                dense = vec![Voxel::AIR; Chunk::VOLUME];
            }
            for (c, col) in cols.iter().enumerate() {
                let base = (c / n) * n * n + c % n;
                for ly in 0..n {
                    let y = y0 + ly as i32;
                    dense[base + ly * n] = self.voxel(col, y);
                }
            }
            let chunk = Chunk::from_dense(&dense);
            if !chunk.is_air() {
                out.push((pos, chunk));
            }
        }
        out
    }

    /// The voxel at height `y` of column `col`.
    #[inline]
    fn voxel(&self, col: &Column, y: i32) -> Voxel {
        if y > col.top {
            return Voxel::AIR;
        }
        if y < col.rock_below {
            return Voxel::filled(self.layers.rock);
        }
        let depth = col.layers_from - (y as f32 + 1.0);
        let m = if depth < 1.0 {
            col.surface
        } else if depth < 1.0 + SOIL_DEPTH && col.surface != self.layers.rock {
            self.layers.ground
        } else {
            self.layers.rock
        };
        let occupancy = if y == 0 {
            1.0
        } else {
            0.5 + (col.h - y as f32 - 0.5) * col.inv_band
        };
        Voxel::from_fraction(m, occupancy)
    }
}

#[cfg(test)]
mod heightmap_tests;
