//! The broadphase over a whole grid: its cells in the block store, how an edit refreshes them, and
//! what it costs in memory. The bulk build and the queries add their methods from the sibling files.

use super::broadphase_cell::*;
use super::broadphase_store::CellStore;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox};

/// Memory used by a [`Broadphase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BroadphaseMemory {
    /// Cells with stored masks.
    pub masked_cells: usize,
    /// Cells tagged all-solid or all-water.
    pub tagged_cells: usize,
    /// Heap bytes of the masks alone (128 per masked cell).
    pub mask_bytes: usize,
    /// Everything: hash-table slots plus masks.
    pub total_bytes: usize,
}

impl BroadphaseMemory {
    /// Bits per voxel of `total_bytes` spread over `voxels` voxels (0 when `voxels` is 0).
    pub fn bits_per_voxel(&self, voxels: u64) -> f64 {
        if voxels == 0 {
            0.0
        } else {
            self.total_bytes as f64 * 8.0 / voxels as f64
        }
    }
}

/// How far outside an edited box [`Broadphase::refresh`] reads voxels: a physics cell and its
/// one-voxel border.
pub const REFRESH_REACH: i32 = PHYSICS_CELL + 2;

/// Cell entries computed off the broadphase for one edit (see [`Broadphase::refresh`]).
#[derive(Debug, Clone, Default)]
pub struct BroadphaseRefresh {
    pub(super) cells: Vec<([i32; 3], Option<CellEntry>)>,
}

/// Reusable buffers for building cell masks.
#[derive(Debug, Clone, Default)]
pub struct BuildScratch {
    pub(super) voxels: Vec<Voxel>,
    pub(super) positions: Vec<[i32; 3]>,
}

/// The bit broadphase over a whole grid (see the module docs).
#[derive(Debug, Clone)]
pub struct Broadphase {
    pub(super) matter: MatterTable,
    pub(super) cells: CellStore,
}

impl Broadphase {
    /// An empty broadphase that classifies materials with `table`.
    pub fn new(table: &MaterialTable) -> Self {
        Self {
            matter: MatterTable::new(table),
            cells: CellStore::default(),
        }
    }

    /// Build the broadphase of every cell of `grid`.
    pub fn build(grid: &Grid, table: &MaterialTable, scratch: &mut BuildScratch) -> Self {
        let mut bp = Self::new(table);
        bp.rebuild(grid, scratch);
        bp
    }

    /// Regenerate every cell whose masks can change when the voxels of `changed` change: the cells
    /// the box touches and the neighbours whose 10³ box reaches into it.
    pub fn update(&mut self, grid: &Grid, changed: VoxelBox, scratch: &mut BuildScratch) {
        if changed.is_empty() {
            return;
        }
        let lo = [changed.min.x, changed.min.y, changed.min.z].map(|v| physics_cell_of(v - 1));
        let hi = [changed.max.x, changed.max.y, changed.max.z].map(physics_cell_of);
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                for x in lo[0]..=hi[0] {
                    self.refresh_cell(grid, [x, y, z], &mut scratch.voxels);
                }
            }
        }
    }

    /// The entries [`Broadphase::update`] would store for an edit of `changed`, computed without
    /// changing the broadphase (on any thread, from a grid holding the voxels of `changed` grown by
    /// [`REFRESH_REACH`]); [`Broadphase::apply_refresh`] stores them.
    pub fn refresh(matter: &MatterTable, grid: &Grid, changed: VoxelBox) -> BroadphaseRefresh {
        let mut cells = Vec::new();
        if !changed.is_empty() {
            let lo = [changed.min.x, changed.min.y, changed.min.z].map(|v| physics_cell_of(v - 1));
            let hi = [changed.max.x, changed.max.y, changed.max.z].map(physics_cell_of);
            let mut voxels = Vec::new();
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        cells.push(([x, y, z], cell_bits(grid, matter, [x, y, z], &mut voxels)));
                    }
                }
            }
        }
        BroadphaseRefresh { cells }
    }

    /// Store entries computed by [`Broadphase::refresh`].
    pub fn apply_refresh(&mut self, refresh: BroadphaseRefresh) {
        for (pos, bits) in refresh.cells {
            self.cells.set(pos, bits);
        }
    }

    /// The material classification (for [`Broadphase::refresh`] on another thread).
    pub fn matter(&self) -> &MatterTable {
        &self.matter
    }

    /// Recompute one cell's entry from the grid.
    fn refresh_cell(&mut self, grid: &Grid, cell_pos: [i32; 3], voxels: &mut Vec<Voxel>) {
        let bits = cell_bits(grid, &self.matter, cell_pos, voxels);
        self.cells.set(cell_pos, bits);
    }

    /// The entry of one physics cell (`None`: all Air around it).
    pub fn cell(&self, cell_pos: [i32; 3]) -> Option<CellBits<'_>> {
        self.cells.get(cell_pos)
    }

    /// Number of stored cells (masked and tagged).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Memory used (see [`BroadphaseMemory`]).
    pub fn memory(&self) -> BroadphaseMemory {
        let masked = self.cells.masked_count();
        let mask_bytes = masked * size_of::<CellMasks>();
        BroadphaseMemory {
            masked_cells: masked,
            tagged_cells: self.cells.len() - masked,
            mask_bytes,
            total_bytes: self.cells.table_bytes() + mask_bytes,
        }
    }

    /// Check that every stored entry equals a fresh computation from `grid`, that no all-Air cell is
    /// stored, that tagged cells are not stored as masks, and that no cell with matter is missing.
    ///
    /// # Panics
    /// On any violated invariant (tests call this after every operation).
    pub fn assert_valid(&self, grid: &Grid) {
        let mut voxels = Vec::new();
        self.cells.assert_valid();
        for (pos, bits) in self.cells.iter() {
            let fresh = cell_bits(grid, &self.matter, pos, &mut voxels);
            assert_eq!(
                fresh.as_ref().map(CellEntry::as_bits),
                Some(bits),
                "cell {pos:?} is stale"
            );
            if let CellBits::Masks(m) = bits {
                let empty = |k: &Mask| k.iter().all(|&w| w == 0);
                assert!(
                    !(empty(&m.solid) && empty(&m.water)),
                    "{pos:?}: empty masks"
                );
            }
        }
        let mut scratch = BuildScratch::default();
        let mut all = Self::new_with(self.matter.clone());
        all.rebuild(grid, &mut scratch);
        assert_eq!(all.cells.len(), self.cells.len(), "stored cell count");
        for (pos, _) in all.cells.iter() {
            assert!(self.cells.get(pos).is_some(), "cell {pos:?} is missing");
        }
    }

    fn new_with(matter: MatterTable) -> Self {
        Self {
            matter,
            cells: CellStore::default(),
        }
    }
}
