//! The result of a floating-terrain search: the pieces, summarised, and what it takes to find their
//! voxels again (each chunk's labelled runs and the piece of each component), so chosen pieces are
//! deleted chunk by chunk without a voxel list per piece.
//!
//! ```text
//!   pieces       [ {voxels, min, max} ... ]              largest first
//!   chunks       labelled runs of every chunk with matter (runs.rs)
//!   piece_of     global component id -> piece index, or GROUND
//!   delete       per chunk: the runs of chosen pieces -> tight box recorded -> runs cleared
//! ```

use super::piece::{FloatingPiece, VoxelRun, DELETE_STEP_NAME};
use super::runs::ChunkRuns;
use super::union_find::UnionFind;
use crate::history::History;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos, CHUNK_SIZE};

/// `piece_of` entry of a component connected to the bottom layer.
const GROUND: u32 = u32::MAX;

/// Every floating piece of a grid, as [`super::find_floating`] found them.
#[derive(Debug, Clone, Default)]
pub struct Floating {
    pieces: Vec<FloatingPiece>,
    chunks: Vec<ChunkRuns>,
    /// First global component id of each chunk.
    first: Vec<u32>,
    /// The piece of each global component ([`GROUND`] for ground).
    piece_of: Vec<u32>,
}

/// Per-set totals while collecting.
#[derive(Debug, Clone, Copy)]
struct Tally {
    voxels: u64,
    min: [i32; 3],
    max: [i32; 3],
    ground: bool,
}

impl Floating {
    /// Summarise the union–find sets of `chunks` (whose components start at `first`) into pieces.
    pub(super) fn collect(
        chunks: Vec<ChunkRuns>,
        first: Vec<u32>,
        sets: &mut UnionFind,
        bottom_y: i32,
    ) -> Self {
        let mut tally: Vec<Option<Tally>> = vec![None; sets.len()];
        for_each_run(&chunks, &first, |id, run| {
            let root = sets.find(id) as usize;
            let (lo, hi) = (
                [run.start.x, run.start.y, run.start.z],
                [run.start.x + run.len as i32 - 1, run.start.y, run.start.z],
            );
            let t = tally[root].get_or_insert(Tally {
                voxels: 0,
                min: lo,
                max: hi,
                ground: false,
            });
            t.voxels += u64::from(run.len);
            t.min = std::array::from_fn(|k| t.min[k].min(lo[k]));
            t.max = std::array::from_fn(|k| t.max[k].max(hi[k]));
            t.ground |= run.start.y == bottom_y;
        });
        // Pieces in root order, then sorted; `rank[root]` is a root's final piece index.
        let mut order: Vec<(FloatingPiece, u32)> = tally
            .iter()
            .enumerate()
            .filter_map(|(root, t)| {
                let t = t.as_ref().filter(|t| !t.ground)?;
                let piece = FloatingPiece {
                    voxels: t.voxels,
                    min: VoxelPos::new(t.min[0], t.min[1], t.min[2]),
                    max: VoxelPos::new(t.max[0], t.max[1], t.max[2]),
                };
                Some((piece, root as u32))
            })
            .collect();
        drop(tally);
        order.sort_by_key(|(p, _)| (std::cmp::Reverse(p.voxels), p.min.y, p.min.z, p.min.x));
        let mut rank = vec![GROUND; sets.len()];
        let mut pieces = Vec::with_capacity(order.len());
        for (i, (p, root)) in order.into_iter().enumerate() {
            rank[root as usize] = i as u32;
            pieces.push(p);
        }
        let piece_of = (0..sets.len() as u32)
            .map(|id| rank[sets.find(id) as usize])
            .collect();
        Self {
            pieces,
            chunks,
            first,
            piece_of,
        }
    }

    /// The pieces, largest first (ties by lowest corner: y, then z, then x).
    pub fn pieces(&self) -> &[FloatingPiece] {
        &self.pieces
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// True when nothing floats.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Voxels in every piece.
    pub fn voxels(&self) -> u64 {
        self.pieces.iter().map(|p| p.voxels).sum()
    }

    /// True when voxel `p` belongs to piece `piece`.
    pub fn contains(&self, piece: usize, p: VoxelPos) -> bool {
        let c = p.chunk();
        let Some(ci) = self.chunks.iter().position(|ch| ch.pos == c) else {
            return false;
        };
        let [x, y, z] = p.local();
        let (i0, runs) = self.chunks[ci].row(y, z);
        runs.iter().enumerate().any(|(k, r)| {
            usize::from(r.x0) <= x
                && x < usize::from(r.x1)
                && self.piece_of_run(ci, i0 + k) == Some(piece)
        })
    }

    /// The voxels of piece `piece` as runs along X, sorted by (z, y, x).
    pub fn runs_of(&self, piece: usize) -> Vec<VoxelRun> {
        let mut out = Vec::new();
        self.for_each_piece_run(|p, run| {
            if p == piece {
                out.push(run);
            }
        });
        out.sort_by_key(|r| (r.start.z, r.start.y, r.start.x));
        out
    }

    /// The piece of run `k` of chunk `ci`, if it floats.
    fn piece_of_run(&self, ci: usize, k: usize) -> Option<usize> {
        let id = self.first[ci] + self.chunks[ci].component[k];
        let p = self.piece_of[id as usize];
        (p != GROUND).then_some(p as usize)
    }

    /// Every run of a floating piece with its piece index.
    fn for_each_piece_run(&self, mut f: impl FnMut(usize, VoxelRun)) {
        for_each_run(&self.chunks, &self.first, |id, run| {
            let p = self.piece_of[id as usize];
            if p != GROUND {
                f(p as usize, run);
            }
        });
    }

    /// Per chunk, the tightest box around the runs of the chosen pieces (`chosen[i]` for piece `i`;
    /// pieces past its end are not chosen): what an undo step records before [`Floating::clear`].
    pub fn boxes(&self, chosen: &[bool]) -> Vec<VoxelBox> {
        let is_chosen = |p: usize| chosen.get(p).copied().unwrap_or(false);
        let mut out = Vec::new();
        for (ci, c) in self.chunks.iter().enumerate() {
            let mut b = VoxelBox::default();
            let o = c.pos.min_voxel();
            for y in 0..CHUNK_SIZE {
                for z in 0..CHUNK_SIZE {
                    let (i0, runs) = c.row(y, z);
                    for (k, r) in runs.iter().enumerate() {
                        if self.piece_of_run(ci, i0 + k).is_some_and(is_chosen) {
                            let start = VoxelPos::new(
                                o.x + i32::from(r.x0),
                                o.y + y as i32,
                                o.z + z as i32,
                            );
                            let run =
                                VoxelBox::from_min_size(start, [u32::from(r.x1 - r.x0), 1, 1]);
                            b = b.union(&run);
                        }
                    }
                }
            }
            if !b.is_empty() {
                out.push(b);
            }
        }
        out
    }

    /// Turn every voxel of the chosen pieces to Air (the grid must be the one searched); returns the
    /// bounding box of what changed, `None` when nothing did. Records no history: see
    /// [`delete_pieces`].
    pub fn clear(&self, grid: &mut Grid, chosen: &[bool]) -> Option<VoxelBox> {
        let is_chosen = |p: usize| chosen.get(p).copied().unwrap_or(false);
        let mut changed = VoxelBox::default();
        let mut voxels = Vec::new();
        for (ci, c) in self.chunks.iter().enumerate() {
            let whole = c.pos.voxel_box();
            let mut touched = false;
            for y in 0..CHUNK_SIZE {
                for z in 0..CHUNK_SIZE {
                    let (i0, runs) = c.row(y, z);
                    for (k, r) in runs.iter().enumerate() {
                        if !self.piece_of_run(ci, i0 + k).is_some_and(is_chosen) {
                            continue;
                        }
                        if !touched {
                            voxels = grid.read_box_vec(whole);
                            touched = true;
                        }
                        let row = (z * CHUNK_SIZE + y) * CHUNK_SIZE;
                        voxels[row + usize::from(r.x0)..row + usize::from(r.x1)].fill(Voxel::AIR);
                        let o = whole.min;
                        let start =
                            VoxelPos::new(o.x + i32::from(r.x0), o.y + y as i32, o.z + z as i32);
                        changed = changed.union(&VoxelBox::from_min_size(
                            start,
                            [u32::from(r.x1 - r.x0), 1, 1],
                        ));
                    }
                }
            }
            if touched {
                grid.write_box(whole, &voxels);
            }
        }
        (!changed.is_empty()).then_some(changed)
    }
}

/// Call `f(global component id, run)` for every run of `chunks`.
fn for_each_run(chunks: &[ChunkRuns], first: &[u32], mut f: impl FnMut(u32, VoxelRun)) {
    for (ci, c) in chunks.iter().enumerate() {
        let o = c.pos.min_voxel();
        for y in 0..CHUNK_SIZE {
            for z in 0..CHUNK_SIZE {
                let (i0, rs) = c.row(y, z);
                for (k, r) in rs.iter().enumerate() {
                    let run = VoxelRun {
                        start: VoxelPos::new(o.x + i32::from(r.x0), o.y + y as i32, o.z + z as i32),
                        len: u32::from(r.x1 - r.x0),
                    };
                    f(first[ci] + c.component[i0 + k], run);
                }
            }
        }
    }
}

/// Delete the chosen pieces of `found` (the search of this `grid`) as one undo step named
/// [`DELETE_STEP_NAME`]: per chunk, the tight box of the chosen runs is recorded, then they become
/// Air. Returns the bounding box of what changed (`None`: nothing chosen, no step recorded).
pub fn delete_pieces(
    grid: &mut Grid,
    history: &mut History,
    found: &Floating,
    chosen: &[bool],
) -> Option<VoxelBox> {
    let boxes = found.boxes(chosen);
    if boxes.is_empty() {
        return None;
    }
    history.begin_group(DELETE_STEP_NAME);
    for b in boxes {
        history.record(grid, b, DELETE_STEP_NAME);
    }
    history.end_group();
    found.clear(grid, chosen)
}
