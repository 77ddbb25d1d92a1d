//! Stray matter: voxels that hold matter no surface shows, found so they can be turned into Air.
//!
//! ```text
//!   stray = a non-Air voxel under half full that
//!           - is thinner than MIN_MATTER_OCCUPANCY (left by older versions' carving, which pulled
//!             occupancy toward zero without reaching it), or
//!           - has no neighbour of its kind (solid or liquid; 26 around it) at least half full
//! ```
//!
//! The mesher puts a surface where occupancy crosses ½ between neighbouring voxels of a kind, so a
//! stray voxel has no surface of its own and clearing it keeps every mesh's cells and quads; only
//! vertices next to it move, by thousandths of a voxel on average (the mesher reads the slope of a
//! surface from its partial samples). Yet it is not empty: Sea Level would not flood it, a fill of
//! only Air would skip it and the floating search would count it.
//!
//! [`find_stray`] reads the grid only (chunks in parallel, one padded box read per chunk that holds
//! a candidate); [`StrayMatter::clear`] writes Air over what it found, and an editor records
//! [`StrayMatter::boxes`] as one undo step first.

use rayon::prelude::*;

use crate::progress::Progress;
use crate::storage::{Grid, RowBuf};
use crate::voxel::{
    ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos, CHUNK_SIZE, MATERIAL_COUNT,
    MIN_MATTER_OCCUPANCY,
};
use crate::Result;

/// The undo step name of clearing stray matter.
pub const CLEAR_STEP_NAME: &str = "Clear invisible matter";

/// Occupancy byte of a half-full voxel (fraction `(127 + 1) / 256 = ½`).
const HALF: u8 = 127;

/// The stray voxels of one chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayChunk {
    /// The chunk.
    pub pos: ChunkPos,
    /// The tightest box around its stray voxels.
    pub bounds: VoxelBox,
    /// Their chunk-local indices (`x + 32·(y + 32·z)`), ascending (the scan's order).
    pub local: Vec<u16>,
}

/// Every stray voxel of a grid, chunk by chunk (sorted Z, Y, X).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StrayMatter {
    /// The chunks holding stray voxels.
    pub chunks: Vec<StrayChunk>,
}

impl StrayMatter {
    /// Number of stray voxels.
    pub fn voxels(&self) -> u64 {
        self.chunks.iter().map(|c| c.local.len() as u64).sum()
    }

    /// True when nothing is stray.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// One tight box per chunk (what an undo step records).
    pub fn boxes(&self) -> Vec<VoxelBox> {
        self.chunks.iter().map(|c| c.bounds).collect()
    }

    /// The bounding box of every stray voxel (empty when none).
    pub fn bounds(&self) -> VoxelBox {
        self.chunks
            .iter()
            .fold(VoxelBox::default(), |b, c| b.union(&c.bounds))
    }

    /// Turn every stray voxel into Air (only those; the grid must be the one searched).
    pub fn clear(&self, grid: &mut Grid) {
        for c in &self.chunks {
            for &i in &c.local {
                grid.set(local_pos(c.pos, i), Voxel::AIR);
            }
        }
    }
}

fn local_pos(c: ChunkPos, i: u16) -> VoxelPos {
    let n = CHUNK_SIZE as u16;
    let m = c.min_voxel();
    VoxelPos::new(
        m.x + i32::from(i % n),
        m.y + i32::from((i / n) % n),
        m.z + i32::from(i / (n * n)),
    )
}

/// Kind of each material: 0 Air, 1 solid, 2 liquid (ids past the table count as solid).
fn kinds(table: &MaterialTable) -> [u8; MATERIAL_COUNT] {
    std::array::from_fn(|id| match (id, table.get(id as u8)) {
        (0, _) => 0,
        (_, Some(m)) if m.liquid => 2,
        _ => 1,
    })
}

/// Every stray voxel of `grid` (see the module docs). Progress counts chunks.
///
/// # Errors
/// [`crate::Error::Cancelled`] through `progress`.
pub fn find_stray(grid: &Grid, table: &MaterialTable, progress: &Progress) -> Result<StrayMatter> {
    let kind = kinds(table);
    let mut positions = grid.sorted_positions();
    positions.retain(|p| grid.chunk(*p).is_some_and(|c| !c.is_air()));
    progress.start(positions.len() as u64);
    let found: Vec<Option<StrayChunk>> = positions
        .par_iter()
        .map(|&pos| {
            progress.check()?;
            let out = stray_in_chunk(grid, &kind, pos);
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(StrayMatter {
        chunks: found.into_iter().flatten().collect(),
    })
}

/// The stray voxels of chunk `pos`, if any.
fn stray_in_chunk(grid: &Grid, kind: &[u8; MATERIAL_COUNT], pos: ChunkPos) -> Option<StrayChunk> {
    let n = CHUNK_SIZE;
    let candidate = |v: Voxel| !v.is_air() && v.occupancy < HALF;
    let mut buf = RowBuf::new();
    let any = (0..n).any(|z| {
        (0..n).any(|y| {
            grid.read_row(pos, y, z, &mut buf)
                .iter()
                .any(|&v| candidate(v))
        })
    });
    if !any {
        return None;
    }
    let inner = pos.voxel_box();
    let padded = inner.grown(1);
    let voxels = grid.read_box_vec(padded);
    let (sx, sxy) = (n + 2, (n + 2) * (n + 2));
    let mut local = Vec::new();
    let mut bounds = VoxelBox::default();
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let i = (x + 1) + (y + 1) * sx + (z + 1) * sxy;
                let v = voxels[i];
                if !candidate(v) {
                    continue;
                }
                let k = kind[usize::from(v.material & 0x3f)];
                let stray = v.occupancy < MIN_MATTER_OCCUPANCY
                    || !(-1isize..=1).any(|dz| {
                        (-1isize..=1).any(|dy| {
                            (-1isize..=1).any(|dx| {
                                let j = i
                                    .wrapping_add_signed(dx + dy * sx as isize + dz * sxy as isize);
                                let w = voxels[j];
                                j != i
                                    && kind[usize::from(w.material & 0x3f)] == k
                                    && w.occupancy >= HALF
                            })
                        })
                    });
                if stray {
                    local.push((x + n * (y + n * z)) as u16);
                    let p = VoxelPos::new(
                        inner.min.x + x as i32,
                        inner.min.y + y as i32,
                        inner.min.z + z as i32,
                    );
                    bounds = bounds.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
                }
            }
        }
    }
    (!local.is_empty()).then_some(StrayChunk { pos, bounds, local })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::{mesh_chunk, MeshBuffer};

    fn table() -> MaterialTable {
        MaterialTable::builtin()
    }

    #[test]
    fn finds_thin_and_lonely_matter_only() {
        let t = table();
        let rock = t.require("Rock").expect("rock");
        let water = t.require("Water").expect("water");
        let mut g = Grid::new();
        g.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(40, 8, 40)),
            Voxel::filled(rock),
        );
        // Thin matter on the ground: stray even next to full ground.
        g.set(VoxelPos::new(3, 8, 3), Voxel::new(rock, 0));
        // A quarter-full voxel on the ground shapes its surface: kept.
        g.set(VoxelPos::new(5, 8, 5), Voxel::new(rock, 63));
        // A lone quarter-full voxel in the air: stray.
        g.set(VoxelPos::new(20, 20, 20), Voxel::new(rock, 63));
        // A lone full voxel in the air is a floating piece, not stray.
        g.set(VoxelPos::new(25, 20, 25), Voxel::filled(rock));
        // Thin water next to full water: stray; half water next to full water: kept.
        g.set(VoxelPos::new(33, 9, 33), Voxel::filled(water));
        g.set(VoxelPos::new(34, 9, 33), Voxel::new(water, 3));
        g.set(VoxelPos::new(33, 10, 33), Voxel::new(water, 100));
        // A quarter-full rock voxel whose only full neighbour is water: stray (no solid surface).
        g.set(VoxelPos::new(32, 9, 33), Voxel::new(rock, 63));
        let s = find_stray(&g, &t, &Progress::new()).expect("search");
        let mut found: Vec<VoxelPos> = s
            .chunks
            .iter()
            .flat_map(|c| c.local.iter().map(|&i| local_pos(c.pos, i)))
            .collect();
        found.sort_by_key(|p| (p.x, p.y, p.z));
        let want = vec![
            VoxelPos::new(3, 8, 3),
            VoxelPos::new(20, 20, 20),
            VoxelPos::new(32, 9, 33),
            VoxelPos::new(34, 9, 33),
        ];
        assert_eq!(found, want);
        assert_eq!(s.voxels(), 4);
        for c in &s.chunks {
            for &i in &c.local {
                assert!(c.bounds.contains(local_pos(c.pos, i)));
            }
        }
        let mut cleared = g.clone();
        s.clear(&mut cleared);
        for p in &want {
            assert!(cleared.get(*p).is_air());
        }
        assert_eq!(cleared.get(VoxelPos::new(5, 8, 5)), Voxel::new(rock, 63));
        assert!(find_stray(&cleared, &t, &Progress::new())
            .expect("again")
            .is_empty());
        cleared.assert_valid();
    }

    /// Clearing stray matter keeps every mesh's cells and quads; lonely matter moves nothing and
    /// thin matter beside a surface moves its vertices a few thousandths of a voxel on average (a
    /// few by up to half a voxel where a thin sample was the only measure of a gentle slope).
    #[test]
    fn clearing_stray_matter_keeps_every_mesh_in_place() {
        let t = table();
        let mut rng = fastrand::Rng::with_seed(9);
        let mut g = Grid::new();
        g.modify_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 24, 64)),
            |p, _| {
                let h = 8 + (p.x / 5 + p.z / 7) % 6;
                match p.y {
                    y if y < h => Voxel::filled(7),
                    y if y == h => Voxel::new(2, rng.u8(..)),
                    _ if rng.u8(..) < 8 => Voxel::new(7, rng.u8(..HALF)),
                    _ if p.y > h + 2 && rng.u8(..) < 4 => Voxel::new(1, rng.u8(..HALF)),
                    _ => Voxel::AIR,
                }
            },
        );
        let s = find_stray(&g, &t, &Progress::new()).expect("search");
        assert!(s.voxels() > 100, "{}", s.voxels());
        let mut cleared = g.clone();
        s.clear(&mut cleared);
        let (mut a, mut b) = (MeshBuffer::default(), MeshBuffer::default());
        let mut moves = Vec::new();
        for c in VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 24, 64)).chunks() {
            mesh_chunk(&g, c, 0, &t, &mut a).expect("mesh");
            mesh_chunk(&cleared, c, 0, &t, &mut b).expect("mesh");
            // The same cells carry vertices (quads may split along the other diagonal).
            assert_eq!(a.positions.len(), b.positions.len(), "chunk {c:?}");
            assert_eq!(a.solid_indices.len(), b.solid_indices.len(), "chunk {c:?}");
            assert_eq!(a.water_indices.len(), b.water_indices.len(), "chunk {c:?}");
            for (p, q) in a.positions.iter().zip(&b.positions) {
                moves.push((0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f32>().sqrt());
            }
        }
        moves.sort_by(f32::total_cmp);
        let mean = moves.iter().sum::<f32>() / moves.len() as f32;
        let p99 = moves[moves.len() * 99 / 100];
        let max = moves[moves.len() - 1];
        assert!(
            mean < 0.01 && p99 < 0.1 && max < 0.5,
            "vertices moved: mean {mean}, 99th percentile {p99}, max {max}"
        );
    }
}
