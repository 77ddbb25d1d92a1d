//! What every kernel of a level shares: the level's geometry ([`Step`]), its parent rows, where a
//! parent row's children go, and the children of one cell. The scalar, table and AVX2 kernels all
//! build on these, so they compute the same bytes.

use crate::enhance::rules::{rule_cell, RuleSet, SubdivideRules, CENTRE};

/// `SPREAD[bits]`: byte `i` is 0xff when bit `i` is set.
pub(super) const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 0xff << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// One level's geometry: input dims, first parent and parent count per axis, and the altitude of
/// input row 0 in this level's cells.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step<'a> {
    pub(super) dims: [usize; 3],
    pub(super) first: [usize; 3],
    pub(super) count: [usize; 3],
    pub(super) base_y: i64,
    pub(super) level: u32,
    /// At the last level: wanted voxel rows, their Y count, and log2 of parents per voxel.
    pub(super) rows: Option<(&'a [bool], usize, u32)>,
}

impl Step<'_> {
    /// False when parent row (`py`, `pz`) belongs to a voxel row nobody wants.
    #[inline]
    pub(super) fn wanted(&self, py: usize, pz: usize) -> bool {
        match self.rows {
            Some((rows, ny, shift)) => {
                let vy = (py - self.first[1]) >> shift;
                let vz = (pz - self.first[2]) >> shift;
                rows[vz * ny + vy]
            }
            None => true,
        }
    }
    pub(super) fn out_dims(&self) -> [usize; 3] {
        self.count.map(|c| 2 * c)
    }

    /// The wanted parent rows, Z then Y.
    pub(super) fn rows<'r>(
        &'r self,
        rules: &'r SubdivideRules,
    ) -> impl Iterator<Item = Row<'r>> + 'r {
        let [sx, sy, _] = self.dims;
        (self.first[2]..self.first[2] + self.count[2]).flat_map(move |pz| {
            (self.first[1]..self.first[1] + self.count[1])
                .filter(move |&py| self.wanted(py, pz))
                .map(move |py| Row {
                    at: (pz * sy + py) * sx,
                    set: set_of(self, rules, py),
                    out: out_rows(self, py, pz),
                })
        })
    }
}

/// One parent row of a level, as the table and scalar kernels walk them.
#[derive(Clone, Copy)]
pub(super) struct Row<'r> {
    /// Input index of the row's cell at x = 0.
    pub(super) at: usize,
    /// The rule set of the row's altitude.
    pub(super) set: &'r RuleSet,
    /// Output index of the first child in each of the four child rows (`dy + 2·dz`).
    pub(super) out: [usize; 4],
}

/// Output row starts of the four (dy, dz) rows of parent row (py, pz).
#[inline]
pub(super) fn out_rows(step: &Step<'_>, py: usize, pz: usize) -> [usize; 4] {
    let od = step.out_dims();
    let oy = 2 * (py - step.first[1]);
    let oz = 2 * (pz - step.first[2]);
    let row = |y: usize, z: usize| (z * od[1] + y) * od[0];
    [
        row(oy, oz),
        row(oy + 1, oz),
        row(oy, oz + 1),
        row(oy + 1, oz + 1),
    ]
}

/// The rule set of parent row `py`.
#[inline]
pub(super) fn set_of<'r>(step: &Step<'_>, rules: &'r SubdivideRules, py: usize) -> &'r RuleSet {
    rules.set_at((step.base_y + py as i64) >> step.level)
}

/// Children of one non-uniform cell, as 8 bytes in corner order.
#[inline]
pub(super) fn cell(
    src: &[u8],
    i: usize,
    sx: usize,
    sxy: usize,
    set: &RuleSet,
    borders: bool,
) -> u64 {
    let c = src[i];
    let n = [
        src[i - 1],
        src[i + 1],
        src[i - sx],
        src[i + sx],
        src[i - sxy],
        src[i + sxy],
    ];
    let (material, window) = if c != 0 {
        let mut w = CENTRE;
        for (k, &v) in n.iter().enumerate() {
            let solid = if borders { v == c } else { v != 0 };
            w |= u8::from(solid) << (k + 1);
        }
        (c, w)
    } else {
        let mut m = 0u8;
        let mut mixed = false;
        let mut w = 0u8;
        for (k, &v) in n.iter().enumerate() {
            if v != 0 {
                mixed |= m != 0 && v != m;
                m = v;
                w |= 1 << (k + 1);
            }
        }
        if m == 0 {
            return 0;
        }
        if mixed {
            return u64::from_le_bytes(rule_cell(0, n, set, borders));
        }
        (m, w)
    };
    let bits = set.lut[usize::from(material & 0x3f)][usize::from(window)];
    SPREAD[usize::from(bits)] & (u64::from(material) * 0x0101_0101_0101_0101)
}

/// Write a cell's 8 children (corner order) at output column `ox` of the four rows.
#[inline]
pub(super) fn put(dst: &mut [u8], rows: &[usize; 4], ox: usize, w: u64) {
    let b = w.to_le_bytes();
    dst[rows[0] + ox..rows[0] + ox + 2].copy_from_slice(&b[0..2]);
    dst[rows[1] + ox..rows[1] + ox + 2].copy_from_slice(&b[2..4]);
    dst[rows[2] + ox..rows[2] + ox + 2].copy_from_slice(&b[4..6]);
    dst[rows[3] + ox..rows[3] + ox + 2].copy_from_slice(&b[6..8]);
}
