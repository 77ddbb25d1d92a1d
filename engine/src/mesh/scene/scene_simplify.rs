//! Simplified meshes for the scene export: level 1, the levels past the mesher's deepest mip, and
//! the collision mesh, all from meshopt's edge-collapse simplifier with every tile-border vertex locked
//! (so neighbouring tiles still meet) and its error measured in voxels.

use meshopt::simplify::{simplify, SimplifyOptions};
use meshopt::utilities::typed_to_bytes;
use meshopt::VertexDataAdapter;

use super::scene_level::TileLevel;

/// Largest distance, in voxels, a collision mesh may stray from level 0 (the contract says 1; the
/// simplifier's error is an estimate, so it aims below).
pub(super) const COLLISION_ERROR_VOXELS: f32 = 0.6;

/// Collision keeps at most one triangle in this many of level 0.
pub(super) const COLLISION_REDUCTION: usize = 4;

/// `indices` over `level`'s positions simplified toward `target` triangles within `error` voxels,
/// tile borders locked unless `unlock_border`.
fn simplify_list(
    level: &TileLevel,
    indices: &[u32],
    target: usize,
    error: f32,
    unlock_border: bool,
) -> Vec<u32> {
    if indices.is_empty() {
        return Vec::new();
    }
    let bytes = typed_to_bytes(&level.positions);
    let Ok(adapter) = VertexDataAdapter::new(bytes, 12, 0) else {
        return indices.to_vec();
    };
    let mut options = SimplifyOptions::ErrorAbsolute;
    if !unlock_border {
        options |= SimplifyOptions::LockBorder;
    }
    simplify(indices, &adapter, target * 3, error, options, None)
}

/// Level `lod` of a tile past the mesher's mips: `prev` (level `lod − 1`) reduced to about a quarter
/// of its triangles within `2^lod` voxels.
pub(super) fn simplify_level(prev: &TileLevel, lod: u32) -> TileLevel {
    let error = (1u32 << lod.min(20)) as f32;
    let solid = simplify_list(prev, &prev.solid, prev.solid.len() / 12, error, false);
    let water = simplify_list(prev, &prev.water, prev.water.len() / 12, error, false);
    prev.compacted(&solid, &water)
}

/// `start` (indices over `level`) reduced to at most `cap` triangles: within
/// [`COLLISION_ERROR_VOXELS`] as far as the simplifier can tell, and when that bound stops it short of
/// `cap`, on with a looser bound (a triangle budget is a promise the engine's physics relies on).
fn reduce_to(level: &TileLevel, start: &[u32], cap: usize, unlock_border: bool) -> Vec<u32> {
    let mut error = COLLISION_ERROR_VOXELS;
    let mut solid = simplify_list(level, start, cap, error, unlock_border);
    while solid.len() / 3 > cap && error < 64.0 {
        error *= 2.0;
        solid = simplify_list(level, &solid, cap, error, unlock_border);
    }
    solid
}

/// Level 1 of a tile from its level 0: the solid reduced to at most a quarter of level 0's
/// triangles within [`COLLISION_ERROR_VOXELS`] as far as it goes (the collision budget, so the
/// collision mesh is this level's solid whenever the locked border allows it), the liquid as
/// [`simplify_level`] reduces it. Tile borders stay locked, so neighbouring tiles still meet.
pub(super) fn simplify_first(lod0: &TileLevel) -> TileLevel {
    let cap = lod0.triangles() / COLLISION_REDUCTION;
    let solid = reduce_to(lod0, &lod0.solid, cap, false);
    let water = simplify_list(lod0, &lod0.water, lod0.water.len() / 12, 2.0, false);
    lod0.compacted(&solid, &water)
}

/// The collision mesh of a tile: the solid of `first` (its [`simplify_first`] level), at most a
/// quarter of level 0's triangles. When the locked tile border alone holds more than that budget
/// (tiles of a few voxels), level 0 is simplified again with the border unlocked.
pub(super) fn collision_from(lod0: &TileLevel, first: &TileLevel) -> TileLevel {
    let cap = lod0.triangles() / COLLISION_REDUCTION;
    let mut out = if first.solid.len() / 3 <= cap {
        first.compacted(&first.solid, &[])
    } else {
        lod0.compacted(&reduce_to(lod0, &lod0.solid, cap, true), &[])
    };
    out.normals.clear();
    out.light.clear();
    out.slots.clear();
    out.weights.clear();
    out
}
