//! Dense recursive subdivision of a padded box, level after level, through the rule tables.
//!
//! Cells are class bytes: 0 for empty, else the material of a solid voxel or fragment. A level reads a
//! box of `P` cells per axis and writes the 2×2×2 children of a range of them:
//!
//! ```text
//!   level l   | pad | halo | interior (T·2^l) | halo | pad |      P = T·2^l + 4
//!   level l+1 children of halo + interior parents:  | pad | halo | interior (T·2^(l+1)) | halo | pad |
//! ```
//!
//! A halo cell of level l+1 is the child of a level-l halo parent on the side facing the interior, so
//! its window points inward and it is exact; the outer child of a halo parent reads the pad and is
//! itself only a pad cell of the next level (read as a neighbour by nothing that is kept). The last
//! level writes the children of the interior parents only, so the result is exactly the interior.
//! The input therefore needs the box's voxels grown by 2 (1 halo + 1 pad); only the halo ring (the
//! 26 neighbours of the box) changes the result.
//!
//! # Speed
//! Most cells of terrain sit in uniform windows (all seven cells equal), and their children all equal
//! the cell. Eight cells of a row are tested at once with 64-bit compares of the centre row against
//! its ±x shifts and the four neighbouring rows; a uniform run writes its cells doubled (`double`)
//! into the four output rows, which is what plain nearest-neighbour upsampling does too. Other cells
//! go through the table: 7 window bits, one lookup, 8 fragment bits spread to bytes. An empty cell
//! between solid neighbours of different materials takes the per-corner path (`rules::rule_cell`).
//! [`subdivide_scalar`] is the same computation cell by cell, kept beside the fast path and
//! compared with it in tests.

use super::rules::{rule_cell, RuleSet, SubdivideRules, CENTRE};

/// `SPREAD[bits]`: byte `i` is 0xff when bit `i` is set.
const SPREAD: [u64; 256] = {
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

/// Reusable buffers for the intermediate levels.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u8>,
    b: Vec<u8>,
}

/// One level's geometry: input dims, first parent and parent count per axis, and the altitude of
/// input row 0 in this level's cells.
#[derive(Debug, Clone, Copy)]
struct Step {
    dims: [usize; 3],
    first: [usize; 3],
    count: [usize; 3],
    base_y: i64,
    level: u32,
}

impl Step {
    fn out_dims(&self) -> [usize; 3] {
        self.count.map(|c| 2 * c)
    }
}

/// Subdivide `input` (`dims` cells per axis, X fastest) `levels` times. The interior is
/// `dims − 4` per axis (a halo of 1 and a pad of 1 around it); `origin_y` is the voxel altitude of
/// input row 0. Writes the interior's fragments (`(dims − 4)·2^levels` per axis) into `out`.
///
/// # Panics
/// If a dimension is below 5, `levels` is 0, or `input` does not match `dims`.
pub(crate) fn subdivide(
    input: &[u8],
    dims: [usize; 3],
    origin_y: i32,
    levels: u32,
    rules: &SubdivideRules,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) {
    run_levels(input, dims, origin_y, levels, rules, scratch, out, step_fast);
}

/// [`subdivide`] cell by cell without the uniform-run shortcut (the scalar twin of the fast path).
pub(crate) fn subdivide_scalar(
    input: &[u8],
    dims: [usize; 3],
    origin_y: i32,
    levels: u32,
    rules: &SubdivideRules,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) {
    run_levels(input, dims, origin_y, levels, rules, scratch, out, step_scalar);
}

type StepFn = fn(&[u8], &Step, &SubdivideRules, &mut [u8]);

#[expect(clippy::too_many_arguments, reason = "internal driver shared by the two kernels")]
fn run_levels(
    input: &[u8],
    dims: [usize; 3],
    origin_y: i32,
    levels: u32,
    rules: &SubdivideRules,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
    step_fn: StepFn,
) {
    assert!(levels >= 1, "at least one level");
    assert!(dims.iter().all(|&d| d >= 5), "a box needs a halo and a pad");
    assert_eq!(input.len(), dims[0] * dims[1] * dims[2], "input does not match dims");
    let mut cur_dims = dims;
    let mut base_y = i64::from(origin_y);
    let mut bufs = [std::mem::take(&mut scratch.a), std::mem::take(&mut scratch.b)];
    for level in 0..levels {
        let last = level + 1 == levels;
        let (first, count) = if last {
            ([2; 3], cur_dims.map(|d| d - 4))
        } else {
            ([1; 3], cur_dims.map(|d| d - 2))
        };
        let step = Step {
            dims: cur_dims,
            first,
            count,
            base_y,
            level,
        };
        let od = step.out_dims();
        let len = od[0] * od[1] * od[2];
        let (src, dst): (&[u8], &mut Vec<u8>) = if level == 0 {
            (input, if last { &mut *out } else { &mut bufs[0] })
        } else {
            let (a, b) = bufs.split_at_mut(1);
            let (src, dst) = if level % 2 == 1 {
                (&a[0], &mut b[0])
            } else {
                (&b[0], &mut a[0])
            };
            (src.as_slice(), if last { &mut *out } else { dst })
        };
        dst.clear();
        dst.resize(len, 0);
        step_fn(src, &step, rules, dst);
        base_y = 2 * (base_y + first[1] as i64);
        cur_dims = od;
    }
    [scratch.a, scratch.b] = bufs;
}

/// Byte `i` of `v` at bytes `2i` and `2i + 1`.
#[inline]
fn double(v: u64) -> u128 {
    let x = u128::from(v);
    let x = (x | (x << 32)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    let x = (x | (x << 16)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    let x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x | (x << 8)
}

#[inline]
fn load(s: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&s[i..i + 8]);
    u64::from_le_bytes(b)
}

/// Output row starts of the four (dy, dz) rows of parent row (py, pz).
#[inline]
fn out_rows(step: &Step, py: usize, pz: usize) -> [usize; 4] {
    let od = step.out_dims();
    let oy = 2 * (py - step.first[1]);
    let oz = 2 * (pz - step.first[2]);
    let row = |y: usize, z: usize| (z * od[1] + y) * od[0];
    [row(oy, oz), row(oy + 1, oz), row(oy, oz + 1), row(oy + 1, oz + 1)]
}

/// The rule set of parent row `py`.
#[inline]
fn set_of<'r>(step: &Step, rules: &'r SubdivideRules, py: usize) -> &'r RuleSet {
    rules.set_at((step.base_y + py as i64) >> step.level)
}

/// Children of one non-uniform cell, as 8 bytes in corner order.
#[inline]
fn cell(src: &[u8], i: usize, sx: usize, sxy: usize, set: &RuleSet, borders: bool) -> u64 {
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
fn put(dst: &mut [u8], rows: &[usize; 4], ox: usize, w: u64) {
    let b = w.to_le_bytes();
    dst[rows[0] + ox..rows[0] + ox + 2].copy_from_slice(&b[0..2]);
    dst[rows[1] + ox..rows[1] + ox + 2].copy_from_slice(&b[2..4]);
    dst[rows[2] + ox..rows[2] + ox + 2].copy_from_slice(&b[4..6]);
    dst[rows[3] + ox..rows[3] + ox + 2].copy_from_slice(&b[6..8]);
}

fn step_scalar(src: &[u8], step: &Step, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, _] = step.dims;
    let sxy = sx * sy;
    for pz in step.first[2]..step.first[2] + step.count[2] {
        for py in step.first[1]..step.first[1] + step.count[1] {
            let set = set_of(step, rules, py);
            let rows = out_rows(step, py, pz);
            for px in step.first[0]..step.first[0] + step.count[0] {
                let i = (pz * sy + py) * sx + px;
                let w = cell(src, i, sx, sxy, set, rules.borders);
                put(dst, &rows, 2 * (px - step.first[0]), w);
            }
        }
    }
}

fn step_fast(src: &[u8], step: &Step, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, _] = step.dims;
    let sxy = sx * sy;
    let (x0, x1) = (step.first[0], step.first[0] + step.count[0]);
    for pz in step.first[2]..step.first[2] + step.count[2] {
        for py in step.first[1]..step.first[1] + step.count[1] {
            let set = set_of(step, rules, py);
            let rows = out_rows(step, py, pz);
            let row = (pz * sy + py) * sx;
            let mut px = x0;
            while px < x1 {
                let i = row + px;
                if px + 8 > x1 || px + 9 > sx {
                    let w = cell(src, i, sx, sxy, set, rules.borders);
                    put(dst, &rows, 2 * (px - x0), w);
                    px += 1;
                    continue;
                }
                let c = load(src, i);
                let diff = (c ^ load(src, i - 1))
                    | (c ^ load(src, i + 1))
                    | (c ^ load(src, i - sx))
                    | (c ^ load(src, i + sx))
                    | (c ^ load(src, i - sxy))
                    | (c ^ load(src, i + sxy));
                let ox = 2 * (px - x0);
                if diff == 0 {
                    let d = double(c).to_le_bytes();
                    for r in rows {
                        dst[r + ox..r + ox + 16].copy_from_slice(&d);
                    }
                } else {
                    for lane in 0..8 {
                        let w = if (diff >> (8 * lane)) & 0xff == 0 {
                            ((c >> (8 * lane)) & 0xff) * 0x0101_0101_0101_0101
                        } else {
                            cell(src, i + lane, sx, sxy, set, rules.borders)
                        };
                        put(dst, &rows, ox + 2 * lane, w);
                    }
                }
                px += 8;
            }
        }
    }
}

/// Plain nearest-neighbour upsampling of the interior of a padded box (the peer of [`subdivide`] in
/// the bench): every cell becomes `factor³` copies of itself.
pub fn upsample_nearest(input: &[u8], dims: [usize; 3], factor: usize, out: &mut Vec<u8>) {
    let inner = dims.map(|d| d.saturating_sub(4));
    let od = inner.map(|d| d * factor);
    out.clear();
    out.resize(od[0] * od[1] * od[2], 0);
    for z in 0..inner[2] {
        for y in 0..inner[1] {
            let src = ((z + 2) * dims[1] + y + 2) * dims[0] + 2;
            let first = ((z * factor) * od[1] + y * factor) * od[0];
            for x in 0..inner[0] {
                let v = input[src + x];
                out[first + x * factor..first + (x + 1) * factor].fill(v);
            }
            for k in 0..factor {
                for j in 0..factor {
                    if j == 0 && k == 0 {
                        continue;
                    }
                    let to = ((z * factor + k) * od[1] + y * factor + j) * od[0];
                    out.copy_within(first..first + od[0], to);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::MaterialTable;

    #[test]
    fn doubling_spreads_bytes_in_order() {
        let d = double(0x0807_0605_0403_0201).to_le_bytes();
        assert_eq!(d, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]);
    }

    #[test]
    fn a_uniform_box_stays_uniform_at_every_depth() {
        let table = MaterialTable::builtin();
        let rules = SubdivideRules::new(&table, None, &[], false);
        let dims = [13, 9, 11];
        let input = vec![7u8; dims[0] * dims[1] * dims[2]];
        let mut out = Vec::new();
        for levels in 1..=3 {
            subdivide(&input, dims, 0, levels, &rules, &mut Scratch::default(), &mut out);
            let f = 1 << levels;
            assert_eq!(out.len(), 9 * 5 * 7 * f * f * f);
            assert!(out.iter().all(|&b| b == 7));
        }
    }

    #[test]
    fn nearest_neighbour_replicates_each_cell() {
        let dims = [6, 5, 5];
        let input: Vec<u8> = (0..150).map(|i| i as u8).collect();
        let mut out = Vec::new();
        upsample_nearest(&input, dims, 3, &mut out);
        assert_eq!(out.len(), 6 * 3 * 3);
        let first = input[(2 * 5 + 2) * 6 + 2];
        let second = input[(2 * 5 + 2) * 6 + 3];
        for row in out.chunks(6) {
            assert_eq!(row, [first, first, first, second, second, second]);
        }
    }
}
