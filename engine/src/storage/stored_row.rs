//! The compact form of a stored row: a run, a few voxels as they are, a run.
//!
//! A row that crosses a surface is a run of one voxel up to the surface (rock, or air under an
//! overhang), a few partial voxels, and a run of another voxel after it. A [`StoredRow`] keeps the
//! two runs as a material and a length and only the middle as voxels, in the box's cell array:
//!
//! ```text
//!   x:  0 ......... prefix_len ........ prefix_len + middle_len ....... N
//!       │ prefix (default occupancy) │ middle: cells[start ..] │ suffix (default occupancy) │
//! ```
//!
//! The split is canonical: the prefix is the longest run of the row's first voxel when that voxel
//! is at its default occupancy (else empty, material 0), the suffix the longest run of the last
//! voxel after the prefix under the same rule, and the middle everything between. Equal rows
//! therefore split alike, so a box shares stored rows by comparing splits.
//!
//! # Rationale
//! The cliff row "rock × k, three partial voxels, air" is 6 bytes of [`StoredRow`] plus 6 bytes of
//! cells instead of 64 bytes of cells. Reading it back takes no loop and no branch on the row's
//! contents: a row read selects each of the 32 voxels between the prefix, the cells from where the
//! prefix would start and the suffix, as masks on two-byte lanes (vector code whose whole-lane
//! stores the caller's reads take straight from the store buffer); a box read, which copies the row
//! out later, assembles it with three fixed 32-voxel copies into a [`RowBuf`] of 64 voxels (the
//! prefix's static row, the middle, the suffix's static row, each overwriting the previous one's
//! overrun; the buffer's second half takes the last overrun), fewer instructions than the selects.
//! A token stream (runs of any voxel) is about 30 % smaller but decodes run by run with a branch
//! per run, which measured twice a dense read.

use crate::voxel::{Voxel, MATERIAL_COUNT};

/// The longest row any packed box has (a chunk's X edge), and the width of every fixed copy.
pub(crate) const MAX_EDGE: usize = 32;

static FILLED_ROWS: [[Voxel; MAX_EDGE]; MATERIAL_COUNT] = build_filled_rows();

const fn build_filled_rows() -> [[Voxel; MAX_EDGE]; MATERIAL_COUNT] {
    let mut rows = [[Voxel::AIR; MAX_EDGE]; MATERIAL_COUNT];
    let mut m = 0;
    while m < MATERIAL_COUNT {
        let v = Voxel::filled(m as u8);
        let mut x = 0;
        while x < MAX_EDGE {
            rows[m][x] = v;
            x += 1;
        }
        m += 1;
    }
    rows
}

/// A static row of 32 voxels of `material` (6-bit) at its default occupancy.
#[inline]
pub fn filled_row(material: u8) -> &'static [Voxel; MAX_EDGE] {
    &FILLED_ROWS[usize::from(material & 0x3f)]
}

/// A scratch row for reads of stored rows: rows that are not a static fill are assembled in it.
///
/// Reads borrow it for as long as the row they return lives; one buffer serves any number of reads
/// in turn.
#[derive(Clone)]
pub struct RowBuf {
    pub(crate) voxels: [Voxel; 2 * MAX_EDGE],
}

impl RowBuf {
    /// An empty buffer.
    pub fn new() -> Self {
        Self {
            voxels: [Voxel::AIR; 2 * MAX_EDGE],
        }
    }
}

impl Default for RowBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for RowBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RowBuf")
    }
}

/// A row split into prefix run, middle and suffix run, without where its middle is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct RowSplit<'a> {
    pub prefix: u8,
    pub prefix_len: u8,
    pub suffix: u8,
    pub middle: &'a [Voxel],
}

impl<'a> RowSplit<'a> {
    /// RowSplit `row` (normalized voxels, at most 32) canonically.
    pub fn of(row: &'a [Voxel]) -> Self {
        debug_assert!(row.len() <= MAX_EDGE && row.iter().all(|v| v.is_normalized()));
        let run_len = |v: Voxel, it: &mut dyn Iterator<Item = &Voxel>| {
            if v.is_default() {
                it.take_while(|&&w| w == v).count()
            } else {
                0
            }
        };
        let first = row[0];
        let p = run_len(first, &mut row.iter());
        let last = row[row.len() - 1];
        let s = run_len(last, &mut row[p..].iter().rev());
        Self {
            prefix: if p > 0 { first.material } else { 0 },
            prefix_len: p as u8,
            suffix: if s > 0 { last.material } else { 0 },
            middle: &row[p..row.len() - s],
        }
    }
}

/// A stored row: the split, with its middle at `cells[start..start + middle_len]` of its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredRow {
    pub prefix: u8,
    pub prefix_len: u8,
    pub middle_len: u8,
    pub suffix: u8,
    pub start: u16,
}

impl StoredRow {
    /// `split` with its middle stored at `start`.
    pub fn new(split: &RowSplit<'_>, start: usize) -> Self {
        Self {
            prefix: split.prefix,
            prefix_len: split.prefix_len,
            middle_len: split.middle.len() as u8,
            suffix: split.suffix,
            start: start as u16,
        }
    }

    /// This row's split, its middle borrowed from `cells`.
    pub fn split<'a>(&self, cells: &'a [Voxel]) -> RowSplit<'a> {
        let start = usize::from(self.start);
        RowSplit {
            prefix: self.prefix,
            prefix_len: self.prefix_len,
            suffix: self.suffix,
            middle: &cells[start..start + usize::from(self.middle_len)],
        }
    }

    /// The `N` voxels of this row in `buf`, for a caller that reads them at once: when the cells
    /// hold the 32 voxels from where the prefix would start, one select per voxel between the
    /// prefix, those cells and the suffix, written as whole lanes (reading them back waits on no
    /// partly overlapping store); else as [`StoredRow::assemble`].
    #[inline]
    pub fn read<'b, const N: usize>(&self, cells: &[Voxel], buf: &'b mut RowBuf) -> &'b [Voxel] {
        let (p, m) = (usize::from(self.prefix_len), usize::from(self.middle_len));
        let window = self.window(cells);
        let (row, _) = buf
            .voxels
            .split_first_chunk_mut::<MAX_EDGE>()
            .expect("64 voxels");
        match window {
            Some(window) => {
                let ends = (Voxel::filled(self.prefix), Voxel::filled(self.suffix));
                blend(window, p, p + m, ends, row);
                &buf.voxels[..N]
            }
            None => self.assemble::<N>(cells, buf),
        }
    }

    /// The 32 cells from where this row's prefix would start in `cells`, if they are all there.
    #[inline]
    fn window<'c>(&self, cells: &'c [Voxel]) -> Option<&'c [Voxel; MAX_EDGE]> {
        let w = usize::from(self.start).checked_sub(usize::from(self.prefix_len))?;
        cells.get(w..w + MAX_EDGE)?.try_into().ok()
    }

    /// The `N` voxels of this row, assembled in `buf` from `cells` with three fixed 32-voxel copies
    /// (prefix, middle, suffix, each overwriting the previous one's overrun). Fewer instructions
    /// than [`StoredRow::read`]'s selects, for a caller that reads the row a few rows later (the
    /// box read's ring), when the copies' stores have left the store buffer.
    #[inline]
    pub fn assemble<'b, const N: usize>(
        &self,
        cells: &[Voxel],
        buf: &'b mut RowBuf,
    ) -> &'b [Voxel] {
        let out = &mut buf.voxels;
        let (p, m) = (usize::from(self.prefix_len), usize::from(self.middle_len));
        let start = usize::from(self.start);
        // p + m ≤ N ≤ 32, so every 32-wide copy stays inside the 64-voxel buffer.
        out[..MAX_EDGE].copy_from_slice(filled_row(self.prefix));
        match cells.get(start..start + MAX_EDGE) {
            Some(wide) => out[p..p + MAX_EDGE].copy_from_slice(wide),
            None => out[p..p + m].copy_from_slice(&cells[start..start + m]),
        }
        out[p + m..p + m + MAX_EDGE].copy_from_slice(filled_row(self.suffix));
        &out[..N]
    }

    /// The material of voxels `x0..x1` of this row when they all lie in its prefix or its suffix
    /// run (so a box read copies them from a static row), else `None`.
    #[inline]
    pub fn run_over(&self, x0: usize, x1: usize) -> Option<u8> {
        let p = usize::from(self.prefix_len);
        if x1 <= p {
            Some(self.prefix)
        } else if x0 >= p + usize::from(self.middle_len) {
            Some(self.suffix)
        } else {
            None
        }
    }

    /// The voxel at `x` of this row.
    #[inline]
    pub fn voxel_at(&self, cells: &[Voxel], x: usize) -> Voxel {
        let (p, m) = (usize::from(self.prefix_len), usize::from(self.middle_len));
        if x < p {
            Voxel::filled(self.prefix)
        } else if x < p + m {
            cells[usize::from(self.start) + x - p]
        } else {
            Voxel::filled(self.suffix)
        }
    }

    /// Add the voxels of each material of this `n`-voxel row to `counts`, `times` over.
    pub fn count_materials(
        &self,
        cells: &[Voxel],
        n: usize,
        times: u64,
        counts: &mut [u64; MATERIAL_COUNT],
    ) {
        let (p, m) = (usize::from(self.prefix_len), usize::from(self.middle_len));
        counts[usize::from(self.prefix)] += p as u64 * times;
        counts[usize::from(self.suffix)] += (n - p - m) as u64 * times;
        let start = usize::from(self.start);
        for v in &cells[start..start + m] {
            counts[usize::from(v.material & 0x3f)] += times;
        }
    }
}

/// `0, 1, ..., 31` as lanes the blend compares with its bounds.
static LANE_X: [i16; MAX_EDGE] = {
    let mut x = [0i16; MAX_EDGE];
    let mut i = 0;
    while i < MAX_EDGE {
        x[i] = i as i16;
        i += 1;
    }
    x
};

/// Row voxels `0..32`: `window[x]` where `lo <= x < hi`, the first of `ends` below and the second
/// above. Each voxel is a select written as masks on two-byte lanes (compared as `i16`, which SSE2
/// has), so the loop compiles to a few vector instructions per eight voxels.
#[inline]
fn blend(
    window: &[Voxel; MAX_EDGE],
    lo: usize,
    hi: usize,
    (pre, suf): (Voxel, Voxel),
    out: &mut [Voxel; MAX_EDGE],
) {
    let lane = |v: Voxel| u16::from_le_bytes([v.material, v.occupancy]);
    let (pre, suf) = (lane(pre), lane(suf));
    // lo ≤ hi ≤ 32.
    let (lo, hi) = (lo as i16, hi as i16);
    for ((o, w), &x) in out.iter_mut().zip(window).zip(&LANE_X) {
        let below = i16::from(x < lo).wrapping_neg() as u16;
        let above = i16::from(x >= hi).wrapping_neg() as u16;
        let v = (lane(*w) & !(below | above)) | (pre & below) | (suf & above);
        let [material, occupancy] = v.to_le_bytes();
        *o = Voxel {
            material,
            occupancy,
        };
    }
}

/// Copy a row segment (at most 32 voxels) with fixed-size moves: a libc `memcpy` call per short
/// segment was half the time of a box read (measured with perf on the storage bench). Every length
/// is two overlapping moves of the largest size that fits (16, 8, 4, 2 voxels, or one voxel): no
/// loop, and the branches depend on the length alone, which stays the same across the rows of a
/// box read (LLVM turns a short copy loop into a `memmove` call).
#[inline(always)]
pub(crate) fn copy_short(dst: &mut [Voxel], src: &[Voxel]) {
    let n = dst.len();
    debug_assert!(n == src.len() && n <= 2 * 16);
    if n >= 16 {
        dst[..16].copy_from_slice(&src[..16]);
        dst[n - 16..].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..].copy_from_slice(&src[n - 4..]);
    } else if n >= 2 {
        dst[..2].copy_from_slice(&src[..2]);
        dst[n - 2..].copy_from_slice(&src[n - 2..]);
    } else if n == 1 {
        dst[0] = src[0];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Store `row` alone after `before` cells and read it back every way.
    fn round_trip<const N: usize>(row: &[Voxel], before: usize) -> StoredRow {
        let split = RowSplit::of(row);
        let mut cells = vec![Voxel::new(9, 9); before];
        let stored = StoredRow::new(&split, cells.len());
        cells.extend_from_slice(split.middle);
        assert_eq!(stored.split(&cells), split);
        let mut buf = RowBuf::new();
        let p = usize::from(stored.prefix_len);
        let blends = |cells: &[Voxel]| before >= p && before - p + MAX_EDGE <= cells.len();
        assert_eq!(stored.window(&cells).is_some(), blends(&cells));
        assert_eq!(stored.read::<N>(&cells, &mut buf), row);
        assert_eq!(stored.assemble::<N>(&cells, &mut buf), row);
        // With cells after it too (the 32-wide middle copy, and the blend when the cells before
        // reach back to where the prefix starts).
        cells.extend_from_slice(&[Voxel::new(7, 7); 40]);
        assert_eq!(stored.window(&cells).is_some(), before >= p);
        assert_eq!(stored.read::<N>(&cells, &mut buf), row);
        assert_eq!(stored.assemble::<N>(&cells, &mut buf), row);
        for (x, v) in row.iter().enumerate() {
            assert_eq!(stored.voxel_at(&cells, x), *v);
        }
        // A part inside one run is that run's static row; one that touches the middle is not.
        let (p, e) = (p, p + usize::from(stored.middle_len));
        for x0 in 0..N {
            for x1 in x0 + 1..=N {
                match stored.run_over(x0, x1) {
                    Some(m) => assert!(row[x0..x1] == filled_row(m)[..x1 - x0]),
                    None => assert!(x1 > p && x0 < e, "{x0}..{x1} is inside a run"),
                }
            }
        }
        let mut counts = [0u64; MATERIAL_COUNT];
        stored.count_materials(&cells, N, 3, &mut counts);
        for (m, &c) in counts.iter().enumerate() {
            let want = row.iter().filter(|v| usize::from(v.material) == m).count() as u64;
            assert_eq!(c, 3 * want);
        }
        stored
    }

    #[test]
    fn a_cliff_row_keeps_only_its_partial_voxels() {
        let mut row = [Voxel::AIR; 32];
        row[..20].fill(Voxel::filled(5));
        row[20] = Voxel::new(5, 200);
        row[21] = Voxel::new(5, 120);
        row[22] = Voxel::new(5, 30);
        let s = round_trip::<32>(&row, 3);
        assert_eq!(
            s,
            StoredRow {
                prefix: 5,
                prefix_len: 20,
                middle_len: 3,
                suffix: 0,
                start: 3
            }
        );
    }

    #[test]
    fn rows_without_a_prefix_or_suffix() {
        let f = Voxel::filled;
        let n = Voxel::new;
        // Partial at both ends: no runs at all.
        let s = round_trip::<8>(&[n(3, 9), f(3), f(3), f(4), f(4), f(4), f(4), n(2, 1)], 0);
        assert_eq!(
            (s.prefix, s.prefix_len, s.middle_len, s.suffix),
            (0, 0, 8, 0)
        );
        // Two runs, nothing between.
        let s = round_trip::<8>(
            &[
                f(3),
                f(3),
                f(3),
                Voxel::AIR,
                Voxel::AIR,
                Voxel::AIR,
                Voxel::AIR,
                Voxel::AIR,
            ],
            5,
        );
        assert_eq!(
            (s.prefix, s.prefix_len, s.middle_len, s.suffix),
            (3, 3, 0, 0)
        );
        let s = round_trip::<4>(&[f(6), n(6, 2), f(1), f(1)], 1);
        assert_eq!(
            (s.prefix, s.prefix_len, s.middle_len, s.suffix),
            (6, 1, 1, 1)
        );
    }

    /// The blend against its scalar twin, one voxel at a time, on every pair of bounds.
    #[test]
    fn blend_selects_like_one_voxel_at_a_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut out = [Voxel::AIR; MAX_EDGE];
        for lo in 0..=MAX_EDGE {
            for hi in lo..=MAX_EDGE {
                let window: [Voxel; MAX_EDGE] =
                    std::array::from_fn(|_| Voxel::new(rng.random_range(0..64), rng.random()));
                let pre = Voxel::new(rng.random_range(0..64), rng.random());
                let suf = Voxel::new(rng.random_range(0..64), rng.random());
                blend(&window, lo, hi, (pre, suf), &mut out);
                for (x, v) in out.iter().enumerate() {
                    let want = if x < lo {
                        pre
                    } else if x < hi {
                        window[x]
                    } else {
                        suf
                    };
                    assert_eq!(*v, want, "lo {lo} hi {hi} x {x}");
                }
            }
        }
    }

    #[test]
    fn random_rows_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20_000 {
            let len = [4usize, 8, 16, 32][rng.random_range(0..4)];
            let row: Vec<Voxel> = (0..len)
                .map(|_| {
                    let m = rng.random_range(0..4u8);
                    let o = [0u8, 7, 255, 255][rng.random_range(0..4)];
                    Voxel::new(m, o)
                })
                .collect();
            let before = rng.random_range(0..50);
            match len {
                4 => round_trip::<4>(&row, before),
                8 => round_trip::<8>(&row, before),
                16 => round_trip::<16>(&row, before),
                _ => round_trip::<32>(&row, before),
            };
        }
    }
}
