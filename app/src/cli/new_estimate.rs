//! What a `strata new` world will cost, measured before it is generated: a few chunk columns spread
//! over the world are generated for real (with the same settings), and their memory and time are
//! scaled to the world's number of columns. A world that would not fit in the memory this machine has
//! available is refused before any work starts; a long one is announced with its estimate.
//!
//! Rationale: memory per column depends on the preset and the seed by two orders of magnitude (a
//! flat world stores uniform chunks, mountains with caves store every row), so no fixed figure per
//! voxel can decide; sampling the real generator can.

use std::time::Instant;

use strata_engine::gen::{generate_region, WorldSettings};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos, CHUNK_SIZE};

use crate::AppResult;

/// Columns sampled (a 3 × 3 lattice over the world).
const SAMPLES_PER_AXIS: u64 = 3;
/// Worlds of at most this many chunk columns are generated without an estimate (a few seconds).
const SMALL_WORLD_COLUMNS: u64 = 4096;
/// Memory during the save on top of the grid: the encoded file is built in memory (measured at
/// 0.2-0.5 × the grid), so the estimate adds this share.
const SAVE_OVERHEAD: f64 = 0.5;

/// The estimate for a whole world.
#[derive(Debug, Clone, Copy)]
pub struct Estimate {
    /// Chunk columns in the world.
    pub columns: u64,
    /// Peak memory, bytes.
    pub bytes: u64,
    /// Generation time on this machine (all cores), seconds.
    pub seconds: f64,
}

/// Measure sample columns of `world` and scale them; `None` for small worlds.
///
/// # Errors
/// Generator errors (invalid settings were refused before this runs).
pub fn estimate(world: &WorldSettings, materials: &MaterialTable) -> AppResult<Option<Estimate>> {
    let edge = CHUNK_SIZE as u64;
    let [sx, sy, sz] = world.size.map(u64::from);
    let (cols_x, cols_z) = (sx.div_ceil(edge), sz.div_ceil(edge));
    let columns = cols_x * cols_z;
    if columns <= SMALL_WORLD_COLUMNS {
        return Ok(None);
    }
    let mut bytes = 0u64;
    let mut seconds = 0f64;
    let n = SAMPLES_PER_AXIS;
    for i in 0..n {
        for k in 0..n {
            let cx = (2 * i + 1) * cols_x / (2 * n);
            let cz = (2 * k + 1) * cols_z / (2 * n);
            let lo = VoxelPos::new((cx * edge) as i32, 0, (cz * edge) as i32);
            let region = VoxelBox::from_min_size(lo, [edge as u32, sy as u32, edge as u32])
                .intersect(&world.bounds());
            let started = Instant::now();
            let fill = generate_region(world, region, materials, &Progress::new())?;
            seconds += started.elapsed().as_secs_f64();
            let mut grid = Grid::new();
            fill.write_into(&mut grid);
            bytes += grid.memory_bytes() as u64;
        }
    }
    let samples = (n * n) as f64;
    let threads = rayon::current_num_threads().max(1) as f64;
    let per_column = bytes as f64 / samples;
    Ok(Some(Estimate {
        columns,
        bytes: (per_column * columns as f64 * (1.0 + SAVE_OVERHEAD)) as u64,
        seconds: seconds / samples * columns as f64 / threads,
    }))
}

/// Memory this process can still get, where known (Linux): what the system has available
/// (`MemAvailable`), and no more than the address space left under the process's limit
/// (`ulimit -v`, `Max address space` less what is mapped now).
pub fn available_bytes() -> Option<u64> {
    let field = |text: &str, key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        line[key.len()..].split_whitespace().next()?.parse().ok()
    };
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let system = field(&meminfo, "MemAvailable:")? * 1024;
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let address_space = field(&limits, "Max address space").map(|limit| {
        let mapped = field(&status, "VmSize:").unwrap_or(0) * 1024;
        limit.saturating_sub(mapped)
    });
    Some(address_space.map_or(system, |a| a.min(system)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_known_here_and_positive() {
        if cfg!(target_os = "linux") {
            assert!(available_bytes().is_some_and(|b| b > 0));
        }
    }
}
