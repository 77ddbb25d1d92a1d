//! Which chunk meshes an edit invalidates.
//!
//! A chunk's mesh at LOD `l` reads its own samples plus [`BORDER`] samples of each neighbour, and a
//! sample at LOD `l` spans `2^l` voxels. So a changed voxel invalidates every chunk whose box, grown by
//! `BORDER << l` voxels, contains it: the chunks the changed box touches once grown by that much.
//!
//! ```text
//!        chunk A        │        chunk B
//!   ....................│....................
//!                  ┌────┼──┐ changed box grown by BORDER
//!                  │ ┌──┼┐ │
//!                  │ │  ││ │  touches A and B: remesh both
//! ```
//!
//! [`node_reads`] is the one rule the editor remeshes by and the edit bench measures: a level-0
//! mesh node (one chunk at full resolution) is stale when the changed box meets its box grown by
//! [`BORDER`], exactly the chunks [`dirty_chunks`] names; a coarser node reads mip samples that each
//! cover `2^level` voxels, so it is stale when the changed box meets [`NodeKey::input_box`]. The
//! physics world does its own (8³ cell) bookkeeping from the changed box (`PhysicsWorld::on_edit`).

use crate::mesh::{NodeKey, BORDER, MAX_LOD};
use crate::voxel::{ChunkPos, VoxelBox};

/// Whether the mesh of node `key` reads voxels of `changed`, so that the edit makes it stale (see
/// the module docs).
pub fn node_reads(key: NodeKey, changed: VoxelBox) -> bool {
    let input = if key.level == 0 {
        key.voxel_box().grown(BORDER as i32)
    } else {
        key.input_box()
    };
    !input.intersect(&changed).is_empty()
}

/// Chunks whose full-resolution (LOD 0) meshes must be rebuilt after `changed` was edited, sorted by
/// Z, then Y, then X: the level-0 nodes [`node_reads`] names. Empty for an empty box.
pub fn dirty_chunks(changed: VoxelBox) -> Vec<ChunkPos> {
    dirty_chunks_at_lod(changed, 0)
}

/// Chunks whose meshes at level of detail `lod` (clamped to `MAX_LOD`) must be rebuilt after
/// `changed` was edited, sorted by Z, then Y, then X.
pub fn dirty_chunks_at_lod(changed: VoxelBox, lod: u32) -> Vec<ChunkPos> {
    if changed.is_empty() {
        return Vec::new();
    }
    let g = (BORDER << lod.min(MAX_LOD)) as i32;
    let grown = changed.grown(g);
    grown.chunks().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::{mesh_chunk, MeshBuffer};
    use crate::storage::Grid;
    use crate::voxel::{MaterialTable, Voxel, VoxelPos};

    #[test]
    fn coarser_nodes_read_their_input_box() {
        let key = NodeKey {
            level: 2,
            pos: ChunkPos::new(0, 0, 0),
        };
        let edge = key.input_box().max;
        assert!(node_reads(key, one(edge.x - 1, 5, 5)));
        assert!(!node_reads(key, one(edge.x, 5, 5)));
    }

    fn one(x: i32, y: i32, z: i32) -> VoxelBox {
        VoxelBox::from_min_size(VoxelPos::new(x, y, z), [1, 1, 1])
    }

    #[test]
    fn neighbours_within_the_border_are_dirty() {
        assert_eq!(dirty_chunks(one(10, 10, 10)), vec![ChunkPos::new(0, 0, 0)]);
        assert_eq!(
            dirty_chunks(one(1, 10, 10)),
            vec![ChunkPos::new(-1, 0, 0), ChunkPos::new(0, 0, 0)]
        );
        assert_eq!(dirty_chunks(one(2, 10, 10)), vec![ChunkPos::new(0, 0, 0)]);
        assert_eq!(dirty_chunks(one(29, 10, 10)), vec![ChunkPos::new(0, 0, 0)]);
        assert_eq!(
            dirty_chunks(one(30, 10, 10)),
            vec![ChunkPos::new(0, 0, 0), ChunkPos::new(1, 0, 0)]
        );
        assert_eq!(dirty_chunks(one(0, 0, 0)).len(), 8);
        assert_eq!(dirty_chunks(one(16, 16, 16)), vec![ChunkPos::new(0, 0, 0)]);
        assert_eq!(dirty_chunks_at_lod(one(16, 16, 16), 1).len(), 1);
        assert_eq!(
            dirty_chunks_at_lod(one(16, 16, 16), 3).len(),
            8,
            "16 + 16 reaches chunk 1"
        );
        assert_eq!(
            dirty_chunks_at_lod(one(17, 16, 17), 9).len(),
            8,
            "clamped to LOD 3"
        );
        assert_eq!(dirty_chunks_at_lod(one(3, 16, 16), 1).len(), 2);
        assert!(dirty_chunks(VoxelBox::default()).is_empty());
    }

    #[test]
    fn dirty_chunks_are_the_level_0_nodes_the_editor_remeshes() {
        let around = VoxelBox::new(VoxelPos::new(-70, -70, -70), VoxelPos::new(100, 100, 100));
        for changed in [
            one(10, 10, 10),
            one(1, 10, 10),
            one(2, 10, 10),
            one(29, 10, 10),
            one(30, 10, 10),
            one(0, 0, 0),
            one(31, 31, 31),
            VoxelBox::new(VoxelPos::new(-5, 3, 40), VoxelPos::new(20, 9, 66)),
            VoxelBox::default(),
        ] {
            let by_rule: Vec<ChunkPos> = around
                .chunks()
                .filter(|&pos| node_reads(NodeKey { level: 0, pos }, changed))
                .collect();
            assert_eq!(dirty_chunks(changed), by_rule, "{changed:?}");
        }
    }

    /// Editing a voxel changes no mesh outside the dirty set (checked against the mesher itself).
    #[test]
    fn clean_chunks_keep_their_meshes() {
        let table = MaterialTable::builtin();
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-40, -40, -40), VoxelPos::new(72, 3, 72)),
            Voxel::filled(3),
        );
        let all: Vec<ChunkPos> =
            VoxelBox::new(VoxelPos::new(-64, -64, -64), VoxelPos::new(96, 64, 96))
                .chunks()
                .collect();
        let meshes = |g: &Grid| -> Vec<(Vec<u32>, Vec<[f32; 3]>)> {
            let mut buf = MeshBuffer::new();
            all.iter()
                .map(|&c| {
                    mesh_chunk(g, c, 0, &table, &mut buf).expect("lod 0");
                    (buf.solid_indices.clone(), buf.positions.clone())
                })
                .collect()
        };
        let before = meshes(&grid);
        for p in [
            VoxelPos::new(30, 2, 1),
            VoxelPos::new(-1, 3, 33),
            VoxelPos::new(31, 2, 31),
        ] {
            let mut edited = grid.clone();
            edited.set(p, Voxel::new(3, 20));
            let changed = VoxelBox::from_min_size(p, [1, 1, 1]);
            let dirty = dirty_chunks(changed);
            let after = meshes(&edited);
            let mut differ = 0;
            for (k, c) in all.iter().enumerate() {
                if before[k] != after[k] {
                    differ += 1;
                    assert!(
                        dirty.contains(c),
                        "{c:?} changed but is not dirty for {p:?}"
                    );
                }
            }
            assert!(differ > 0, "the edit at {p:?} changed no mesh at all");
        }
    }
}
