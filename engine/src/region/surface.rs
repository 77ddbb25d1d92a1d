//! The surface of a region, for the editor's paste ghost: the region written into a grid of its own
//! at `(0, 0, 0)` and meshed chunk by chunk with the engine mesher, so the ghost shows exactly the
//! surface the paste will make (outside the region reads as Air, so the ghost is closed).
//!
//! Positions are in region coordinates: the viewport draws the chunks translated to the paste
//! position. Large regions are meshed from the mips ([`ghost_lod`]) so the ghost stays cheap; all
//! chunks use one LOD, so there are no seams and no skirts.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::rows::Region;
use crate::mesh::{mesh_chunk_with, surface_owners, MeshBuffer, MAX_LOD};
use crate::progress::Progress;
use crate::voxel::{ChunkPos, MaterialTable, VoxelPos};
use crate::Result;

/// The most mesher samples a ghost should read; [`ghost_lod`] picks the first LOD under it.
pub const GHOST_SAMPLES: u64 = 1 << 21;

/// The finest level of detail at which a region of `size` has at most [`GHOST_SAMPLES`] samples
/// (the coarsest LOD when none does).
pub fn ghost_lod(size: [u32; 3]) -> u32 {
    let volume: u64 = size.iter().map(|&s| u64::from(s)).product();
    (0..=MAX_LOD)
        .find(|&lod| volume >> (3 * lod) <= GHOST_SAMPLES)
        .unwrap_or(MAX_LOD)
}

/// A region's surface, one mesh per chunk of the region's own grid.
#[derive(Debug)]
pub struct RegionSurface {
    /// The level of detail meshed.
    pub lod: u32,
    /// Chunks with surface, sorted Z, Y, X, and their meshes (region coordinates).
    pub chunks: Vec<(ChunkPos, MeshBuffer)>,
}

impl RegionSurface {
    /// Mesh `region` at `lod` with `table`'s shaping. Reports one progress unit per chunk meshed and
    /// stops when `progress` is cancelled. Runs on the calling thread and rayon's pool.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] for a LOD over [`MAX_LOD`]; [`crate::Error::Cancelled`].
    pub fn build(
        region: &Region,
        table: &MaterialTable,
        lod: u32,
        progress: &Progress,
    ) -> Result<Self> {
        let grid = region.to_grid(VoxelPos::new(0, 0, 0))?;
        let owners: FxHashSet<ChunkPos> =
            grid.chunks().flat_map(|(p, _)| surface_owners(p)).collect();
        let mut positions: Vec<ChunkPos> = owners.into_iter().collect();
        positions.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        progress.start(positions.len() as u64);
        let meshed: Vec<(ChunkPos, MeshBuffer)> = positions
            .par_iter()
            .map(|&pos| -> Result<(ChunkPos, MeshBuffer)> {
                progress.check()?;
                let mut buf = MeshBuffer::new();
                mesh_chunk_with(&grid, pos, lod, table, &mut buf, false)?;
                progress.advance(1);
                Ok((pos, buf))
            })
            .collect::<Result<_>>()?;
        let chunks = meshed.into_iter().filter(|(_, b)| !b.is_empty()).collect();
        Ok(Self { lod, chunks })
    }

    /// Triangles over every chunk (solid and water).
    pub fn triangle_count(&self) -> usize {
        self.chunks.iter().map(|(_, b)| b.triangle_count()).sum()
    }
}
