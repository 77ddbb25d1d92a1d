//! Cutting the chunk meshes of each level into tiles, welding each tile apart (in parallel), and
//! making the levels and collision the mesher has no mip for.
//!
//! ```text
//!   chunk meshes of a level       tiles of N voxels, by triangle centroid
//!   ┌───┬───┬───┬───┐             ┌───────┬───────┐
//!   │/\/│\/\│/\/│\/\│   ──cut──>  │ /\/\/\│/\/\/\ │   a border vertex is welded into
//!   │\/\│/\/│\/\│/\/│             │ \/\/\/\/\/\/\ │   both tiles, at the same world
//!   └───┴───┴───┴───┘             └───────┴───────┘   position (exact: integer corners)
//! ```
//!
//! Each tile welds the triangles of the chunks that reach it, exactly as one weld of the whole level
//! would (the same position bits make one vertex, the same collapsed triangles are dropped), so a
//! tile's mesh does not depend on how the work is split; welding per tile lets the two cores share
//! what a world weld does on one.

use rayon::prelude::*;

pub(super) use super::scene_level::TileLevel;
use super::scene_options::SceneOptions;
use super::scene_simplify::{collision_from, simplify_first, simplify_level};
use crate::mesh::mesh_export::light_vertices;
use crate::mesh::weld::{TriangleUse, Welded};
use crate::mesh::MeshBuffer;
use crate::mesh::MAX_LOD;
use crate::progress::Progress;
use crate::voxel::{ChunkPos, MaterialTable, VoxelPos};
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

/// One meshed level: its chunk meshes and the voxel position their positions are relative to.
pub(super) struct LevelChunks {
    /// The mip level.
    pub lod: u32,
    /// What the positions are relative to.
    pub origin: VoxelPos,
    /// The chunks, in the weld's order (Z, Y, X).
    pub positions: Vec<ChunkPos>,
    /// One mesh per chunk, as `positions`.
    pub chunks: Vec<MeshBuffer>,
}

impl LevelChunks {
    /// How far, in voxels, a triangle's corner can lie from its centroid, with room to spare: four
    /// of the level's cells (a triangle spans at most two).
    fn margin(&self) -> f64 {
        f64::from(4u32 << self.lod.min(20))
    }
}

/// Which tile a triangle belongs to: the tile of its centroid, clamped to the tiles of the exported
/// extent (triangles of the world's outer walls can have their centroid a hair outside it: they
/// join the edge tile rather than make a tile of their own).
struct Tiling {
    n: i64,
    x: (i64, i64),
    z: (i64, i64),
}

impl Tiling {
    fn new(options: &SceneOptions<'_>) -> Self {
        let n = i64::from(options.tile_voxels);
        let extent = options
            .region
            .map_or(options.world, |r| r.intersect(&options.world));
        let range = |lo: i32, hi: i32| {
            (
                i64::from(lo).div_euclid(n),
                (i64::from(hi) - 1).max(i64::from(lo)).div_euclid(n),
            )
        };
        Self {
            n,
            x: range(extent.min.x, extent.max.x),
            z: range(extent.min.z, extent.max.z),
        }
    }

    /// The tile of the triangle with corners `tri` (relative to `origin`).
    fn key(&self, origin: VoxelPos, tri: &[[f32; 3]; 3]) -> (i32, i32) {
        let c = |a: usize| {
            let s: f64 = tri.iter().map(|p| f64::from(p[a])).sum();
            (s / 3.0).floor() as i64
        };
        (
            (c(0) + i64::from(origin.x))
                .div_euclid(self.n)
                .clamp(self.x.0, self.x.1) as i32,
            (c(2) + i64::from(origin.z))
                .div_euclid(self.n)
                .clamp(self.z.0, self.z.1) as i32,
        )
    }

    /// The X and Z world ranges of tile `key`, grown by `margin` (unbounded on the sides where the
    /// tile takes the centroids beyond the extent).
    fn window(&self, (x, z): (i32, i32), margin: f64) -> [[f64; 2]; 2] {
        let n = self.n as f64;
        let side = |t: i32, range: (i64, i64)| {
            let lo = if i64::from(t) == range.0 {
                f64::NEG_INFINITY
            } else {
                f64::from(t) * n - margin
            };
            let hi = if i64::from(t) == range.1 {
                f64::INFINITY
            } else {
                f64::from(t + 1) * n + margin
            };
            [lo, hi]
        };
        [side(x, self.x), side(z, self.z)]
    }

    /// What a weld of tile `key` does with a triangle of `level`: keep it when it is the tile's,
    /// weld its corners when one lies near enough to be a corner of one of the tile's triangles
    /// (so shared positions take the attributes a whole weld gives them), else skip it.
    fn choose(&self, key: (i32, i32), level: &LevelChunks, tri: &[[f32; 3]; 3]) -> TriangleUse {
        if self.key(level.origin, tri) == key {
            return TriangleUse::Keep;
        }
        let [wx, wz] = self.window(key, level.margin());
        let (ox, oz) = (f64::from(level.origin.x), f64::from(level.origin.z));
        let near = tri.iter().any(|p| {
            let (x, z) = (f64::from(p[0]) + ox, f64::from(p[2]) + oz);
            wx[0] <= x && x <= wx[1] && wz[0] <= z && z <= wz[1]
        });
        if near {
            TriangleUse::WeldOnly
        } else {
            TriangleUse::Skip
        }
    }

    /// Whether chunk `pos` of `level` can hold a triangle [`Tiling::choose`] does not skip for tile
    /// `key` (its corners lie within a few cells of its box).
    fn reaches(&self, key: (i32, i32), level: &LevelChunks, pos: ChunkPos) -> bool {
        let [wx, wz] = self.window(key, 3.0 * level.margin());
        let b = pos.voxel_box();
        f64::from(b.max.x) >= wx[0]
            && f64::from(b.min.x) <= wx[1]
            && f64::from(b.max.z) >= wz[0]
            && f64::from(b.min.z) <= wz[1]
    }

    /// The tiles the triangles of `buf` go to (collapsed triangles, which no weld keeps, left out).
    fn keys_of(&self, origin: VoxelPos, buf: &MeshBuffer) -> Vec<(i32, i32)> {
        let mut keys = Vec::new();
        for tri in buf
            .solid_indices
            .chunks_exact(3)
            .chain(buf.water_indices.chunks_exact(3))
        {
            let t = [0, 1, 2].map(|k| buf.positions[tri[k] as usize]);
            let bits = t.map(|p| p.map(f32::to_bits));
            if bits[0] == bits[1] || bits[1] == bits[2] || bits[0] == bits[2] {
                continue;
            }
            let key = self.key(origin, &t);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    }
}

/// The mip levels the mesher makes for a scene of `lods` levels: 0, and 2 up to the mesher's deepest
/// mip. Level 1 is level 0 simplified (the collision mesh's own reduction, so one simplification
/// serves both, and a closer fit than mip 1); levels past the deepest mip are simplified too.
pub(super) fn meshed_lods(lods: u32) -> Vec<u32> {
    std::iter::once(0).chain(2..lods.min(MAX_LOD + 1)).collect()
}

/// Cut the chunk meshes of every level of `levels` (the levels of [`meshed_lods`], in order) into
/// tiles of `options.tile_voxels`, weld and light each tile, add the simplified levels up to
/// `options.lods` and collision when asked. Advances `progress` by `units` in all, a share per tile.
///
/// # Errors
/// [`crate::Error::Cancelled`] when `progress` is cancelled.
pub(super) fn cut_tiles(
    levels: &[LevelChunks],
    table: &MaterialTable,
    options: &SceneOptions<'_>,
    units: u64,
    progress: &Progress,
) -> Result<Vec<Tile>> {
    let tiling = Tiling::new(options);
    let mut keys: Vec<(i32, i32)> = Vec::new();
    for level in levels {
        progress.check()?;
        let found: Vec<Vec<(i32, i32)>> = level
            .chunks
            .par_iter()
            .map(|buf| tiling.keys_of(level.origin, buf))
            .collect();
        keys.extend(found.into_iter().flatten());
    }
    keys.sort_unstable_by_key(|&(x, z)| (z, x));
    keys.dedup();
    let count = keys.len().max(1) as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let tiles = keys
        .par_iter()
        .map(|&key| {
            progress.check()?;
            let tile = build_tile(key, levels, &tiling, table, options);
            let i = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            progress.advance((i + 1) * units / count - i * units / count);
            Ok(tile)
        })
        .collect::<Result<Vec<Tile>>>()?;
    Ok(tiles)
}

/// The meshes of tile `key`: each level welded from its triangles, then simplified levels and
/// collision.
fn build_tile(
    key @ (x, z): (i32, i32),
    levels: &[LevelChunks],
    tiling: &Tiling,
    table: &MaterialTable,
    options: &SceneOptions<'_>,
) -> Tile {
    let n = options.tile_voxels as i32;
    let corner = [x.saturating_mul(n), 0, z.saturating_mul(n)];
    let mut local = levels.iter().map(|level| {
        let mut w = Welded::new(table);
        w.origin = level.origin;
        for (buf, &pos) in level.chunks.iter().zip(&level.positions) {
            if tiling.reaches(key, level, pos) {
                w.add_where(buf, |tri| tiling.choose(key, level, tri));
            }
        }
        if let Some(light) = options.light {
            light_vertices(&mut w, 0, light);
        }
        localize(&w, corner)
    });
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

/// The triangles of tile mesh `w` with the vertices they use, in first-use order, relative to
/// `corner`.
fn localize(w: &Welded, corner: [i32; 3]) -> TileLevel {
    let shift = [
        (corner[0] - w.origin.x) as f32,
        (corner[1] - w.origin.y) as f32,
        (corner[2] - w.origin.z) as f32,
    ];
    let mut out = TileLevel::default();
    let mut map = vec![u32::MAX; w.positions.len()];
    for (src, water) in [(&w.solid, false), (&w.water, true)] {
        for &v in src {
            let k = v as usize;
            if map[k] == u32::MAX {
                map[k] = out.positions.len() as u32;
                let q = w.positions[k];
                out.positions
                    .push([q[0] - shift[0], q[1] - shift[1], q[2] - shift[2]]);
                out.normals.push(w.normals[k]);
                out.light.push(w.light[k]);
                let (slots, weights) = strongest_first(w.slots[k], w.weights[k]);
                out.slots.push(slots);
                out.weights.push(weights);
            }
            if water {
                out.water.push(map[k]);
            } else {
                out.solid.push(map[k]);
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
