//! Floating terrain: pieces of solid terrain that no longer reach the world's bottom layer (left in
//! the air by digging, or by a brush that missed), found so they can be shown and deleted.
//!
//! ```text
//!   matter  = material neither Air nor a liquid, whatever its occupancy
//!   piece   = a set of face-connected (6-neighbour) matter voxels, none of them in the bottom layer
//!             (y = the project's minimum y); everything connected to that layer is ground
//!
//!   every storage chunk, in parallel:  rows -> runs of matter -> chunk-local components  (runs.rs)
//!   then, one pass over the chunk faces (+X, +Y, +Z neighbours):
//!       union the components whose runs touch across the face                    (union_find.rs)
//!   a component is ground when one of its runs lies in the bottom layer; the rest are the pieces,
//!   each with its voxel count, its inclusive bounds and its voxels as runs along X
//! ```
//!
//! Water does not join pieces: an island bridged to the shore only by water is still a piece.
//! Corners and edges do not join either; a one-voxel column does.
//!
//! [`find_floating`] reads the grid only; [`clear_pieces`] turns chosen pieces to Air, and
//! [`delete_pieces`] does that as one undo step of a [`History`]. An editor runs the search on a worker
//! with a [`Progress`] (one unit per chunk, cancellable), shows the pieces, and applies the ones the
//! user chose with its own edit path (`Document::edit_boxes` over [`FloatingPiece::bounds`], writing
//! with [`clear_pieces`]); results describe the grid they were computed from, so a panel drops them
//! when the document changes.
//!
//! # Rationale
//! Labelling runs instead of voxels makes the work proportional to the surface's complexity, not the
//! world's volume, and keeps each chunk independent, so the chunks are labelled in parallel and only
//! the faces between chunks are merged, on one thread, with a union–find over chunk components.

mod runs;
mod union_find;

#[cfg(test)]
mod floating_tests;

pub use union_find::UnionFind;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::history::History;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{
    ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos, CHUNK_SIZE, MATERIAL_COUNT,
};
use crate::{Error, Result};
use runs::{label_chunk, overlaps, ChunkRuns};

/// The name of the undo step [`delete_pieces`] records.
pub const DELETE_STEP_NAME: &str = "Delete floating terrain";

/// A run of voxels along +X.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoxelRun {
    /// The first voxel.
    pub start: VoxelPos,
    /// Number of voxels (1..=32).
    pub len: u32,
}

impl VoxelRun {
    /// The run as a half-open box one voxel thick in Y and Z.
    pub fn voxel_box(&self) -> VoxelBox {
        VoxelBox::from_min_size(self.start, [self.len, 1, 1])
    }
}

/// One floating piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FloatingPiece {
    /// Number of voxels.
    pub voxels: u64,
    /// Lowest corner voxel (inclusive).
    pub min: VoxelPos,
    /// Highest corner voxel (inclusive).
    pub max: VoxelPos,
    /// Its voxels, as runs along X sorted by (z, y, x).
    pub runs: Vec<VoxelRun>,
}

impl FloatingPiece {
    /// The half-open box that holds the piece (what an undo step records).
    pub fn bounds(&self) -> VoxelBox {
        VoxelBox::new(
            self.min,
            VoxelPos::new(self.max.x + 1, self.max.y + 1, self.max.z + 1),
        )
    }

    /// True when voxel `p` belongs to the piece.
    pub fn contains(&self, p: VoxelPos) -> bool {
        self.bounds().contains(p)
            && self.runs.iter().any(|r| {
                r.start.y == p.y
                    && r.start.z == p.z
                    && (r.start.x..r.start.x + r.len as i32).contains(&p.x)
            })
    }
}

/// Which materials count as matter: neither Air nor a liquid (ids the table does not name count).
pub fn matter_table(table: &MaterialTable) -> [bool; MATERIAL_COUNT] {
    std::array::from_fn(|id| id != 0 && !table.get(id as u8).is_some_and(|m| m.liquid))
}

/// Every floating piece of `grid`: matter not connected to the layer `y = bottom_y` (the project's
/// minimum y), largest first (ties by lowest corner). Progress counts chunks.
///
/// # Errors
/// [`Error::Cancelled`] through `progress`; [`Error::Invalid`] when the world has more than
/// `u32::MAX` runs of matter.
pub fn find_floating(
    grid: &Grid,
    table: &MaterialTable,
    bottom_y: i32,
    progress: &Progress,
) -> Result<Vec<FloatingPiece>> {
    let matter = matter_table(table);
    let mut positions = grid.sorted_positions();
    positions.retain(|p| grid.chunk(*p).is_some_and(|c| !c.is_air()));
    progress.start(positions.len() as u64);
    let labelled: Vec<ChunkRuns> = positions
        .par_iter()
        .map(|&pos| {
            progress.check()?;
            let chunk = grid
                .chunk(pos)
                .ok_or_else(|| Error::Invalid("chunk vanished".into()))?;
            let runs = label_chunk(pos, chunk, &matter);
            progress.advance(1);
            Ok(runs)
        })
        .collect::<Result<_>>()?;
    progress.check()?;
    let total: u64 = labelled.iter().map(|c| u64::from(c.components)).sum();
    if total > u64::from(u32::MAX) {
        return Err(Error::Invalid(format!(
            "{total} pieces of terrain are more than this search can label"
        )));
    }
    let mut first = Vec::with_capacity(labelled.len());
    let mut next = 0u32;
    for c in &labelled {
        first.push(next);
        next += c.components;
    }
    let index: FxHashMap<ChunkPos, usize> = labelled
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pos, i))
        .collect();
    let mut sets = UnionFind::new(next as usize);
    for (ci, c) in labelled.iter().enumerate() {
        for axis in 0..3 {
            let mut n = c.pos;
            match axis {
                0 => n.x += 1,
                1 => n.y += 1,
                _ => n.z += 1,
            }
            if let Some(&ni) = index.get(&n) {
                join_face(c, first[ci], &labelled[ni], first[ni], axis, &mut sets);
            }
        }
    }
    Ok(collect_pieces(&labelled, &first, &mut sets, bottom_y))
}

/// Union the components of `a` and of its +`axis` neighbour `b` whose runs touch across the face.
fn join_face(a: &ChunkRuns, fa: u32, b: &ChunkRuns, fb: u32, axis: usize, sets: &mut UnionFind) {
    let last = CHUNK_SIZE - 1;
    let mut join = |i: usize, j: usize| sets.union(fa + a.component[i], fb + b.component[j]);
    for u in 0..CHUNK_SIZE {
        for v in 0..CHUNK_SIZE {
            match axis {
                // Row (y = u, z = v): a's last voxel against b's first.
                0 => {
                    let (ia, ra) = a.row(u, v);
                    let (ib, rb) = b.row(u, v);
                    if let (Some(x), Some(y)) = (ra.last(), rb.first()) {
                        if usize::from(x.x1) == CHUNK_SIZE && y.x0 == 0 {
                            join(ia + ra.len() - 1, ib);
                        }
                    }
                }
                // a's top layer (y = 31) against b's bottom layer (y = 0), row z = v.
                1 if u == 0 => {
                    let (ia, ra) = a.row(last, v);
                    let (ib, rb) = b.row(0, v);
                    overlaps(ia, ra, ib, rb, &mut join);
                }
                // a's far rows (z = 31) against b's near rows (z = 0), layer y = u.
                2 if v == 0 => {
                    let (ia, ra) = a.row(u, last);
                    let (ib, rb) = b.row(u, 0);
                    overlaps(ia, ra, ib, rb, &mut join);
                }
                _ => {}
            }
        }
    }
}

/// Per-set totals while collecting.
#[derive(Debug, Clone, Copy)]
struct Tally {
    voxels: u64,
    min: [i32; 3],
    max: [i32; 3],
    ground: bool,
    piece: u32,
}

fn collect_pieces(
    labelled: &[ChunkRuns],
    first: &[u32],
    sets: &mut UnionFind,
    bottom_y: i32,
) -> Vec<FloatingPiece> {
    let mut tally: Vec<Option<Tally>> = vec![None; sets.len()];
    let each_run = |f: &mut dyn FnMut(u32, VoxelRun)| {
        for (ci, c) in labelled.iter().enumerate() {
            let o = c.pos.min_voxel();
            for y in 0..CHUNK_SIZE {
                for z in 0..CHUNK_SIZE {
                    let (i0, rs) = c.row(y, z);
                    for (k, r) in rs.iter().enumerate() {
                        let run = VoxelRun {
                            start: VoxelPos::new(
                                o.x + i32::from(r.x0),
                                o.y + y as i32,
                                o.z + z as i32,
                            ),
                            len: u32::from(r.x1 - r.x0),
                        };
                        f(first[ci] + c.component[i0 + k], run);
                    }
                }
            }
        }
    };
    each_run(&mut |id, run| {
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
            piece: u32::MAX,
        });
        t.voxels += u64::from(run.len);
        t.min = std::array::from_fn(|k| t.min[k].min(lo[k]));
        t.max = std::array::from_fn(|k| t.max[k].max(hi[k]));
        t.ground |= run.start.y == bottom_y;
    });
    let mut pieces = Vec::new();
    for t in tally.iter_mut().flatten().filter(|t| !t.ground) {
        t.piece = pieces.len() as u32;
        pieces.push(FloatingPiece {
            voxels: t.voxels,
            min: VoxelPos::new(t.min[0], t.min[1], t.min[2]),
            max: VoxelPos::new(t.max[0], t.max[1], t.max[2]),
            runs: Vec::new(),
        });
    }
    each_run(&mut |id, run| {
        let root = sets.find(id) as usize;
        if let Some(t) = tally[root].filter(|t| !t.ground) {
            pieces[t.piece as usize].runs.push(run);
        }
    });
    for p in &mut pieces {
        p.runs.sort_by_key(|r| (r.start.z, r.start.y, r.start.x));
    }
    let key = |p: &FloatingPiece| (std::cmp::Reverse(p.voxels), p.min.y, p.min.z, p.min.x);
    pieces.sort_by_key(key);
    pieces
}

/// Turn every voxel of `pieces` to Air; returns the bounding box of what changed (`None` when
/// nothing did). Records no history: see [`delete_pieces`].
pub fn clear_pieces(grid: &mut Grid, pieces: &[FloatingPiece]) -> Option<VoxelBox> {
    let mut changed: Option<VoxelBox> = None;
    for p in pieces {
        for r in &p.runs {
            grid.fill_box(r.voxel_box(), Voxel::AIR);
        }
        if !p.runs.is_empty() {
            changed = Some(changed.map_or(p.bounds(), |c| c.union(&p.bounds())));
        }
    }
    changed
}

/// Delete `pieces` as one undo step named [`DELETE_STEP_NAME`]: each piece's bounds are recorded,
/// then its voxels become Air. Returns the bounding box of what changed (`None`: nothing to delete, no
/// step recorded).
pub fn delete_pieces(
    grid: &mut Grid,
    history: &mut History,
    pieces: &[FloatingPiece],
) -> Option<VoxelBox> {
    let boxes: Vec<VoxelBox> = pieces
        .iter()
        .filter(|p| !p.runs.is_empty())
        .map(FloatingPiece::bounds)
        .collect();
    if boxes.is_empty() {
        return None;
    }
    history.begin_group(DELETE_STEP_NAME);
    for b in boxes {
        history.record(grid, b, DELETE_STEP_NAME);
    }
    history.end_group();
    clear_pieces(grid, pieces)
}
