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
//! Three kernels compute the same bytes ([`Kernel`]):
//! - **Table** (portable): most cells of terrain sit in uniform windows (all seven cells equal), and
//!   their children all equal the cell. Eight cells of a row are tested at once with 64-bit compares
//!   of the centre row against its ±x shifts and the four neighbouring rows; a uniform run writes its
//!   cells doubled (`bytes::double_into`) into the four output rows, which is what plain nearest-neighbour
//!   upsampling does too. Other cells go through the table: 7 window bits, one lookup, 8 fragment
//!   bits spread to bytes. An empty cell between solid neighbours of different materials takes the
//!   per-corner path (`rules::rule_cell`).
//! - **Avx2** (`simd.rs`, x86-64 processors that have it): 32 cells at a time, the rule computed
//!   with byte vectors instead of the table.
//! - **Scalar**: cell by cell through the table, without shortcuts; the twin both fast kernels are
//!   tested against.
//!
//! The table kernel fills a row whose window is one value throughout with one memset of its
//! children; both fast kernels fill a box of one value without running the levels.

use super::bytes::{double_into, nonzero_bytes, one_value, word};
use super::rules::{rule_cell, RuleSet, SubdivideRules};

#[cfg(target_arch = "x86_64")]
mod simd;
mod step;

use step::{cell, put, Row, Step, SPREAD};

/// Reusable buffers for the intermediate levels, which rows of the result are wanted, and the
/// kernel (`None`: the fastest this processor runs).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u8>,
    b: Vec<u8>,
    kernel: Option<Kernel>,
    /// Wanted voxel rows of the interior (`[z · rows_y + y]`); empty: all. The last level skips the
    /// fragments of unwanted rows (their output bytes are left as they were).
    rows: Vec<bool>,
    rows_y: usize,
}

impl Scratch {
    /// Scratch that runs `kernel` (tests and benches compare them).
    pub fn with_kernel(kernel: Kernel) -> Self {
        Self {
            kernel: Some(kernel),
            ..Self::default()
        }
    }

    /// Compute only the fragments of the interior's voxel rows marked in `rows` (`[z · rows_y + y]`)
    /// at the last level; an empty `rows` computes everything.
    pub fn want_rows(&mut self, rows: impl IntoIterator<Item = bool>, rows_y: usize) {
        self.rows.clear();
        self.rows.extend(rows);
        self.rows_y = rows_y;
    }
}

/// The implementations of one level, all computing the same bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Cell by cell through the table (the reference twin).
    Scalar,
    /// Uniform runs as whole words, other cells through the table, 8 at a time: portable.
    Table,
    /// 32 cells at a time with AVX2 (x86-64 only, when the processor has it).
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn best() -> Self {
        if Self::Avx2.available() {
            Self::Avx2
        } else {
            Self::Table
        }
    }

    /// True when this processor runs the kernel.
    pub fn available(self) -> bool {
        match self {
            Self::Scalar | Self::Table => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => simd::available(),
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx2 => false,
        }
    }

    fn step(self) -> StepFn {
        match self {
            Self::Scalar => step_scalar,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 if simd::available() => simd::step,
            Self::Table | Self::Avx2 => step_fast,
        }
    }
}

type StepFn = fn(&[u8], &Step<'_>, &SubdivideRules, &mut [u8]);

/// Subdivide `input` (`dims` cells per axis, X fastest) `levels` times. The interior is
/// `dims − 4` per axis (a halo of 1 and a pad of 1 around it); `origin_y` is the voxel altitude of
/// input row 0. Writes the interior's fragments (`(dims − 4)·2^levels` per axis) into `out`.
///
/// Runs the kernel of `scratch` (the fastest this processor runs unless set).
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
    let kernel = scratch.kernel.unwrap_or_else(Kernel::best);
    assert!(levels >= 1, "at least one level");
    assert!(dims.iter().all(|&d| d >= 5), "a box needs a halo and a pad");
    assert_eq!(
        input.len(),
        dims[0] * dims[1] * dims[2],
        "input does not match dims"
    );
    // A box of one value (all air, all rock) has every fragment that value: the fast kernels fill.
    if kernel != Kernel::Scalar {
        if let Some(v) = one_value(input) {
            let f = 1usize << levels;
            out.clear();
            out.resize(dims.iter().map(|d| (d - 4) * f).product(), v);
            scratch.rows.clear();
            return;
        }
    }
    let step_fn = kernel.step();
    let mut cur_dims = dims;
    let mut base_y = i64::from(origin_y);
    let mut bufs = [
        std::mem::take(&mut scratch.a),
        std::mem::take(&mut scratch.b),
    ];
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
            rows: (last && !scratch.rows.is_empty()).then_some((
                scratch.rows.as_slice(),
                scratch.rows_y,
                level,
            )),
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
        // Every output byte is written, so a buffer of the right length is reused as it is.
        dst.resize(len, 0);
        step_fn(src, &step, rules, dst);
        base_y = 2 * (base_y + first[1] as i64);
        cur_dims = od;
    }
    [scratch.a, scratch.b] = bufs;
    scratch.rows.clear();
}

fn step_scalar(src: &[u8], step: &Step<'_>, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, _] = step.dims;
    let x0 = step.first[0];
    for row in step.rows(rules) {
        for px in x0..x0 + step.count[0] {
            let w = cell(src, row.at + px, sx, sx * sy, row.set, rules.borders);
            put(dst, &row.out, 2 * (px - x0), w);
        }
    }
}

/// When the parent row starting at `row` holds one value, as do its four neighbouring rows and the
/// cells just past its ends, every child is that value: fill the four output rows and return true.
#[inline]
fn fill_uniform_row(
    src: &[u8],
    step: &Step<'_>,
    row: usize,
    rows: &[usize; 4],
    dst: &mut [u8],
) -> bool {
    let [sx, sy, _] = step.dims;
    let (x0, n) = (step.first[0], step.count[0]);
    let (start, end) = (row + x0 - 1, row + x0 + n + 1);
    let first = src[row + x0];
    let uniform = one_value(&src[start..end]) == Some(first)
        && [sx, sx * sy].iter().all(|&d| {
            one_value(&src[start - d..end - d]) == Some(first)
                && one_value(&src[start + d..end + d]) == Some(first)
        });
    if uniform {
        for &r in rows {
            dst[r..r + 2 * n].fill(first);
        }
    }
    uniform
}

fn step_fast(src: &[u8], step: &Step<'_>, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, _] = step.dims;
    let sxy = sx * sy;
    let (x0, n) = (step.first[0], step.count[0]);
    for Row {
        at: row,
        set,
        out: rows,
    } in step.rows(rules)
    {
        if fill_uniform_row(src, step, row, &rows, dst) {
            continue;
        }
        // Every cell doubled, as nearest-neighbour upsampling would: right for uniform windows.
        double_into(
            &src[row + x0..row + x0 + n],
            &mut dst[rows[0]..rows[0] + 2 * n],
        );
        for &r in &rows[1..] {
            dst.copy_within(rows[0]..rows[0] + 2 * n, r);
        }
        // Then the cells whose window is not uniform, through the table.
        let mut px = x0;
        while px < x0 + n {
            let i = row + px;
            if px + 8 <= x0 + n && px + 9 <= sx {
                let words = Words {
                    c: word(src, i),
                    n: [
                        word(src, i - 1),
                        word(src, i + 1),
                        word(src, i - sx),
                        word(src, i + sx),
                        word(src, i - sxy),
                        word(src, i + sxy),
                    ],
                };
                let diff = words.n.iter().fold(0, |d, &w| d | (w ^ words.c));
                if diff != 0 {
                    fix_group(&words, diff, set, rules.borders, |lane, w| {
                        put(dst, &rows, 2 * (px + lane - x0), w);
                    });
                }
                px += 8;
            } else {
                let c = src[i];
                let uniform = src[i - 1] == c
                    && src[i + 1] == c
                    && src[i - sx] == c
                    && src[i + sx] == c
                    && src[i - sxy] == c
                    && src[i + sxy] == c;
                if !uniform {
                    put(
                        dst,
                        &rows,
                        2 * (px - x0),
                        cell(src, i, sx, sxy, set, rules.borders),
                    );
                }
                px += 1;
            }
        }
    }
}

/// Eight cells of a row and their six neighbours, a byte per cell (−x, +x, −y, +y, −z, +z).
struct Words {
    c: u64,
    n: [u64; 6],
}

/// The children of the cells of a group whose window is not uniform (`diff` has a non-zero byte for
/// each), computed for the eight lanes at once where possible: the 7-bit windows and the materials
/// of empty cells come from whole-word bit operations, then one table lookup per lane.
#[inline]
fn fix_group(g: &Words, diff: u64, set: &RuleSet, borders: bool, mut put: impl FnMut(usize, u64)) {
    let ones = |v: u64| nonzero_bytes(v) >> 7;
    let c_solid = ones(g.c);
    let mut window_any = c_solid;
    let mut window_same = c_solid;
    let mut or = 0u64;
    for (k, &w) in g.n.iter().enumerate() {
        window_any |= ones(w) << (k + 1);
        if borders {
            window_same |= (!ones(w ^ g.c) & 0x0101_0101_0101_0101) << (k + 1);
        }
        or |= w;
    }
    // Empty cells whose solid neighbours are not all one material take the per-corner path.
    let mut mixed = 0u64;
    for &w in &g.n {
        mixed |= nonzero_bytes(w) & nonzero_bytes(w ^ or);
    }
    let mut lanes = nonzero_bytes(diff);
    while lanes != 0 {
        let lane = (lanes.trailing_zeros() / 8) as usize;
        lanes &= lanes - 1;
        let shift = 8 * lane;
        let c = (g.c >> shift) as u8;
        let (material, window) = if c != 0 {
            let w = if borders { window_same } else { window_any };
            (c, (w >> shift) as u8 & 0x7f)
        } else if (mixed >> shift) & 0x80 != 0 {
            let n = g.n.map(|w| (w >> shift) as u8);
            put(lane, u64::from_le_bytes(rule_cell(0, n, set, borders)));
            continue;
        } else {
            ((or >> shift) as u8, (window_any >> shift) as u8 & 0x7f)
        };
        let bits = set.lut[usize::from(material & 0x3f)][usize::from(window)];
        put(
            lane,
            SPREAD[usize::from(bits)] & (u64::from(material) * 0x0101_0101_0101_0101),
        );
    }
}

/// Plain nearest-neighbour upsampling of the interior of a padded box (the peer of `subdivide` in
/// the bench): every cell becomes `factor³` copies of itself. Each source row is widened once (by
/// doubling words when `factor` is a power of two) and copied to its `factor²` output rows; every
/// output byte is written once, so a buffer of the right length is reused without clearing.
pub fn upsample_nearest(input: &[u8], dims: [usize; 3], factor: usize, out: &mut Vec<u8>) {
    let inner = dims.map(|d| d.saturating_sub(4));
    let od = inner.map(|d| d * factor);
    out.resize(od[0] * od[1] * od[2], 0);
    let (mut row, mut wider) = (Vec::with_capacity(od[0]), Vec::with_capacity(od[0]));
    for z in 0..inner[2] {
        for y in 0..inner[1] {
            let src = ((z + 2) * dims[1] + y + 2) * dims[0] + 2;
            let cells = &input[src..src + inner[0]];
            row.clear();
            if factor.is_power_of_two() {
                row.extend_from_slice(cells);
                while row.len() < od[0] {
                    wider.resize(2 * row.len(), 0);
                    double_into(&row, &mut wider);
                    std::mem::swap(&mut row, &mut wider);
                }
            } else {
                row.extend(cells.iter().flat_map(|&c| std::iter::repeat_n(c, factor)));
            }
            for k in 0..factor {
                for j in 0..factor {
                    let to = ((z * factor + k) * od[1] + y * factor + j) * od[0];
                    out[to..to + od[0]].copy_from_slice(&row);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enhance::HeightBand;
    use crate::voxel::{EnhanceThreshold, MaterialTable, MATERIAL_COUNT};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The built-in table grown to every material id, each with a random threshold pair.
    fn random_thresholds(rng: &mut ChaCha8Rng) -> MaterialTable {
        let mut table = MaterialTable::builtin();
        while table.materials.len() < MATERIAL_COUNT {
            let mut m = table.materials[1].clone();
            m.name = format!("Extra{}", table.materials.len());
            table.materials.push(m);
        }
        for m in table.materials.iter_mut().skip(1) {
            m.enhance = Some(EnhanceThreshold {
                even: rng.random_range(1..=4),
                odd: rng.random_range(1..=4),
            });
        }
        table
    }

    /// Cells of one of five kinds: noise, ground with layers and holes, lumps, thin sheets, one value.
    fn random_cells(rng: &mut ChaCha8Rng, kind: usize, dims: [usize; 3]) -> Vec<u8> {
        let palette: Vec<u8> = (0..rng.random_range(1..5))
            .map(|_| rng.random_range(1..64))
            .collect();
        let pick = |rng: &mut ChaCha8Rng| palette[rng.random_range(0..palette.len())];
        let heights: Vec<usize> = (0..dims[0] * dims[2])
            .map(|_| rng.random_range(0..dims[1]))
            .collect();
        let mut cells = Vec::with_capacity(dims[0] * dims[1] * dims[2]);
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    let v = match kind {
                        0 => {
                            if rng.random_bool(0.5) {
                                pick(rng)
                            } else {
                                0
                            }
                        }
                        1 => {
                            let h = heights[z * dims[0] + x].max(heights[(z * dims[0] + x) / 2]);
                            if y > h || rng.random_bool(0.03) {
                                0
                            } else {
                                palette[(h - y).min(palette.len() - 1)]
                            }
                        }
                        4 => palette[0] * u8::from(palette.len().is_multiple_of(2)),
                        2 => {
                            if (x / 3 + y / 2 + z / 4) % 3 == 0 {
                                pick(rng)
                            } else {
                                0
                            }
                        }
                        _ => {
                            if (x + 2 * y + z) % 5 == 0 || rng.random_bool(0.02) {
                                pick(rng)
                            } else {
                                0
                            }
                        }
                    };
                    cells.push(v);
                }
            }
        }
        cells
    }

    /// Every kernel this processor runs gives the scalar twin's bytes: rows narrower and wider than
    /// a vector, tails of every length, all material ids, strata, bands, borders, 1 to 4 levels.
    #[test]
    fn every_kernel_equals_the_scalar_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let kernels: Vec<Kernel> = [Kernel::Table, Kernel::Avx2]
            .into_iter()
            .filter(|k| k.available())
            .collect();
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for case in 0..160 {
            let table = random_thresholds(&mut rng);
            let levels = if case % 16 == 0 { 4 } else { 1 + case % 3 } as u32;
            let wide = if levels == 4 { 9 } else { 44 };
            let dims = [
                rng.random_range(5..=wide),
                rng.random_range(5..=if levels == 4 { 8 } else { 14 }),
                rng.random_range(5..=if levels == 4 { 7 } else { 10 }),
            ];
            let cells = random_cells(&mut rng, case % 5, dims);
            let threshold = (case % 5 == 1).then(|| rng.random_range(1..=4));
            let bands = if case % 3 == 2 {
                vec![HeightBand {
                    min_y: rng.random_range(-4..4),
                    max_y: rng.random_range(4..12),
                    threshold: EnhanceThreshold {
                        even: rng.random_range(1..=4),
                        odd: rng.random_range(1..=4),
                    },
                }]
            } else {
                Vec::new()
            };
            let borders = rng.random_bool(0.5);
            let rules = SubdivideRules::new(&table, threshold, &bands, borders);
            let origin_y = rng.random_range(-5..5);
            let run = |k: Kernel, out: &mut Vec<u8>| {
                let mut scratch = Scratch::with_kernel(k);
                subdivide(&cells, dims, origin_y, levels, &rules, &mut scratch, out);
            };
            run(Kernel::Scalar, &mut want);
            for &k in &kernels {
                got.fill(0xee);
                run(k, &mut got);
                let first_difference = got.iter().zip(&want).position(|(a, b)| a != b);
                assert!(
                    got.len() == want.len() && first_difference.is_none(),
                    "case {case}: {k:?}, dims {dims:?}, {levels} levels, borders {borders}: \
                     byte {first_difference:?} differs"
                );
            }
        }
    }

    #[test]
    fn a_uniform_box_stays_uniform_at_every_depth() {
        let table = MaterialTable::builtin();
        let rules = SubdivideRules::new(&table, None, &[], false);
        let dims = [13, 9, 11];
        let input = vec![7u8; dims[0] * dims[1] * dims[2]];
        let mut out = Vec::new();
        for levels in 1..=3 {
            subdivide(
                &input,
                dims,
                0,
                levels,
                &rules,
                &mut Scratch::default(),
                &mut out,
            );
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
        // Every factor, into a reused buffer full of other bytes, against the definition.
        let dims = [15, 7, 6];
        let input: Vec<u8> = (0..dims.iter().product::<usize>())
            .map(|i| (i * 37 % 251) as u8)
            .collect();
        for factor in [1, 2, 3, 4, 8, 16] {
            let od = dims.map(|d| (d - 4) * factor);
            out.clear();
            out.resize(od[0] * od[1] * od[2], 0xee);
            upsample_nearest(&input, dims, factor, &mut out);
            for (i, &v) in out.iter().enumerate() {
                let (x, y, z) = (i % od[0], i / od[0] % od[1], i / (od[0] * od[1]));
                let cell = ((z / factor + 2) * dims[1] + y / factor + 2) * dims[0] + x / factor + 2;
                assert_eq!(v, input[cell], "factor {factor}, fragment {i}");
            }
        }
    }
}
