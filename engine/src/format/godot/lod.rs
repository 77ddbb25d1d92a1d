//! 16³ blocks of a grid at godot_voxel's LOD levels, read from the chunk mip pyramid.
//!
//! A block at LOD `L` and block position `b` covers the voxels from `b · 16 · 2^L`, `16 · 2^L` per
//! axis, at one sample per `2^L` voxels. Strata's 32³ chunks keep 16³, 8³ and 4³ mips that cover the
//! chunk at exactly those resolutions:
//!
//! ```text
//!   L = 0   half a chunk per axis      level 0, read_box
//!   L = 1   1 chunk   (1×1×1 chunks)   each chunk's 16³ mip is the whole block
//!   L = 2   2 chunks  (2×2×2 chunks)   each chunk's 8³ mip fills an 8³ octant
//!   L = 3   4 chunks  (4×4×4 chunks)   each chunk's 4³ mip fills a 4³ cell
//! ```
//!
//! So the far LODs come straight from the mips, with no resampling.

use crate::storage::{Grid, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos};

/// Edge of the blocks Strata writes.
pub const BLOCK_EDGE: usize = 16;
/// Voxels in one block.
pub const BLOCK_VOLUME: usize = BLOCK_EDGE * BLOCK_EDGE * BLOCK_EDGE;
/// Number of LOD levels the mip pyramid can fill (0 to 3).
pub const MAX_LODS: u8 = 4;

/// Fill `out` (X fastest, then Y, then Z) with the block at LOD `lod` and block position `block`.
///
/// # Panics
/// If `lod > 3` or `out` is not 16³ voxels (caller bugs).
pub fn sample_block(grid: &Grid, lod: u8, block: [i32; 3], out: &mut [Voxel]) {
    assert!(lod < MAX_LODS, "LOD {lod} is beyond the mip pyramid");
    assert_eq!(out.len(), BLOCK_VOLUME, "a block buffer is 16³ voxels");
    if lod == 0 {
        let min = VoxelPos::new(block[0] * 16, block[1] * 16, block[2] * 16);
        grid.read_box(VoxelBox::from_min_size(min, [16; 3]), out);
        return;
    }
    let chunks = 1i32 << (lod - 1);
    let edge = BLOCK_EDGE >> (lod - 1);
    for dz in 0..chunks {
        for dy in 0..chunks {
            for dx in 0..chunks {
                let pos = ChunkPos::new(
                    block[0] * chunks + dx,
                    block[1] * chunks + dy,
                    block[2] * chunks + dz,
                );
                let base = [dx, dy, dz].map(|d| d as usize * edge);
                let chunk = grid.chunk(pos);
                let mut buf = RowBuf::new();
                for z in 0..edge {
                    for y in 0..edge {
                        let start =
                            ((base[2] + z) * BLOCK_EDGE + base[1] + y) * BLOCK_EDGE + base[0];
                        let dst = &mut out[start..start + edge];
                        match (chunk, lod) {
                            (None, _) => dst.fill(Voxel::AIR),
                            (Some(c), 1) => dst.copy_from_slice(c.mip16().read_row(y, z, &mut buf)),
                            (Some(c), 2) => dst.copy_from_slice(c.mip8().read_row(y, z, &mut buf)),
                            (Some(c), _) => dst.copy_from_slice(c.mip4().read_row(y, z, &mut buf)),
                        }
                    }
                }
            }
        }
    }
}

/// The position of the LOD-`lod` block holding the level-0 block `block`.
pub fn parent_block(block: [i32; 3], lod: u8) -> [i32; 3] {
    block.map(|b| b >> lod)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lod_blocks_are_the_chunk_mips() {
        let mut g = Grid::new();
        let b = VoxelBox::new(VoxelPos::new(-40, -7, 3), VoxelPos::new(50, 20, 70));
        let src: Vec<Voxel> = (0..b.volume())
            .map(|i| Voxel::new((i % 7) as u8, (i % 253) as u8))
            .collect();
        g.write_box(b, &src);
        let mut out = vec![Voxel::AIR; BLOCK_VOLUME];
        sample_block(&g, 1, [-1, 0, 1], &mut out);
        let c = g.chunk(ChunkPos::new(-1, 0, 1)).expect("stored");
        assert_eq!(out[(3 * 16 + 2) * 16 + 5], c.mip16().get(5, 2, 3));
        sample_block(&g, 2, [-1, -1, 0], &mut out);
        let c = g.chunk(ChunkPos::new(-1, -1, 1)).expect("stored");
        assert_eq!(
            out[((8 + 3) * 16 + 8 + 2) * 16 + 8 + 5],
            c.mip8().get(5, 2, 3)
        );
        sample_block(&g, 3, [-1, -1, 0], &mut out);
        let c = g.chunk(ChunkPos::new(-2, -1, 1)).expect("stored");
        assert_eq!(
            out[((4 + 1) * 16 + 12 + 2) * 16 + 8 + 3],
            c.mip4().get(3, 2, 1)
        );
        sample_block(&g, 0, [-3, 0, 0], &mut out);
        assert_eq!(out[(2 * 16 + 1) * 16], g.get(VoxelPos::new(-48, 1, 2)));
        assert_eq!(parent_block([-3, 5, 8], 2), [-1, 1, 2]);
    }
}
