//! What one script run may use: wall time, Luau heap, and voxels written. The defaults are the
//! issue's contract (30 s, 256 MB); the voxel cap keeps a runaway loop of fills from growing the
//! world's memory without bound, since voxels live outside the Luau heap the memory limit counts.

use std::time::Duration;

/// Default wall-clock limit of one run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default Luau heap limit of one run, in bytes.
pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;
/// Default cap on voxels written in one run (the sum of the boxes every call writes, after
/// clipping to the world): 2³⁰, a 1024³ world written once.
pub const DEFAULT_MAX_VOXELS_WRITTEN: u64 = 1 << 30;
/// Largest region `ReadVoxels` / `WriteVoxels` / `strata.read` / `strata.write` take, in voxels
/// (Roblox's documented limit for ReadVoxels and WriteVoxels).
pub const MAX_READ_WRITE_VOXELS: u64 = 4_194_304;
/// Largest region the other terrain calls take, in voxels (Roblox's documented limit; for the
/// calls taking a CFrame and a size, the bounding box of the shape).
pub const MAX_REGION_VOXELS: u64 = 67_108_864;
/// Largest box `strata.read` / `strata.write` take, in voxels (a 256³ box).
pub const MAX_BUFFER_VOXELS: u64 = 1 << 24;

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time.
    pub timeout: Duration,
    /// Luau heap, in bytes.
    pub memory_bytes: usize,
    /// Voxels written, summed over every call.
    pub max_voxels_written: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_TIMEOUT,
            memory_bytes: DEFAULT_MEMORY_BYTES,
            max_voxels_written: DEFAULT_MAX_VOXELS_WRITTEN,
        }
    }
}
