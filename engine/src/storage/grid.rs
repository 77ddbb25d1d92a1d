//! The sparse, unbounded voxel grid: a hash map from chunk position to [`Chunk`].
//!
//! Missing chunks read as Air; chunks that become all Air are dropped. Region reads and writes split a
//! box into per-chunk sub-boxes and move whole X row segments at a time.

use rustc_hash::FxHashMap;

use super::chunk::Chunk;
use super::packed::PackedBox;
use super::stored_row::{filled_row, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, AIR, CHUNK_SIZE, MATERIAL_COUNT};

/// Counts over a whole grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridStats {
    /// Chunks stored.
    pub chunks: usize,
    /// Voxels whose material is not Air.
    pub nonair_voxels: u64,
    /// Voxels per material id (Air counts only voxels inside stored chunks).
    pub by_material: [u64; MATERIAL_COUNT],
}

/// Sparse chunked voxel storage.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    chunks: FxHashMap<ChunkPos, Chunk>,
}

/// Local `lo..hi` of the part of `b` inside chunk `pos`.
fn local_range(pos: ChunkPos, b: &VoxelBox) -> ([usize; 3], [usize; 3], VoxelBox) {
    let part = pos.voxel_box().intersect(b);
    let o = pos.min_voxel();
    let lo = [
        (part.min.x - o.x) as usize,
        (part.min.y - o.y) as usize,
        (part.min.z - o.z) as usize,
    ];
    let s = part.size();
    (lo, [lo[0] + s[0], lo[1] + s[1], lo[2] + s[2]], part)
}

/// Every chunk position `boxes` touch, each once.
fn touched(boxes: &[VoxelBox]) -> rustc_hash::FxHashSet<ChunkPos> {
    boxes.iter().flat_map(VoxelBox::chunks).collect()
}

impl Grid {
    /// An empty grid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of stored chunks.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The chunk at `pos`, if stored.
    pub fn chunk(&self, pos: ChunkPos) -> Option<&Chunk> {
        self.chunks.get(&pos)
    }

    /// All chunks, in no particular order.
    pub fn chunks(&self) -> impl Iterator<Item = (ChunkPos, &Chunk)> {
        self.chunks.iter().map(|(p, c)| (*p, c))
    }

    /// Stored chunk positions, sorted (Z, then Y, then X) for deterministic output.
    pub fn sorted_positions(&self) -> Vec<ChunkPos> {
        let mut v: Vec<ChunkPos> = self.chunks.keys().copied().collect();
        v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        v
    }

    /// Store a whole chunk (replacing any previous one); an all-Air chunk removes the entry.
    pub fn insert_chunk(&mut self, pos: ChunkPos, chunk: Chunk) {
        if chunk.is_air() {
            self.chunks.remove(&pos);
        } else {
            self.chunks.insert(pos, chunk);
        }
    }

    /// Copies of the stored chunks that `boxes` touch, as a grid of their own: edit the copy on
    /// another thread (every write inside `boxes`), then put it back with [`Grid::replace_chunks`].
    pub fn copy_chunks(&self, boxes: &[VoxelBox]) -> Grid {
        let mut out = Grid::new();
        for pos in touched(boxes) {
            if let Some(c) = self.chunks.get(&pos) {
                out.chunks.insert(pos, c.clone());
            }
        }
        out
    }

    /// Replace every chunk that `boxes` touch with `from`'s (removing those `from` lacks): installs
    /// an edit made on [`Grid::copy_chunks`] of the same boxes. Chunks outside them stay as they are.
    pub fn replace_chunks(&mut self, boxes: &[VoxelBox], mut from: Grid) {
        for pos in touched(boxes) {
            match from.chunks.remove(&pos) {
                Some(c) => self.insert_chunk(pos, c),
                None => {
                    self.chunks.remove(&pos);
                }
            }
        }
    }

    /// Remove and return the chunk at `pos`.
    pub fn remove_chunk(&mut self, pos: ChunkPos) -> Option<Chunk> {
        self.chunks.remove(&pos)
    }

    /// One voxel (Air where no chunk is stored).
    pub fn get(&self, p: VoxelPos) -> Voxel {
        let [x, y, z] = p.local();
        self.chunks
            .get(&p.chunk())
            .map_or(Voxel::AIR, |c| c.get(x, y, z))
    }

    /// Write one voxel (normalized).
    pub fn set(&mut self, p: VoxelPos, v: Voxel) {
        self.write_box(VoxelBox::from_min_size(p, [1, 1, 1]), &[v]);
    }

    /// The X row of chunk `pos` at local (`y`, `z`): 32 voxels, a static row when packed, else
    /// decoded into `buf`.
    #[inline]
    pub fn read_row<'a>(
        &'a self,
        pos: ChunkPos,
        y: usize,
        z: usize,
        buf: &'a mut RowBuf,
    ) -> &'a [Voxel] {
        match self.chunks.get(&pos) {
            Some(c) => c.read_row(y, z, buf),
            None => &filled_row(AIR)[..CHUNK_SIZE],
        }
    }

    /// Read box `b` into `out` (X fastest, then Y, then Z).
    ///
    /// # Panics
    /// If `out.len() != b.volume()`.
    pub fn read_box(&self, b: VoxelBox, out: &mut [Voxel]) {
        assert_eq!(
            out.len(),
            b.volume(),
            "output buffer does not match the box"
        );
        let [sx, sy, _] = b.size();
        for pos in b.chunks() {
            let (lo, hi, part) = local_range(pos, &b);
            let start = (((part.min.z - b.min.z) as usize * sy) + (part.min.y - b.min.y) as usize)
                * sx
                + (part.min.x - b.min.x) as usize;
            match self.chunks.get(&pos) {
                Some(c) => c.level0().copy_box_into(lo, hi, out, start, sx, sx * sy),
                None => PackedBox::<CHUNK_SIZE>::uniform(AIR).copy_box_into(
                    lo,
                    hi,
                    out,
                    start,
                    sx,
                    sx * sy,
                ),
            }
        }
    }

    /// Read box `b` into a new vector.
    pub fn read_box_vec(&self, b: VoxelBox) -> Vec<Voxel> {
        let mut v = vec![Voxel::AIR; b.volume()];
        self.read_box(b, &mut v);
        v
    }

    /// Write `src` (X fastest, then Y, then Z) into box `b`. Voxels are normalized; chunks are
    /// created as needed and dropped when they become all Air.
    ///
    /// # Panics
    /// If `src.len() != b.volume()`.
    pub fn write_box(&mut self, b: VoxelBox, src: &[Voxel]) {
        assert_eq!(
            src.len(),
            b.volume(),
            "source buffer does not match the box"
        );
        let [sx, sy, _] = b.size();
        let offset = |part: &VoxelBox, y: i32, z: i32| {
            ((z - b.min.z) as usize * sy + (y - b.min.y) as usize) * sx
                + (part.min.x - b.min.x) as usize
        };
        for pos in b.chunks() {
            let (lo, hi, part) = local_range(pos, &b);
            let len = hi[0] - lo[0];
            if !self.chunks.contains_key(&pos) {
                let all_air = (part.min.z..part.max.z).all(|z| {
                    (part.min.y..part.max.y).all(|y| {
                        let s = offset(&part, y, z);
                        src[s..s + len].iter().all(|v| v.material & 0x3f == AIR)
                    })
                });
                if all_air {
                    continue;
                }
            }
            let origin = pos.min_voxel();
            let chunk = self.chunks.entry(pos).or_insert_with(Chunk::air);
            chunk.write_with(lo, hi, |y, z, row| {
                let s = offset(&part, origin.y + y as i32, origin.z + z as i32);
                row[lo[0]..hi[0]].copy_from_slice(&src[s..s + len]);
            });
            if chunk.is_air() {
                self.chunks.remove(&pos);
            }
        }
    }

    /// Rewrite every voxel of `b` through `f(position, old) -> new`, chunk by chunk.
    pub fn modify_box(&mut self, b: VoxelBox, mut f: impl FnMut(VoxelPos, Voxel) -> Voxel) {
        for pos in b.chunks() {
            let (lo, hi, _) = local_range(pos, &b);
            let origin = pos.min_voxel();
            let chunk = self.chunks.entry(pos).or_insert_with(Chunk::air);
            chunk.write_with(lo, hi, |y, z, row| {
                for (x, v) in row.iter_mut().enumerate().take(hi[0]).skip(lo[0]) {
                    let p = VoxelPos::new(
                        origin.x + x as i32,
                        origin.y + y as i32,
                        origin.z + z as i32,
                    );
                    *v = f(p, *v);
                }
            });
            if chunk.is_air() {
                self.chunks.remove(&pos);
            }
        }
    }

    /// Fill box `b` with one voxel.
    pub fn fill_box(&mut self, b: VoxelBox, v: Voxel) {
        self.modify_box(b, |_, _| v);
    }

    /// Counts of chunks and voxels by material.
    pub fn stats(&self) -> GridStats {
        let mut by_material = [0u64; MATERIAL_COUNT];
        for c in self.chunks.values() {
            c.count_materials(&mut by_material);
        }
        GridStats {
            chunks: self.chunks.len(),
            nonair_voxels: by_material[1..].iter().sum(),
            by_material,
        }
    }

    /// Bytes this grid occupies in memory: the hash table's slots plus every chunk's heap.
    pub fn memory_bytes(&self) -> usize {
        let slot = size_of::<(ChunkPos, Chunk)>() + 1;
        self.chunks.capacity() * slot + self.chunks.values().map(Chunk::heap_bytes).sum::<usize>()
    }

    /// Check every chunk and that no all-Air chunk is stored.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self) {
        for (pos, c) in &self.chunks {
            assert!(!c.is_air(), "chunk {pos:?} is all Air but stored");
            c.assert_valid();
        }
    }
}

impl FromIterator<(ChunkPos, Chunk)> for Grid {
    /// A grid of the given chunks (a later chunk at the same position replaces an earlier one).
    fn from_iter<I: IntoIterator<Item = (ChunkPos, Chunk)>>(chunks: I) -> Self {
        let mut grid = Grid::new();
        for (pos, chunk) in chunks {
            grid.insert_chunk(pos, chunk);
        }
        grid
    }
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        self.chunks == other.chunks
    }
}

impl Eq for Grid {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_across_negative_chunks() {
        let mut g = Grid::new();
        let b = VoxelBox::new(VoxelPos::new(-40, -3, -1), VoxelPos::new(5, 2, 33));
        let src: Vec<Voxel> = (0..b.volume())
            .map(|i| Voxel::new((i % 5) as u8, (i % 251) as u8))
            .collect();
        g.write_box(b, &src);
        g.assert_valid();
        let normalized: Vec<Voxel> = src
            .iter()
            .map(|v| Voxel::new(v.material, v.occupancy))
            .collect();
        assert_eq!(g.read_box_vec(b), normalized);
        assert_eq!(g.get(VoxelPos::new(-40, -3, -1)), normalized[0]);
        g.fill_box(b, Voxel::AIR);
        assert_eq!(g.chunk_count(), 0);
    }

    #[test]
    fn an_edit_on_copied_chunks_installs_like_the_same_edit_in_place() {
        let mut g = Grid::new();
        let ground = VoxelBox::new(VoxelPos::new(-40, -8, -40), VoxelPos::new(40, 6, 40));
        g.fill_box(ground, Voxel::filled(3));
        g.set(VoxelPos::new(50, 50, 50), Voxel::new(2, 99));
        let boxes = [
            VoxelBox::new(VoxelPos::new(-35, 0, -3), VoxelPos::new(3, 20, 9)),
            VoxelBox::new(VoxelPos::new(0, -8, 0), VoxelPos::new(5, 6, 5)),
        ];
        let mut copy = g.copy_chunks(&boxes);
        assert!(copy.chunk_count() < g.chunk_count());
        let edit = |grid: &mut Grid| {
            grid.fill_box(boxes[0], Voxel::new(2, 40));
            grid.fill_box(boxes[1], Voxel::AIR);
        };
        edit(&mut copy);
        let mut expected = g.clone();
        edit(&mut expected);
        g.replace_chunks(&boxes, copy);
        g.assert_valid();
        assert_eq!(g, expected);
    }

    #[test]
    fn rows_of_missing_chunks_are_air() {
        let g = Grid::new();
        assert_eq!(
            g.read_row(ChunkPos::new(9, -9, 0), 3, 4, &mut RowBuf::new()),
            &[Voxel::AIR; 32][..]
        );
    }

    #[test]
    fn writing_air_into_nothing_creates_nothing() {
        let mut g = Grid::new();
        let b = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [64, 64, 64]);
        g.write_box(b, &vec![Voxel::AIR; b.volume()]);
        assert_eq!(g.chunk_count(), 0);
    }
}
