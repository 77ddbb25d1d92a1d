//! [`ChunkPieces`]: a region held as the chunks it meets, each either a clone of the chunk's own
//! row-packed box or the runs of the part of it inside the region.
//!
//! ```text
//!   grid chunks the box meets (3 × 2 here)        pieces, X fastest, then Y, then Z
//!   ┌──────┬──────┬──────┐
//!   │   ┌──┼──────┼──┐   │                          [R00 P10 R20 P01 P11 R21]
//!   │   │R │  P   │R │   │  origin = the box's      P: a PackedBox<32> clone of the whole chunk
//!   ├───┼──┼──────┼──┼───┤  minimum corner inside    (missing: uniform Air; uniform: one
//!   │   └──┼──────┼──┘   │  the first piece          material; neither holds heap memory)
//!   └──────┴──────┴──────┘                           R: runs of the part inside the box
//!   region (x, y, z) = piece voxel at origin + (x, y, z), split by 32 on every axis
//! ```
//!
//! # Rationale
//! A copy in run form must find every run boundary of every allocated chunk row and write every
//! run, which costs about twice a plain dense copy of the box. Cloning a chunk's row-packed box
//! copies its row headers and its stored (already deduplicated) rows: no voxel is looked at, and a
//! whole chunk's clone is smaller than its runs (runs take 1.5–1.7 times its bytes on generated
//! terrain). A clone of a chunk the box cuts at a face also holds the voxels outside the box, so
//! clones are kept within a memory budget (a quarter of the dense box, the region's memory goal):
//! the copy plans from the chunks' heap bytes which chunks to encode as runs of their inside part,
//! slivers at the faces first (they save nearly all their bytes for little work), then the chunks
//! most inside, until the estimate fits. Clipping a packed box instead would mean repacking it, which
//! costs what encoding costs. Uniform and missing chunks are clones of no heap bytes. When even
//! encoding every chunk does not fit, [`ChunkPieces::copy`] declines and the region falls back to
//! runs. Reads of a row segment borrow a clone's rows or decode a piece's runs, so a paste reads
//! no slower than from runs; operations that work on whole-region runs convert through
//! [`ChunkPieces::to_runs`], which gives exactly the runs a copy in run form gives.

use rayon::prelude::*;

use super::copy::{copy_rows, ChunkSource};
use super::piece_runs::PieceRuns;
use super::run::{decode_segment, Run};
use crate::storage::{Grid, PackedBox, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, AIR, CHUNK_BITS, CHUNK_SIZE};

/// Mask of a voxel's position inside its chunk.
const LOCAL: usize = CHUNK_SIZE - 1;

/// Runs take about this share of a packed box's bytes for the same voxels (measured on generated
/// terrain, 256×128×256 seed 1: 1.46 for `canyons`, 1.67 for `hills` and `mountains`); used only
/// to plan, the result is measured.
const RUNS_SHARE: f64 = 1.5;

/// One chunk of a [`ChunkPieces`].
#[derive(Debug, Clone)]
enum Piece {
    /// A clone of the chunk's full-resolution box (all of it, Air for a missing chunk).
    Packed(PackedBox<CHUNK_SIZE>),
    /// The part of the chunk inside the region, as runs.
    Runs(PieceRuns),
}

impl Piece {
    fn heap_bytes(&self) -> usize {
        match self {
            Piece::Packed(p) => p.heap_bytes(),
            Piece::Runs(r) => r.heap_bytes(),
        }
    }
}

/// The chunks a region was copied from (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct ChunkPieces {
    /// Where the region's voxel (0, 0, 0) sits inside the first piece, 0 to 31 per axis.
    origin: [usize; 3],
    /// Pieces per axis.
    counts: [usize; 3],
    /// X size of the region, to clip the last pieces.
    size: [usize; 3],
    /// One per chunk the region meets, X fastest, then Y, then Z.
    pieces: Vec<Piece>,
}

impl ChunkPieces {
    /// The pieces of box `b` (not empty) of `grid`, or `None` when they would take more than
    /// `budget` heap bytes even with every chunk that has allocated rows encoded as runs.
    ///
    /// Planned before any voxel is touched, from the chunks' heap bytes: start from every chunk
    /// cloned, then mark chunks for encoding, the smallest share inside the box first (a sliver at
    /// a face saves nearly all its bytes for little work), until the estimate fits `budget`;
    /// uniform and missing chunks are always clones of no heap bytes. Clones and encodings then run
    /// in parallel, and [`ChunkPieces::fit`] corrects a wrong estimate.
    pub fn copy(grid: &Grid, b: VoxelBox, budget: usize) -> Option<Self> {
        let lo = [b.min.x, b.min.y, b.min.z].map(|v| v >> CHUNK_BITS);
        let hi = [b.max.x, b.max.y, b.max.z].map(|v| (v - 1) >> CHUNK_BITS);
        let counts: [usize; 3] = std::array::from_fn(|a| (hi[a] - lo[a] + 1) as usize);
        let total = counts.iter().product::<usize>();
        let fixed = total * size_of::<Piece>();
        if fixed > budget {
            return None;
        }
        let mut shape = Self {
            origin: [b.min.x, b.min.y, b.min.z].map(|v| v as usize & LOCAL),
            counts,
            size: b.size(),
            pieces: Vec::new(),
        };
        let mut levels = Vec::with_capacity(total);
        for cz in lo[2]..=hi[2] {
            for cy in lo[1]..=hi[1] {
                for cx in lo[0]..=hi[0] {
                    levels.push(grid.chunk(ChunkPos::new(cx, cy, cz)).map(|c| c.level0()));
                }
            }
        }
        let encode = shape.plan(&levels, budget - fixed);
        shape.pieces = levels
            .par_iter()
            .zip(&encode)
            .enumerate()
            .map(|(i, (level, &encode))| match level {
                None => Piece::Packed(PackedBox::uniform(AIR)),
                Some(level) if encode => {
                    let (lo, hi) = shape.part(i);
                    Piece::Runs(PieceRuns::encode(level, lo, hi))
                }
                Some(level) => Piece::Packed((*level).clone()),
            })
            .collect();
        shape.fit(budget).then_some(shape)
    }

    /// Which chunks to encode so the pieces' estimated heap bytes fit `budget`: an encoded part is
    /// estimated at [`RUNS_SHARE`] of its share of the clone's bytes, plus its row table.
    fn plan(&self, levels: &[Option<&PackedBox<CHUNK_SIZE>>], budget: usize) -> Vec<bool> {
        let mut encode = vec![false; levels.len()];
        let mut held: usize = levels.iter().flatten().map(|l| l.heap_bytes()).sum();
        // (inside voxels, -bytes, index) of every chunk with heap bytes.
        let mut order: Vec<(usize, std::cmp::Reverse<usize>, usize)> = (levels.iter().enumerate())
            .filter_map(|(i, l)| {
                let bytes = l.map_or(0, PackedBox::heap_bytes);
                let (lo, hi) = self.part(i);
                let inside = (0..3).map(|a| hi[a] - lo[a]).product();
                (bytes > 0).then_some((inside, std::cmp::Reverse(bytes), i))
            })
            .collect();
        order.sort_unstable();
        for (inside, std::cmp::Reverse(bytes), i) in order {
            if held <= budget {
                break;
            }
            let rows = inside.div_ceil(CHUNK_SIZE);
            let estimate = (bytes as f64 * RUNS_SHARE * inside as f64
                / PackedBox::<CHUNK_SIZE>::VOLUME as f64) as usize
                + rows * size_of::<u16>();
            held = held - bytes + estimate.min(bytes);
            encode[i] = true;
        }
        encode
    }

    /// Encode the largest clones until the pieces take at most `budget` heap bytes; false when
    /// that cannot be reached.
    fn fit(&mut self, budget: usize) -> bool {
        loop {
            let held = self.heap_bytes();
            if held <= budget {
                return true;
            }
            let mut clones: Vec<(usize, usize)> = (self.pieces.iter().enumerate())
                .filter_map(|(i, p)| match p {
                    Piece::Packed(level) if level.heap_bytes() > 0 => Some((level.heap_bytes(), i)),
                    _ => None,
                })
                .collect();
            if clones.is_empty() {
                return false;
            }
            clones.sort_unstable_by(|a, b| b.cmp(a));
            let mut saved = 0;
            let pick: Vec<usize> = clones
                .iter()
                .take_while(|&&(bytes, _)| {
                    let more = saved < held - budget;
                    saved += bytes / 2;
                    more
                })
                .map(|&(_, i)| i)
                .collect();
            let encoded: Vec<(usize, PieceRuns)> = pick
                .par_iter()
                .filter_map(|&i| match &self.pieces[i] {
                    Piece::Packed(level) => {
                        let (lo, hi) = self.part(i);
                        Some((i, PieceRuns::encode(level, lo, hi)))
                    }
                    Piece::Runs(_) => None,
                })
                .collect();
            for (i, runs) in encoded {
                self.pieces[i] = Piece::Runs(runs);
            }
        }
    }

    /// Chunk-local bounds `lo..hi` of the part of piece `i` inside the region.
    fn part(&self, i: usize) -> ([usize; 3], [usize; 3]) {
        let c = [
            i % self.counts[0],
            i / self.counts[0] % self.counts[1],
            i / (self.counts[0] * self.counts[1]),
        ];
        let mut lo = [0; 3];
        let mut hi = [CHUNK_SIZE; 3];
        for a in 0..3 {
            let first = c[a] * CHUNK_SIZE;
            lo[a] = self.origin[a].saturating_sub(first);
            hi[a] = (self.origin[a] + self.size[a] - first).min(CHUNK_SIZE);
        }
        (lo, hi)
    }

    /// Number of pieces held.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Number of pieces held as runs.
    pub fn encoded(&self) -> usize {
        self.pieces
            .iter()
            .filter(|p| matches!(p, Piece::Runs(_)))
            .count()
    }

    /// Heap bytes held: the piece array, the clones' headers and stored rows (all of each cloned
    /// chunk) and the encoded pieces' row tables and runs.
    pub fn heap_bytes(&self) -> usize {
        self.pieces.capacity() * size_of::<Piece>()
            + self.pieces.iter().map(Piece::heap_bytes).sum::<usize>()
    }

    /// Index of the piece at piece coordinates (`cx`, `cy`, `cz`).
    #[inline]
    fn index(&self, cx: usize, cy: usize, cz: usize) -> usize {
        (cz * self.counts[1] + cy) * self.counts[0] + cx
    }

    /// Decode `out.len()` voxels of region row (`y`, `z`) from region x `x0`. The caller has
    /// checked the segment against the region's size.
    #[inline]
    pub fn read_row(&self, y: usize, z: usize, x0: usize, out: &mut [Voxel]) {
        let (gy, gz) = (self.origin[1] + y, self.origin[2] + z);
        let (cy, ly) = (gy >> CHUNK_BITS, gy & LOCAL);
        let (cz, lz) = (gz >> CHUNK_BITS, gz & LOCAL);
        let mut gx = self.origin[0] + x0;
        let mut k = 0;
        let mut buf = RowBuf::new();
        while k < out.len() {
            let (cx, lx) = (gx >> CHUNK_BITS, gx & LOCAL);
            let n = (CHUNK_SIZE - lx).min(out.len() - k);
            let dst = &mut out[k..k + n];
            match &self.pieces[self.index(cx, cy, cz)] {
                Piece::Packed(p) => dst.copy_from_slice(&p.read_row(ly, lz, &mut buf)[lx..lx + n]),
                Piece::Runs(r) => {
                    let x_lo = usize::from(r.lo[0]);
                    decode_segment(r.row(ly, lz), lx - x_lo, dst, usize::from(r.size[0]));
                }
            }
            k += n;
            gx += n;
        }
    }

    /// The region as rows of runs: its row starts and runs, exactly as a copy in run form of the
    /// same voxels gives them (rayon, bands of Z layers).
    pub fn to_runs(&self) -> (Vec<u32>, Vec<Run>) {
        let o = self.origin.map(|v| v as i32);
        let size = self.size.map(|s| s as u32);
        let b = VoxelBox::from_min_size(VoxelPos::new(o[0], o[1], o[2]), size);
        let lookup = |p: ChunkPos| match &self.pieces
            [self.index(p.x as usize, p.y as usize, p.z as usize)]
        {
            Piece::Packed(level) => ChunkSource::Packed(Some(level)),
            Piece::Runs(r) => ChunkSource::Runs(r),
        };
        match copy_rows(&lookup, b, None) {
            Ok(rows) => rows,
            Err(_) => unreachable!("an encoding without progress cannot be cancelled"),
        }
    }

    /// Check the pieces against a region of `size`: counts cover exactly the box from the origin,
    /// every clone is a valid packed box and every encoded piece covers its chunk's part exactly.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self, size: [u32; 3]) {
        assert_eq!(self.size, size.map(|s| s as usize), "pieces size");
        for a in 0..3 {
            assert!(self.origin[a] < CHUNK_SIZE, "origin inside the first piece");
            let end = self.origin[a] + self.size[a];
            assert_eq!(
                self.counts[a],
                end.div_ceil(CHUNK_SIZE),
                "pieces on axis {a}"
            );
        }
        assert_eq!(
            self.pieces.len(),
            self.counts.iter().product::<usize>(),
            "piece count"
        );
        for (i, p) in self.pieces.iter().enumerate() {
            match p {
                Piece::Packed(level) => level.assert_valid(),
                Piece::Runs(r) => {
                    let (lo, hi) = self.part(i);
                    r.assert_valid(lo, hi);
                }
            }
        }
    }
}
