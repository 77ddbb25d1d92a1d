//! Simplified meshes for the scene export: levels of detail past the mesher's deepest mip, and the
//! collision mesh, both from meshopt's edge-collapse simplifier with every tile-border vertex locked
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

/// The collision mesh of a tile from its level 0: solid triangles only, at most a quarter of level
/// 0's triangles, within [`COLLISION_ERROR_VOXELS`] of it as far as the simplifier can tell. When the
/// error bound stops it short of the quarter, it goes on with a looser bound (a triangle budget is a
/// promise the engine's physics relies on); when the locked tile border alone holds more than the
/// budget (tiles of a few voxels), the border is unlocked too.
pub(super) fn simplify_collision(lod0: &TileLevel) -> TileLevel {
    let cap = lod0.triangles() / COLLISION_REDUCTION;
    let mut solid = Vec::new();
    for unlock_border in [false, true] {
        let mut error = COLLISION_ERROR_VOXELS;
        solid = simplify_list(lod0, &lod0.solid, cap, error, unlock_border);
        while solid.len() / 3 > cap && error < 64.0 {
            error *= 2.0;
            solid = simplify_list(lod0, &solid, cap, error, unlock_border);
        }
        if solid.len() / 3 <= cap {
            break;
        }
    }
    let mut out = lod0.compacted(&solid, &[]);
    out.normals.clear();
    out.light.clear();
    out.slots.clear();
    out.weights.clear();
    out
}
