//! The query for a short range (at most 8 voxels per axis after expansion, so at most two cells
//! per axis: every box up to 6³) on the dense block index. The covered part of each of those cells
//! is worked out once per axis, so a cell costs its block lookup, its slot word and, for a mask
//! cell, one reduction.
//!
//! # Rationale
//! A 4³ query touches about five cells, and the general walk spent most of its instructions on the
//! range around them (block runs, first-and-last-cell selects, whole-cell tests) rather than on the
//! cells. Fewer instructions is what moves this query's time: the branch-free forms tried before
//! saved mispredictions but ran more instructions, and were slower. For longer two-cell ranges (8³
//! boxes) the general walk, which looks a block up once per run of cells, measured faster.

use super::broadphase_query::{push_touch, reduce, SLICE_KEEP};
use super::broadphase_store::{block_of, slot_in_block, EMPTY, HAS_SOLID, HAS_WATER, SOLID, WATER};
use super::{physics_cell_of, Broadphase, Touch, MASKS_X, MASKS_Z};

/// The cells a range covers on one axis (one or two) and each one's covered voxels.
#[derive(Clone, Copy)]
struct AxisCells {
    /// How many cells: 1 or 2.
    n: usize,
    /// The cells.
    cells: [i32; 2],
    /// Each cell's first and last covered voxel (cell-local, `0..8`).
    lo: [usize; 2],
    hi: [usize; 2],
}

impl AxisCells {
    /// The cells of the voxel range `vlo..=vhi`, which spans at most two cells.
    #[inline]
    fn new(vlo: i32, vhi: i32) -> Self {
        let (c0, c1) = (physics_cell_of(vlo), physics_cell_of(vhi));
        let two = c1 != c0;
        let (first, last) = ((vlo & 7) as usize, (vhi & 7) as usize);
        Self {
            n: 1 + usize::from(two),
            cells: [c0, c1],
            lo: [first, 0],
            hi: [if two { 7 } else { last }, last],
        }
    }
}

impl Broadphase {
    /// [`Broadphase::query`] for a non-empty range that `spans_two_cells` (at most two cells per
    /// axis), with the dense index.
    #[inline]
    pub(super) fn query_two_cells(&self, vlo: [i32; 3], vhi: [i32; 3], out: &mut Vec<Touch>) {
        let [x, y, z] = std::array::from_fn(|a| AxisCells::new(vlo[a], vhi[a]));
        let mask_x = [0, 1].map(|i| MASKS_X[x.lo[i] & 7][x.hi[i] & 7]);
        for k in 0..z.n {
            let cz = z.cells[k];
            let mask_z = MASKS_Z[z.lo[k] & 7][z.hi[k] & 7];
            for j in 0..y.n {
                let cy = y.cells[j];
                let keep = &SLICE_KEEP[y.lo[j] & 7][y.hi[j] & 7];
                for (&cx, &mx) in x.cells[..x.n].iter().zip(&mask_x) {
                    let Some(base) =
                        self.cells
                            .block_base([block_of(cx), block_of(cy), block_of(cz)])
                    else {
                        continue;
                    };
                    let (solid, water) = match self.cells.slot(base + slot_in_block([cx, cy, cz])) {
                        EMPTY => continue,
                        SOLID => (true, false),
                        WATER => (false, true),
                        n => {
                            let xz = mx & mask_z;
                            let m = self.cells.masks_of(n);
                            (
                                n & HAS_SOLID != 0 && reduce(&m.solid, keep) & xz != 0,
                                n & HAS_WATER != 0 && reduce(&m.water, keep) & xz != 0,
                            )
                        }
                    };
                    push_touch([cx, cy, cz], solid, water, out);
                }
            }
        }
    }
}
