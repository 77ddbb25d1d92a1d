//! Direct resampling: every fragment probes the voxels around it through one fixed random pattern.
//!
//! The pattern is `count` offsets, uniform in `[−spread, spread)` on each axis, drawn once from a
//! ChaCha8 stream seeded with `seed` (the same on every platform). A fragment `(i, j, k)` of voxel
//! `v` at factor `F` has its centre at `v + ((i, j, k) + ½) / F`; each probe adds an offset and
//! floors to a voxel. The fragment is solid when more than `fraction · count` probes land in solid
//! voxels, and takes the most frequent solid material among them (ties: the lower id).
//!
//! Per axis, the voxel a probe reaches depends only on the fragment's index on that axis, so the
//! floors are computed once per (axis, index, probe) and a fragment is a sum of three table entries
//! per probe. The same tables give the dependency window: the voxels from `lo` to `hi` (inclusive)
//! around a voxel are all its fragments can reach.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ResampleParams;

/// The probe offsets of `params`: `count` points uniform in `[−spread, spread)³`, from a ChaCha8
/// stream seeded with `seed` (53-bit uniform doubles).
pub(crate) fn probes(params: &ResampleParams) -> Vec<[f64; 3]> {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let spread = f64::from(params.spread);
    (0..params.count)
        .map(|_| {
            [0; 3].map(|_| {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                spread * (2.0 * u - 1.0)
            })
        })
        .collect()
}

/// A resampling pattern resolved for one factor.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// Fragments per voxel edge.
    pub factor: usize,
    /// Probes per fragment.
    pub count: usize,
    /// Solid probes needed (the smallest count above `fraction · count`).
    pub need: usize,
    /// `offsets[axis][index · count + probe]`: the voxel offset the probe reaches on that axis.
    offsets: [Vec<i32>; 3],
    /// Lowest offset reached on each axis.
    pub lo: [i32; 3],
    /// Highest offset reached on each axis.
    pub hi: [i32; 3],
}

impl Pattern {
    /// The pattern of validated `params`.
    pub fn new(params: &ResampleParams) -> Self {
        let factor = params.factor as usize;
        let count = params.count as usize;
        let probes = probes(params);
        let mut offsets = [Vec::new(), Vec::new(), Vec::new()];
        let mut lo = [i32::MAX; 3];
        let mut hi = [i32::MIN; 3];
        for axis in 0..3 {
            for i in 0..factor {
                let centre = (i as f64 + 0.5) / factor as f64;
                for p in &probes {
                    let o = (centre + p[axis]).floor() as i32;
                    lo[axis] = lo[axis].min(o);
                    hi[axis] = hi[axis].max(o);
                    offsets[axis].push(o);
                }
            }
        }
        let need = (f64::from(params.fraction) * count as f64).floor() as usize + 1;
        Self {
            factor,
            count,
            need,
            offsets,
            lo,
            hi,
        }
    }

    #[cfg(test)]
    /// How far the probes reach from a voxel, in voxels (the larger of `−lo` and `hi`).
    pub fn reach(&self) -> usize {
        (0..3)
            .map(|a| (-self.lo[a]).max(self.hi[a]).max(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The fragments of the voxel at `centre` of `cells` (class bytes, `dims`, X fastest; the voxel's
    /// whole window must lie inside) into `out` (`factor³` bytes, X fastest).
    pub fn voxel(
        &self,
        cells: &[u8],
        dims: [usize; 3],
        centre: usize,
        yz: &mut Vec<isize>,
        out: &mut Vec<u8>,
    ) {
        let f = self.factor;
        let n = self.count;
        let sx = dims[0] as isize;
        let sxy = (dims[0] * dims[1]) as isize;
        out.clear();
        out.resize(f * f * f, 0);
        let mut tally = [0u32; 64];
        for k in 0..f {
            for j in 0..f {
                yz.clear();
                let oy = &self.offsets[1][j * n..(j + 1) * n];
                let oz = &self.offsets[2][k * n..(k + 1) * n];
                yz.extend(
                    oy.iter()
                        .zip(oz)
                        .map(|(&y, &z)| centre as isize + y as isize * sx + z as isize * sxy),
                );
                for i in 0..f {
                    let ox = &self.offsets[0][i * n..(i + 1) * n];
                    let mut hits = 0usize;
                    let mut first = 0u8;
                    let mut mixed = false;
                    for (&x, &b) in ox.iter().zip(yz.iter()) {
                        let c = cells[(b + x as isize) as usize];
                        if c != 0 {
                            hits += 1;
                            mixed |= first != 0 && c != first;
                            if first == 0 {
                                first = c;
                            }
                        }
                    }
                    if hits < self.need {
                        continue;
                    }
                    out[(k * f + j) * f + i] = if mixed {
                        self.most_frequent(cells, ox, yz, &mut tally)
                    } else {
                        first
                    };
                }
            }
        }
    }

    /// The most frequent solid material among one fragment's probes (ties: the lower id).
    fn most_frequent(&self, cells: &[u8], ox: &[i32], yz: &[isize], tally: &mut [u32; 64]) -> u8 {
        tally.fill(0);
        for (&x, &b) in ox.iter().zip(yz) {
            let c = cells[(b + x as isize) as usize];
            if c != 0 {
                tally[usize::from(c & 0x3f)] += 1;
            }
        }
        let mut best = 0usize;
        for m in 1..64 {
            if tally[m] > tally[best] {
                best = m;
            }
        }
        best as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(factor: u32, count: u32, spread: f32, fraction: f32, seed: u64) -> ResampleParams {
        ResampleParams {
            factor,
            count,
            spread,
            fraction,
            seed,
        }
    }

    #[test]
    fn patterns_are_seeded_and_bounded() {
        let a = Pattern::new(&params(4, 64, 1.0, 0.25, 9));
        let b = Pattern::new(&params(4, 64, 1.0, 0.25, 9));
        let c = Pattern::new(&params(4, 64, 1.0, 0.25, 10));
        assert_eq!(a.offsets, b.offsets);
        assert_ne!(a.offsets, c.offsets);
        assert_eq!((a.lo, a.hi), ([-1; 3], [1; 3]));
        assert_eq!(a.need, 17, "more than 25 % of 64");
        let zero = Pattern::new(&params(3, 5, 0.0, 0.0, 1));
        assert_eq!(
            (zero.lo, zero.hi),
            ([0; 3], [0; 3]),
            "no spread: the fragment's own voxel"
        );
        assert_eq!(zero.need, 1);
        let wide = Pattern::new(&params(2, 256, 3.0, 0.5, 1));
        assert_eq!(wide.reach(), 3);
    }

    #[test]
    fn the_most_frequent_material_wins_ties_to_the_lower_id() {
        let p = Pattern::new(&params(1, 4, 0.0, 0.0, 1));
        let cells = [5u8, 3, 3, 5];
        let mut tally = [0; 64];
        assert_eq!(
            p.most_frequent(&cells, &[0, 1, 2, 3], &[0; 4], &mut tally),
            3
        );
        assert_eq!(
            p.most_frequent(&cells, &[0, 0, 0, 1], &[0; 4], &mut tally),
            5
        );
    }
}
