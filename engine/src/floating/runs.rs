//! One storage chunk's matter as runs along X, labelled into the chunk's own face-connected
//! components.
//!
//! ```text
//!   rows (y, z) of 32 voxels, z fastest inside y:       row (y, z):    ..███...████..
//!     a run = maximal stretch of matter in one row       row (y, z−1):  ...██████.....   overlaps: join
//!     join it with every overlapping run of the rows
//!     (y, z − 1) and (y − 1, z): that is exactly 6-connectivity inside the chunk
//! ```
//!
//! Terrain rows hold a few runs each, so a chunk of 32 768 voxels is labelled from a few thousand runs;
//! the merge across chunk faces (see [`super`]) then only looks at the rows on the faces.

use super::union_find::UnionFind;
use crate::storage::{Chunk, RowBuf};
use crate::voxel::{ChunkPos, MATERIAL_COUNT};

/// Chunk edge, as `u8` local coordinates use it.
const N: usize = crate::voxel::CHUNK_SIZE;

/// One run of matter along +X inside a chunk: local `x0..x1` of row (`y`, `z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// First voxel (local X).
    pub x0: u8,
    /// One past the last voxel (local X, up to 32).
    pub x1: u8,
}

/// The labelled runs of one chunk.
#[derive(Debug, Clone)]
pub struct ChunkRuns {
    /// The chunk.
    pub pos: ChunkPos,
    /// Every run, row by row (row index `y · 32 + z`).
    pub runs: Vec<Run>,
    /// `runs[row_start[r]..row_start[r + 1]]` are the runs of row `r`; 1025 entries.
    pub row_start: Vec<u32>,
    /// The chunk-local component of each run, `0..components`.
    pub component: Vec<u32>,
    /// Number of components.
    pub components: u32,
}

impl ChunkRuns {
    /// The runs of row (`y`, `z`) with their index of the first one.
    pub fn row(&self, y: usize, z: usize) -> (usize, &[Run]) {
        let r = y * N + z;
        let (a, b) = (self.row_start[r] as usize, self.row_start[r + 1] as usize);
        (a, &self.runs[a..b])
    }
}

/// Call `join(i, j)` for every pair of overlapping runs, `i` from `a` (first index `ia`) and `j` from
/// `b` (first index `ib`); both slices are sorted along X.
pub fn overlaps(ia: usize, a: &[Run], ib: usize, b: &[Run], mut join: impl FnMut(usize, usize)) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].x0 < b[j].x1 && b[j].x0 < a[i].x1 {
            join(ia + i, ib + j);
        }
        if a[i].x1 <= b[j].x1 {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// The runs of `chunk` at `pos`, labelled; `matter[m]` tells which materials count.
pub fn label_chunk(pos: ChunkPos, chunk: &Chunk, matter: &[bool; MATERIAL_COUNT]) -> ChunkRuns {
    let mut runs = Vec::new();
    let mut row_start = Vec::with_capacity(N * N + 1);
    let mut buf = RowBuf::new();
    for y in 0..N {
        for z in 0..N {
            row_start.push(runs.len() as u32);
            let row = chunk.read_row(y, z, &mut buf);
            let mut x = 0;
            while x < N {
                if matter[usize::from(row[x].material & 0x3f)] {
                    let x0 = x;
                    while x < N && matter[usize::from(row[x].material & 0x3f)] {
                        x += 1;
                    }
                    runs.push(Run {
                        x0: x0 as u8,
                        x1: x as u8,
                    });
                } else {
                    x += 1;
                }
            }
        }
    }
    row_start.push(runs.len() as u32);
    let mut out = ChunkRuns {
        pos,
        runs,
        row_start,
        component: Vec::new(),
        components: 0,
    };
    let mut sets = UnionFind::new(out.runs.len());
    for y in 0..N {
        for z in 0..N {
            let (ia, a) = out.row(y, z);
            if a.is_empty() {
                continue;
            }
            if z > 0 {
                let (ib, b) = out.row(y, z - 1);
                overlaps(ia, a, ib, b, |i, j| sets.union(i as u32, j as u32));
            }
            if y > 0 {
                let (ib, b) = out.row(y - 1, z);
                overlaps(ia, a, ib, b, |i, j| sets.union(i as u32, j as u32));
            }
        }
    }
    // Dense component ids in run order.
    let mut id_of_root = vec![u32::MAX; out.runs.len()];
    out.component = (0..out.runs.len() as u32)
        .map(|i| {
            let root = sets.find(i) as usize;
            if id_of_root[root] == u32::MAX {
                id_of_root[root] = out.components;
                out.components += 1;
            }
            id_of_root[root]
        })
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::Voxel;

    #[test]
    fn runs_join_across_rows_and_layers_but_not_diagonally() {
        let mut voxels = vec![Voxel::AIR; N * N * N];
        let at = |x: usize, y: usize, z: usize| x + N * (y + N * z);
        // A: a bar along X at (y 0, z 0) and a voxel above its end (face-connected).
        for x in 2..6 {
            voxels[at(x, 0, 0)] = Voxel::filled(3);
        }
        voxels[at(5, 1, 0)] = Voxel::filled(3);
        // B: touches A's bar only along an edge (x 6, y 1, z 1).
        voxels[at(6, 1, 1)] = Voxel::filled(3);
        // Water next to A: not matter.
        voxels[at(6, 0, 0)] = Voxel::filled(1);
        let chunk = Chunk::from_dense(&voxels);
        let mut matter = [true; MATERIAL_COUNT];
        matter[0] = false;
        matter[1] = false;
        let r = label_chunk(ChunkPos::new(0, 0, 0), &chunk, &matter);
        assert_eq!(r.runs.len(), 3);
        assert_eq!(r.components, 2);
        let (i, row) = r.row(0, 0);
        assert_eq!(row, &[Run { x0: 2, x1: 6 }]);
        let (j, _) = r.row(1, 0);
        let (k, _) = r.row(1, 1);
        assert_eq!(r.component[i], r.component[j]);
        assert_ne!(r.component[i], r.component[k]);
    }
}
