//! The occupancy guess of the column coding ([`column_coder`](super::column_coder)) and the activity
//! bucket that picks its contexts, read from the two rows of columns the coder needs rather than
//! from the chunk's voxels.
//!
//! ```text
//!   planes: one slot per column of the current row (z) and the previous one (z − 1), plus a pad
//!   column in front of each row (x = −1); each slot holds two pad voxels below y = 0
//!
//!     slot(x, z) = (z mod 2)·33 + x + 1         W = slot − 1, N = the other row's slot
//!     occupancy: the partial voxel's occupancy, −1 where the voxel is not partial (and in pads)
//!     residual:  the magnitude coded for the partial voxel, 0 elsewhere (and in pads)
//! ```
//!
//! Rationale: the guess looks at up to seven neighbours, each "partial or not" and at the chunk's
//! edges "not there". Reading them from the voxels meant a bounds test, a material test and an
//! `Option` per neighbour, and a 32 KiB residual array zeroed per chunk; with pads at the edges and
//! −1 for "not partial" the same guess is a handful of loads and compares, and both planes fit in
//! 7 KiB. The values, and so every byte of the format, are the same.

use crate::voxel::CHUNK_SIZE;

const N: usize = CHUNK_SIZE;
/// Slots per row: the pad column and 32 columns.
const ROW: usize = N + 1;
/// Pad voxels below y = 0 in each slot.
const PAD: usize = 2;

/// Occupancies and residual magnitudes of the current and the previous row of columns.
pub(super) struct Planes {
    occupancy: [[i16; N + PAD]; 2 * ROW],
    residual: [[u8; N + PAD]; 2 * ROW],
}

impl Planes {
    /// Planes for the start of a chunk: nothing partial, no residual.
    pub(super) fn new() -> Self {
        Self {
            occupancy: [[-1; N + PAD]; 2 * ROW],
            residual: [[0; N + PAD]; 2 * ROW],
        }
    }

    #[inline]
    fn slot(x: usize, z: usize) -> usize {
        (z % 2) * ROW + x + 1
    }

    /// Forget what the slot of column (`x`, `z`) held (the column two rows back): start it empty.
    #[inline]
    pub(super) fn start_column(&mut self, x: usize, z: usize) {
        let s = Self::slot(x, z);
        self.occupancy[s] = [-1; N + PAD];
        self.residual[s] = [0; N + PAD];
    }

    /// Record the partial voxel (`x`, `y`, `z`): its occupancy and the magnitude of its residual.
    #[inline]
    pub(super) fn set(&mut self, x: usize, y: usize, z: usize, occupancy: u8, residual: i32) {
        let s = Self::slot(x, z);
        self.occupancy[s][y + PAD] = i16::from(occupancy);
        self.residual[s][y + PAD] = residual.unsigned_abs().min(255) as u8;
    }

    /// The guess for the occupancy of voxel (`x`, `y`, `z`): the kind of guess and its value,
    /// clamped to `0..=254`.
    ///
    /// ```text
    ///   0  linear along the column    2·B − BB          B, BB = one and two below, both partial
    ///   1  planar across the layer    W + N − NW        all three partial at the same height
    ///   2  the column beside's step   B + W − WB        (or N, NB): B and the neighbour's pair partial
    ///   3  mean of the two beside     (W + N) / 2       both partial
    ///   4  one beside                 W, else N
    ///   5  the one below              B
    ///   6  nothing known              128
    /// ```
    #[inline]
    pub(super) fn predict(&self, x: usize, y: usize, z: usize) -> (usize, i32) {
        let s = Self::slot(x, z);
        let o = (1 - z % 2) * ROW + x + 1;
        let y = y + PAD;
        let cur = &self.occupancy[s];
        let (b, bb) = (i32::from(cur[y - 1]), i32::from(cur[y - 2]));
        let w = &self.occupancy[s - 1];
        let (w0, w1) = (i32::from(w[y]), i32::from(w[y - 1]));
        let n = &self.occupancy[o];
        let (n0, n1) = (i32::from(n[y]), i32::from(n[y - 1]));
        let nw0 = i32::from(self.occupancy[o - 1][y]);
        let (kind, guess) = if (b | bb) >= 0 {
            (0, 2 * b - bb)
        } else if (w0 | n0 | nw0) >= 0 {
            (1, w0 + n0 - nw0)
        } else if (b | w0 | w1) >= 0 {
            (2, b + w0 - w1)
        } else if (b | n0 | n1) >= 0 {
            (2, b + n0 - n1)
        } else if (w0 | n0) >= 0 {
            (3, (w0 + n0) / 2)
        } else if w0 >= 0 {
            (4, w0)
        } else if n0 >= 0 {
            (4, n0)
        } else if b >= 0 {
            (5, b)
        } else {
            (6, 128)
        };
        (kind, guess.clamp(0, 254))
    }

    /// Bucket of the residual magnitudes already coded below, beside (W) and behind (N).
    #[inline]
    pub(super) fn activity(&self, x: usize, y: usize, z: usize) -> usize {
        let s = Self::slot(x, z);
        let o = (1 - z % 2) * ROW + x + 1;
        let y = y + PAD;
        let sum = u32::from(self.residual[s][y - 1])
            + u32::from(self.residual[s - 1][y])
            + u32::from(self.residual[o][y]);
        match sum {
            0 => 0,
            1..=2 => 1,
            3..=6 => 2,
            _ => 3,
        }
    }
}
