//! Mesh nodes: cubes of `2^l` chunks per axis meshed as one at level of detail `l`, so a distant part
//! of the world costs one small mesh (and one draw call) however many chunks it holds.
//!
//! ```text
//!   level 0: one chunk at full resolution (32 samples a side, each one voxel)
//!   level 1: 2×2×2 chunks from their 16³ mips (32 samples a side, each 2 voxels)
//!   level 3: 8×8×8 chunks from their 4³ mips (each sample 8 voxels)
//!   level 5: 32×32×32 chunks (1024 voxels a side), one sample per chunk (32 voxels)
//! ```
//!
//! Every node has 32 samples a side, so every node costs about what one chunk costs at full
//! resolution, and a viewer refines the world as an octree: the 4096 × 4096 world is 16 nodes at
//! level 5 when seen whole. Levels 1 to 3 read the chunks' stored mips; levels 4 and 5 downsample
//! the 4³ mip once or twice more with the storage's own rule, so each level is the one below it
//! downsampled, as the stored mips are. The mesher is the one chunks use (same sample grid, same
//! placement at coarse levels); a node's mesh meets a neighbour of the same level exactly, and skirts
//! hide the seams between levels.

use super::input::{self, gather_chunk, BORDER, MAX_NODE_LEVEL};
use super::mesh_field::MaterialLut;
use super::{mesh, skirt, MeshBuffer, MeshInput};
use crate::storage::{downsample_dense, Chunk, Grid};
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos, CHUNK_SIZE};
use crate::{Error, Result};

/// Samples along each axis of every node's core.
const NODE_SAMPLES: usize = CHUNK_SIZE;

/// One node of the level-of-detail octree: `2^level` chunks per axis starting at chunk
/// `pos · 2^level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeKey {
    /// Level (0 = one chunk at full resolution, up to [`MAX_NODE_LEVEL`]).
    pub level: u32,
    /// Position in units of the node's size.
    pub pos: ChunkPos,
}

impl NodeKey {
    /// The node of `level` that holds chunk `chunk`.
    pub fn containing(chunk: ChunkPos, level: u32) -> Self {
        Self {
            level,
            pos: ChunkPos::new(chunk.x >> level, chunk.y >> level, chunk.z >> level),
        }
    }

    /// Chunks per axis.
    pub fn span(&self) -> i32 {
        1 << self.level
    }

    /// The node's lowest chunk.
    pub fn min_chunk(&self) -> ChunkPos {
        ChunkPos::new(
            self.pos.x << self.level,
            self.pos.y << self.level,
            self.pos.z << self.level,
        )
    }

    /// The voxels the node covers.
    pub fn voxel_box(&self) -> VoxelBox {
        let min = self.min_chunk().min_voxel();
        let s = CHUNK_SIZE as i32 * self.span();
        VoxelBox::new(min, VoxelPos::new(min.x + s, min.y + s, min.z + s))
    }

    /// The voxels the node's mesh reads: its box grown by the border, the ring of samples that
    /// decides which thin layers are kept (above level 0), and one sample (the mip samples that
    /// cover them), so an edit meeting this box changes the mesh.
    pub fn input_box(&self) -> VoxelBox {
        let b = self.voxel_box();
        let ring = i32::from(self.level > 0);
        let r = ((BORDER as i32 + ring) << self.level) + (1 << self.level);
        VoxelBox::new(
            VoxelPos::new(b.min.x - r, b.min.y - r, b.min.z - r),
            VoxelPos::new(b.max.x + r, b.max.y + r, b.max.z + r),
        )
    }

    /// The node one level up that holds this one.
    pub fn parent(&self) -> Option<Self> {
        (self.level < MAX_NODE_LEVEL).then(|| Self {
            level: self.level + 1,
            pos: ChunkPos::new(self.pos.x >> 1, self.pos.y >> 1, self.pos.z >> 1),
        })
    }

    /// The eight nodes one level down (none at level 0).
    pub fn children(&self) -> Vec<Self> {
        if self.level == 0 {
            return Vec::new();
        }
        (0..8)
            .map(|k| Self {
                level: self.level - 1,
                pos: ChunkPos::new(
                    2 * self.pos.x + (k & 1),
                    2 * self.pos.y + (k >> 1 & 1),
                    2 * self.pos.z + (k >> 2),
                ),
            })
            .collect()
    }
}

/// Mesh node `key` of `grid` into `buf` (cleared first), with skirts along its rim at every level
/// (see `skirt`: a neighbour may be drawn at another level). Level 0 is
/// [`mesh_chunk`](super::mesh_chunk) at full resolution plus skirts.
///
/// # Errors
/// [`Error::Invalid`] when the level is above [`MAX_NODE_LEVEL`].
pub fn mesh_node(
    grid: &Grid,
    key: NodeKey,
    table: &MaterialTable,
    buf: &mut MeshBuffer,
) -> Result<()> {
    if key.level > MAX_NODE_LEVEL {
        return Err(Error::Invalid(format!(
            "node level {} does not exist (0 to {MAX_NODE_LEVEL})",
            key.level
        )));
    }
    buf.clear();
    if key.level == 0 && input::is_trivial(grid, key.pos, table) {
        return Ok(());
    }
    let mut voxels = std::mem::take(&mut buf.scratch.voxels);
    let size = if key.level == 0 {
        gather_node(grid, key, &mut voxels)
    } else {
        let mut wide = std::mem::take(&mut buf.scratch.wide);
        let wide_size = gather_node_with(grid, key, BORDER + 1, &mut wide);
        let size = input::keep_thin_layers(&wide, wide_size, &MaterialLut::new(table), &mut voxels);
        buf.scratch.wide = wide;
        size
    };
    let min = key.min_chunk().min_voxel();
    let border = (BORDER as i32) << key.level;
    let origin = VoxelPos::new(min.x - border, min.y - border, min.z - border);
    let input = MeshInput::with_lod(&voxels, size, origin, key.level);
    mesh(&input, table, buf);
    skirt::add_skirts(buf, &input, table);
    buf.scratch.voxels = voxels;
    Ok(())
}

/// Fill `out` with node `key`'s samples plus the border, X fastest, and return the size.
pub(crate) fn gather_node(grid: &Grid, key: NodeKey, out: &mut Vec<Voxel>) -> [usize; 3] {
    gather_node_with(grid, key, BORDER, out)
}

/// [`gather_node`] with `border` samples around the core (above level 0; level 0 always gathers
/// [`BORDER`]).
fn gather_node_with(grid: &Grid, key: NodeKey, border: usize, out: &mut Vec<Voxel>) -> [usize; 3] {
    let level = key.level;
    if level == 0 {
        return gather_chunk(grid, key.pos, 0, out);
    }
    let m = NODE_SAMPLES + 2 * border;
    out.clear();
    out.resize(m * m * m, Voxel::AIR);
    // Samples per chunk along an axis, and the global sample index of out's first sample.
    let per = (CHUNK_SIZE >> level) as i32;
    let min = key.min_chunk();
    let first = [min.x, min.y, min.z].map(|c| c * per - border as i32);
    let last = first.map(|f| f + m as i32 - 1);
    let lo = first.map(|f| f.div_euclid(per));
    let hi = last.map(|l| l.div_euclid(per));
    let mut samples = Vec::new();
    let mut scratch = Vec::new();
    for cz in lo[2]..=hi[2] {
        for cy in lo[1]..=hi[1] {
            for cx in lo[0]..=hi[0] {
                let Some(chunk) = grid.chunk(ChunkPos::new(cx, cy, cz)) else {
                    continue;
                };
                if chunk.is_air() {
                    continue;
                }
                chunk_samples(chunk, level, &mut samples, &mut scratch);
                let base = [cx * per, cy * per, cz * per];
                // The chunk's samples that fall inside out, in out's coordinates.
                let range = |a: usize| {
                    let from = (first[a] - base[a]).max(0);
                    let to = (last[a] - base[a]).min(per - 1);
                    from..=to
                };
                let p = per as usize;
                let xs = range(0);
                for lz in range(2) {
                    let oz = (base[2] + lz - first[2]) as usize;
                    for ly in range(1) {
                        let oy = (base[1] + ly - first[1]) as usize;
                        let src = (lz as usize * p + ly as usize) * p;
                        let ox = (base[0] + xs.start() - first[0]) as usize;
                        let dst = (oz * m + oy) * m + ox;
                        let len = (xs.end() - xs.start() + 1) as usize;
                        let from = src + *xs.start() as usize;
                        out[dst..dst + len].copy_from_slice(&samples[from..from + len]);
                    }
                }
            }
        }
    }
    [m; 3]
}

/// `chunk`'s samples at `level` (1..=5), dense, X fastest: its stored mips up to level 3, the 4³ mip
/// downsampled once or twice beyond.
fn chunk_samples(chunk: &Chunk, level: u32, out: &mut Vec<Voxel>, scratch: &mut Vec<Voxel>) {
    let n = CHUNK_SIZE >> level.min(3);
    out.clear();
    out.resize(n * n * n, Voxel::AIR);
    match level {
        1 => chunk.mip16().to_dense(out),
        2 => chunk.mip8().to_dense(out),
        _ => chunk.mip4().to_dense(out),
    }
    let mut edge = n;
    for _ in 3..level {
        downsample_dense(out, edge, scratch);
        std::mem::swap(out, scratch);
        edge /= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::mesh_chunk;
    use crate::mesh::test_rng::XorShift;
    use crate::voxel::Voxel;

    fn hills(seed: u64) -> Grid {
        let mut grid = Grid::new();
        let mut rng = XorShift(seed | 1);
        let mut rnd = || (rng.next_u64() % 1000) as f32 / 1000.0;
        let (a, b, c) = (rnd() * 0.1 + 0.02, rnd() * 0.1 + 0.02, rnd() * 6.0);
        for z in -20..140 {
            for x in -20..140 {
                let h = 40.0 + 14.0 * ((x as f32 * a + c).sin() + (z as f32 * b).cos());
                let top = h.floor() as i32;
                let frac = h - h.floor();
                grid.fill_box(
                    VoxelBox::new(VoxelPos::new(x, 0, z), VoxelPos::new(x + 1, top, z + 1)),
                    Voxel::filled(if x % 37 < 20 { 2 } else { 7 }),
                );
                if frac > 0.01 {
                    let occ = (frac * 256.0) as u8;
                    grid.set(
                        VoxelPos::new(x, top, z),
                        Voxel::new(2, occ.saturating_sub(1).max(1)),
                    );
                }
            }
        }
        grid
    }

    fn solid_triangles(buf: &MeshBuffer) -> Vec<[[i64; 3]; 3]> {
        let key = |i: u32| buf.positions[i as usize].map(|c| (c * 1024.0).round() as i64);
        let mut tris: Vec<[[i64; 3]; 3]> = buf
            .solid_indices
            .chunks_exact(3)
            .map(|t| {
                let mut v = [key(t[0]), key(t[1]), key(t[2])];
                // Same triangle whatever vertex it starts at.
                let r = (0..3).min_by_key(|&k| v[k]).unwrap_or(0);
                v.rotate_left(r);
                v
            })
            .collect();
        tris.sort_unstable();
        tris
    }

    #[test]
    fn a_node_up_to_level_3_is_its_chunks_meshed_at_that_level() {
        let table = MaterialTable::builtin();
        for seed in [1, 7, 23] {
            let grid = hills(seed);
            for level in 1..=2 {
                let key = NodeKey::containing(ChunkPos::new(0, 0, 0), level);
                let mut buf = MeshBuffer::new();
                mesh_node(&grid, key, &table, &mut buf).expect("node");
                let whole = solid_triangles(&buf);
                let mut parts = Vec::new();
                let span = key.span();
                for z in 0..span {
                    for y in 0..span {
                        for x in 0..span {
                            mesh_chunk(&grid, ChunkPos::new(x, y, z), level, &table, &mut buf)
                                .expect("chunk");
                            parts.extend(solid_triangles(&buf));
                        }
                    }
                }
                parts.sort_unstable();
                assert!(!whole.is_empty());
                assert_eq!(whole, parts, "seed {seed} level {level}");
            }
        }
    }

    #[test]
    fn coarse_levels_follow_the_surface_and_cover_the_node() {
        let table = MaterialTable::builtin();
        let grid = hills(5);
        for level in 3..=MAX_NODE_LEVEL {
            let key = NodeKey::containing(ChunkPos::new(1, 1, 1), level);
            let mut buf = MeshBuffer::new();
            mesh_node(&grid, key, &table, &mut buf).expect("node");
            assert!(!buf.solid_indices.is_empty(), "level {level}");
            let b = key.voxel_box();
            let scale = (1u32 << level) as f32;
            for p in &buf.positions {
                assert!(p.iter().all(|c| c.is_finite()));
            }
            let mut tops = 0;
            for t in buf.solid_indices.chunks_exact(3) {
                let p = buf.positions[t[0] as usize];
                // The block's floor at y = 0 and its sides are surface too; the top lies between
                // heights 26 and 54, and a coarse sample may move it by up to about one sample.
                if buf.normals[t[0] as usize][1] < 0.7 || p[1] < 8.0 {
                    continue;
                }
                tops += 1;
                assert!(
                    p[1] > 26.0 - scale * 1.5 && p[1] < 54.0 + scale * 1.5,
                    "level {level}: vertex at height {}",
                    p[1]
                );
                assert!(p[0] >= b.min.x as f32 - scale && p[0] <= b.max.x as f32 + scale);
            }
            assert!(tops > 0, "level {level} has no top");
            assert!(!buf.skirt_indices.is_empty(), "level {level} has no skirt");
        }
    }

    #[test]
    fn skirt_bottoms_hang_from_their_rim_into_the_matter() {
        let table = MaterialTable::builtin();
        let grid = hills(5);
        let mut buf = MeshBuffer::new();
        for level in 0..=4 {
            let key = NodeKey::containing(ChunkPos::new(1, 1, 1), level);
            mesh_node(&grid, key, &table, &mut buf).expect("mesh");
            buf.assert_valid();
            let from = buf.skirt_from.expect("every node has skirts");
            assert!(from < buf.vertex_count() && !buf.skirt_indices.is_empty());
            assert!(buf.solid_indices.iter().all(|&i| (i as usize) < from));
            assert_eq!(buf.skirt_rims.len(), buf.vertex_count() - from);
            let scale = (1u32 << level) as f32;
            let reach = scale * (skirt::OUT_SAMPLES.hypot(skirt::DEEP_SAMPLES) + 1e-3);
            for (k, &rim) in buf.skirt_rims.iter().enumerate() {
                let i = from + k;
                let (p, r) = (buf.positions[i], buf.positions[rim as usize]);
                assert!(
                    (rim as usize) < from,
                    "level {level}: skirt {i} hangs from a skirt"
                );
                let d = [p[0] - r[0], p[1] - r[1], p[2] - r[2]];
                let n = buf.normals[rim as usize];
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                assert!(
                    len <= reach,
                    "level {level}: skirt {i} hangs {len} from its rim"
                );
                // Into the terrain: against the rim's normal, at least a plain skirt's depth.
                let depth = -(d[0] * n[0] + d[1] * n[1] + d[2] * n[2]);
                assert!(
                    depth >= 0.5 * skirt::DEEP_SAMPLES * scale - 1e-3,
                    "level {level}: skirt {i} hangs {depth} deep"
                );
            }
        }
    }

    #[test]
    fn flaps_stay_inside_a_world_whose_edge_meets_a_node_face() {
        // Flat ground starting at x = 64, a node face: the world's wall there belongs to the node
        // on the other side, so the top's rim runs along the edge, and a flap reaching out over
        // it would hang in the air beside the wall.
        let table = MaterialTable::builtin();
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(64, 0, 0), VoxelPos::new(160, 20, 96)),
            Voxel::filled(2),
        );
        let mut buf = MeshBuffer::new();
        for level in 0..=1 {
            let key = NodeKey::containing(ChunkPos::new(2, 0, 1), level);
            mesh_node(&grid, key, &table, &mut buf).expect("mesh");
            let from = buf.skirt_from.expect("skirts");
            let mut along_edge = 0;
            for (k, &rim) in buf.skirt_rims.iter().enumerate() {
                let (p, r) = (buf.positions[from + k], buf.positions[rim as usize]);
                along_edge += usize::from(r[0] < 66.0 && r[1] > 18.0);
                assert!(
                    p[0] >= 64.0 - 1e-3 && p[1] <= 20.0 + 1e-3,
                    "level {level}: a flap reaches {p:?}, outside the world"
                );
            }
            assert!(along_edge > 0, "level {level}: no rim along the edge");
        }
    }

    #[test]
    fn node_keys_nest() {
        let c = ChunkPos::new(-3, 5, 70);
        for level in 0..MAX_NODE_LEVEL {
            let k = NodeKey::containing(c, level);
            let up = k.parent().expect("parent");
            assert_eq!(up, NodeKey::containing(c, level + 1));
            assert!(up.children().contains(&k));
            let b = k.voxel_box();
            assert!(b.contains(c.min_voxel()), "level {level}: {b:?}");
        }
        assert!(NodeKey::containing(c, MAX_NODE_LEVEL).parent().is_none());
        let bad = NodeKey {
            level: MAX_NODE_LEVEL + 1,
            pos: c,
        };
        let mut buf = MeshBuffer::new();
        assert!(mesh_node(&Grid::new(), bad, &MaterialTable::builtin(), &mut buf).is_err());
    }
}
