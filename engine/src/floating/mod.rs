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
//!   each summarised by its voxel count and inclusive bounds        (floating_set.rs)
//! ```
//!
//! The result, a [`Floating`], keeps the labelled runs of every chunk and which piece each component
//! belongs to, not a list of voxels per piece: a world of millions of one-voxel pieces costs tens of
//! bytes per piece, and deleting chosen pieces walks the chunks once.
//!
//! Water does not join pieces: an island bridged to the shore only by water is still a piece.
//! Corners and edges do not join either; a one-voxel column does.
//!
//! [`find_floating`] reads the grid only; [`Floating::clear`] turns chosen pieces to Air, and
//! [`delete_pieces`] does that as one undo step of a [`crate::history::History`]. An editor runs the search on a worker
//! with a [`Progress`] (one unit per chunk, cancellable), shows the pieces, and applies the ones the
//! user chose with its own edit path (recording [`Floating::boxes`], writing with
//! [`Floating::clear`]); results describe the grid they were computed from, so a panel drops them
//! when the document changes.
//!
//! # Rationale
//! Labelling runs instead of voxels makes the work proportional to the surface's complexity, not the
//! world's volume, and keeps each chunk independent, so the chunks are labelled in parallel and only
//! the faces between chunks are merged, on one thread, with a union–find over chunk components.

mod floating_set;
mod piece;
mod runs;
mod union_find;

#[cfg(test)]
mod floating_tests;

pub use floating_set::{delete_pieces, Floating};
pub use piece::{FloatingPiece, VoxelRun, DELETE_STEP_NAME};
pub use union_find::UnionFind;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, CHUNK_SIZE, MATERIAL_COUNT};
use crate::{Error, Result};
use runs::{label_chunk, overlaps, ChunkRuns};

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
) -> Result<Floating> {
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
    Ok(Floating::collect(labelled, first, &mut sets, bottom_y))
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
