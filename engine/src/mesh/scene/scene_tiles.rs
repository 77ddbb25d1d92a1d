//! Cutting the welded world meshes of each level into tiles, and making the levels and collision the
//! mesher has no mip for.
//!
//! ```text
//!   level mesh (world)            tiles of N voxels, by triangle centroid
//!   ┌───────────────┐             ┌───────┬───────┐
//!   │ /\/\/\/\/\/\/ │   ──cut──>  │ /\/\/\│/\/\/\ │   a border vertex is copied into
//!   │ \/\/\/\/\/\/\ │             │ \/\/\/\/\/\/\ │   both tiles, at the same world
//!   └───────────────┘             └───────┴───────┘   position (exact: integer corners)
//! ```

use rayon::prelude::*;
use rustc_hash::FxHashMap;

pub(super) use super::scene_level::TileLevel;
use super::scene_options::SceneOptions;
use super::scene_simplify::{collision_from, simplify_first, simplify_level};
use crate::mesh::weld::Welded;
use crate::mesh::MAX_LOD;
use crate::progress::Progress;
use crate::Result;

/// One tile: its index, its corner and its meshes.
#[derive(Debug, Clone)]
pub(super) struct Tile {
    /// Tile index along X.
    pub x: i32,
    /// Tile index along Z.
    pub z: i32,
    /// World voxel position of the tile's local origin: (x·N, 0, z·N).
    pub corner: [i32; 3],
    /// Levels of detail, finest first (a level may be empty).
    pub levels: Vec<TileLevel>,
    /// The collision mesh (solid only), when asked for.
    pub collision: Option<TileLevel>,
}

/// Triangles of one level that fall in one tile, as indices into that level's welded mesh.
#[derive(Default)]
struct Picked {
    solid: Vec<u32>,
    water: Vec<u32>,
}

/// The mip levels the mesher makes for a scene of `lods` levels: 0, and 2 up to the mesher's deepest
/// mip. Level 1 is level 0 simplified (the collision mesh's own reduction, so one simplification
/// serves both, and a closer fit than mip 1); levels past the deepest mip are simplified too.
pub(super) fn meshed_lods(lods: u32) -> Vec<u32> {
    std::iter::once(0).chain(2..lods.min(MAX_LOD + 1)).collect()
}

/// Cut every level of `levels` (the meshes of [`meshed_lods`], in order) into tiles of
/// `options.tile_voxels`, add the simplified levels up to `options.lods` and collision when asked. Advances `progress` by `units` in all, a share per tile.
///
/// # Errors
/// [`crate::Error::Cancelled`] when `progress` is cancelled.
pub(super) fn cut_tiles(
    levels: &[Welded],
    options: &SceneOptions<'_>,
    units: u64,
    progress: &Progress,
) -> Result<Vec<Tile>> {
    let n = i64::from(options.tile_voxels);
    // Triangles of the world's outer walls can have their centroid a hair outside it: they join
    // the edge tile rather than make a tile of their own.
    let extent = options
        .region
        .map_or(options.world, |r| r.intersect(&options.world));
    let range = |lo: i32, hi: i32| {
        (
            i64::from(lo).div_euclid(n),
            (i64::from(hi) - 1).max(i64::from(lo)).div_euclid(n),
        )
    };
    let (xr, zr) = (
        range(extent.min.x, extent.max.x),
        range(extent.min.z, extent.max.z),
    );
    let mut picks: FxHashMap<(i32, i32), Vec<Picked>> = FxHashMap::default();
    for (l, w) in levels.iter().enumerate() {
        let o = [i64::from(w.origin.x), i64::from(w.origin.z)];
        for (list, water) in [(&w.solid, false), (&w.water, true)] {
            for tri in list.chunks_exact(3) {
                let c = |a: usize| {
                    let s: f64 = tri
                        .iter()
                        .map(|&v| f64::from(w.positions[v as usize][a]))
                        .sum();
                    (s / 3.0).floor() as i64
                };
                let key = (
                    (c(0) + o[0]).div_euclid(n).clamp(xr.0, xr.1) as i32,
                    (c(2) + o[1]).div_euclid(n).clamp(zr.0, zr.1) as i32,
                );
                let entry = picks.entry(key).or_default();
                entry.resize_with(levels.len(), Picked::default);
                let p = &mut entry[l];
                if water {
                    p.water.extend_from_slice(tri);
                } else {
                    p.solid.extend_from_slice(tri);
                }
            }
        }
    }
    let mut keys: Vec<(i32, i32)> = picks.keys().copied().collect();
    keys.sort_unstable_by_key(|&(x, z)| (z, x));
    let count = keys.len().max(1) as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let tiles = keys
        .par_iter()
        .map(|&key| {
            progress.check()?;
            let tile = build_tile(key, &picks[&key], levels, options);
            let i = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            progress.advance((i + 1) * units / count - i * units / count);
            Ok(tile)
        })
        .collect::<Result<Vec<Tile>>>()?;
    Ok(tiles)
}

/// The meshes of tile `key` from its picked triangles.
fn build_tile(
    (x, z): (i32, i32),
    picked: &[Picked],
    levels: &[Welded],
    options: &SceneOptions<'_>,
) -> Tile {
    let n = options.tile_voxels as i32;
    let corner = [x.saturating_mul(n), 0, z.saturating_mul(n)];
    let mut local = levels
        .iter()
        .zip(picked)
        .map(|(w, p)| localize(w, p, corner));
    let lod0 = local.next().unwrap_or_default();
    let first = (options.lods > 1 || options.collision).then(|| simplify_first(&lod0));
    let collision = first
        .as_ref()
        .filter(|_| options.collision)
        .map(|f| collision_from(&lod0, f));
    let mut out = vec![lod0];
    if options.lods > 1 {
        out.extend(first);
    }
    out.extend(local);
    while out.len() < options.lods as usize {
        let coarser = out
            .last()
            .map(|prev| simplify_level(prev, out.len() as u32));
        out.push(coarser.unwrap_or_default());
    }
    Tile {
        x,
        z,
        corner,
        levels: out,
        collision,
    }
}

/// The picked triangles of `w` with their own vertices, relative to `corner`.
fn localize(w: &Welded, p: &Picked, corner: [i32; 3]) -> TileLevel {
    let shift = [
        (corner[0] - w.origin.x) as f32,
        (corner[1] - w.origin.y) as f32,
        (corner[2] - w.origin.z) as f32,
    ];
    let mut out = TileLevel::default();
    let mut map: FxHashMap<u32, u32> = FxHashMap::default();
    for (src, water) in [(&p.solid, false), (&p.water, true)] {
        for &v in src {
            let next = out.positions.len() as u32;
            let local = *map.entry(v).or_insert_with(|| {
                let k = v as usize;
                let q = w.positions[k];
                out.positions
                    .push([q[0] - shift[0], q[1] - shift[1], q[2] - shift[2]]);
                out.normals.push(w.normals[k]);
                out.light.push(w.light[k]);
                let (slots, weights) = strongest_first(w.slots[k], w.weights[k]);
                out.slots.push(slots);
                out.weights.push(weights);
                next
            });
            if water {
                out.water.push(local);
            } else {
                out.solid.push(local);
            }
        }
    }
    out
}

/// A vertex's four materials (flag bits dropped) and weights, heaviest first (ties keep order).
fn strongest_first(slots: [u8; 4], weights: [u8; 4]) -> ([u8; 4], [u8; 4]) {
    let mut pairs = [0, 1, 2, 3].map(|i| (weights[i], slots[i] & 0x3f));
    pairs.sort_by_key(|p| std::cmp::Reverse(p.0));
    (pairs.map(|p| p.1), pairs.map(|p| p.0))
}
