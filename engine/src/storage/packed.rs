//! The row-packed box: the in-memory voxel format of every chunk and mip level.
//!
//! An `N`³ box is `N²` X rows. Each row has a 2-byte header:
//!
//! ```text
//!   bit 15 = 1: allocated; bits 0..15 = slot, the row's cells are cells[slot*N .. slot*N + N]
//!   bit 15 = 0: packed;    bits 0..6  = material, every cell is that material at its default
//!                          occupancy (full for matter, 0 for Air); no cell data is stored
//! ```
//!
//! Row `r = z * N + y`. Two changes to the row layout of Roblox's storage article, both keeping reads a slice borrow:
//! - allocated rows with identical contents share one stored copy (terraces, cliff faces and
//!   layered rock repeat the same row many times inside a chunk); slots are numbered in order of
//!   first use, so every box has exactly one representation;
//! - a box whose rows are all packed with one material drops its headers too ([`PackedBox`] is then
//!   `Uniform`): deep rock and open sky cost no heap memory at all.
//!
//! # Rationale
//! Terrain is mostly long runs of one material at full occupancy (inside) or air (outside); only rows
//! that cross a surface or a material border need per-voxel data. Reading a row stays a slice borrow in
//! constant time: packed rows point into a static table of pre-filled rows, one per material. Writes are
//! slower: first mark the rows a write touches (building each new row and deciding whether it stays
//! packed), then, only if allocated rows are involved, repack the cell array once — deduplicated and
//! exactly sized — copying kept rows and the marked new rows in the same pass. A write never repacks a
//! box more than once.

use rustc_hash::FxHashMap;

use super::headers::{Headers, ALLOCATED};

use crate::voxel::{Voxel, MATERIAL_COUNT};

const SLOT_MASK: u16 = 0x7fff;
const MATERIAL_MASK: u16 = 0x3f;
/// The longest row any packed box has (a chunk's X edge).
const MAX_EDGE: usize = 32;

static FILLED_ROWS: [[Voxel; MAX_EDGE]; MATERIAL_COUNT] = build_filled_rows();

const fn build_filled_rows() -> [[Voxel; MAX_EDGE]; MATERIAL_COUNT] {
    let mut rows = [[Voxel::AIR; MAX_EDGE]; MATERIAL_COUNT];
    let mut m = 0;
    while m < MATERIAL_COUNT {
        let v = Voxel::filled(m as u8);
        let mut x = 0;
        while x < MAX_EDGE {
            rows[m][x] = v;
            x += 1;
        }
        m += 1;
    }
    rows
}

/// A static row of 32 voxels of `material` (6-bit) at its default occupancy.
#[inline]
pub fn filled_row(material: u8) -> &'static [Voxel; MAX_EDGE] {
    &FILLED_ROWS[usize::from(material & 0x3f)]
}

/// An `N`³ box of voxels in the row-packed format (see the module docs). `N` is 4, 8, 16 or 32.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedBox<const N: usize> {
    repr: Repr,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Repr {
    /// Every row packed with this material.
    Uniform(u8),
    /// Per-row headers and the cells of allocated rows.
    Rows { headers: Headers, cells: Vec<Voxel> },
}

/// Header of a row whose voxels are all `material` at default occupancy, or `None`.
#[inline]
fn packed_header<const N: usize>(row: &[Voxel]) -> Option<u16> {
    let m = row[0].material;
    (row == &filled_row(m)[..N]).then_some(u16::from(m))
}

#[inline]
fn normalize(row: &mut [Voxel]) {
    for v in row {
        *v = Voxel::new(v.material, v.occupancy);
    }
}

impl<const N: usize> PackedBox<N> {
    const EDGE_OK: () = assert!(N >= 2 && N <= MAX_EDGE && N.is_power_of_two());
    /// Number of rows.
    pub const ROWS: usize = N * N;
    /// Number of voxels.
    pub const VOLUME: usize = N * N * N;

    /// A box filled with `material` at default occupancy.
    pub fn uniform(material: u8) -> Self {
        let () = Self::EDGE_OK;
        Self {
            repr: Repr::Uniform(material & 0x3f),
        }
    }

    /// Pack a dense box (X fastest, then Y, then Z; `N³` voxels). Voxels are normalized.
    ///
    /// # Panics
    /// If `voxels.len() != N³` (a caller bug).
    pub fn from_dense(voxels: &[Voxel]) -> Self {
        let () = Self::EDGE_OK;
        assert_eq!(voxels.len(), Self::VOLUME, "dense box has the wrong size");
        let normalized: Vec<Voxel> = voxels
            .iter()
            .map(|v| Voxel::new(v.material, v.occupancy))
            .collect();
        Self {
            repr: build::<N>(normalized.chunks_exact(N)),
        }
    }

    /// A box whose every voxel at height `y` is `layers[y]` (normalized): layered rock, water, flat
    /// ground. Layers at default occupancy become packed rows; each other layer is stored once and
    /// shared by all its rows. Equal to [`PackedBox::from_dense`] of the same voxels.
    ///
    /// # Panics
    /// If `layers.len() != N` (a caller bug).
    pub fn from_layers(layers: &[Voxel]) -> Self {
        let () = Self::EDGE_OK;
        assert_eq!(layers.len(), N, "one voxel per layer");
        let rows: Vec<[Voxel; MAX_EDGE]> = layers
            .iter()
            .map(|v| [Voxel::new(v.material, v.occupancy); MAX_EDGE])
            .collect();
        Self {
            repr: build::<N>((0..Self::ROWS).map(|r| &rows[r % N][..N])),
        }
    }

    /// The X row at (`y`, `z`): `N` voxels, in constant time.
    ///
    /// # Panics
    /// If `y` or `z` is not below `N`.
    #[inline]
    pub fn read_row(&self, y: usize, z: usize) -> &[Voxel] {
        assert!(y < N && z < N, "row out of range");
        row_of::<N>(&self.repr, z * N + y)
    }

    /// One voxel.
    #[inline]
    pub fn get(&self, x: usize, y: usize, z: usize) -> Voxel {
        self.read_row(y, z)[x]
    }

    /// The material when every voxel is that material at default occupancy.
    pub fn uniform_material(&self) -> Option<u8> {
        match self.repr {
            Repr::Uniform(m) => Some(m),
            Repr::Rows { .. } => None,
        }
    }

    /// The X row at (`y`, `z`) and whether it is packed (every voxel one material at its default
    /// occupancy), from one header read: copies turn packed rows into one run without reading them.
    ///
    /// # Panics
    /// If `y` or `z` is not below `N`.
    #[inline]
    pub fn read_row_packed(&self, y: usize, z: usize) -> (&[Voxel], bool) {
        assert!(y < N && z < N, "row out of range");
        match &self.repr {
            Repr::Uniform(m) => (&filled_row(*m)[..N], true),
            Repr::Rows { headers, cells } => {
                let h = headers.get(z * N + y);
                if h & ALLOCATED != 0 {
                    let start = usize::from(h & SLOT_MASK) * N;
                    (&cells[start..start + N], false)
                } else {
                    (&filled_row(h as u8)[..N], true)
                }
            }
        }
    }

    /// True when the row at (`y`, `z`) has its own cell data.
    pub fn is_row_allocated(&self, y: usize, z: usize) -> bool {
        match &self.repr {
            Repr::Uniform(_) => false,
            Repr::Rows { headers, .. } => headers.get(z * N + y) & ALLOCATED != 0,
        }
    }

    /// Number of rows that are not packed (several may share one stored row).
    pub fn allocated_rows(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows { headers, .. } => headers.iter().filter(|&h| h & ALLOCATED != 0).count(),
        }
    }

    /// Number of distinct rows actually stored in the cell array.
    pub fn stored_rows(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows { cells, .. } => cells.len() / N,
        }
    }

    /// Heap bytes owned by this box (headers and cell capacity).
    pub fn heap_bytes(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows { headers, cells } => {
                headers.bytes() + cells.capacity() * size_of::<Voxel>()
            }
        }
    }

    /// Copy the sub-box `lo..hi` (local, half-open) into `out`: row (`y`, `z`) lands at
    /// `start + (z - lo.z) * slab_stride + (y - lo.y) * row_stride`. The representation is matched once
    /// per call, not per row, which keeps box reads close to a plain array's speed.
    ///
    /// # Panics
    /// If the sub-box exceeds the box or `out` is too short for the strides (caller bugs).
    pub fn copy_box_into(
        &self,
        lo: [usize; 3],
        hi: [usize; 3],
        out: &mut [Voxel],
        start: usize,
        row_stride: usize,
        slab_stride: usize,
    ) {
        assert!(hi.iter().all(|&h| h <= N), "read outside the box");
        let (x0, x1) = (lo[0], hi[0]);
        let len = x1.saturating_sub(x0);
        match &self.repr {
            Repr::Uniform(m) => {
                let row = &filled_row(*m)[x0..x1];
                for z in lo[2]..hi[2] {
                    let mut o = start + (z - lo[2]) * slab_stride;
                    for _ in lo[1]..hi[1] {
                        copy_short(&mut out[o..o + len], row);
                        o += row_stride;
                    }
                }
            }
            Repr::Rows { headers, cells } => {
                // One monomorphized loop per header width: the width is matched once per call.
                let rows = RowCopy {
                    cells,
                    lo,
                    hi,
                    start,
                    row_stride,
                    slab_stride,
                };
                match headers {
                    Headers::Wide(h) => rows.run::<N>(out, |r| h[r]),
                    Headers::Narrow(h) => rows.run::<N>(out, |r| Headers::widen(h[r])),
                }
            }
        }
    }

    /// Copy the whole box into `out` (X fastest; `N³` voxels).
    ///
    /// # Panics
    /// If `out.len() != N³`.
    pub fn to_dense(&self, out: &mut [Voxel]) {
        assert_eq!(out.len(), Self::VOLUME, "dense box has the wrong size");
        for (r, dst) in out.chunks_exact_mut(N).enumerate() {
            dst.copy_from_slice(self.read_row(r % N, r / N));
        }
    }

    /// Add the number of voxels of each material to `counts`.
    pub fn count_materials(&self, counts: &mut [u64; MATERIAL_COUNT]) {
        match &self.repr {
            Repr::Uniform(m) => counts[usize::from(*m)] += Self::VOLUME as u64,
            Repr::Rows { headers, cells } => {
                for h in headers.iter() {
                    if h & ALLOCATED == 0 {
                        counts[usize::from(h & MATERIAL_MASK)] += N as u64;
                    } else {
                        let start = usize::from(h & SLOT_MASK) * N;
                        for v in &cells[start..start + N] {
                            counts[usize::from(v.material & 0x3f)] += 1;
                        }
                    }
                }
            }
        }
    }

    /// Rewrite the rows of the sub-box `lo..hi` (local, half-open).
    ///
    /// `edit(y, z, row)` receives each touched row's current `N` voxels and changes those it wants
    /// (normally `row[lo[0]..hi[0]]`). Voxels are normalized afterwards. Stage one marks (builds every
    /// touched row and decides packed or allocated); stage two repacks and writes the cells in one
    /// pass, and is skipped when only packed rows change.
    ///
    /// # Panics
    /// If `hi` exceeds `N` on an axis.
    pub fn write_with(
        &mut self,
        lo: [usize; 3],
        hi: [usize; 3],
        mut edit: impl FnMut(usize, usize, &mut [Voxel]),
    ) {
        assert!(hi.iter().all(|&h| h <= N), "write outside the box");
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return;
        }
        // Stage 1: mark.
        let touched = (hi[1] - lo[1]) * (hi[2] - lo[2]);
        let mut rows = Vec::with_capacity(touched * N);
        let mut marks = Vec::with_capacity(touched);
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                let start = rows.len();
                rows.extend_from_slice(self.read_row(y, z));
                let row = &mut rows[start..];
                edit(y, z, row);
                normalize(row);
                marks.push(packed_header::<N>(row).unwrap_or(ALLOCATED));
            }
        }
        let ny = hi[1] - lo[1];
        let touched_index = |r: usize| -> Option<usize> {
            let (y, z) = (r % N, r / N);
            let inside = (lo[1]..hi[1]).contains(&y) && (lo[2]..hi[2]).contains(&z);
            inside.then(|| (z - lo[2]) * ny + (y - lo[1]))
        };
        let was_allocated = |r: usize| match &self.repr {
            Repr::Uniform(_) => false,
            Repr::Rows { headers, .. } => headers.get(r) & ALLOCATED != 0,
        };
        let cells_change = (0..Self::ROWS).any(|r| {
            touched_index(r).is_some_and(|i| marks[i] & ALLOCATED != 0 || was_allocated(r))
        });
        if !cells_change {
            // Only packed rows change material: rewrite their headers, no cell work at all.
            if let Repr::Uniform(m) = self.repr {
                if marks.iter().all(|&h| h == u16::from(m)) {
                    return;
                }
                self.repr = Repr::Rows {
                    headers: Headers::packed(m, Self::ROWS),
                    cells: Vec::new(),
                };
            }
            if let Repr::Rows { headers, cells } = &mut self.repr {
                for r in 0..Self::ROWS {
                    if let Some(i) = touched_index(r) {
                        headers.set_packed(r, marks[i] as u8);
                    }
                }
                let first = headers.get(0);
                if cells.is_empty() && headers.iter().all(|h| h == first) {
                    self.repr = Repr::Uniform(first as u8);
                }
            }
            return;
        }
        // Stages 2 and 3: repack once into an exactly sized, deduplicated cell array, copying kept
        // rows from the old array and new rows from the marked scratch rows in the same pass.
        let old = std::mem::replace(&mut self.repr, Repr::Uniform(0));
        let new = build::<N>((0..Self::ROWS).map(|r| match touched_index(r) {
            Some(i) => &rows[i * N..(i + 1) * N],
            None => row_of::<N>(&old, r),
        }));
        self.repr = new;
    }

    /// Check every invariant of the format; panics with a description on the first violation.
    ///
    /// # Panics
    /// When the box is malformed (a bug in this module).
    pub fn assert_valid(&self) {
        let Repr::Rows { headers, cells } = &self.repr else {
            if let Repr::Uniform(m) = self.repr {
                assert!(
                    usize::from(m) < MATERIAL_COUNT,
                    "uniform material {m} out of range"
                );
            }
            return;
        };
        assert_eq!(headers.len(), Self::ROWS, "header count");
        assert_eq!(cells.len() % N, 0, "cell array is not whole rows");
        let mut next_slot = 0usize;
        let mut seen = FxHashMap::<&[Voxel], usize>::default();
        assert!(
            headers.is_canonical(cells.len() / N),
            "header width is not canonical"
        );
        for (r, h) in headers.iter().enumerate() {
            if h & ALLOCATED != 0 {
                let slot = usize::from(h & SLOT_MASK);
                assert!(
                    slot <= next_slot,
                    "row {r}: slots must first appear in row order"
                );
                if slot == next_slot {
                    next_slot += 1;
                }
                let row = &cells[slot * N..slot * N + N];
                assert!(
                    row.iter().all(|v| v.is_normalized()),
                    "row {r}: unnormalized voxel"
                );
                assert!(
                    packed_header::<N>(row).is_none(),
                    "row {r}: allocated but packable"
                );
                let first = *seen.entry(row).or_insert(slot);
                assert_eq!(
                    first, slot,
                    "row {r}: content stored twice (slots {first} and {slot})"
                );
            } else {
                assert_eq!(
                    h & !MATERIAL_MASK,
                    0,
                    "row {r}: packed header has stray bits"
                );
            }
        }
        assert_eq!(next_slot * N, cells.len(), "cells without a row");
        assert!(
            !(cells.is_empty() && headers.iter().all(|h| h == headers.get(0))),
            "box of one packed material must be Uniform"
        );
    }
}

/// The parameters of [`PackedBox::copy_box_into`] for a box with row headers.
struct RowCopy<'a> {
    cells: &'a [Voxel],
    lo: [usize; 3],
    hi: [usize; 3],
    start: usize,
    row_stride: usize,
    slab_stride: usize,
}

impl RowCopy<'_> {
    #[inline]
    fn run<const N: usize>(&self, out: &mut [Voxel], header: impl Fn(usize) -> u16) {
        let (x0, x1) = (self.lo[0], self.hi[0]);
        let len = x1 - x0;
        for z in self.lo[2]..self.hi[2] {
            let mut o = self.start + (z - self.lo[2]) * self.slab_stride;
            for y in self.lo[1]..self.hi[1] {
                let h = header(z * N + y);
                let src = if h & ALLOCATED != 0 {
                    let s = usize::from(h & SLOT_MASK) * N;
                    &self.cells[s + x0..s + x1]
                } else {
                    &filled_row(h as u8)[x0..x1]
                };
                copy_short(&mut out[o..o + len], src);
                o += self.row_stride;
            }
        }
    }
}

/// Copy a row segment (at most 32 voxels) with fixed-size moves: a libc `memcpy` call per short
/// segment was half the time of a box read (measured with perf on the storage bench).
#[inline(always)]
fn copy_short(dst: &mut [Voxel], src: &[Voxel]) {
    const BLOCK: usize = 8;
    let n = dst.len();
    debug_assert_eq!(n, src.len());
    if n < BLOCK {
        if n >= 4 {
            dst[..4].copy_from_slice(&src[..4]);
            dst[n - 4..].copy_from_slice(&src[n - 4..]);
        } else {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
        }
        return;
    }
    let mut i = 0;
    while i + BLOCK <= n {
        dst[i..i + BLOCK].copy_from_slice(&src[i..i + BLOCK]);
        i += BLOCK;
    }
    if i < n {
        dst[n - BLOCK..n].copy_from_slice(&src[n - BLOCK..n]);
    }
}

/// The row `r` of a representation.
#[inline]
fn row_of<const N: usize>(repr: &Repr, r: usize) -> &[Voxel] {
    match repr {
        Repr::Uniform(m) => &filled_row(*m)[..N],
        Repr::Rows { headers, cells } => {
            let h = headers.get(r);
            if h & ALLOCATED != 0 {
                let start = usize::from(h & SLOT_MASK) * N;
                &cells[start..start + N]
            } else {
                &filled_row(h as u8)[..N]
            }
        }
    }
}

/// Pack `N²` normalized rows (in row order) into the canonical representation: packable rows get a
/// material header, the others share one stored copy per distinct content, slots numbered in order
/// of first use, and a box of one packed material collapses to `Uniform`.
fn build<'a, const N: usize>(rows: impl Iterator<Item = &'a [Voxel]>) -> Repr {
    let mut headers = vec![0u16; N * N].into_boxed_slice();
    let mut cells: Vec<Voxel> = Vec::new();
    // Sized for every row up front: growing it rehashed each row again (a few percent of a load).
    let mut slots =
        FxHashMap::<&'a [Voxel], u16>::with_capacity_and_hasher(N * N, Default::default());
    for (r, row) in rows.enumerate() {
        headers[r] = match packed_header::<N>(row) {
            Some(h) => h,
            None => {
                let next = (cells.len() / N) as u16;
                let slot = *slots.entry(row).or_insert(next);
                if slot == next {
                    cells.extend_from_slice(row);
                }
                ALLOCATED | slot
            }
        };
    }
    if cells.is_empty() && headers.iter().all(|&h| h == headers[0]) {
        return Repr::Uniform(headers[0] as u8);
    }
    cells.shrink_to_fit();
    Repr::Rows {
        headers: Headers::from_wide(headers, cells.len() / N),
        cells,
    }
}

#[cfg(test)]
mod packed_tests;
