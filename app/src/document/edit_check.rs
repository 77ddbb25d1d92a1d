//! Debug builds check that an edit given as a closure and a list of boxes (`Action::Edit`, through
//! `Document::edit_boxes`) wrote only inside those boxes: the undo step records the boxes and the
//! consumers are told about the boxes, so a voxel changed outside them would be missed by both.

use rustc_hash::FxHashSet;
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, VoxelBox, VoxelPos, CHUNK_SIZE};

/// Panic naming the first voxel `after` holds differently from `before` outside every box of
/// `boxes` (the edit called `name` broke its contract). Chunks no box meets are compared whole.
///
/// # Panics
/// When such a voxel exists (a caller bug).
pub(super) fn assert_wrote_inside(before: &Grid, after: &Grid, boxes: &[VoxelBox], name: &str) {
    let chunks: FxHashSet<ChunkPos> = before
        .chunks()
        .chain(after.chunks())
        .map(|(p, _)| p)
        .collect();
    for pos in chunks {
        let whole = pos.voxel_box();
        let inside: Vec<VoxelBox> = boxes
            .iter()
            .map(|b| b.intersect(&whole))
            .filter(|b| !b.is_empty())
            .collect();
        if inside.is_empty() {
            assert!(
                before.chunk(pos) == after.chunk(pos),
                "the edit {name:?} changed chunk {pos:?}, which none of its boxes meets"
            );
            continue;
        }
        let (old, new) = (before.read_box_vec(whole), after.read_box_vec(whole));
        for (i, (a, b)) in old.iter().zip(&new).enumerate() {
            if a == b {
                continue;
            }
            let n = CHUNK_SIZE;
            let p = VoxelPos::new(
                whole.min.x + (i % n) as i32,
                whole.min.y + (i / n % n) as i32,
                whole.min.z + (i / (n * n)) as i32,
            );
            assert!(
                inside.iter().any(|b| b.contains(p)),
                "the edit {name:?} changed voxel {p:?} outside its boxes {boxes:?}"
            );
        }
    }
}
