//! Reading baked light at points of the smooth surface: mesh vertices (export, viewport) and the top
//! of a column (the top-down map).
//!
//! ```text
//!   vertex v (between voxel centres)      the 2×2×2 voxels whose centres surround v, trilinear weights,
//!      ·───·                              lit voxels only, renormalized; none lit: the 4×4×4 around v
//!      │ v │                              weighted by 1 / (1 + d²); none at all: no light
//!      ·───·
//! ```
//!
//! A surface-nets vertex lies in a cell whose eight corner voxels include a solid and a non-solid one,
//! so at least one corner is a surface voxel and the first ring almost always answers.

use super::map::LightMap;
use crate::voxel::VoxelPos;

impl LightMap {
    /// Light at a point of the surface (world voxel units: voxel `x` spans `x..x + 1`), blended from
    /// the lit voxels around it; `None` when no lit voxel is near (water far from any shore).
    pub fn sample(&self, p: [f32; 3]) -> Option<[f32; 3]> {
        self.sample_from(VoxelPos::new(0, 0, 0), p)
    }

    /// [`LightMap::sample`] at `p` given relative to voxel `origin` (meshes far from the world's
    /// origin are made relative to a nearby corner, where `f32` keeps their detail).
    pub fn sample_from(&self, origin: VoxelPos, p: [f32; 3]) -> Option<[f32; 3]> {
        let base = p.map(|c| (c - 0.5).floor());
        let t = [0, 1, 2].map(|a| p[a] - 0.5 - base[a]);
        let b = base.map(|c| c as i32);
        let at = |dx: i32, dy: i32, dz: i32| {
            VoxelPos::new(
                origin.x + b[0] + dx,
                origin.y + b[1] + dy,
                origin.z + b[2] + dz,
            )
        };
        let mut acc = [0f32; 3];
        let mut total = 0f32;
        for dz in 0..2 {
            for dy in 0..2 {
                for dx in 0..2 {
                    let w = [dx, dy, dz]
                        .iter()
                        .zip(t)
                        .map(|(&d, t)| if d == 1 { t } else { 1.0 - t })
                        .product::<f32>();
                    if let Some(l) = self.light(at(dx, dy, dz)) {
                        add(&mut acc, l, w);
                        total += w;
                    }
                }
            }
        }
        if total > 1e-4 {
            return Some(acc.map(|c| c / total));
        }
        acc = [0.0; 3];
        total = 0.0;
        for dz in -1..3 {
            for dy in -1..3 {
                for dx in -1..3 {
                    if let Some(l) = self.light(at(dx, dy, dz)) {
                        let d2: f32 = [b[0] + dx, b[1] + dy, b[2] + dz]
                            .iter()
                            .zip(p)
                            .map(|(&c, p)| (c as f32 + 0.5 - p).powi(2))
                            .sum();
                        let w = 1.0 / (1.0 + d2);
                        add(&mut acc, l, w);
                        total += w;
                    }
                }
            }
        }
        (total > 0.0).then(|| acc.map(|c| c / total))
    }

    /// Light of the top lit voxel of column (`x`, `z`) at or below `y_hint + 2`, searching `depth`
    /// voxels down; `None` when there is none.
    pub fn column_top(&self, x: i32, z: i32, y_hint: i32, depth: i32) -> Option<[f32; 3]> {
        (0..=depth.max(0)).find_map(|k| self.light(VoxelPos::new(x, y_hint + 2 - k, z)))
    }
}

fn add(acc: &mut [f32; 3], l: [f32; 3], w: f32) {
    for a in 0..3 {
        acc[a] += l[a] * w;
    }
}
