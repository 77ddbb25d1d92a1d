//! A run of equal voxels, the unit every region form is built from, and decoding a row segment from
//! a row's runs. A leaf: the region, its builder, its copies and its pieces all read it.

use crate::voxel::Voxel;

/// A run of equal voxels in an X row of a [`super::Region`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The voxel repeated (normalized).
    pub voxel: Voxel,
    /// One past the run's last x; the run starts where the previous one ended (or at 0).
    pub end: u16,
}

/// Decode `out.len()` voxels starting at `x0` from a row's runs.
#[inline]
pub(crate) fn decode_segment(runs: &[Run], x0: usize, out: &mut [Voxel], row_len: usize) {
    let end = x0 + out.len();
    assert!(end <= row_len, "segment past the end of the row");
    let mut i = runs.partition_point(|r| usize::from(r.end) <= x0);
    let mut x = x0;
    while x < end {
        let run = runs[i];
        let e = usize::from(run.end).min(end);
        out[x - x0..e - x0].fill(run.voxel);
        x = e;
        i += 1;
    }
}
