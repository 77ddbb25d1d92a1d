//! The runs of the part of one chunk inside a region: the form [`super::pieces`] encodes a chunk in
//! when cloning it whole would cost too much, and that [`super::copy`] reads rows from.

use super::builder::RowRuns;
use super::run::Run;
use crate::storage::{PackedBox, RowBuf};
use crate::voxel::{Voxel, CHUNK_SIZE};

/// The runs of the part `lo..hi` (chunk-local) of one chunk: rows X fastest, then Y, then Z, each
/// row's runs ending at most at the part's X size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PieceRuns {
    pub(super) lo: [u8; 3],
    pub(super) size: [u8; 3],
    /// Row `r` holds `runs[row_start[r]..row_start[r + 1]]` (at most 32 runs per row, 1024 rows).
    pub(super) row_start: Vec<u16>,
    pub(super) runs: Vec<Run>,
}

impl PieceRuns {
    /// Encode the part `lo..hi` (chunk-local, not empty) of `level`.
    pub(super) fn encode(level: &PackedBox<CHUNK_SIZE>, lo: [usize; 3], hi: [usize; 3]) -> Self {
        let len = hi[0] - lo[0];
        let rows = (hi[1] - lo[1]) * (hi[2] - lo[2]);
        let mut row_start = Vec::with_capacity(rows + 1);
        let mut runs = Vec::with_capacity(rows * 2);
        let mut buf = RowBuf::new();
        for lz in lo[2]..hi[2] {
            for ly in lo[1]..hi[1] {
                row_start.push(runs.len() as u16);
                let mut row = RowRuns::default();
                match level.read_row_packed(ly, lz, &mut buf) {
                    (voxels, true) => row.fill(&mut runs, voxels[0], len),
                    (voxels, false) => match <&[Voxel; CHUNK_SIZE]>::try_from(voxels) {
                        Ok(whole) => row.row32(&mut runs, whole, lo[0], len),
                        Err(_) => row.voxels(&mut runs, &voxels[lo[0]..hi[0]]),
                    },
                }
                row.finish(&mut runs);
            }
        }
        row_start.push(runs.len() as u16);
        runs.shrink_to_fit();
        Self {
            lo: lo.map(|v| v as u8),
            size: std::array::from_fn(|a| (hi[a] - lo[a]) as u8),
            row_start,
            runs,
        }
    }

    /// Runs of the row at chunk-local (`ly`, `lz`), ends relative to the part's first x.
    #[inline]
    pub fn row(&self, ly: usize, lz: usize) -> &[Run] {
        let r = (lz - usize::from(self.lo[2])) * usize::from(self.size[1])
            + (ly - usize::from(self.lo[1]));
        &self.runs[usize::from(self.row_start[r])..usize::from(self.row_start[r + 1])]
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.row_start.capacity() * size_of::<u16>() + self.runs.capacity() * size_of::<Run>()
    }

    pub(super) fn assert_valid(&self, lo: [usize; 3], hi: [usize; 3]) {
        assert_eq!(
            self.lo.map(usize::from),
            lo,
            "piece runs cover the clipped part"
        );
        let size: [usize; 3] = std::array::from_fn(|a| hi[a] - lo[a]);
        assert_eq!(self.size.map(usize::from), size, "piece runs size");
        assert_eq!(
            self.row_start.len(),
            size[1] * size[2] + 1,
            "piece row table"
        );
        assert_eq!(self.row_start[0], 0, "first piece row starts at 0");
        assert_eq!(
            self.row_start.last().map(|&s| usize::from(s)),
            Some(self.runs.len()),
            "last piece row ends at the run count"
        );
        for r in 0..size[1] * size[2] {
            let runs =
                &self.runs[usize::from(self.row_start[r])..usize::from(self.row_start[r + 1])];
            let mut x = 0u16;
            let mut prev = None;
            for run in runs {
                assert!(run.end > x, "piece row {r}: runs must advance");
                assert!(
                    run.voxel.is_normalized(),
                    "piece row {r}: unnormalized voxel"
                );
                assert_ne!(
                    prev,
                    Some(run.voxel),
                    "piece row {r}: equal neighbouring runs"
                );
                prev = Some(run.voxel);
                x = run.end;
            }
            assert_eq!(usize::from(x), size[0], "piece row {r} length");
        }
    }
}
