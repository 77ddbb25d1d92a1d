//! Worm-like cave tunnels carved from two 3D noises.
//!
//! A tunnel runs where both noises are near zero (the intersection of two noise "sheets" is a curve):
//! inside the tube `r = √(a² + b²) < R`. The noises are sampled on a coarse lattice (every 4 voxels,
//! aligned to world coordinates so chunks agree at their faces) and trilinearly interpolated; 4³
//! cells whose lattice corners rule out any tunnel are skipped without touching their voxels.
//!
//! Like the terrain surface, the tunnel wall is a signed distance: `(r − R) / |∇r|` in voxels, with
//! `∇r` from the exact derivative of the trilinear interpolation, mapped to the occupancy the tunnel
//! leaves (`½ + distance / 2`, clamped: a two-voxel band, as on steep terrain). The terrain keeps `min(surface occupancy, cave occupancy)`, the
//! usual intersection of two distance fields, so tunnel walls are smooth at every angle. Tunnels
//! narrow to nothing a few voxels below the surface and above the world's floor.

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

/// Lowest voxel Y a cave may reach fully; tunnels narrow to nothing over the two voxels below.
const FLOOR_Y: f32 = 4.0;
/// Tunnel radius in noise units.
const RADIUS: f32 = 0.05;
/// Noise radius beyond which nothing is carved (cells are skipped against it).
const OUTER: f32 = 0.075;
/// Smallest gradient used for the distance estimate, per voxel (keeps flat noise from blowing up).
const MIN_GRADIENT: f32 = 0.002;
/// Width in voxels over which a tunnel wall goes from full to empty (as on terrain slopes, see
/// [`super::column`]).
const WALL_BAND: f32 = 2.0;

/// Per-world cave parameters and noise sources.
pub(crate) struct Caves {
    a: Fbm<Perlin>,
    b: Fbm<Perlin>,
    /// Noise frequency, per voxel.
    freq: f64,
    /// Vertical frequency multiplier (> 1 favours horizontal tunnels).
    squash: f64,
    /// Caves stay at least this many voxels below the surface.
    margin: f32,
    /// Depth over which tunnels widen to full size below the margin.
    ramp: f32,
}

/// Scratch space for carving one chunk, reused across the chunks of a column.
pub(crate) struct CaveBuffer {
    a: Vec<f32>,
    b: Vec<f32>,
    /// Occupancy the tunnels leave per voxel, `0..=1`, valid only in cells flagged in `used`.
    keep: Vec<f32>,
    /// Which 4³ cells hold carve values.
    used: Vec<bool>,
}

impl CaveBuffer {
    /// Empty buffers.
    pub(crate) fn new() -> Self {
        Self {
            a: vec![0.0; POINTS * POINTS * POINTS],
            b: vec![0.0; POINTS * POINTS * POINTS],
            keep: vec![1.0; CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE],
            used: vec![false; CELLS * CELLS * CELLS],
        }
    }

    /// The most the voxel at chunk-local (x, y, z) may be filled once tunnels are cut, `0..=1`
    /// (1 where no tunnel is near).
    #[inline]
    pub(crate) fn keep(&self, x: usize, y: usize, z: usize) -> f32 {
        let cell = ((z / STEP) * CELLS + y / STEP) * CELLS + x / STEP;
        if self.used[cell] {
            self.keep[(z * CHUNK_SIZE + y) * CHUNK_SIZE + x]
        } else {
            1.0
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
        Self {
            a: noise(SALT_CAVE_A),
            b: noise(SALT_CAVE_B),
            freq: 1.0 / wavelength,
            squash: 1.6,
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
                lo > OUTER || hi < -OUTER
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
                let (a, ga) = trilinear_with_gradient(&ca, w);
                let (b, gb) = trilinear_with_gradient(&cb, w);
                let r = (a * a + b * b).sqrt();
                let mut keep = 1.0;
                if r < OUTER {
                    let h = cols.cells[z * CHUNK_SIZE + x].h;
                    let wy = (origin.y + y as i32) as f32;
                    let depth = ((h - self.margin - wy) / self.ramp).clamp(0.0, 1.0);
                    let floor = ((wy - (FLOOR_Y - 2.0)) / 2.0).clamp(0.0, 1.0);
                    // Full radius well inside the ground; below zero (no tunnel at all) near its
                    // ends, so a fading tunnel leaves no sliver of partial voxels behind.
                    let radius = RADIUS * (1.3 * depth.min(floor) - 0.3);
                    // |∇r| per voxel: the lattice derivatives are per step of STEP voxels.
                    let grad = if r > 1e-6 {
                        let g = [0, 1, 2].map(|k| (a * ga[k] + b * gb[k]) / r);
                        (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt() / STEP as f32
                    } else {
                        MIN_GRADIENT
                    };
                    let distance = (r - radius) / grad.max(MIN_GRADIENT);
                    keep = (0.5 + distance / WALL_BAND).clamp(0.0, 1.0);
                }
                any |= keep < 1.0;
                buf.keep[(z * CHUNK_SIZE + y) * CHUNK_SIZE + x] = keep;
            }
        }
        any
    }
}

/// Trilinear interpolation of 8 corner values (index bits: x, y, z) at weights `w`.
#[cfg(test)]
fn trilinear(c: &[f32; 8], w: [f32; 3]) -> f32 {
    trilinear_with_gradient(c, w).0
}

/// Trilinear interpolation of 8 corner values (index bits: x, y, z) at weights `w`, and its exact
/// derivative along x, y and z per unit of weight (per lattice step).
#[inline]
fn trilinear_with_gradient(c: &[f32; 8], w: [f32; 3]) -> (f32, [f32; 3]) {
    let l = |a: f32, b: f32, t: f32| a + (b - a) * t;
    let [wx, wy, wz] = w;
    let x00 = l(c[0], c[1], wx);
    let x10 = l(c[2], c[3], wx);
    let x01 = l(c[4], c[5], wx);
    let x11 = l(c[6], c[7], wx);
    let y0 = l(x00, x10, wy);
    let y1 = l(x01, x11, wy);
    let value = l(y0, y1, wz);
    let dx0 = l(c[1] - c[0], c[3] - c[2], wy);
    let dx1 = l(c[5] - c[4], c[7] - c[6], wy);
    let d_dx = l(dx0, dx1, wz);
    let d_dy = l(x10 - x00, x11 - x01, wz);
    let d_dz = y1 - y0;
    (value, [d_dx, d_dy, d_dz])
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
    fn trilinear_gradient_matches_finite_differences() {
        let c = [0.3, -1.0, 2.5, 0.7, -0.4, 1.9, 0.0, -2.2];
        for w in [[0.1, 0.2, 0.3], [0.5, 0.5, 0.5], [0.9, 0.05, 0.6]] {
            let (v, g) = trilinear_with_gradient(&c, w);
            assert_eq!(v, trilinear(&c, w));
            for k in 0..3 {
                let mut p = w;
                p[k] += 1e-3;
                let numeric = (trilinear(&c, p) - v) / 1e-3;
                assert!((numeric - g[k]).abs() < 1e-2, "{k}: {numeric} vs {}", g[k]);
            }
        }
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
