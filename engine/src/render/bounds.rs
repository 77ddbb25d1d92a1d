//! The occupied XZ extent of a grid, to the voxel: what a top-down render fits into its image.
//!
//! Stored chunks give the extent to 32 voxels. Only the chunk columns on the rim of that extent can
//! move it, so only they are scanned at full resolution (in parallel); the interior is never read.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::height_field::HeightField;
use crate::storage::Grid;
use crate::voxel::{CHUNK_SIZE, MATERIAL_COUNT};

/// A half-open rectangle of voxel columns: X in `x0..x1`, Z in `z0..z1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XzBounds {
    /// First column along X (west edge).
    pub x0: i64,
    /// First column along Z (north edge).
    pub z0: i64,
    /// One past the last column along X.
    pub x1: i64,
    /// One past the last column along Z.
    pub z1: i64,
}

impl XzBounds {
    /// Width along X in voxels.
    pub fn width(&self) -> u64 {
        (self.x1 - self.x0).max(0) as u64
    }

    /// Depth along Z in voxels.
    pub fn depth(&self) -> u64 {
        (self.z1 - self.z0).max(0) as u64
    }
}

/// The columns holding ground or water (a voxel with occupancy ≥ 0.5), or `None` when there are none.
pub(crate) fn occupied_bounds(grid: &Grid, liquid: &[bool; MATERIAL_COUNT]) -> Option<XzBounds> {
    let mut columns: FxHashMap<(i32, i32), ()> = FxHashMap::default();
    for (pos, _) in grid.chunks() {
        columns.insert((pos.x, pos.z), ());
    }
    let keys: Vec<(i32, i32)> = columns.into_keys().collect();
    let min_cx = keys.iter().map(|k| k.0).min()?;
    let max_cx = keys.iter().map(|k| k.0).max()?;
    let min_cz = keys.iter().map(|k| k.1).min()?;
    let max_cz = keys.iter().map(|k| k.1).max()?;
    let rim: Vec<(i32, i32)> = keys
        .into_iter()
        .filter(|&(x, z)| x == min_cx || x == max_cx || z == min_cz || z == max_cz)
        .collect();
    let n = CHUNK_SIZE as i64;
    let rim_bounds = rim
        .par_iter()
        .filter_map(|&(cx, cz)| {
            let tile = HeightField::read_column(grid, cx, cz, 0, liquid);
            let b = tile.occupied_bounds()?;
            let (ox, oz) = (i64::from(cx) * n, i64::from(cz) * n);
            Some(XzBounds {
                x0: ox + b[0] as i64,
                z0: oz + b[1] as i64,
                x1: ox + b[2] as i64,
                z1: oz + b[3] as i64,
            })
        })
        .reduce_with(|a, b| XzBounds {
            x0: a.x0.min(b.x0),
            z0: a.z0.min(b.z0),
            x1: a.x1.max(b.x1),
            z1: a.z1.max(b.z1),
        });
    let chunks = [min_cx, min_cz, max_cx, max_cz];
    Some(match rim_bounds {
        Some(b) => widen_to_interior(b, chunks),
        None => XzBounds {
            x0: i64::from(min_cx) * n,
            z0: i64::from(min_cz) * n,
            x1: (i64::from(max_cx) + 1) * n,
            z1: (i64::from(max_cz) + 1) * n,
        },
    })
}

/// The rim alone may miss an edge when its columns hold only thin matter; the interior chunk extent is
/// then kept as a floor, so nothing inside the rim is ever cut off.
fn widen_to_interior(b: XzBounds, chunks: [i32; 4]) -> XzBounds {
    let n = CHUNK_SIZE as i64;
    let [min_cx, min_cz, max_cx, max_cz] = chunks.map(i64::from);
    if max_cx - min_cx < 2 || max_cz - min_cz < 2 {
        return b;
    }
    XzBounds {
        x0: b.x0.min((min_cx + 1) * n),
        z0: b.z0.min((min_cz + 1) * n),
        x1: b.x1.max(max_cx * n),
        z1: b.z1.max(max_cz * n),
    }
}
