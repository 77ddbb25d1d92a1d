//! The full build of the broadphase, a chunk at a time: one padded read of a stored chunk gives the
//! 10³ boxes of all its 4³ cells, instead of one small box read per cell (64 reads of 1 000 voxels
//! against one of 34³, and no per-read chunk lookups). Chunks are computed in parallel a batch at a
//! time and stored in chunk order. The cells around stored chunks that lie in chunks not stored
//! (Air, reached only by the one-voxel dilation) are computed one by one as before.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::{
    cell_bits, masks_from_box, Broadphase, BuildScratch, CellEntry, MatterTable, PADDED,
    PHYSICS_CELL, PHYSICS_CELL_BITS,
};
use crate::storage::Grid;
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, CHUNK_BITS, CHUNK_SIZE};

/// Cells per chunk along an axis.
const PER: i32 = 1 << (CHUNK_BITS - PHYSICS_CELL_BITS);
/// Voxels along an axis of a chunk's padded read.
const SPAN: usize = CHUNK_SIZE + 2;
/// Chunks computed in parallel before their entries are stored.
const CHUNK_BATCH: usize = 256;

type Entries = Vec<([i32; 3], Option<CellEntry>)>;

impl Broadphase {
    /// Drop everything and rebuild from `grid`.
    pub fn rebuild(&mut self, grid: &Grid, scratch: &mut BuildScratch) {
        self.cells.clear();
        let mut stored: Vec<ChunkPos> = grid.chunks().map(|(p, _)| p).collect();
        stored.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        let is_stored: FxHashSet<ChunkPos> = stored.iter().copied().collect();
        self.cells.begin_bulk();
        let matter = &self.matter;
        for batch in stored.chunks(CHUNK_BATCH) {
            let lists: Vec<Entries> = batch
                .par_iter()
                .map_init(
                    || (Vec::new(), Vec::new()),
                    |(padded, cell), &c| chunk_cells(grid, matter, c, padded, cell),
                )
                .collect();
            for (p, entry) in lists.into_iter().flatten() {
                self.cells.set(p, entry);
            }
        }
        // The ring of cells just outside the stored chunks, where no chunk is stored.
        let positions = &mut scratch.positions;
        positions.clear();
        for c in &stored {
            let base = [c.x * PER, c.y * PER, c.z * PER];
            for z in base[2] - 1..=base[2] + PER {
                for y in base[1] - 1..=base[1] + PER {
                    for x in base[0] - 1..=base[0] + PER {
                        let shift = CHUNK_BITS - PHYSICS_CELL_BITS;
                        let owner = ChunkPos::new(x >> shift, y >> shift, z >> shift);
                        if !is_stored.contains(&owner) {
                            positions.push([x, y, z]);
                        }
                    }
                }
            }
        }
        positions.sort_unstable_by_key(|p| (p[2], p[1], p[0]));
        positions.dedup();
        let entries: Vec<Option<CellEntry>> = positions
            .par_iter()
            .map_init(Vec::new, |voxels, &p| cell_bits(grid, matter, p, voxels))
            .collect();
        for (&p, entry) in positions.iter().zip(entries) {
            self.cells.set(p, entry);
        }
        self.cells.end_bulk();
    }
}

impl Broadphase {
    /// The reference build: every cell around a stored chunk read and computed on its own, in
    /// (Z, Y, X) order. [`Broadphase::rebuild`] must give the same entries; kept for the tests
    /// and as the baseline of the `broadphase` bench.
    pub fn rebuild_cell_by_cell(&mut self, grid: &Grid, scratch: &mut BuildScratch) {
        self.cells.clear();
        let positions = &mut scratch.positions;
        positions.clear();
        for (c, _) in grid.chunks() {
            let base = [c.x * PER, c.y * PER, c.z * PER];
            for z in base[2] - 1..=base[2] + PER {
                for y in base[1] - 1..=base[1] + PER {
                    for x in base[0] - 1..=base[0] + PER {
                        positions.push([x, y, z]);
                    }
                }
            }
        }
        positions.sort_unstable_by_key(|p| (p[2], p[1], p[0]));
        positions.dedup();
        self.cells.begin_bulk();
        for &p in positions.iter() {
            let entry = cell_bits(grid, &self.matter, p, &mut scratch.voxels);
            self.cells.set(p, entry);
        }
        self.cells.end_bulk();
    }
}

/// The entries of the 4³ cells of stored chunk `c`, from one read of the chunk grown by a voxel.
fn chunk_cells(
    grid: &Grid,
    matter: &MatterTable,
    c: ChunkPos,
    padded: &mut Vec<Voxel>,
    cell: &mut Vec<Voxel>,
) -> Entries {
    let min = c.min_voxel();
    let b = VoxelBox::from_min_size(
        VoxelPos::new(min.x - 1, min.y - 1, min.z - 1),
        [SPAN as u32; 3],
    );
    padded.clear();
    padded.resize(b.volume(), Voxel::AIR);
    grid.read_box(b, padded);
    let mut out = Vec::with_capacity((PER * PER * PER) as usize);
    let step = PHYSICS_CELL as usize;
    for cz in 0..PER {
        for cy in 0..PER {
            for cx in 0..PER {
                // Cell (cx, cy, cz)'s 10³ box starts one voxel before it: at padded index cell·8.
                let o = [cx, cy, cz].map(|v| v as usize * step);
                cell.clear();
                for z in 0..PADDED {
                    for y in 0..PADDED {
                        let row = ((o[2] + z) * SPAN + o[1] + y) * SPAN + o[0];
                        cell.extend_from_slice(&padded[row..row + PADDED]);
                    }
                }
                let pos = [c.x * PER + cx, c.y * PER + cy, c.z * PER + cz];
                out.push((pos, masks_from_box(matter, cell)));
            }
        }
    }
    out
}
