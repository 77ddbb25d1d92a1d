//! Reading fragments like voxels: one fragment, or a box of them, at fragment resolution.
//!
//! Fragment coordinates are voxel coordinates times the factor `f` plus the index inside the voxel,
//! in `i64` (a 16-fragment voxel at the edge of the `i32` voxel range still fits):
//!
//! ```text
//!   fragment p  ->  voxel p.div_euclid(f), index p.rem_euclid(f)
//!   voxel v     ->  fragments v·f .. v·f + f on each axis
//! ```
//!
//! A fragment reads as its material, or 0 when empty. The viewport, the lighting walk and the exports
//! all read through [`FragmentVolume`], so they see the same fragments.

use super::block::BlockView;
use super::fragments::Enhanced;
use crate::storage::Grid;
use crate::voxel::{VoxelBox, VoxelPos};

/// A half-open box of fragments: `min` inclusive, `max` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FragmentBox {
    /// Lowest fragment inside.
    pub min: [i64; 3],
    /// One past the highest fragment on each axis.
    pub max: [i64; 3],
}

impl FragmentBox {
    /// The fragments of the voxels of `b` at factor `f`.
    pub fn of_voxels(b: VoxelBox, f: usize) -> Self {
        let f = f as i64;
        Self {
            min: b.min.to_array().map(|v| i64::from(v) * f),
            max: b.max.to_array().map(|v| i64::from(v) * f),
        }
    }

    /// Edge lengths (0 where `max <= min`).
    pub fn size(&self) -> [usize; 3] {
        [0, 1, 2].map(|a| (self.max[a] - self.min[a]).max(0) as usize)
    }

    /// Number of fragments inside (saturating).
    pub fn volume(&self) -> usize {
        let [x, y, z] = self.size();
        x.saturating_mul(y).saturating_mul(z)
    }

    /// True when the box holds no fragment.
    pub fn is_empty(&self) -> bool {
        self.volume() == 0
    }

    /// The voxels that hold its fragments.
    pub fn voxels(&self, f: usize) -> VoxelBox {
        let f = f as i64;
        let lo = self.min.map(|v| v.div_euclid(f) as i32);
        let hi = self.max.map(|v| (v + f - 1).div_euclid(f) as i32);
        VoxelBox::new(VoxelPos::from(lo), VoxelPos::from(hi))
    }
}

/// Fragments of a grid as seen through an [`Enhanced`] store.
#[derive(Debug, Clone, Copy)]
pub struct FragmentVolume<'a> {
    grid: &'a Grid,
    enhanced: &'a Enhanced,
}

impl Enhanced {
    /// Reads at fragment resolution through this store and `grid` (which must be the grid it was
    /// computed from, with every edit since passed to [`Enhanced::update`]).
    pub fn volume<'a>(&'a self, grid: &'a Grid) -> FragmentVolume<'a> {
        FragmentVolume::new(grid, self)
    }
}

impl<'a> FragmentVolume<'a> {
    pub(crate) fn new(grid: &'a Grid, enhanced: &'a Enhanced) -> Self {
        Self { grid, enhanced }
    }

    /// Fragments per voxel edge.
    pub fn factor(&self) -> usize {
        self.enhanced.factor()
    }

    /// The grid read.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The store read.
    pub fn enhanced(&self) -> &'a Enhanced {
        self.enhanced
    }

    /// The fragments of voxel `p`.
    pub(crate) fn block(&self, p: VoxelPos) -> BlockView<'a> {
        let implicit = self.enhanced.enhancer().classify(self.grid.get(p));
        self.enhanced.block(p, implicit)
    }

    /// The fragments of voxel `p` whose class is already known.
    pub(crate) fn block_with(&self, p: VoxelPos, class: u8) -> BlockView<'a> {
        self.enhanced.block(p, class)
    }

    /// The material of fragment `p` (0 when empty).
    pub fn fragment(&self, p: [i64; 3]) -> u8 {
        let f = self.factor() as i64;
        let v = VoxelPos::from(p.map(|c| c.div_euclid(f) as i32));
        let [i, j, k] = p.map(|c| c.rem_euclid(f) as usize);
        self.block(v).get(f as usize, i, j, k)
    }

    /// True when fragment `p` is solid: the query the lighting walk uses.
    pub fn is_solid(&self, p: [i64; 3]) -> bool {
        self.fragment(p) != 0
    }

    /// Every fragment of `b` into `out` (X fastest, then Y, then Z; material or 0).
    ///
    /// # Panics
    /// If `out.len() != b.volume()`.
    pub fn read_box(&self, b: FragmentBox, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            b.volume(),
            "output buffer does not match the box"
        );
        if b.is_empty() {
            return;
        }
        let f = self.factor();
        let fi = f as i64;
        let cover = b.voxels(f);
        let classes = self.classes(cover);
        let [sx, sy, _] = b.size();
        let cs = cover.size();
        for vz in 0..cs[2] {
            for vy in 0..cs[1] {
                for vx in 0..cs[0] {
                    let v = VoxelPos::new(
                        cover.min.x + vx as i32,
                        cover.min.y + vy as i32,
                        cover.min.z + vz as i32,
                    );
                    let class = classes[(vz * cs[1] + vy) * cs[0] + vx];
                    let view = self.enhanced.block(v, class);
                    // This voxel's fragments, clipped to the box, in box coordinates.
                    let lo = [0, 1, 2]
                        .map(|a| (i64::from(v.to_array()[a]) * fi).max(b.min[a]) - b.min[a]);
                    let hi = [0, 1, 2]
                        .map(|a| ((i64::from(v.to_array()[a]) + 1) * fi).min(b.max[a]) - b.min[a]);
                    let base = [0, 1, 2].map(|a| i64::from(v.to_array()[a]) * fi - b.min[a]);
                    for z in lo[2]..hi[2] {
                        for y in lo[1]..hi[1] {
                            let row = (z as usize * sy + y as usize) * sx;
                            let dst = &mut out[row + lo[0] as usize..row + hi[0] as usize];
                            match view {
                                BlockView::Uniform(c) => dst.fill(c),
                                _ => {
                                    let (j, k) = ((y - base[1]) as usize, (z - base[2]) as usize);
                                    for (n, slot) in dst.iter_mut().enumerate() {
                                        let i = (lo[0] - base[0]) as usize + n;
                                        *slot = view.get(f, i, j, k);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Class bytes of the voxels of `b` (X fastest).
    pub(crate) fn classes(&self, b: VoxelBox) -> Vec<u8> {
        let voxels = self.grid.read_box_vec(b);
        let e = self.enhanced.enhancer();
        voxels.iter().map(|&v| e.classify(v)).collect()
    }
}
