//! The material kernels: Paint and Replace. Neither changes occupancy.
//!
//! - **Paint** gives the tool's material to *surface* ground voxels inside the brush: ground that is
//!   not full itself or has a neighbour (of 26) that is not full ground. Buried voxels keep their
//!   material, so digging later still finds the rock under the grass. Air and water are never painted.
//! - **Replace** turns every voxel of the source material inside the brush into the target material,
//!   keeping its occupancy. Replacing Air fills it completely; replacing with Air removes the matter.
//!
//! Strength does not apply: a material is either changed or not.

use super::sculpt::Ctx;
use crate::voxel::{Voxel, VoxelPos, AIR};

/// Paint one voxel.
pub(crate) fn paint(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let m = c.tool.material;
    if old.material == m || !c.palette.is_solid(old.material) || !c.fp.inside(c.fp.distance(p)) {
        return old;
    }
    if c.field.solid[i] < 1.0 || c.field.touches_open(i) {
        Voxel::new(m, old.occupancy)
    } else {
        old
    }
}

/// Replace one voxel.
pub(crate) fn replace(c: &Ctx, p: VoxelPos, _i: usize, old: Voxel) -> Voxel {
    if old.material != c.tool.source_material || !c.fp.inside(c.fp.distance(p)) {
        return old;
    }
    if old.material == AIR {
        Voxel::filled(c.tool.material)
    } else {
        Voxel::new(c.tool.material, old.occupancy)
    }
}
