//! Assembling a [`Region`] row by row.
//!
//! Rows may arrive in any order (a quarter turn about Y produces them column by column); each row is
//! written in one go between [`RowsBuilder::start_row`] and [`RowsBuilder::end_row`], and equal
//! neighbouring voxels merge into one run as they arrive. [`RowsBuilder::finish`] lays the rows out in
//! row order (a no-op when they came in order) and trims the run array to its exact size.

use super::run::Run;
use crate::voxel::Voxel;

/// Voxels whose run boundaries are found in one pass (bits of a `u64`).
const BLOCK: usize = 64;

/// A voxel as one number, for comparisons.
#[inline]
fn key(v: Voxel) -> u16 {
    u16::from_le_bytes([v.material, v.occupancy])
}

/// Four voxels as one word, the first in the low 16 bits.
#[inline]
fn quad(q: &[Voxel]) -> u64 {
    u64::from_le_bytes([
        q[0].material,
        q[0].occupancy,
        q[1].material,
        q[1].occupancy,
        q[2].material,
        q[2].occupancy,
        q[3].material,
        q[3].occupancy,
    ])
}

/// Bit `i` (0..4) set where 16-bit lane `i` of `x` is not zero (SWAR: no branches, no per-lane
/// loop).
#[inline]
fn differing_lanes(x: u64) -> u64 {
    const LOW: u64 = 0x7fff_7fff_7fff_7fff;
    const HIGH: u64 = 0x8000_8000_8000_8000;
    // Bit 15 of a lane is set when the lane is non-zero.
    let top = (((x & LOW) + LOW) | x) & HIGH;
    // Gather bits 15, 31, 47 and 63 into bits 48..52, then down to 0..4.
    const GATHER: u64 = (1 << 48) | (1 << 33) | (1 << 18) | (1 << 3);
    ((top >> 15).wrapping_mul(GATHER) >> 48) & 0xf
}

/// The run being extended in one row, kept apart from the run array so it can live in registers
/// while a row is encoded.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RowRuns {
    /// Voxel of the open run (meaningless while `x` is 0).
    cur: Voxel,
    /// Voxels written to the row so far.
    x: usize,
}

impl RowRuns {
    /// Append `count` copies of `voxel` (normalized by the caller).
    #[inline]
    pub fn fill(&mut self, runs: &mut Vec<Run>, voxel: Voxel, count: usize) {
        if count == 0 {
            return;
        }
        if voxel != self.cur {
            if self.x > 0 {
                runs.push(Run {
                    voxel: self.cur,
                    end: self.x as u16,
                });
            }
            self.cur = voxel;
        }
        self.x += count;
    }

    /// Append `voxels` (normalized by the caller).
    ///
    /// Run boundaries are found [`BLOCK`] voxels at a time: a branch-free pass, four voxels per
    /// word, sets one bit per voxel that differs from its predecessor; then only the set bits are
    /// visited, so the cost follows the number of runs rather than branching on every voxel.
    #[inline(always)]
    pub fn voxels(&mut self, runs: &mut Vec<Run>, voxels: &[Voxel]) {
        let Some(&first) = voxels.first() else {
            return;
        };
        self.fill(runs, first, 1);
        let base = self.x - 1;
        let mut cur = first;
        let mut prev = key(first);
        for (b, block) in voxels.chunks(BLOCK).enumerate() {
            let mut mask = boundaries(block, &mut prev);
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                runs.push(Run {
                    voxel: cur,
                    end: (base + b * BLOCK + k) as u16,
                });
                cur = block[k];
                mask &= mask - 1;
            }
        }
        self.cur = cur;
        self.x = base + voxels.len();
    }

    /// Append voxels `lo..lo + len` of a whole 32-voxel chunk row (normalized by the caller).
    ///
    /// The same runs as [`RowRuns::voxels`] of that slice, found from [`row_boundaries32`] of the
    /// whole row: the fixed-size compare vectorizes, so a chunk row costs a few wide compares
    /// instead of eight word-at-a-time passes.
    #[inline(always)]
    pub fn row32(&mut self, runs: &mut Vec<Run>, row: &[Voxel; 32], lo: usize, len: usize) {
        if len == 0 {
            return;
        }
        let first = row[lo];
        self.fill(runs, first, 1);
        // Output position of row[lo]; row index k lands at start + (k - lo).
        let start = self.x - 1;
        let mut mask = row_boundaries32(row) & bit_range(lo + 1, lo + len);
        let mut cur = first;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            runs.push(Run {
                voxel: cur,
                end: (start + k - lo) as u16,
            });
            cur = row[k];
            mask &= mask - 1;
        }
        self.cur = cur;
        self.x = start + len;
    }

    /// Close the row: push its last run; returns the row's length.
    #[inline]
    pub fn finish(self, runs: &mut Vec<Run>) -> usize {
        if self.x > 0 {
            runs.push(Run {
                voxel: self.cur,
                end: self.x as u16,
            });
        }
        self.x
    }
}

/// Bit `k` set where `block[k]` differs from the voxel before it (`prev` for the first), for a
/// block of at most [`BLOCK`] voxels; `prev` becomes the block's last voxel.
#[inline(always)]
fn boundaries(block: &[Voxel], prev: &mut u16) -> u64 {
    let mut mask = 0u64;
    let mut quads = block.chunks_exact(4);
    let mut k = 0;
    let mut p = *prev;
    for q in &mut quads {
        let a = quad(q);
        mask |= differing_lanes(a ^ ((a << 16) | u64::from(p))) << k;
        p = (a >> 48) as u16;
        k += 4;
    }
    for v in quads.remainder() {
        let kv = key(*v);
        mask |= u64::from(kv != p) << k;
        p = kv;
        k += 1;
    }
    *prev = p;
    mask
}

/// Bits `a..b` of a `u32` set (`a <= b <= 32`).
#[inline(always)]
fn bit_range(a: usize, b: usize) -> u32 {
    (((1u64 << b) - 1) & !((1u64 << a) - 1)) as u32
}

/// Bit `k` (1 to 31) set where `row[k]` differs from `row[k - 1]`; bit 0 is clear.
///
/// Written as fixed-size array passes (keys, then one 0/1 byte per voxel, then eight bytes to eight
/// bits by one multiply) so the compiler turns the compares into wide vector compares.
#[inline(always)]
pub(crate) fn row_boundaries32(row: &[Voxel; 32]) -> u32 {
    let keys: [u16; 32] = std::array::from_fn(|k| key(row[k]));
    let mut diff = [0u8; 32];
    for k in 1..32 {
        diff[k] = u8::from(keys[k] != keys[k - 1]);
    }
    let mut mask = 0u32;
    for (j, bytes) in diff.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(bytes);
        // Byte i (0 or 1) lands in bit 56 + i; no two partial products overlap, so no carries.
        let bits = u64::from_le_bytes(w).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= (bits as u32) << (8 * j);
    }
    mask
}

/// A region under construction.
#[derive(Debug)]
pub(crate) struct RowsBuilder {
    pub(super) size: [u32; 3],
    /// (first run, run count) of every row written so far.
    pub(super) spans: Vec<(u32, u32)>,
    pub(super) runs: Vec<Run>,
    /// True while every row so far came right after the previous one.
    pub(super) in_order: bool,
    pub(super) next_row: usize,
    /// The row being written and its first run.
    pub(super) row: usize,
    pub(super) row_first: usize,
    pub(super) open: RowRuns,
}

impl RowsBuilder {
    /// A builder for a region of `size` (already checked by the caller).
    pub fn new(size: [u32; 3]) -> Self {
        let rows = size[1] as usize * size[2] as usize;
        Self {
            size,
            spans: vec![(0, 0); rows],
            runs: Vec::new(),
            in_order: true,
            next_row: 0,
            row: 0,
            row_first: 0,
            open: RowRuns::default(),
        }
    }

    /// Start row `row` (`z * size_y + y`).
    pub fn start_row(&mut self, row: usize) {
        if row != self.next_row {
            self.in_order = false;
        }
        self.row = row;
        self.row_first = self.runs.len();
        self.open = RowRuns::default();
    }

    /// Append `voxels` (normalized by the caller) to the current row.
    #[inline]
    pub fn push_voxels(&mut self, voxels: &[Voxel]) {
        self.open.voxels(&mut self.runs, voxels);
    }

    /// Finish the current row.
    ///
    /// # Panics
    /// If the row does not hold exactly `size[0]` voxels (a caller bug).
    pub fn end_row(&mut self) {
        let len = std::mem::take(&mut self.open).finish(&mut self.runs);
        assert_eq!(len, self.size[0] as usize, "row length does not match");
        let count = self.runs.len() - self.row_first;
        self.spans[self.row] = (self.row_first as u32, count as u32);
        self.next_row = self.row + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain per-voxel loop of the run boundaries of `row[lo..lo + len]`, appended to a row that
    /// already holds `prefix`.
    fn plain_runs(prefix: &[Voxel], row: &[Voxel], lo: usize, len: usize) -> Vec<Run> {
        let mut runs = Vec::new();
        let all: Vec<Voxel> = prefix.iter().chain(&row[lo..lo + len]).copied().collect();
        for (x, v) in all.iter().enumerate() {
            if x + 1 == all.len() || all[x + 1] != *v {
                runs.push(Run {
                    voxel: *v,
                    end: (x + 1) as u16,
                });
            }
        }
        runs
    }

    #[test]
    fn whole_row_path_matches_a_per_voxel_loop() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        for _ in 0..4000 {
            let palette = rng.random_range(1..5u8);
            let pick = |rng: &mut rand_chacha::ChaCha8Rng| {
                let m = rng.random_range(0..palette);
                Voxel::new(
                    m,
                    if m == 0 {
                        0
                    } else {
                        rng.random_range(250..=255)
                    },
                )
            };
            let row: [Voxel; 32] = std::array::from_fn(|_| pick(&mut rng));
            let prefix: Vec<Voxel> = (0..rng.random_range(0..5))
                .map(|_| pick(&mut rng))
                .collect();
            let lo = rng.random_range(0..32);
            let len = rng.random_range(0..=32 - lo);
            let mut runs = Vec::new();
            let mut open = RowRuns::default();
            open.voxels(&mut runs, &prefix);
            open.row32(&mut runs, &row, lo, len);
            open.finish(&mut runs);
            assert_eq!(
                runs,
                plain_runs(&prefix, &row, lo, len),
                "lo {lo} len {len}"
            );
            let expect = (1..32).fold(0u32, |m, k| m | (u32::from(row[k] != row[k - 1]) << k));
            assert_eq!(row_boundaries32(&row), expect);
        }
    }

    #[test]
    fn lane_mask_matches_a_plain_loop() {
        let lanes = [0u64, 1, 0x8000, 0xffff, 0x7fff, 0x0100];
        for a in lanes {
            for b in lanes {
                for c in lanes {
                    for d in lanes {
                        let x = a | (b << 16) | (c << 32) | (d << 48);
                        let expect = [a, b, c, d]
                            .iter()
                            .enumerate()
                            .fold(0, |m, (i, &l)| m | (u64::from(l != 0) << i));
                        assert_eq!(differing_lanes(x), expect, "{x:#x}");
                    }
                }
            }
        }
    }
}
