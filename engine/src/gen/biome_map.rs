//! Where each biome lies: seeded Voronoi cells with blended borders.
//!
//! ```text
//!    +-------+-------+-------+      one feature point per square of side `biome size`, jittered
//!    |   •   |     • |  •    |      inside it; a column belongs to the cell of the nearest point,
//!    |  hills \  dunes|      |      each cell takes a biome from the list by a hash of its square
//!    +-------+-\-----+-------+
//!    |     •   |\ •  |   •   |      near a border (the bisector of two points) both cells weigh in:
//!    |         |  \  |       |      weight 1 − smoothstep(0, B, distance to the bisector), so the
//!    +-------+-------+-------+      weights are equal on the border and the blend is continuous
//! ```
//!
//! The point is domain-warped by low-frequency noise first, so borders wind instead of running
//! straight. Weights are computed exactly on a 4-voxel lattice and interpolated between. Weights of cells with the same biome add up; at most [`MAX_BLEND`] biomes are kept per
//! column (the heaviest), renormalized. Everything is a pure function of the settings and the point.

use noise::{Fbm, MultiFractal, NoiseFn, SuperSimplex};

use super::biome::Biome;
use super::math::{derive_seed, hash01, smoothstep};

const SALT_CELLS: u32 = 60;
const SALT_WARP_U: u32 = 61;
const SALT_WARP_V: u32 = 62;

/// Most biomes blended in one column.
pub(crate) const MAX_BLEND: usize = 3;

/// Width of a border blend as a share of the biome size, and its limits in voxels.
const BLEND_SHARE: f64 = 0.2;
const BLEND_MIN: f64 = 4.0;
const BLEND_MAX: f64 = 96.0;
/// Domain-warp amplitude as a share of the biome size.
const WARP_SHARE: f64 = 0.3;
/// Spacing in voxels of the lattice the weights are computed on (then interpolated).
const LATTICE: i64 = 4;
/// Entries of the per-thread lattice cache (a power of two).
const CACHE_SLOTS: usize = 256;

/// A cached lattice point: (map id, i, j) and its weights.
type CacheEntry = Option<((u64, i64, i64), Blend)>;

thread_local! {
    static CACHE: std::cell::RefCell<[CacheEntry; CACHE_SLOTS]> =
        const { std::cell::RefCell::new([None; CACHE_SLOTS]) };
}

/// Source of map ids, so maps of different settings never share cache entries.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The biome weights of one column: `(index into the biome list, weight)`, heaviest first, weights
/// summing to 1. Only the first `len` entries are used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Blend {
    pub(crate) parts: [(u8, f32); MAX_BLEND],
    pub(crate) len: usize,
}

impl Blend {
    /// One biome at full weight.
    pub(crate) fn single(index: u8) -> Self {
        Self {
            parts: [(index, 1.0), (0, 0.0), (0, 0.0)],
            len: 1,
        }
    }

    /// The used entries.
    pub(crate) fn parts(&self) -> &[(u8, f32)] {
        &self.parts[..self.len]
    }

    /// The biome whose materials the column takes: the cumulative weight (heaviest first) that passes
    /// `threshold` in `0..1`. A threshold varying smoothly over the ground frays the border.
    pub(crate) fn pick(&self, threshold: f32) -> u8 {
        let mut sum = 0.0;
        for &(index, w) in self.parts() {
            sum += w;
            if sum > threshold {
                return index;
            }
        }
        self.parts[0].0
    }
}

/// The biome cells of one world.
pub(crate) struct BiomeMap {
    /// Unique per map (keys the lattice cache).
    id: u64,
    /// Number of biomes in the list.
    count: usize,
    seed: u32,
    /// Cell side in voxels.
    cell: f64,
    /// Border blend width in voxels.
    blend: f64,
    warp_u: Fbm<SuperSimplex>,
    warp_v: Fbm<SuperSimplex>,
}

impl BiomeMap {
    /// Cells of side `biome_size` voxels holding `count` biomes.
    pub(crate) fn new(count: usize, biome_size: u32, seed: u32) -> Self {
        let cell = f64::from(biome_size.max(1));
        let warp = |salt| {
            Fbm::<SuperSimplex>::new(derive_seed(seed, salt))
                .set_octaves(2)
                .set_persistence(0.5)
        };
        Self {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            count: count.max(1),
            seed,
            cell,
            blend: (cell * BLEND_SHARE).clamp(BLEND_MIN, BLEND_MAX),
            warp_u: warp(SALT_WARP_U),
            warp_v: warp(SALT_WARP_V),
        }
    }

    /// The biome weights at world point (x, z): bilinear between the exact weights at the corners of
    /// its [`LATTICE`]-voxel lattice square (borders are at least 4 voxels wide, so nothing is lost),
    /// which makes the map cost a quarter of a column's noise instead of all of it.
    pub(crate) fn blend(&self, x: f64, z: f64) -> Blend {
        if self.count == 1 {
            return Blend::single(0);
        }
        let step = LATTICE as f64;
        let (fx, fz) = (x / step, z / step);
        let (i, j) = (fx.floor() as i64, fz.floor() as i64);
        let (tx, tz) = ((fx - i as f64) as f32, (fz - j as f64) as f32);
        let corners = [
            (self.corner(i, j), (1.0 - tx) * (1.0 - tz)),
            (self.corner(i + 1, j), tx * (1.0 - tz)),
            (self.corner(i, j + 1), (1.0 - tx) * tz),
            (self.corner(i + 1, j + 1), tx * tz),
        ];
        let first = corners[0].0;
        if first.len == 1 && corners.iter().all(|(c, _)| *c == first) {
            return first;
        }
        let mut acc = [(0u8, 0.0f64); 4 * MAX_BLEND];
        let mut n = 0;
        for (c, w) in corners {
            for &(b, bw) in c.parts() {
                let add = f64::from(w) * f64::from(bw);
                match acc[..n].iter_mut().find(|a| a.0 == b) {
                    Some(a) => a.1 += add,
                    None => {
                        acc[n] = (b, add);
                        n += 1;
                    }
                }
            }
        }
        normalized(&mut acc[..n])
    }

    /// The exact weights at lattice point (`i`, `j`), through a small per-thread cache (neighbouring
    /// columns share their corners; the cache only saves work, it never changes a result).
    fn corner(&self, i: i64, j: i64) -> Blend {
        let slot = (i.wrapping_mul(31).wrapping_add(j) as usize) & (CACHE_SLOTS - 1);
        let key = (self.id, i, j);
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some((k, b)) = cache[slot] {
                if k == key {
                    return b;
                }
            }
            let b = self.exact(i as f64 * LATTICE as f64, j as f64 * LATTICE as f64);
            cache[slot] = Some((key, b));
            b
        })
    }

    /// The exact biome weights at world point (x, z).
    fn exact(&self, x: f64, z: f64) -> Blend {
        let (u, v) = (x / self.cell, z / self.cell);
        let wu = u + WARP_SHARE * self.warp_u.get([u * 0.7, v * 0.7]);
        let wv = v + WARP_SHARE * self.warp_v.get([u * 0.7 + 5.1, v * 0.7 - 2.3]);
        let (iu, iv) = (wu.floor() as i64, wv.floor() as i64);
        // The nine candidate points, in cell units.
        let mut points = [(0.0f64, 0.0f64, 0u8, 0.0f64); 9];
        let mut k = 0;
        for dv in -1..=1 {
            for du in -1..=1 {
                let (cu, cv) = (iu + du, iv + dv);
                let (px, pz, biome) = self.point(cu, cv);
                let d2 = (px - wu) * (px - wu) + (pz - wv) * (pz - wv);
                points[k] = (px, pz, biome, d2);
                k += 1;
            }
        }
        let nd2 = points.iter().fold(f64::MAX, |m, p| m.min(p.3));
        let width = self.blend / self.cell;
        // Only points within one blend width of the nearest can weigh in.
        let reach = nd2.sqrt() + width;
        let mut near = [(0.0f64, 0.0f64, 0u8); 9];
        let mut n_near = 0;
        for &(px, pz, biome, d2) in &points {
            if d2 < reach * reach {
                near[n_near] = (px, pz, biome);
                n_near += 1;
            }
        }
        let near = &near[..n_near];
        // Weight of a point: the product, over the other near points, of how far the column lies on
        // this point's side of their bisector (0 beyond half a blend width on the other side, 1 beyond
        // it on this side). Two cells give w and 1 − w exactly; corners are renormalized below.
        let mut acc = [(0u8, 0.0f64); 9];
        let mut n_acc = 0;
        for (k, &(kx, kz, biome)) in near.iter().enumerate() {
            let mut w = 1.0;
            for (j, &(jx, jz, _)) in near.iter().enumerate() {
                if j == k {
                    continue;
                }
                let (dx, dz) = (jx - kx, jz - kz);
                let sep = (dx * dx + dz * dz).sqrt().max(1e-9);
                // Signed distance from the bisector, positive on k's side.
                let e = ((kx + jx) * 0.5 - wu) * dx / sep + ((kz + jz) * 0.5 - wv) * dz / sep;
                w *= smoothstep(-0.5 * width, 0.5 * width, e);
                if w == 0.0 {
                    break;
                }
            }
            if w <= 0.0 {
                continue;
            }
            match acc[..n_acc].iter_mut().find(|a| a.0 == biome) {
                Some(a) => a.1 += w,
                None => {
                    acc[n_acc] = (biome, w);
                    n_acc += 1;
                }
            }
        }
        normalized(&mut acc[..n_acc.max(1)])
    }

    /// Feature point (cell units) and biome index of square (`cu`, `cv`).
    fn point(&self, cu: i64, cv: i64) -> (f64, f64, u8) {
        let key = cu
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(cv.wrapping_mul(0x85EB_CA6B));
        let jitter = |salt| 0.15 + 0.7 * hash01(self.seed, SALT_CELLS + salt, key);
        let biome = (hash01(self.seed, SALT_CELLS + 2, key) * self.count as f64) as usize;
        (
            cu as f64 + jitter(0),
            cv as f64 + jitter(1),
            biome.min(self.count - 1) as u8,
        )
    }
}

/// The heaviest [`MAX_BLEND`] of `parts` (biome, weight), renormalized, as a [`Blend`].
fn normalized(parts: &mut [(u8, f64)]) -> Blend {
    parts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let kept = parts.len().clamp(1, MAX_BLEND);
    let total: f64 = parts[..kept].iter().map(|p| p.1).sum();
    let mut out = Blend::single(parts[0].0);
    out.len = kept;
    for (slot, &(b, w)) in out.parts.iter_mut().zip(parts.iter()) {
        *slot = (b, if total > 0.0 { (w / total) as f32 } else { 1.0 });
    }
    out
}

/// The biome list in the order the map indexes it.
pub(crate) fn ordered(biomes: &[Biome]) -> Vec<Biome> {
    let mut v = biomes.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_biome_is_everywhere() {
        let map = BiomeMap::new(1, 64, 3);
        for (x, z) in [(0.0, 0.0), (1e4, -3e3), (55.5, 12.25)] {
            assert_eq!(map.blend(x, z), Blend::single(0));
        }
    }

    #[test]
    fn weights_are_normalized_and_cover_every_biome() {
        let map = BiomeMap::new(4, 64, 9);
        let mut seen = [0usize; 4];
        let mut blended = 0;
        for i in 0..200 {
            for j in 0..200 {
                let b = map.blend(f64::from(i) * 3.1, f64::from(j) * 2.7);
                let sum: f32 = b.parts().iter().map(|p| p.1).sum();
                assert!((sum - 1.0).abs() < 1e-5, "{b:?}");
                assert!(b.parts().windows(2).all(|w| w[0].1 >= w[1].1), "{b:?}");
                seen[usize::from(b.parts[0].0)] += 1;
                blended += usize::from(b.len > 1);
            }
        }
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
        let share = blended as f64 / 40_000.0;
        assert!((0.05..0.7).contains(&share), "blended share {share}");
    }

    #[test]
    fn weights_change_continuously() {
        // Walk a line in small steps: no weight jumps by more than a step's worth.
        let map = BiomeMap::new(3, 48, 21);
        let weight = |b: &Blend, i: u8| b.parts().iter().find(|p| p.0 == i).map_or(0.0, |p| p.1);
        let mut prev = map.blend(0.0, 17.0);
        for step in 1..4000 {
            let x = f64::from(step) * 0.1;
            let b = map.blend(x, 17.0 + x * 0.3);
            for i in 0..3 {
                let d = (weight(&b, i) - weight(&prev, i)).abs();
                assert!(d < 0.08, "jump of {d} at x = {x}: {prev:?} -> {b:?}");
            }
            prev = b;
        }
    }

    #[test]
    fn cells_depend_on_the_seed_and_the_pick_frays_borders() {
        let a = BiomeMap::new(5, 32, 1);
        let b = BiomeMap::new(5, 32, 2);
        let differs = (0..400).any(|i| {
            let (x, z) = (f64::from(i) * 7.3, f64::from(i) * 3.9);
            a.blend(x, z).parts[0].0 != b.blend(x, z).parts[0].0
        });
        assert!(differs);
        let mut two = Blend::single(1);
        two.parts[1] = (4, 0.4);
        two.parts[0].1 = 0.6;
        two.len = 2;
        assert_eq!(two.pick(0.5), 1);
        assert_eq!(two.pick(0.7), 4);
        assert_eq!(
            ordered(&[Biome::Hills, Biome::Water, Biome::Hills]),
            vec![Biome::Water, Biome::Hills]
        );
    }
}
