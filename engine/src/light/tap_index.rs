//! A dense index from voxel positions to list indices, for the edge-aware filter: it reads up to
//! 26 neighbours of every lit voxel twice, and two array reads per neighbour cost far less than a
//! hash-map probe.
//!
//! ```text
//!   bricks:  one u32 per 8³ brick of the box around the positions ── NONE, or a slot number
//!   entries: 512 u32 per slot (x fastest, then y, then z)       ── NONE, or the index stored
//! ```
//!
//! Only bricks that hold a position get a slot, so a surface (a few voxels thick in a mostly empty
//! or mostly full box) costs a few bytes per voxel; the brick table itself is one word per 512
//! voxels of the box.

use crate::voxel::VoxelPos;

/// Edge length of a brick, as a shift.
const SHIFT: u32 = 3;
/// Voxels per brick.
const PER_BRICK: usize = 1 << (3 * SHIFT);
/// An empty brick or entry.
const NONE: u32 = u32::MAX;

/// Voxel positions to indices (see the module docs).
pub(crate) struct TapIndex {
    /// First voxel of the box, on a brick corner.
    origin: [i32; 3],
    /// Bricks along each axis.
    bricks: [usize; 3],
    /// Slot of each brick of the box (x fastest), or [`NONE`].
    slots: Vec<u32>,
    /// [`PER_BRICK`] indices per slot, or [`NONE`].
    entries: Vec<u32>,
}

impl TapIndex {
    /// An empty index covering `positions` (others cannot be inserted).
    pub(crate) fn covering(positions: impl Iterator<Item = VoxelPos>) -> Self {
        let (lo, hi) = positions.fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), p| {
            let p = [p.x, p.y, p.z];
            (
                [0, 1, 2].map(|a| lo[a].min(p[a])),
                [0, 1, 2].map(|a| hi[a].max(p[a])),
            )
        });
        if lo[0] > hi[0] {
            return Self {
                origin: [0; 3],
                bricks: [0; 3],
                slots: Vec::new(),
                entries: Vec::new(),
            };
        }
        let origin = lo.map(|c| c >> SHIFT << SHIFT);
        let bricks =
            [0, 1, 2].map(|a| ((i64::from(hi[a]) - i64::from(origin[a])) >> SHIFT) as usize + 1);
        Self {
            origin,
            bricks,
            slots: vec![NONE; bricks.iter().product()],
            entries: Vec::new(),
        }
    }

    /// The brick and the entry within it of `p`, if inside the box.
    #[inline]
    fn place(&self, p: VoxelPos) -> Option<(usize, usize)> {
        // Outside the box below the origin wraps to a huge value and fails the bound test.
        let rel = [
            p.x.wrapping_sub(self.origin[0]) as u32 as usize,
            p.y.wrapping_sub(self.origin[1]) as u32 as usize,
            p.z.wrapping_sub(self.origin[2]) as u32 as usize,
        ];
        let b = rel.map(|r| r >> SHIFT);
        if (0..3).any(|a| b[a] >= self.bricks[a]) {
            return None;
        }
        let brick = (b[2] * self.bricks[1] + b[1]) * self.bricks[0] + b[0];
        let m = (1 << SHIFT) - 1;
        let entry = (((rel[2] & m) << SHIFT | (rel[1] & m)) << SHIFT) | (rel[0] & m);
        Some((brick, entry))
    }

    /// Store `index` at `p`, replacing what was there. `p` must lie in the box given to
    /// [`TapIndex::covering`] (positions outside it are ignored).
    pub(crate) fn insert(&mut self, p: VoxelPos, index: u32) {
        let Some((brick, entry)) = self.place(p) else {
            debug_assert!(false, "{p:?} outside the index");
            return;
        };
        if self.slots[brick] == NONE {
            self.slots[brick] = (self.entries.len() / PER_BRICK) as u32;
            self.entries.resize(self.entries.len() + PER_BRICK, NONE);
        }
        self.entries[self.slots[brick] as usize * PER_BRICK + entry] = index;
    }

    /// The index stored at `p`, if any.
    #[inline]
    pub(crate) fn get(&self, p: VoxelPos) -> Option<u32> {
        let (brick, entry) = self.place(p)?;
        let slot = self.slots[brick];
        if slot == NONE {
            return None;
        }
        let i = self.entries[slot as usize * PER_BRICK + entry];
        (i != NONE).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rustc_hash::FxHashMap;

    use super::*;

    #[test]
    fn the_index_answers_as_a_hash_map_does() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let points: Vec<VoxelPos> = (0..3000)
            .map(|_| {
                VoxelPos::new(
                    rng.random_range(-40..40),
                    rng.random_range(-9..30),
                    rng.random_range(-70..5),
                )
            })
            .collect();
        let mut index = TapIndex::covering(points.iter().copied());
        let mut map = FxHashMap::default();
        for (i, p) in points.iter().enumerate() {
            index.insert(*p, i as u32);
            map.insert(*p, i as u32);
        }
        for x in -45..45 {
            for y in -12..33 {
                for z in -75..8 {
                    let p = VoxelPos::new(x, y, z);
                    assert_eq!(index.get(p), map.get(&p).copied(), "{p:?}");
                }
            }
        }
        let far = VoxelPos::new(-(1 << 30), (1 << 30) - 1, 0);
        assert_eq!(index.get(far), None);
        let empty = TapIndex::covering(std::iter::empty());
        assert_eq!(empty.get(VoxelPos::new(0, 0, 0)), None);
    }
}
