//! Worm-like cave tunnels carved from two 3D noises.
//!
//! A tunnel runs where both noises are near zero (the intersection of two noise "sheets" is a curve).
//! The noises are sampled on a coarse lattice (every 4 voxels, aligned to world coordinates so chunks
//! agree at their faces) and trilinearly interpolated; 4³ cells whose lattice corners rule out any
//! tunnel are skipped without touching their voxels.

use noise::{Fbm, MultiFractal, NoiseFn, Perlin};

use super::column::ColumnData;
use super::math::derive_seed;
use crate::voxel::{VoxelPos, CHUNK_SIZE};

const SALT_CAVE_A: u32 = 40;
const SALT_CAVE_B: u32 = 41;

/// Lattice spacing in voxels.
const STEP: usize = 4;
/// Cells per chunk edge.
const CELLS: usize = CHUNK_SIZE / STEP;
/// Lattice points per chunk edge (both faces included).
const POINTS: usize = CELLS + 1;

/// Lowest voxel Y a cave may reach fully; carving fades out over the two voxels below.
const FLOOR_Y: f32 = 4.0;

/// Per-world cave parameters and noise sources.
pub(crate) struct Caves {
    a: Fbm<Perlin>,
    b: Fbm<Perlin>,
    /// Noise frequency, per voxel.
    freq: f64,
    /// Vertical frequency multiplier (> 1 favours horizontal tunnels).
    squash: f64,
    /// Squared noise radius inside which a voxel is fully carved.
    inner2: f32,
    /// Squared noise radius outside which nothing is carved.
    outer: f32,
    outer2: f32,
    /// Caves stay at least this many voxels below the surface.
    margin: f32,
    /// Depth over which carving fades in below the margin.
    ramp: f32,
}

/// Scratch space for carving one chunk, reused across the chunks of a column.
pub(crate) struct CaveBuffer {
    a: Vec<f32>,
    b: Vec<f32>,
    /// Carve amount per voxel in `0..=1`, valid only in cells flagged in `used`.
    carve: Vec<f32>,
    /// Which 4³ cells hold carve values.
    used: Vec<bool>,
}

impl CaveBuffer {
    /// Empty buffers.
    pub(crate) fn new() -> Self {
        Self {
            a: vec![0.0; POINTS * POINTS * POINTS],
            b: vec![0.0; POINTS * POINTS * POINTS],
            carve: vec![0.0; CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE],
            used: vec![false; CELLS * CELLS * CELLS],
        }
    }

    /// How much of the voxel at chunk-local (x, y, z) is carved away, `0..=1`.
    #[inline]
    pub(crate) fn carve(&self, x: usize, y: usize, z: usize) -> f32 {
        let cell = ((z / STEP) * CELLS + y / STEP) * CELLS + x / STEP;
        if self.used[cell] {
            self.carve[(z * CHUNK_SIZE + y) * CHUNK_SIZE + x]
        } else {
            0.0
        }
    }
}

fn lattice(p: [usize; 3]) -> usize {
    (p[2] * POINTS + p[1]) * POINTS + p[0]
}

impl Caves {
    /// Caves for a world `y_size` voxels high.
    pub(crate) fn new(y_size: u32, seed: u32) -> Self {
        // Tunnels grow a little with the world, within limits, so small worlds still get a few.
        let wavelength = 150.0 * (f64::from(y_size) / 128.0).clamp(0.6, 1.5);
        let noise = |salt| {
            Fbm::<Perlin>::new(derive_seed(seed, salt))
                .set_octaves(2)
                .set_persistence(0.5)
        };
        let (inner, outer) = (0.035f32, 0.07f32);
        Self {
            a: noise(SALT_CAVE_A),
            b: noise(SALT_CAVE_B),
            freq: 1.0 / wavelength,
            squash: 1.6,
            inner2: inner * inner,
            outer,
            outer2: outer * outer,
            margin: 5.0,
            ramp: 3.0,
        }
    }

    /// Compute the carving of the chunk whose lowest voxel is `origin`, over the columns in `cols`.
    /// Returns false when nothing in the chunk is carved (then `buf` must not be read).
    pub(crate) fn carve_chunk(
        &self,
        origin: VoxelPos,
        cols: &ColumnData,
        buf: &mut CaveBuffer,
    ) -> bool {
        // Highest chunk-local Y that may be carved.
        let ceiling = (cols.max_h - self.margin).floor() as i32 - origin.y;
        let floor = FLOOR_Y as i32 - 2 - origin.y;
        if ceiling < 0 || floor >= CHUNK_SIZE as i32 {
            return false;
        }
        let top_cell = (ceiling.min(CHUNK_SIZE as i32 - 1) as usize) / STEP;
        let low_cell = (floor.max(0) as usize) / STEP;
        for (pz, py, px) in grid(POINTS, low_cell..top_cell + 2, POINTS) {
            let p = [
                f64::from(origin.x + (px * STEP) as i32) * self.freq,
                f64::from(origin.y + (py * STEP) as i32) * self.freq * self.squash,
                f64::from(origin.z + (pz * STEP) as i32) * self.freq,
            ];
            let i = lattice([px, py, pz]);
            buf.a[i] = self.a.get(p) as f32;
            buf.b[i] = self.b.get(p) as f32;
        }
        buf.used.fill(false);
        let mut any = false;
        for (cz, cy, cx) in grid(CELLS, low_cell..top_cell + 1, CELLS) {
            let corners = |v: &[f32]| {
                let mut c = [0.0f32; 8];
                for (k, slot) in c.iter_mut().enumerate() {
                    *slot = v[lattice([cx + (k & 1), cy + ((k >> 1) & 1), cz + (k >> 2)])];
                }
                c
            };
            let (ca, cb) = (corners(&buf.a), corners(&buf.b));
            // Trilinear values stay within the corners' range: skip cells that cannot reach zero.
            let out_of_reach = |c: &[f32; 8]| {
                let (lo, hi) = c
                    .iter()
                    .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
                lo > self.outer || hi < -self.outer
            };
            if out_of_reach(&ca) || out_of_reach(&cb) {
                continue;
            }
            let cell = (cz * CELLS + cy) * CELLS + cx;
            buf.used[cell] = true;
            for (dz, dy, dx) in grid(STEP, 0..STEP, STEP) {
                let (x, y, z) = (cx * STEP + dx, cy * STEP + dy, cz * STEP + dz);
                let w = [
                    dx as f32 / STEP as f32,
                    dy as f32 / STEP as f32,
                    dz as f32 / STEP as f32,
                ];
                let (a, b) = (trilinear(&ca, w), trilinear(&cb, w));
                let r2 = a * a + b * b;
                let mut carve = 0.0;
                if r2 < self.outer2 {
                    let h = cols.cells[z * CHUNK_SIZE + x].h;
                    let wy = (origin.y + y as i32) as f32;
                    let depth = ((h - self.margin - wy) / self.ramp).clamp(0.0, 1.0);
                    let floor = ((wy - (FLOOR_Y - 2.0)) / 2.0).clamp(0.0, 1.0);
                    let t = ((self.outer2 - r2) / (self.outer2 - self.inner2)).clamp(0.0, 1.0);
                    carve = t * t * (3.0 - 2.0 * t) * depth * floor;
                }
                any |= carve > 0.0;
                buf.carve[(z * CHUNK_SIZE + y) * CHUNK_SIZE + x] = carve;
            }
        }
        any
    }
}

/// Trilinear interpolation of 8 corner values (index bits: x, y, z) at weights `w`.
#[inline]
fn trilinear(c: &[f32; 8], w: [f32; 3]) -> f32 {
    let l = |a: f32, b: f32, t: f32| a + (b - a) * t;
    let x00 = l(c[0], c[1], w[0]);
    let x10 = l(c[2], c[3], w[0]);
    let x01 = l(c[4], c[5], w[0]);
    let x11 = l(c[6], c[7], w[0]);
    l(l(x00, x10, w[1]), l(x01, x11, w[1]), w[2])
}

/// (z, y, x) triples over `0..nz`, `ys`, `0..nx`, X fastest.
fn grid(
    nz: usize,
    ys: std::ops::Range<usize>,
    nx: usize,
) -> impl Iterator<Item = (usize, usize, usize)> {
    (0..nz).flat_map(move |z| {
        ys.clone()
            .flat_map(move |y| (0..nx).map(move |x| (z, y, x)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trilinear_hits_corners_and_centre() {
        let c = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        assert_eq!(trilinear(&c, [0.0, 0.0, 0.0]), 0.0);
        assert_eq!(trilinear(&c, [1.0, 0.0, 0.0]), 1.0);
        assert_eq!(trilinear(&c, [0.0, 1.0, 0.0]), 2.0);
        assert_eq!(trilinear(&c, [0.0, 0.0, 1.0]), 4.0);
        assert_eq!(trilinear(&c, [0.5, 0.5, 0.5]), 3.5);
    }

    #[test]
    fn grid_order_is_x_fastest() {
        let v: Vec<_> = grid(2, 1..3, 2).collect();
        assert_eq!(v.len(), 8);
        assert_eq!(v[0], (0, 1, 0));
        assert_eq!(v[1], (0, 1, 1));
        assert_eq!(v[2], (0, 2, 0));
        assert_eq!(v[4], (1, 1, 0));
    }
}
