//! Resizing a [`Region`] by resampling.
//!
//! Two methods, chosen with [`Resample`]:
//!
//! - **Nearest**: destination voxel `i` on an axis of `n` voxels copies source voxel
//!   `floor((i + ½) · s / n)` of `s`: blocky terrain and exact voxel values, nothing invented.
//! - **Smooth** (occupancy-preserving): each destination voxel's occupancy is a weighted mean of the
//!   source occupancies (Air counts 0), built from one weight list per axis:
//!
//!   ```text
//!     shrinking (n < s): box filter   destination i covers source [i·s/n, (i+1)·s/n); weights are
//!                                     the overlaps, so the total occupancy (scaled by n/s per axis)
//!                                     is kept up to rounding
//!     growing (n >= s): linear         at source coordinate c = (i + ½)·s/n − ½, clamped to the
//!                                     edge voxels, so the surface (occupancy ½) scales with the box
//!   ```
//!
//!   Fractional occupancies survive, so smooth terrain stays smooth instead of stair-stepping. The
//!   material is the one contributing the most weighted occupancy (ties: the lower id); the result is
//!   Air where the mean rounds to zero occupancy units.
//!
//! Same-size resampling is the identity with either method. Work goes one destination Z layer at a
//! time, holding only the source layers that layer reads.

use std::collections::BTreeMap;

use super::builder::RowsBuilder;
use super::rows::{check_size, Region};
use crate::voxel::{Voxel, MATERIAL_COUNT};
use crate::Result;

/// How [`Region::resized`] samples the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Resample {
    /// Copy the nearest source voxel (blocky terrain, exact values).
    Nearest,
    /// Weighted mean of the occupancies (smooth terrain; see the module docs).
    #[default]
    Smooth,
}

/// The source voxel nearest to destination `i` of `n` along an axis of `s`.
#[inline]
fn nearest(i: usize, s: usize, n: usize) -> usize {
    (((2 * i + 1) as u64 * s as u64) / (2 * n as u64)) as usize
}

/// Per destination index: (source index, weight) with weights summing to 1.
fn weights(s: usize, n: usize) -> Vec<Vec<(usize, f32)>> {
    let (s64, n64) = (s as f64, n as f64);
    (0..n)
        .map(|i| {
            let mut w = Vec::new();
            if n >= s {
                let c = ((i as f64 + 0.5) * s64 / n64 - 0.5).clamp(0.0, s64 - 1.0);
                let i0 = c.floor() as usize;
                let t = c - i0 as f64;
                w.push((i0, (1.0 - t) as f32));
                if t > 0.0 && i0 + 1 < s {
                    w.push((i0 + 1, t as f32));
                }
            } else {
                let scale = s64 / n64;
                let (a, b) = (i as f64 * scale, (i as f64 + 1.0) * scale);
                let first = a.floor() as usize;
                let last = (b.ceil() as usize).min(s);
                for j in first..last {
                    let overlap = (b.min(j as f64 + 1.0) - a.max(j as f64)).max(0.0);
                    if overlap > 0.0 {
                        w.push((j, (overlap / scale) as f32));
                    }
                }
            }
            w.retain(|&(_, x)| x > 0.0);
            w
        })
        .collect()
}

/// Occupancy units of a voxel: 0 for Air, `occupancy + 1` (1 to 256) for matter.
#[inline]
fn units(v: Voxel) -> f32 {
    if v.is_air() {
        0.0
    } else {
        f32::from(v.occupancy) + 1.0
    }
}

impl Region {
    /// The region resampled to `size` with `method` (see the module docs).
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when `size` is not a valid region size.
    pub fn resized(&self, size: [u32; 3], method: Resample) -> Result<Region> {
        check_size(size)?;
        if size == self.size() {
            return Ok(self.clone());
        }
        Ok(match method {
            Resample::Nearest => self.resize_nearest(size),
            Resample::Smooth => self.resize_smooth(size),
        })
    }

    fn resize_nearest(&self, size: [u32; 3]) -> Region {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let [nx, ny, nz] = size.map(|s| s as usize);
        let xs: Vec<usize> = (0..nx).map(|i| nearest(i, sx, nx)).collect();
        let mut builder = RowsBuilder::new(size);
        let mut src = vec![Voxel::AIR; sx];
        let mut dst = vec![Voxel::AIR; nx];
        let mut decoded = None;
        for z in 0..nz {
            let zs = nearest(z, sz, nz);
            for y in 0..ny {
                let ys = nearest(y, sy, ny);
                if decoded != Some((ys, zs)) {
                    self.read_row(ys, zs, 0, &mut src);
                    decoded = Some((ys, zs));
                }
                for (d, &x) in dst.iter_mut().zip(&xs) {
                    *d = src[x];
                }
                builder.start_row(z * ny + y);
                builder.push_voxels(&dst);
                builder.end_row();
            }
        }
        builder.finish()
    }

    fn resize_smooth(&self, size: [u32; 3]) -> Region {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let [nx, ny, nz] = size.map(|s| s as usize);
        let (wx, wy, wz) = (weights(sx, nx), weights(sy, ny), weights(sz, nz));
        let mut builder = RowsBuilder::new(size);
        let mut layers: BTreeMap<usize, Vec<Voxel>> = BTreeMap::new();
        let mut dst = vec![Voxel::AIR; nx];
        let mut by_material = [0f32; MATERIAL_COUNT];
        let mut touched: Vec<u8> = Vec::new();
        for (z, kz) in wz.iter().enumerate() {
            layers.retain(|k, _| kz.iter().any(|&(zs, _)| zs == *k));
            for &(zs, _) in kz {
                layers.entry(zs).or_insert_with(|| {
                    let mut layer = vec![Voxel::AIR; sx * sy];
                    for (ys, row) in layer.chunks_exact_mut(sx).enumerate() {
                        self.read_row(ys, zs, 0, row);
                    }
                    layer
                });
            }
            for (y, ky) in wy.iter().enumerate() {
                for (d, kx) in dst.iter_mut().zip(&wx) {
                    let mut total = 0f32;
                    for &(zs, fz) in kz {
                        let layer = &layers[&zs];
                        for &(ys, fy) in ky {
                            let row = &layer[ys * sx..ys * sx + sx];
                            for &(xs, fx) in kx {
                                let v = row[xs];
                                let u = units(v) * fz * fy * fx;
                                if u > 0.0 {
                                    let m = usize::from(v.material);
                                    if by_material[m] == 0.0 {
                                        touched.push(v.material);
                                    }
                                    by_material[m] += u;
                                    total += u;
                                }
                            }
                        }
                    }
                    *d = settle(total, &mut by_material, &mut touched);
                }
                builder.start_row(z * ny + y);
                builder.push_voxels(&dst);
                builder.end_row();
            }
        }
        builder.finish()
    }
}

/// The voxel for `total` occupancy units with the heaviest material of `by_material` (which is
/// cleared again, through `touched`).
fn settle(total: f32, by_material: &mut [f32; MATERIAL_COUNT], touched: &mut Vec<u8>) -> Voxel {
    let mut best: Option<(u8, f32)> = None;
    for &m in touched.iter() {
        let w = by_material[usize::from(m)];
        let better = match best {
            None => true,
            Some((bm, bw)) => w > bw || (w == bw && m < bm),
        };
        if better {
            best = Some((m, w));
        }
        by_material[usize::from(m)] = 0.0;
    }
    touched.clear();
    let steps = total.round().clamp(0.0, 256.0) as u32;
    match best {
        Some((m, _)) if steps > 0 => Voxel::new(m, (steps - 1) as u8),
        _ => Voxel::AIR,
    }
}
