//! One subdivision level with AVX2: 32 parent cells of a row at a time.
//!
//! The rule is the one [`super::step_scalar`] applies through the table, computed with byte vectors
//! instead. For 32 cells at once, the cell and its six face neighbours become masks (−1 when it
//! does not count: empty, or with material borders of another material; 0 when it counts); the
//! fragment toward corner (dx, dy, dz) adds the masks of the cell and of its three neighbours on
//! that side, and is solid when that sum is greater than `threshold − 5` (at least `threshold` of
//! the four count). Each lane's threshold comes from its material through four 16-entry byte
//! shuffles. The dx = 0 and dx = 1 fragments are interleaved by byte unpacks into the
//! four output rows:
//!
//! ```text
//!   parents  c0 c1 c2 … c31                 (one row, 32 lanes)
//!   row (dy, dz) of the children:  f(0,c0) f(1,c0) f(0,c1) f(1,c1) …   (64 bytes)
//! ```
//!
//! A group whose 32 windows are all uniform writes its cells doubled. (A test for whole uniform
//! rows first, as the table kernel does, measured slower here.) An empty cell whose solid
//! neighbours have different materials takes a per-corner majority (`rules::rule_cell`): such
//! lanes come out of the vector part as a bit mask and are rewritten one by one. (Computing that
//! majority with vectors for the whole group measured no faster.)
//!
//! This module holds the engine's only `unsafe` code: the vector loads and stores, whose bounds
//! [`step`] asserts once per level.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256, _mm256_broadcastsi128_si256,
    _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_min_epu8,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_testz_si256,
    _mm256_unpackhi_epi8, _mm256_unpacklo_epi8, _mm256_xor_si256, _mm_loadu_si128,
};

use super::step::{cell, out_rows, put, set_of, Step};
use crate::enhance::rules::{rule_cell, RuleSet, SubdivideRules};

/// Parent cells per vector.
const LANES: usize = 32;

/// True when this processor has AVX2 (detected once, then cached by the standard library).
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// One level, as [`super::step_fast`] computes it.
///
/// # Panics
/// If the processor lacks AVX2, or the buffers do not match the step's geometry.
pub(super) fn step(src: &[u8], step: &Step<'_>, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, sz] = step.dims;
    let od = step.out_dims();
    assert!(available(), "the AVX2 kernel runs only where AVX2 is");
    assert_eq!(src.len(), sx * sy * sz, "input does not match its dims");
    assert_eq!(dst.len(), od[0] * od[1] * od[2], "output does not match");
    for axis in 0..3 {
        assert!(
            step.first[axis] >= 1 && step.first[axis] + step.count[axis] < step.dims[axis],
            "a level reads one cell around its parents"
        );
    }
    // SAFETY: AVX2 is present (asserted above). Every parent read has its six neighbours inside
    // `src` and every child inside `dst` (asserted above); `rows` keeps each vector inside them.
    unsafe { rows(src, step, rules, dst) }
}

/// # Safety
/// AVX2 must be present and `step` must match `src` and `dst` as [`step`] asserts.
#[target_feature(enable = "avx2")]
unsafe fn rows(src: &[u8], step: &Step<'_>, rules: &SubdivideRules, dst: &mut [u8]) {
    let [sx, sy, _] = step.dims;
    let sxy = sx * sy;
    let (x0, n) = (step.first[0], step.count[0]);
    let end = x0 + n;
    let mut thresholds: Option<(*const RuleSet, Thresholds)> = None;
    // Explicit loops rather than `Step::rows`: the iterator measured 12 % slower here.
    for pz in step.first[2]..step.first[2] + step.count[2] {
        for py in step.first[1]..step.first[1] + step.count[1] {
            if !step.wanted(py, pz) {
                continue;
            }
            let (set, out) = (set_of(step, rules, py), out_rows(step, py, pz));
            let row = (pz * sy + py) * sx;
            let t = match thresholds {
                Some((of, t)) if std::ptr::eq(of, set) => t,
                _ => {
                    let t = Thresholds::new(set);
                    thresholds = Some((set, t));
                    t
                }
            };
            let mut px = x0;
            while px < end {
                // Whole vectors, then one more ending at the row's end (it overlaps the one before
                // and writes the same bytes there); a row shorter than a vector goes cell by cell.
                let start = if px + LANES <= end {
                    px
                } else if n >= LANES {
                    end - LANES
                } else {
                    for q in px..end {
                        let w = cell(src, row + q, sx, sxy, set, rules.borders);
                        put(dst, &out, 2 * (q - x0), w);
                    }
                    break;
                };
                let i = row + start;
                let ox = 2 * (start - x0);
                let mut mixed = group(src, i, [sx, sxy], &t, rules.borders, dst, &out, ox);
                while mixed != 0 {
                    let lane = mixed.trailing_zeros() as usize;
                    mixed &= mixed - 1;
                    let at = i + lane;
                    let nb = [
                        src[at - 1],
                        src[at + 1],
                        src[at - sx],
                        src[at + sx],
                        src[at - sxy],
                        src[at + sxy],
                    ];
                    let w = u64::from_le_bytes(rule_cell(0, nb, set, rules.borders));
                    put(dst, &out, ox + 2 * lane, w);
                }
                px = start + LANES;
            }
        }
    }
}

/// `threshold − 5` of materials 16·s .. 16·s + 15 in both halves of a vector, for even (`[0]`) and
/// odd (`[1]`) altitudes.
#[derive(Clone, Copy)]
struct Thresholds {
    segments: [[__m256i; 4]; 2],
}

impl Thresholds {
    /// # Safety
    /// AVX2 must be present.
    #[target_feature(enable = "avx2")]
    unsafe fn new(set: &RuleSet) -> Self {
        let mut segments = [[_mm256_setzero_si256(); 4]; 2];
        for (parity, seg) in segments.iter_mut().enumerate() {
            for (s, v) in seg.iter_mut().enumerate() {
                let bytes = &set.minus_five[parity][16 * s..16 * s + 16];
                *v = _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.as_ptr().cast()));
            }
        }
        Self { segments }
    }

    /// The even and odd `threshold − 5` of each lane's material (its low 6 bits).
    ///
    /// # Safety
    /// AVX2 must be present.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn of(&self, material: __m256i) -> [__m256i; 2] {
        let index = _mm256_and_si256(material, _mm256_set1_epi8(0x0f));
        let segment = _mm256_and_si256(material, _mm256_set1_epi8(0x30));
        if _mm256_testz_si256(segment, segment) == 1 {
            return [
                _mm256_shuffle_epi8(self.segments[0][0], index),
                _mm256_shuffle_epi8(self.segments[1][0], index),
            ];
        }
        let mut out = [_mm256_setzero_si256(); 2];
        for s in 0..4 {
            let here = _mm256_cmpeq_epi8(segment, _mm256_set1_epi8(16 * s as i8));
            for (parity, o) in out.iter_mut().enumerate() {
                let t = _mm256_shuffle_epi8(self.segments[parity][s], index);
                *o = _mm256_or_si256(*o, _mm256_and_si256(here, t));
            }
        }
        out
    }
}

/// # Safety
/// AVX2 must be present and the 32 bytes at `at` inside `s`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(s: &[u8], at: usize) -> __m256i {
    debug_assert!(at + LANES <= s.len());
    _mm256_loadu_si256(s.as_ptr().add(at).cast())
}

/// # Safety
/// AVX2 must be present and the 32 bytes at `at` inside `d`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store(d: &mut [u8], at: usize, v: __m256i) {
    debug_assert!(at + LANES <= d.len());
    _mm256_storeu_si256(d.as_mut_ptr().add(at).cast(), v);
}

/// Bytes of `a` and `b` alternated: `a0 b0 a1 b1 …`, as two vectors (lanes 0–15, then 16–31).
///
/// # Safety
/// AVX2 must be present.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn interleave(a: __m256i, b: __m256i) -> [__m256i; 2] {
    let lo = _mm256_unpacklo_epi8(a, b);
    let hi = _mm256_unpackhi_epi8(a, b);
    [
        _mm256_permute2x128_si256::<0x20>(lo, hi),
        _mm256_permute2x128_si256::<0x31>(lo, hi),
    ]
}

/// The children of the 32 cells at `i` (strides `[sx, sxy]`), written at column `ox` of the four
/// output rows. Returns the lanes left to [`rule_cell`]: empty cells between solid neighbours of
/// different materials.
///
/// # Safety
/// AVX2 must be present; the cells and their neighbours must be inside `src` and the 64 output
/// bytes of each row inside `dst`.
#[inline]
#[target_feature(enable = "avx2")]
#[expect(
    clippy::too_many_arguments,
    reason = "one group's inputs, kept apart for the compiler"
)]
unsafe fn group(
    src: &[u8],
    i: usize,
    [sx, sxy]: [usize; 2],
    t: &Thresholds,
    borders: bool,
    dst: &mut [u8],
    out: &[usize; 4],
    ox: usize,
) -> u32 {
    let c = load(src, i);
    let n = [
        load(src, i - 1),
        load(src, i + 1),
        load(src, i - sx),
        load(src, i + sx),
        load(src, i - sxy),
        load(src, i + sxy),
    ];
    let mut diff = _mm256_setzero_si256();
    for &v in &n {
        diff = _mm256_or_si256(diff, _mm256_xor_si256(v, c));
    }
    if _mm256_testz_si256(diff, diff) == 1 {
        let doubled = interleave(c, c);
        for &r in out {
            store(dst, r + ox, doubled[0]);
            store(dst, r + ox + LANES, doubled[1]);
        }
        return 0;
    }
    let zero = _mm256_setzero_si256();
    let all = _mm256_set1_epi8(-1);
    let c_empty = _mm256_cmpeq_epi8(c, zero);
    let mut n_empty = [zero; 6];
    // The largest neighbour, and the smallest non-empty one (0xff when all are empty).
    let (mut top, mut low) = (zero, all);
    for (e, &v) in n_empty.iter_mut().zip(&n) {
        *e = _mm256_cmpeq_epi8(v, zero);
        top = _mm256_max_epu8(top, v);
        low = _mm256_min_epu8(low, _mm256_or_si256(v, *e));
    }
    // An empty cell is mixed when a non-empty neighbour is below `top` (then `low < top`).
    let one_material = _mm256_cmpeq_epi8(_mm256_min_epu8(low, top), top);
    let mixed = _mm256_movemask_epi8(_mm256_andnot_si256(one_material, c_empty)) as u32;
    // A solid cell keeps its material; an empty one takes its neighbours'.
    let material = _mm256_or_si256(c, _mm256_and_si256(c_empty, top));
    // Cells that do not count toward a fragment: −1.
    let mut skip = n_empty;
    if borders {
        for (sk, &v) in skip.iter_mut().zip(&n) {
            *sk = _mm256_xor_si256(_mm256_cmpeq_epi8(v, material), all);
        }
    }
    let cut = t.of(material);
    let with_x = [
        _mm256_add_epi8(c_empty, skip[0]),
        _mm256_add_epi8(c_empty, skip[1]),
    ];
    for dz in 0..2 {
        for dy in 0..2 {
            let yz = _mm256_add_epi8(skip[2 + dy], skip[4 + dz]);
            let mut corner = [zero; 2];
            for (f, &x) in corner.iter_mut().zip(&with_x) {
                let sum = _mm256_add_epi8(x, yz);
                *f = _mm256_and_si256(_mm256_cmpgt_epi8(sum, cut[dy]), material);
            }
            let row = interleave(corner[0], corner[1]);
            let r = out[dy + 2 * dz] + ox;
            store(dst, r, row[0]);
            store(dst, r + LANES, row[1]);
        }
    }
    mixed
}
