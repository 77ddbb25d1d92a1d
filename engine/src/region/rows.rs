//! [`Region`]: a box of voxels held as X rows of runs or as chunk pieces, and copying one out of a
//! grid.
//!
//! ```text
//!   row r = z * size_y + y            runs of row r = runs[row_start[r] .. row_start[r + 1]]
//!   ┌──────────────────────────────┐
//!   │ Rock ×12 │ Grass 0x7f │ Air ×… │   Run { voxel, end }: the run covers x in previous end .. end
//!   └──────────────────────────────┘
//! ```
//!
//! A region is held in one of two forms, chosen by [`Region::copy`]:
//! - runs (above): what every builder (dense import, turns, mirrors, resizes, decoders) produces;
//! - chunk pieces ([`ChunkPieces`]): a copy of a box keeps, per chunk it meets, a clone of the
//!   chunk's row-packed box or the runs of the part inside the box, within a quarter of the dense
//!   box's bytes (the run form when that cannot be met).
//!
//! Both read a row segment the same way ([`Region::read_row`]); an operation that works on runs
//! (mirror, a quarter turn about X, material counts and remaps, equality) converts pieces to runs
//! where it needs them ([`Region::run_rows`]), and the conversion gives exactly the runs a copy in
//! run form gives.
//!
//! # Rationale
//! A clipboard or stamp region is written once and read a row at a time (paste, transforms, export),
//! so it needs neither the chunk format's constant-time row borrows nor its mips. Runs with their end
//! position keep every solid or empty stretch of a row at four bytes whatever its length, and a read
//! of a row segment finds its first run by binary search. Encoding runs costs about twice a plain
//! dense copy of the box, though (every run boundary of every allocated chunk row is found and
//! written), while the chunks' own packed boxes are already small: copying those is a copy of their
//! headers and stored rows, a fraction of the dense bytes, with no voxel looked at.

use std::borrow::Cow;

use super::builder::RowsBuilder;
use super::copy::ChunkSource;
use super::pieces::ChunkPieces;
use super::run::{decode_segment, Run};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos, MATERIAL_COUNT};
use crate::{Error, Result};

/// The longest edge a region may have, in voxels (the largest world edge Strata generates).
pub const MAX_REGION_EDGE: u32 = 16384;

/// A box of voxels (material + occupancy) with its minimum corner at `(0, 0, 0)`, stored as runs
/// or as the chunk pieces it was copied from (see the module docs): 1 to [`MAX_REGION_EDGE`] voxels
/// per axis and at most [`MAX_REGION_VOXELS`] in all. Two regions are equal when they have the same
/// size and voxels, whatever their forms.
#[derive(Debug, Clone)]
pub struct Region {
    size: [u32; 3],
    body: Body,
}

/// How a region holds its voxels.
#[derive(Debug, Clone)]
enum Body {
    Runs(RunRows),
    Pieces(ChunkPieces),
}

/// X rows of runs: the runs of row `r` are `runs[row_start[r]..row_start[r + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunRows {
    row_start: Vec<u32>,
    runs: Vec<Run>,
}

impl RunRows {
    /// Runs of row number `r` (`z * size_y + y`).
    #[inline]
    pub fn row(&self, r: usize) -> &[Run] {
        &self.runs[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// Number of runs.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }
}

impl PartialEq for Region {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.run_rows() == other.run_rows()
    }
}

impl Eq for Region {}

/// Pieces are chosen when they take at most this fraction of the dense box's bytes (the issue's
/// memory goal); otherwise a copy encodes runs.
const PIECES_BUDGET_DIVISOR: u64 = 4;

/// The most voxels a region may hold (so run and row numbers fit in 32 bits).
pub const MAX_REGION_VOXELS: u64 = u32::MAX as u64;

/// Check a region size: every edge 1 to [`MAX_REGION_EDGE`], at most [`MAX_REGION_VOXELS`] in all.
pub(crate) fn check_size(size: [u32; 3]) -> Result<()> {
    for (axis, s) in ['X', 'Y', 'Z'].into_iter().zip(size) {
        if s == 0 || s > MAX_REGION_EDGE {
            return Err(Error::Invalid(format!(
                "a region is 1 to {MAX_REGION_EDGE} voxels on every axis; {axis} is {s}"
            )));
        }
    }
    let volume: u64 = size.iter().map(|&s| u64::from(s)).product();
    if volume > MAX_REGION_VOXELS {
        return Err(Error::Invalid(format!(
            "a region holds at most {MAX_REGION_VOXELS} voxels; {}×{}×{} is {volume}",
            size[0], size[1], size[2]
        )));
    }
    Ok(())
}

/// The size of `b` as a region size, if it is a valid one.
pub(crate) fn size_of_box(b: &VoxelBox) -> Result<[u32; 3]> {
    if b.is_empty() {
        return Err(Error::Invalid(format!(
            "the box {}..{} is empty",
            fmt_pos(b.min.to_array()),
            fmt_pos(b.max.to_array())
        )));
    }
    let [sx, sy, sz] = b.size();
    let clamp = |s: usize| u32::try_from(s).unwrap_or(u32::MAX);
    let size = [clamp(sx), clamp(sy), clamp(sz)];
    check_size(size)?;
    Ok(size)
}

fn fmt_pos(p: [i32; 3]) -> String {
    format!("{},{},{}", p[0], p[1], p[2])
}

impl Region {
    /// Assemble from parts built by [`RowsBuilder`].
    pub(crate) fn from_parts(size: [u32; 3], row_start: Vec<u32>, runs: Vec<Run>) -> Self {
        Self {
            size,
            body: Body::Runs(RunRows { row_start, runs }),
        }
    }

    /// A region of `size` holding only `voxel` (normalized).
    ///
    /// # Errors
    /// [`Error::Invalid`] for a size outside 1 to [`MAX_REGION_EDGE`].
    pub fn filled(size: [u32; 3], voxel: Voxel) -> Result<Self> {
        check_size(size)?;
        let voxel = Voxel::new(voxel.material, voxel.occupancy);
        let rows = size[1] as usize * size[2] as usize;
        let runs = vec![
            Run {
                voxel,
                end: size[0] as u16,
            };
            rows
        ];
        Ok(Self::from_parts(size, (0..=rows as u32).collect(), runs))
    }

    /// A region from dense voxels (X fastest, then Y, then Z), normalized on the way in.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad size or a buffer that does not hold exactly its volume.
    pub fn from_dense(size: [u32; 3], voxels: &[Voxel]) -> Result<Self> {
        check_size(size)?;
        let [sx, sy, sz] = size.map(|s| s as usize);
        if voxels.len() as u64 != sx as u64 * sy as u64 * sz as u64 {
            return Err(Error::Invalid(format!(
                "{} voxels do not fill a region of {sx}×{sy}×{sz}",
                voxels.len()
            )));
        }
        let mut b = RowsBuilder::new(size);
        let mut row = Vec::with_capacity(sx);
        for (r, src) in voxels.chunks_exact(sx).enumerate() {
            row.clear();
            row.extend(src.iter().map(|v| Voxel::new(v.material, v.occupancy)));
            b.start_row(r);
            b.push_voxels(&row);
            b.end_row();
        }
        Ok(b.finish())
    }

    /// Copy box `b` of `grid` (see [`Region::copy_with`]).
    ///
    /// # Errors
    /// As for [`Region::copy_with`].
    pub fn copy(grid: &Grid, b: VoxelBox) -> Result<Self> {
        Self::copy_with(grid, b, &Progress::new())
    }

    /// Copy box `b` of `grid`: voxels outside every stored chunk are Air. When the chunks the box
    /// meets hold at most a quarter of the dense box's bytes, the region keeps clones of their
    /// full-resolution boxes (chunk pieces); otherwise it encodes runs, bands of Z layers in
    /// parallel (rayon). Reports one progress unit per Z layer and stops when `progress` is
    /// cancelled.
    ///
    /// # Errors
    /// [`Error::Invalid`] for an empty box or one over [`MAX_REGION_EDGE`] on an axis;
    /// [`Error::Cancelled`].
    pub fn copy_with(grid: &Grid, b: VoxelBox, progress: &Progress) -> Result<Self> {
        let size = size_of_box(&b)?;
        progress.start(size[2].into());
        let dense = b.volume() as u64 * size_of::<Voxel>() as u64;
        let budget = usize::try_from(dense / PIECES_BUDGET_DIVISOR).unwrap_or(usize::MAX);
        progress.check()?;
        if let Some(pieces) = ChunkPieces::copy(grid, b, budget) {
            progress.advance(size[2].into());
            return Ok(Self {
                size,
                body: Body::Pieces(pieces),
            });
        }
        Self::copy_runs(grid, b, progress)
    }

    /// Copy box `b` of `grid` in run form, whatever the chunks' bytes (see [`Region::copy_with`]).
    pub(crate) fn copy_runs(grid: &Grid, b: VoxelBox, progress: &Progress) -> Result<Self> {
        let size = size_of_box(&b)?;
        let lookup = |p| ChunkSource::Packed(grid.chunk(p).map(|c| c.level0()));
        let (row_start, runs) = super::copy::copy_rows(&lookup, b, Some(progress))?;
        Ok(Self::from_parts(size, row_start, runs))
    }

    /// Copy box `b` of `grid` as chunk pieces within `budget` heap bytes (for tests of that form);
    /// `None` when they do not fit.
    #[cfg(test)]
    pub(crate) fn copy_pieces(grid: &Grid, b: VoxelBox, budget: usize) -> Option<Self> {
        let size = size_of_box(&b).ok()?;
        let pieces = ChunkPieces::copy(grid, b, budget)?;
        Some(Self {
            size,
            body: Body::Pieces(pieces),
        })
    }

    /// True when the region holds chunk pieces rather than runs.
    pub fn is_pieces(&self) -> bool {
        matches!(self.body, Body::Pieces(_))
    }

    /// Number of chunk pieces held (0 in run form).
    pub fn piece_count(&self) -> usize {
        match &self.body {
            Body::Runs(_) => 0,
            Body::Pieces(p) => p.len(),
        }
    }

    /// Number of chunk pieces held as runs of their part (the others are clones of the chunks'
    /// packed boxes); 0 in run form.
    pub fn encoded_piece_count(&self) -> usize {
        match &self.body {
            Body::Runs(_) => 0,
            Body::Pieces(p) => p.encoded(),
        }
    }

    /// The region's rows of runs: borrowed in run form, encoded from the pieces otherwise.
    pub(crate) fn run_rows(&self) -> Cow<'_, RunRows> {
        match &self.body {
            Body::Runs(r) => Cow::Borrowed(r),
            Body::Pieces(p) => {
                let (row_start, runs) = p.to_runs();
                Cow::Owned(RunRows { row_start, runs })
            }
        }
    }

    /// Edge lengths in voxels.
    pub fn size(&self) -> [u32; 3] {
        self.size
    }

    /// Number of voxels.
    pub fn volume(&self) -> u64 {
        self.size.iter().map(|&s| u64::from(s)).product()
    }

    /// The box this region covers when its minimum corner sits at `at` (saturating at the
    /// coordinate limits).
    pub fn placed_at(&self, at: VoxelPos) -> VoxelBox {
        VoxelBox::from_min_size(at, self.size)
    }

    /// Number of runs stored (0 when the region holds chunk pieces).
    pub fn run_count(&self) -> usize {
        match &self.body {
            Body::Runs(r) => r.run_count(),
            Body::Pieces(_) => 0,
        }
    }

    /// Heap bytes held: the row table and runs, or the piece array and the pieces' headers and
    /// stored rows (including the parts of partly covered chunks outside the box).
    pub fn heap_bytes(&self) -> usize {
        match &self.body {
            Body::Runs(r) => {
                r.row_start.capacity() * size_of::<u32>() + r.runs.capacity() * size_of::<Run>()
            }
            Body::Pieces(p) => p.heap_bytes(),
        }
    }

    /// Bytes a dense copy of the same box takes (2 per voxel), for comparison.
    pub fn dense_bytes(&self) -> u64 {
        self.volume() * size_of::<Voxel>() as u64
    }

    #[inline]
    fn row_index(&self, y: usize, z: usize) -> usize {
        assert!(
            y < self.size[1] as usize && z < self.size[2] as usize,
            "row out of range"
        );
        z * self.size[1] as usize + y
    }

    /// Decode `out.len()` voxels of row (`y`, `z`) starting at `x0`.
    ///
    /// # Panics
    /// If the row or the segment is outside the region.
    #[inline]
    pub fn read_row(&self, y: usize, z: usize, x0: usize, out: &mut [Voxel]) {
        let r = self.row_index(y, z);
        let row_len = self.size[0] as usize;
        match &self.body {
            Body::Runs(rows) => decode_segment(rows.row(r), x0, out, row_len),
            Body::Pieces(p) => {
                assert!(x0 + out.len() <= row_len, "segment past the end of the row");
                p.read_row(y, z, x0, out);
            }
        }
    }

    /// One voxel.
    ///
    /// # Panics
    /// If `(x, y, z)` is outside the region.
    pub fn get(&self, x: usize, y: usize, z: usize) -> Voxel {
        let mut v = [Voxel::AIR];
        self.read_row(y, z, x, &mut v);
        v[0]
    }

    /// Every voxel, X fastest, then Y, then Z (2 bytes per voxel: for small regions and tests).
    pub fn to_dense(&self) -> Vec<Voxel> {
        let [sx, sy, _] = self.size.map(|s| s as usize);
        let mut out = vec![Voxel::AIR; self.volume() as usize];
        for (r, row) in out.chunks_exact_mut(sx).enumerate() {
            self.read_row(r % sy, r / sy, 0, row);
        }
        out
    }

    /// Count of voxels per material id.
    pub fn count_materials(&self) -> [u64; MATERIAL_COUNT] {
        let mut counts = [0u64; MATERIAL_COUNT];
        let rows = self.run_rows();
        for r in 0..rows.row_start.len() - 1 {
            let mut x = 0u16;
            for run in rows.row(r) {
                counts[usize::from(run.voxel.material & 0x3f)] += u64::from(run.end - x);
                x = run.end;
            }
        }
        counts
    }

    /// Rewrite every material id through `map` (index = old id). `map` must be one-to-one on the
    /// materials present and keep Air as Air, so no two neighbouring runs become equal.
    /// A region held as pieces becomes runs first.
    pub(crate) fn map_materials(&mut self, map: &[u8; MATERIAL_COUNT]) {
        if let Body::Pieces(_) = self.body {
            self.body = Body::Runs(self.run_rows().into_owned());
        }
        let Body::Runs(rows) = &mut self.body else {
            unreachable!("converted to runs above")
        };
        for run in &mut rows.runs {
            let m = map[usize::from(run.voxel.material & 0x3f)];
            run.voxel = Voxel::new(m, run.voxel.occupancy);
        }
    }

    /// The sub-box `b` (in region coordinates) as a region of its own.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `b` is empty or not inside the region.
    pub fn cropped(&self, b: VoxelBox) -> Result<Self> {
        let whole = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), self.size);
        if b.intersect(&whole) != b || b.is_empty() {
            return Err(Error::Invalid(format!(
                "crop box {b:?} is empty or outside the region of {:?}",
                self.size
            )));
        }
        let size = size_of_box(&b)?;
        let mut builder = RowsBuilder::new(size);
        let mut row = vec![Voxel::AIR; size[0] as usize];
        let x0 = b.min.x as usize;
        let mut r = 0;
        for z in b.min.z..b.max.z {
            for y in b.min.y..b.max.y {
                self.read_row(y as usize, z as usize, x0, &mut row);
                builder.start_row(r);
                builder.push_voxels(&row);
                builder.end_row();
                r += 1;
            }
        }
        Ok(builder.finish())
    }

    /// The box of `grid` this region would cover at `at`, clipped to `limits`, and the matching
    /// part of the region (in region coordinates). `None` when nothing of it lies inside.
    pub fn clip_to(&self, at: VoxelPos, limits: VoxelBox) -> Option<(VoxelBox, VoxelBox)> {
        let placed = self.placed_at(at);
        let kept = placed.intersect(&limits);
        if kept.is_empty() {
            return None;
        }
        let local = VoxelBox::new(
            VoxelPos::new(kept.min.x - at.x, kept.min.y - at.y, kept.min.z - at.z),
            VoxelPos::new(kept.max.x - at.x, kept.max.y - at.y, kept.max.z - at.z),
        );
        Some((kept, local))
    }

    /// Check the invariants: row table shape, every row's runs strictly increasing and ending at the
    /// region's X size, normalized voxels, no two equal neighbouring runs; for chunk pieces, their
    /// shape and every piece's format, then the same checks on the runs they convert to.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self) {
        check_size(self.size).expect("size in range");
        if let Body::Pieces(p) = &self.body {
            p.assert_valid(self.size);
        }
        let all = self.run_rows();
        let rows = self.size[1] as usize * self.size[2] as usize;
        assert_eq!(all.row_start.len(), rows + 1, "row table length");
        assert_eq!(all.row_start[0], 0, "first row starts at 0");
        assert_eq!(
            *all.row_start.last().expect("non-empty") as usize,
            all.runs.len(),
            "last row ends at the run count"
        );
        for r in 0..rows {
            let runs = all.row(r);
            assert!(!runs.is_empty(), "row {r} has no runs");
            let mut x = 0u16;
            let mut prev: Option<Voxel> = None;
            for run in runs {
                assert!(run.end > x, "row {r}: runs must advance");
                assert!(run.voxel.is_normalized(), "row {r}: voxel not normalized");
                assert_ne!(prev, Some(run.voxel), "row {r}: equal neighbouring runs");
                prev = Some(run.voxel);
                x = run.end;
            }
            assert_eq!(u32::from(x), self.size[0], "row {r} length");
        }
    }
}

impl RowsBuilder {
    /// The finished region. Run numbers fit in 32 bits because a region's volume does (checked by
    /// whoever chose the size).
    ///
    /// # Panics
    /// If a row was never written (a caller bug).
    pub fn finish(self) -> Region {
        assert!(
            self.spans.iter().all(|s| s.1 > 0),
            "every row must be written"
        );
        let mut row_start = Vec::with_capacity(self.spans.len() + 1);
        let runs = if self.in_order {
            row_start.extend(self.spans.iter().map(|s| s.0));
            let mut runs = self.runs;
            runs.shrink_to_fit();
            runs
        } else {
            let mut runs = Vec::with_capacity(self.runs.len());
            for &(first, count) in &self.spans {
                row_start.push(runs.len() as u32);
                runs.extend_from_slice(&self.runs[first as usize..(first + count) as usize]);
            }
            runs
        };
        row_start.push(runs.len() as u32);
        Region::from_parts(self.size, row_start, runs)
    }
}
