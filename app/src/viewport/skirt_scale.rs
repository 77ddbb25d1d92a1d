//! How deep each drawn mesh node's skirt flaps are drawn.
//!
//! A node's flaps are meshed to cover the seam to a neighbour up to one level coarser (the engine's
//! `mesh::skirt`), which is all a settled view has: the octree split by distance never puts two
//! leaves more than one level apart. While the view refines, a node can be drawn beside a coarser
//! one still (a ready ancestor standing in for nodes not meshed yet, or a node fading out), whose
//! surface may be further off; there its flaps reach deeper (along the rim's normal; the part that
//! reaches out along the surface stays as meshed), twice for each level beyond the first:
//!
//! ```text
//!   levels drawn:   2 2 2 2 │ 5 5 5 5       a level-2 node beside a level-5 one: scale 2^(5−2−1) = 4
//!                   0 0 1 1 │ 2 2           level 0 beside level 2: scale 2; level 1 beside 2: 1
//! ```
//!
//! Neighbours are the 26 nodes of the same size around a node; a drawn node at or above each of
//! those positions is the neighbour there (finer neighbours lengthen their own flaps instead).

use rustc_hash::{FxHashMap, FxHashSet};
use strata_engine::mesh::NodeKey;
use strata_engine::voxel::ChunkPos;

/// The skirt scale of every node of `drawn` whose flaps must be drawn deeper than meshed (absent:
/// 1).
pub fn skirt_scales(drawn: &FxHashSet<NodeKey>) -> FxHashMap<NodeKey, f32> {
    let mut out = FxHashMap::default();
    for &key in drawn {
        let coarsest = coarsest_neighbour(drawn, key);
        let beyond = coarsest.saturating_sub(key.level + 1);
        if beyond > 0 {
            out.insert(key, (1u32 << beyond) as f32);
        }
    }
    out
}

/// The coarsest level among the drawn nodes that hold a same-size neighbour of `key` (`key`'s
/// own level when there are none).
fn coarsest_neighbour(drawn: &FxHashSet<NodeKey>, key: NodeKey) -> u32 {
    let mut coarsest = key.level;
    for k in 0..27 {
        if k == 13 {
            continue;
        }
        let d = [k % 3 - 1, k / 3 % 3 - 1, k / 9 - 1];
        let mut at = Some(NodeKey {
            level: key.level,
            pos: ChunkPos::new(key.pos.x + d[0], key.pos.y + d[1], key.pos.z + d[2]),
        });
        while let Some(n) = at {
            if drawn.contains(&n) {
                coarsest = coarsest.max(n.level);
                break;
            }
            at = n.parent();
        }
    }
    coarsest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(level: u32, x: i32, y: i32, z: i32) -> NodeKey {
        NodeKey {
            level,
            pos: ChunkPos::new(x, y, z),
        }
    }

    #[test]
    fn flaps_grow_twice_for_each_level_beyond_the_first() {
        // A level-5 root beside a level-2 node of the next root, itself beside level-1 and
        // level-0 nodes.
        let root = node(5, 1, 0, 0);
        let two = node(2, 7, 0, 0);
        let one = node(1, 13, 0, 0);
        let zero = node(0, 25, 0, 0);
        let drawn: FxHashSet<NodeKey> = [root, two, one, zero].into_iter().collect();
        let scales = skirt_scales(&drawn);
        assert_eq!(scales.get(&two), Some(&4.0));
        // Level 1 beside level 2: as meshed.
        assert_eq!(scales.get(&one), None);
        // Level 0 beside level 1 only.
        assert_eq!(scales.get(&zero), None);
        assert_eq!(
            scales.get(&root),
            None,
            "finer neighbours never lengthen a node's flaps"
        );
        let lone = node(0, 24, 0, 0);
        let drawn: FxHashSet<NodeKey> = [root, two, lone].into_iter().collect();
        // Level 0 at x = 768..800 beside level 2 (x = 896..1024 is not adjacent), and the
        // root at x = 1024.. is not adjacent either: nothing coarser touches it.
        assert_eq!(skirt_scales(&drawn).get(&lone), None);
        let edge = node(0, 31, 0, 0);
        let drawn: FxHashSet<NodeKey> = [root, edge].into_iter().collect();
        // Chunk 31 touches the root at chunk 32: five levels apart.
        assert_eq!(skirt_scales(&drawn).get(&edge), Some(&16.0));
    }

    #[test]
    fn diagonal_neighbours_count() {
        let coarse = node(3, 1, 1, 1);
        let fine = node(1, 3, 3, 3);
        let drawn: FxHashSet<NodeKey> = [coarse, fine].into_iter().collect();
        assert_eq!(skirt_scales(&drawn).get(&fine), Some(&2.0));
    }
}
