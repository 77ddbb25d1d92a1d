//! The largest world the generator accepts. A leaf of its own because both the presets (which
//! validate a world size) and the biome settings (whose largest biome is the largest world) read it.

/// Largest accepted world size along X and Z, in voxels.
pub const MAX_HORIZONTAL_SIZE: u32 = 16384;
/// Largest accepted world size along Y (up), in voxels.
pub const MAX_VERTICAL_SIZE: u32 = 4096;

// Generated worlds span 0..size on each axis: the largest must lie in the world's coordinate range.
const _: () = assert!(
    MAX_HORIZONTAL_SIZE as i64 <= crate::voxel::COORD_LIMIT as i64
        && MAX_VERTICAL_SIZE as i64 <= crate::voxel::COORD_LIMIT as i64
);
