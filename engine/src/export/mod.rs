//! Terrain maps for game engines' own terrain systems: a 16-bit heightmap of the world's top surface,
//! splat (RGBA) and per-material weight maps of its materials, and the JSON sidecar that says what
//! their numbers mean. No file or image encoding here beyond raw bytes and JSON: callers encode PNGs
//! and write the files.
//!
//! ```text
//!   Grid ──scan (top_surface)──> height + material + overhang per column
//!        ──resample (heightmap)──> W × D heights ──quantize──> u16 samples (.png / .r16)
//!        ──weights (splat)──────> RGBA splat of the four most used materials, one plane per material
//!        ──sidecar────────────> OUT.json
//! ```

pub mod heightmap;
pub mod maps;
pub mod sidecar;
pub mod splat;
pub mod top_surface;

pub use heightmap::{
    check_map_size, quantize_heights, r16_bytes, resample_heights, sample_height, MAX_MAP_SIDE,
};
pub use maps::{SplatMap, TerrainMaps, TerrainMapsRequest, WeightLayers};
pub use sidecar::{layer_file_names, sidecar_json, Encoding, SidecarFiles};
pub use splat::{material_weights, ranked_materials, rgba_of, weight_planes};
pub use top_surface::{scan_top_surface, TopSurface, MAX_SCAN_COLUMNS};

use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, CHUNK_SIZE, MATERIAL_COUNT};
use crate::{Error, Result};

/// Check a request before any work: a box in range and not flat, a map size in range, and the
/// number of columns read under [`MAX_SCAN_COLUMNS`].
///
/// # Errors
/// [`Error::Invalid`] naming what is wrong.
pub fn check_request(request: &TerrainMapsRequest) -> Result<()> {
    let b = request.region;
    b.check_range("the heightmap box")?;
    if b.is_empty() {
        return Err(Error::Invalid(
            "the heightmap box is empty: every side must be at least one voxel".into(),
        ));
    }
    let [sx, _, sz] = b.size();
    if sx as u64 * sz as u64 > MAX_SCAN_COLUMNS {
        return Err(Error::Invalid(format!(
            "the box is {sx}x{sz} columns; a heightmap reads at most {MAX_SCAN_COLUMNS} (2^30)"
        )));
    }
    check_map_size(request.size.unwrap_or([sx as u32, sz as u32]))
}

/// Scan `grid`'s top surface in `request.region` and make the maps asked for. `table` says which
/// materials are liquids (not terrain). `progress` counts chunk columns scanned, then output rows per
/// map made; cancelling stops the export.
///
/// # Errors
/// As for [`check_request`]; [`Error::Cancelled`].
pub fn export_terrain_maps(
    grid: &Grid,
    table: &MaterialTable,
    request: &TerrainMapsRequest,
    progress: &Progress,
) -> Result<TerrainMaps> {
    check_request(request)?;
    let region = request.region;
    let [sx, _, sz] = region.size();
    let size = request.size.unwrap_or([sx as u32, sz as u32]);
    let mut liquid = [false; MATERIAL_COUNT];
    for (i, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
        liquid[i] = m.liquid;
    }
    let n = CHUNK_SIZE as i64;
    let chunk_span =
        |lo: i32, hi: i32| (i64::from(hi) - 1).div_euclid(n) - i64::from(lo).div_euclid(n) + 1;
    let chunk_columns =
        chunk_span(region.min.x, region.max.x) * chunk_span(region.min.z, region.max.z);
    let passes = 1 + u64::from(request.splat) + u64::from(request.layers);
    progress.start(chunk_columns as u64 + passes * u64::from(size[1]));
    let surface = top_surface::scan_counted(grid, region, &liquid, progress)?;
    let heights = resample_heights(&surface, size, progress)?;
    let samples = quantize_heights(&heights, region.min.y, region.max.y);
    drop(heights);
    let ranked = ranked_materials(&surface);
    let ids: Vec<u8> = ranked.iter().map(|r| r.0).collect();
    let splat = if request.splat {
        let four = &ids[..ids.len().min(4)];
        let weights = material_weights(&surface, size, four, progress)?;
        Some(SplatMap {
            materials: four.to_vec(),
            rgba: if four.is_empty() {
                vec![0; size[0] as usize * size[1] as usize * 4]
            } else {
                rgba_of(&weights, four.len())
            },
        })
    } else {
        None
    };
    let layers = if request.layers {
        let weights = material_weights(&surface, size, &ids, progress)?;
        Some(WeightLayers {
            planes: weight_planes(&weights, ids.len()),
            materials: ids,
        })
    } else {
        None
    };
    Ok(TerrainMaps {
        region,
        columns: [sx, sz],
        width: size[0],
        height: size[1],
        y_range: [region.min.y, region.max.y],
        samples,
        surface_materials: ranked,
        overhang_columns: surface.overhang_columns,
        empty_columns: surface.empty_columns,
        splat,
        layers,
    })
}

#[cfg(test)]
mod export_tests;
