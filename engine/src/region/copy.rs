//! Encoding a box of chunk boxes as a region's rows of runs, bands of Z layers in parallel: a copy
//! from the grid in run form, and the conversion of a region held as chunk pieces
//! ([`super::pieces::ChunkPieces`]) to runs, which reads the same boxes the same way.
//!
//! ```text
//!   for each Z layer, for each chunk row (cy) of the box:
//!     strip = the chunks along X (missing or uniform chunks as one voxel, neighbours merged)
//!     for each Y of that chunk row: one region row
//!       one-voxel segment or packed chunk row ──> extend the open run (no voxel read)
//!       allocated chunk row ───────────────────> RowRuns::voxels (run boundaries four at a time)
//! ```
//!
//! Rows are numbered `z * size_y + y`, so a band of Z layers is a contiguous range of rows: each
//! rayon task encodes its band into its own arrays, and the bands are joined in order, shifting the
//! row starts. The result does not depend on the number of threads.

use rayon::prelude::*;

use super::builder::RowRuns;
use super::piece_runs::PieceRuns;
use super::run::Run;
use crate::progress::Progress;
use crate::storage::{PackedBox, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, CHUNK_BITS, CHUNK_SIZE};
use crate::Result;

/// Z layers per task.
const BAND: i32 = 8;

/// What a copy reads for one chunk position.
#[derive(Clone, Copy)]
pub(crate) enum ChunkSource<'a> {
    /// The chunk's full-resolution box (`None`: no chunk, all Air).
    Packed(Option<&'a PackedBox<CHUNK_SIZE>>),
    /// The part of the chunk inside the copied box, already as runs.
    Runs(&'a PieceRuns),
}

/// Where a row segment comes from: one voxel throughout (a missing or uniform chunk), a chunk's
/// rows starting at a local x, or a piece's runs.
#[derive(Clone, Copy)]
enum Segment<'a> {
    Fill(Voxel),
    Rows(&'a PackedBox<CHUNK_SIZE>, usize),
    Runs(&'a PieceRuns),
}

/// The row starts (one per row, plus the end) and runs of box `b` of the chunks `chunk` returns.
/// Without a `progress` this never fails.
pub(crate) fn copy_rows<'g, F>(
    chunk: &F,
    b: VoxelBox,
    progress: Option<&Progress>,
) -> Result<(Vec<u32>, Vec<Run>)>
where
    F: Fn(ChunkPos) -> ChunkSource<'g> + Sync,
{
    let bands: Vec<i32> = (b.min.z..b.max.z).step_by(BAND as usize).collect();
    let parts = bands
        .par_iter()
        .map(|&z0| copy_band(chunk, b, z0..(z0 + BAND).min(b.max.z), progress))
        .collect::<Result<Vec<_>>>()?;
    let rows: usize = parts.iter().map(|p| p.0.len()).sum();
    let total: usize = parts.iter().map(|p| p.1.len()).sum();
    let mut row_start = Vec::with_capacity(rows + 1);
    let mut runs = Vec::with_capacity(total);
    for (starts, part) in parts {
        let shift = runs.len() as u32;
        row_start.extend(starts.iter().map(|s| s + shift));
        runs.extend_from_slice(&part);
    }
    row_start.push(runs.len() as u32);
    Ok((row_start, runs))
}

/// Rows of Z layers `zs` of box `b`: their starts (relative to the band) and runs.
fn copy_band<'g, F>(
    chunk: &F,
    b: VoxelBox,
    zs: std::ops::Range<i32>,
    progress: Option<&Progress>,
) -> Result<(Vec<u32>, Vec<Run>)>
where
    F: Fn(ChunkPos) -> ChunkSource<'g> + Sync,
{
    let sy = b.size()[1];
    let rows = sy * zs.len();
    let mut row_start: Vec<u32> = Vec::with_capacity(rows);
    let mut runs: Vec<Run> = Vec::with_capacity(rows * 2);
    let (cx0, cx1) = (b.min.x >> CHUNK_BITS, (b.max.x - 1) >> CHUNK_BITS);
    let (cy0, cy1) = (b.min.y >> CHUNK_BITS, (b.max.y - 1) >> CHUNK_BITS);
    let mask = CHUNK_SIZE as i32 - 1;
    let mut strip: Vec<(Segment<'_>, usize)> = Vec::new();
    let mut buf = RowBuf::new();
    for z in zs {
        if let Some(p) = progress {
            p.check()?;
        }
        let cz = z >> CHUNK_BITS;
        let lz = (z & mask) as usize;
        for cy in cy0..=cy1 {
            strip.clear();
            for cx in cx0..=cx1 {
                let lo = b.min.x.max(cx << CHUNK_BITS) - (cx << CHUNK_BITS);
                let hi = b.max.x.min((cx + 1) << CHUNK_BITS) - (cx << CHUNK_BITS);
                let seg = match chunk(ChunkPos::new(cx, cy, cz)) {
                    ChunkSource::Packed(None) => Segment::Fill(Voxel::AIR),
                    ChunkSource::Packed(Some(level)) => match level.uniform_material() {
                        Some(m) => Segment::Fill(Voxel::filled(m)),
                        None => Segment::Rows(level, lo as usize),
                    },
                    ChunkSource::Runs(p) => Segment::Runs(p),
                };
                let len = (hi - lo) as usize;
                match (strip.last_mut(), seg) {
                    (Some((Segment::Fill(a), n)), Segment::Fill(v)) if *a == v => *n += len,
                    _ => strip.push((seg, len)),
                }
            }
            let y0 = b.min.y.max(cy << CHUNK_BITS);
            let y1 = b.max.y.min((cy + 1) << CHUNK_BITS);
            for y in y0..y1 {
                let ly = (y & mask) as usize;
                row_start.push(runs.len() as u32);
                let mut row = RowRuns::default();
                for &(seg, len) in &strip {
                    match seg {
                        Segment::Fill(v) => row.fill(&mut runs, v, len),
                        Segment::Rows(level, lo) => match level.read_row_packed(ly, lz, &mut buf) {
                            (voxels, true) => row.fill(&mut runs, voxels[0], len),
                            (voxels, false) => match <&[Voxel; CHUNK_SIZE]>::try_from(voxels) {
                                Ok(whole) => row.row32(&mut runs, whole, lo, len),
                                Err(_) => row.voxels(&mut runs, &voxels[lo..lo + len]),
                            },
                        },
                        Segment::Runs(piece) => {
                            let mut x = 0;
                            for run in piece.row(ly, lz) {
                                row.fill(&mut runs, run.voxel, usize::from(run.end) - x);
                                x = usize::from(run.end);
                            }
                        }
                    }
                }
                row.finish(&mut runs);
            }
        }
        if let Some(p) = progress {
            p.advance(1);
        }
    }
    Ok((row_start, runs))
}
