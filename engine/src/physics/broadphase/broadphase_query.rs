//! The broadphase query: walk the cells an expanded AABB covers, block run by block run, and test
//! each cell's masks against the XZ footprint and the covered Y slices (see the parent module).

use super::broadphase_store::{
    block_of, slot_in_block, BLOCK_BITS, EMPTY, HAS_SOLID, HAS_WATER, SOLID, WATER,
};
use super::{
    expanded_voxel_range, physics_cell_of, Broadphase, CellBits, Mask, Touch, MASKS_X, MASKS_Z,
    PHYSICS_CELL, PHYSICS_CELL_BITS,
};

impl Broadphase {
    /// Append to `out` (not cleared) every cell where the AABB `min..max`, expanded by one voxel,
    /// covers a set solid or water bit, in Z, Y, X order. Voxel `(x, y, z)` spans `[x, x + 1)`; the
    /// covered voxels are those of [`expanded_voxel_range`].
    pub fn query(&self, min: [f32; 3], max: [f32; 3], out: &mut Vec<Touch>) {
        let (vlo, vhi) = expanded_voxel_range(min, max);
        if (0..3).any(|a| vlo[a] > vhi[a]) {
            return;
        }
        if self.cells.is_dense() && spans_two_cells(vlo, vhi) {
            self.query_two_cells(vlo, vhi, out);
            return;
        }
        let range = QueryRange::new(vlo, vhi);
        // A box of at most 8 cells per axis (every 4³–16³ box) covers at most 27 blocks: with the
        // dense index, walk it without weighing the other paths.
        let small = (0..3).all(|a| range.chi[a] - range.clo[a] < 8);
        if small && self.cells.is_dense() {
            self.query_walk(&range, |b| self.cells.block_base(b), out);
            return;
        }
        let blocks = range.block_count();
        if blocks > self.cells.block_count() as u64 {
            self.query_stored(&range, out);
        } else if blocks <= SMALL_BLOCKS as u64 && !self.cells.is_dense() {
            self.query_few_blocks(&range, out);
        } else {
            self.query_walk(&range, |b| self.cells.block_base(b), out);
        }
    }

    /// The query for a range covering at most [`SMALL_BLOCKS`] blocks: probe each block once, then
    /// walk the cells.
    pub(super) fn query_few_blocks(&self, range: &QueryRange, out: &mut Vec<Touch>) {
        let [sx, sy, _] = range.block_span();
        let mut bases = [None; SMALL_BLOCKS];
        let mut any = false;
        // Exclusive ranges: `..=` loops carry an extra exhaustion flag. Block and cell coordinates
        // are at most 2^28, so the `+ 1` cannot overflow.
        for bz in range.blo[2]..range.bhi[2] + 1 {
            for by in range.blo[1]..range.bhi[1] + 1 {
                for bx in range.blo[0]..range.bhi[0] + 1 {
                    let base = self.cells.block_base([bx, by, bz]);
                    any |= base.is_some();
                    bases[range.block_index([bx, by, bz], sx, sy)] = base;
                }
            }
        }
        if any {
            self.query_walk(range, |b| bases[range.block_index(b, sx, sy)], out);
        }
    }

    /// The query for a range covering more blocks than are stored: test every stored cell.
    pub(super) fn query_stored(&self, range: &QueryRange, out: &mut Vec<Touch>) {
        let start = out.len();
        for (pos, bits) in self.cells.iter() {
            if (0..3).all(|a| pos[a] >= range.clo[a] && pos[a] <= range.chi[a]) {
                let (solid, water) = match bits {
                    CellBits::Solid => (true, false),
                    CellBits::Water => (false, true),
                    CellBits::Masks(m) => {
                        let (x0, x1) = range.local(pos[0], 0);
                        let (z0, z1) = range.local(pos[2], 2);
                        let keep = range.slice_keep(pos[1]);
                        let xz = MASKS_X[x0][x1] & MASKS_Z[z0][z1];
                        (
                            reduce(&m.solid, keep) & xz != 0,
                            reduce(&m.water, keep) & xz != 0,
                        )
                    }
                };
                push_touch(pos, solid, water, out);
            }
        }
        out[start..].sort_unstable_by_key(|t| (t.cell_pos[2], t.cell_pos[1], t.cell_pos[0]));
    }

    /// Walk the cells of `range` in Z, Y, X order, finding each run of X cells in one block with
    /// `block_at` (block position → first slot index).
    #[inline]
    pub(super) fn query_walk(
        &self,
        range: &QueryRange,
        block_at: impl Fn([i32; 3]) -> Option<usize>,
        out: &mut Vec<Touch>,
    ) {
        let (clo, chi) = (range.clo, range.chi);
        // The covered X voxels of the first and last cell of every row (all 8 in between).
        let last = PHYSICS_CELL as usize - 1;
        let (x_first, x_last) = (range.vlo[0] as usize & last, range.vhi[0] as usize & last);
        for cz in clo[2]..chi[2] + 1 {
            let (z0, z1) = range.local(cz, 2);
            let mask_z = MASKS_Z[z0 & 7][z1 & 7];
            for cy in clo[1]..chi[1] + 1 {
                let keep = range.slice_keep(cy);
                let full_yz = (mask_z == u64::MAX) & xz_full(range.local(cy, 1));
                let row = slot_in_block([0, cy, cz]);
                let mut cx = clo[0];
                loop {
                    let bx = block_of(cx);
                    let run_end = chi[0].min((bx << BLOCK_BITS) | ((1 << BLOCK_BITS) - 1));
                    if let Some(base) = block_at([bx, block_of(cy), block_of(cz)]) {
                        let row_base = base + row;
                        for x in cx..run_end + 1 {
                            let slot = self.cells.slot(row_base + slot_in_block([x, 0, 0]));
                            let x0 = if x == clo[0] { x_first } else { 0 };
                            let x1 = if x == chi[0] { x_last } else { last };
                            let (solid, water) = match slot {
                                EMPTY => continue,
                                SOLID => (true, false),
                                WATER => (false, true),
                                // The whole cell is covered: its flags are the answer.
                                n if xz_full((x0, x1)) & full_yz => {
                                    (n & HAS_SOLID != 0, n & HAS_WATER != 0)
                                }
                                n => {
                                    let xz = MASKS_X[x0 & 7][x1 & 7] & mask_z;
                                    let m = self.cells.masks_of(n);
                                    let solid =
                                        n & HAS_SOLID != 0 && reduce(&m.solid, keep) & xz != 0;
                                    let water =
                                        n & HAS_WATER != 0 && reduce(&m.water, keep) & xz != 0;
                                    (solid, water)
                                }
                            };
                            push_touch([x, cy, cz], solid, water, out);
                        }
                    }
                    if run_end >= chi[0] {
                        break;
                    }
                    cx = run_end + 1;
                }
            }
        }
    }
}

/// True when `vlo..=vhi` is at most one cell edge (8 voxels) long on every axis, so it spans at
/// most two cells: the expanded range of every box up to 6³ voxels, which `query_two_cells` walks.
#[inline]
pub(super) fn spans_two_cells(vlo: [i32; 3], vhi: [i32; 3]) -> bool {
    (0..3).all(|a| (vhi[a].wrapping_sub(vlo[a]) as u32) < PHYSICS_CELL as u32)
}

/// Blocks a query probes up front (2 × 2 × 2: every 4³–16³ box).
pub(super) const SMALL_BLOCKS: usize = 8;

/// A query's voxel range with its cell and block ranges.
#[derive(Debug, Clone, Copy)]
pub(super) struct QueryRange {
    vlo: [i32; 3],
    vhi: [i32; 3],
    pub(super) clo: [i32; 3],
    pub(super) chi: [i32; 3],
    blo: [i32; 3],
    bhi: [i32; 3],
}

impl QueryRange {
    pub(super) fn new(vlo: [i32; 3], vhi: [i32; 3]) -> Self {
        let clo = vlo.map(physics_cell_of);
        let chi = vhi.map(physics_cell_of);
        Self {
            vlo,
            vhi,
            clo,
            chi,
            blo: clo.map(block_of),
            bhi: chi.map(block_of),
        }
    }

    /// Blocks per axis.
    fn block_span(&self) -> [usize; 3] {
        std::array::from_fn(|a| (self.bhi[a] - self.blo[a]) as usize + 1)
    }

    /// Blocks covered (saturating).
    pub(super) fn block_count(&self) -> u64 {
        (0..3).fold(1u64, |n, a| {
            n.saturating_mul((self.bhi[a] - self.blo[a]) as u64 + 1)
        })
    }

    /// Index of a covered block in Z, Y, X order, for spans `sx`, `sy`.
    #[inline]
    fn block_index(&self, b: [i32; 3], sx: usize, sy: usize) -> usize {
        let d: [usize; 3] = std::array::from_fn(|a| (b[a] - self.blo[a]) as usize);
        (d[2] * sy + d[1]) * sx + d[0]
    }

    /// The covered voxels (inclusive, cell-local) of cell `c` on `axis`.
    #[inline]
    pub(super) fn local(&self, c: i32, axis: usize) -> (usize, usize) {
        let o = c << PHYSICS_CELL_BITS;
        let lo = (self.vlo[axis].max(o) - o) as usize;
        let hi = (self.vhi[axis].min(o + PHYSICS_CELL - 1) - o) as usize;
        (lo, hi)
    }

    /// Per Y slice of cell row `cy`: all ones if the range covers the slice, else zero.
    #[inline]
    fn slice_keep(&self, cy: i32) -> &'static Mask {
        let (y0, y1) = self.local(cy, 1);
        &SLICE_KEEP[y0 & 7][y1 & 7]
    }
}

/// `SLICE_KEEP[y0][y1]`: word `y` all ones when `y0 <= y <= y1`, else zero (4 KiB, read in place
/// rather than built per row).
pub(super) static SLICE_KEEP: [[Mask; 8]; 8] = slice_keep_table();

const fn slice_keep_table() -> [[Mask; 8]; 8] {
    let mut t = [[[0u64; 8]; 8]; 8];
    let mut y0 = 0;
    while y0 < 8 {
        let mut y1 = y0;
        while y1 < 8 {
            let mut y = y0;
            while y <= y1 {
                t[y0][y1][y] = u64::MAX;
                y += 1;
            }
            y1 += 1;
        }
        y0 += 1;
    }
    t
}

/// The OR of the slices of `mask` that `keep` selects: one reduction, no branch on the slice range.
#[inline]
pub(super) fn reduce(mask: &Mask, keep: &Mask) -> u64 {
    mask.iter().zip(keep).fold(0, |acc, (&w, &k)| acc | (w & k))
}

/// Does a cell-local range cover the whole cell edge?
#[inline]
fn xz_full((lo, hi): (usize, usize)) -> bool {
    lo == 0 && hi == PHYSICS_CELL as usize - 1
}

/// Push a [`Touch`] if anything is covered.
#[inline]
pub(super) fn push_touch(pos: [i32; 3], solid: bool, water: bool, out: &mut Vec<Touch>) {
    if solid || water {
        out.push(Touch {
            cell_pos: pos,
            solid,
            water,
        });
    }
}
