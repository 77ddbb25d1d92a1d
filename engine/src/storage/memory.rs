//! Memory accounting for a grid, with two simpler layouts of the same chunks for comparison.
//!
//! All figures count voxel storage only: hash table slots, chunk structs, row headers, stored rows
//! and their cells, and the mip levels. `plain_row_packed_bytes` is the row-packed layout without this
//! build's savings (every chunk keeps 2-byte headers for all 1024 rows, every allocated row is stored
//! whole, 64 bytes, even when an equal one exists, mips are plain arrays); `unpacked_bytes` is a plain
//! 64 KiB array per chunk.

use super::chunk::Chunk;
use super::grid::Grid;
use crate::voxel::Voxel;

/// Memory figures of one grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryReport {
    /// Stored chunks.
    pub chunks: usize,
    /// Non-air voxels.
    pub nonair_voxels: u64,
    /// This build's layout, everything included (hash table, structs, headers, cells, mips).
    pub total_bytes: u64,
    /// Level-0 heap bytes only (row headers, stored rows and their cells).
    pub level0_bytes: u64,
    /// Plain row packing: 2 KiB of 2-byte row headers + every allocated row (no shared rows, no
    /// uniform boxes) per chunk, plain-array mips, same hash table.
    pub plain_row_packed_bytes: u64,
    /// Plain 32³ arrays of 2-byte voxels, plus the same hash table.
    pub unpacked_bytes: u64,
}

impl MemoryReport {
    /// Measure `grid`.
    pub fn of(grid: &Grid) -> Self {
        let stats = grid.stats();
        let table = (grid.memory_bytes()
            - grid.chunks().map(|(_, c)| c.heap_bytes()).sum::<usize>()) as u64;
        let voxel = size_of::<Voxel>() as u64;
        let mips_plain = (16 * 16 * 16 + 8 * 8 * 8 + 4 * 4 * 4) * voxel;
        let mut level0 = 0u64;
        let mut plain_rows = 0u64;
        for (_, c) in grid.chunks() {
            level0 += c.level0().heap_bytes() as u64;
            plain_rows += 1024 * 2 + (c.level0().allocated_rows() * 32) as u64 * voxel + mips_plain;
        }
        Self {
            chunks: stats.chunks,
            nonair_voxels: stats.nonair_voxels,
            total_bytes: grid.memory_bytes() as u64,
            level0_bytes: level0,
            plain_row_packed_bytes: table + plain_rows,
            unpacked_bytes: table + stats.chunks as u64 * Chunk::VOLUME as u64 * voxel,
        }
    }

    /// `bytes` divided by the non-air voxel count (0 for an empty grid).
    pub fn per_voxel(&self, bytes: u64) -> f64 {
        if self.nonair_voxels == 0 {
            0.0
        } else {
            bytes as f64 / self.nonair_voxels as f64
        }
    }
}
