//! Sea Level: fill air below a level with water, or clear water, in a box.
//!
//! Filling gives each Air voxel the part of its height below the level as water occupancy
//! (`clamp(level − y, 0, 1)` for the voxel spanning `y..y+1`), so the water surface sits exactly at
//! the level, between voxel centres if need be. Ground, and voxels entirely above the level, are never
//! touched. Clearing turns every liquid voxel in the box into Air.

use super::tool::SeaLevelMode;
use crate::voxel::{Voxel, VoxelPos};

/// The new value of `old` at `p` for Sea Level with `water` as the fill material.
#[inline]
pub(crate) fn sea_level(
    mode: SeaLevelMode,
    level: f32,
    water: u8,
    is_liquid: impl Fn(u8) -> bool,
    p: VoxelPos,
    old: Voxel,
) -> Voxel {
    match mode {
        SeaLevelMode::Fill if old.is_air() => {
            Voxel::from_fraction(water, (level - p.y as f32).clamp(0.0, 1.0))
        }
        SeaLevelMode::Clear if is_liquid(old.material) => Voxel::AIR,
        _ => old,
    }
}
