//! The rows of a packed box that is not all one material: a header per row, and the distinct
//! stored rows with their cells.
//!
//! ```text
//!   header (1 or 2 bytes, see headers.rs)
//!     packed:    material m; every voxel m at its default occupancy; nothing stored
//!     allocated: slot s ──> rows[s]: StoredRow { prefix run, middle at cells[start..], suffix run }
//! ```
//!
//! Rows with equal contents share one slot (terraces, layered rock and flat ground repeat the same
//! row many times inside a chunk). Slots are numbered in order of first use and middles laid out
//! in slot order, so equal boxes have equal tables: `PartialEq` compares voxels.

use rustc_hash::FxHashMap;

use super::headers::{Headers, ALLOCATED};
use super::stored_row::{copy_short, filled_row, RowBuf, RowSplit, StoredRow};
use crate::voxel::{Voxel, MATERIAL_COUNT};

const SLOT_MASK: u16 = 0x7fff;
const MATERIAL_MASK: u16 = 0x3f;

/// A row as a table is built from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowSource<'a> {
    /// Every voxel this material at default occupancy.
    Packed(u8),
    /// Anything else, split canonically.
    Split(RowSplit<'a>),
}

impl<'a> RowSource<'a> {
    /// The source of `row` (`N` normalized voxels).
    #[inline]
    pub fn of<const N: usize>(row: &'a [Voxel]) -> Self {
        let m = row[0].material;
        if row == &filled_row(m)[..N] {
            RowSource::Packed(m)
        } else {
            RowSource::Split(RowSplit::of(row))
        }
    }
}

/// Per-row headers, the distinct stored rows and their middles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RowTable {
    headers: Headers,
    rows: Box<[StoredRow]>,
    cells: Box<[Voxel]>,
}

impl RowTable {
    /// The table of `rows` (`n²` in row order), or `Err(material)` when every row is packed with
    /// one material (the box is uniform then).
    pub fn build<'a>(n: usize, rows: impl Iterator<Item = RowSource<'a>>) -> Result<Self, u8> {
        let mut headers = vec![0u16; n * n].into_boxed_slice();
        let mut stored: Vec<StoredRow> = Vec::new();
        let mut cells: Vec<Voxel> = Vec::new();
        // Sized for every row up front: growing it rehashed each row again (a few percent of a load).
        let mut slots =
            FxHashMap::<RowSplit<'a>, u16>::with_capacity_and_hasher(n * n, Default::default());
        for (r, row) in rows.enumerate() {
            headers[r] = match row {
                RowSource::Packed(m) => u16::from(m),
                RowSource::Split(split) => {
                    let next = stored.len() as u16;
                    let slot = *slots.entry(split).or_insert(next);
                    if slot == next {
                        // At most 1024 rows of 32 voxels: a start fits 16 bits.
                        stored.push(StoredRow::new(&split, cells.len()));
                        cells.extend_from_slice(split.middle);
                    }
                    ALLOCATED | slot
                }
            };
        }
        if stored.is_empty() && headers.iter().all(|&h| h == headers[0]) {
            return Err(headers[0] as u8);
        }
        Ok(Self {
            headers: Headers::from_wide(headers, stored.len()),
            rows: stored.into_boxed_slice(),
            cells: cells.into_boxed_slice(),
        })
    }

    /// A table of `n²` rows all packed with `material` (about to be changed by header writes).
    pub fn packed(material: u8, n: usize) -> Self {
        Self {
            headers: Headers::packed(material, n * n),
            rows: Box::default(),
            cells: Box::default(),
        }
    }

    /// The stored row of header `h`, or its packed material.
    #[inline]
    fn stored(&self, h: u16) -> Result<&StoredRow, u8> {
        if h & ALLOCATED != 0 {
            Ok(&self.rows[usize::from(h & SLOT_MASK)])
        } else {
            Err(h as u8)
        }
    }

    /// Row `r` (`N` voxels): a static row when packed, else assembled in `buf`.
    #[inline]
    pub fn read<'a, const N: usize>(&'a self, r: usize, buf: &'a mut RowBuf) -> &'a [Voxel] {
        match self.stored(self.headers.get(r)) {
            Ok(row) => row.read::<N>(&self.cells, buf),
            Err(m) => &filled_row(m)[..N],
        }
    }

    /// The voxel at `x` of row `r`.
    #[inline]
    pub fn voxel(&self, r: usize, x: usize) -> Voxel {
        match self.stored(self.headers.get(r)) {
            Ok(row) => row.voxel_at(&self.cells, x),
            Err(m) => Voxel::filled(m),
        }
    }

    /// Row `r` as a source for a rebuilt table, its middle borrowed from this one.
    pub fn source(&self, r: usize) -> RowSource<'_> {
        match self.stored(self.headers.get(r)) {
            Ok(row) => RowSource::Split(row.split(&self.cells)),
            Err(m) => RowSource::Packed(m),
        }
    }

    /// True when row `r` has stored data.
    pub fn is_allocated(&self, r: usize) -> bool {
        self.headers.get(r) & ALLOCATED != 0
    }

    /// Number of rows that are not packed.
    pub fn allocated_rows(&self) -> usize {
        self.headers.iter().filter(|&h| h & ALLOCATED != 0).count()
    }

    /// Number of distinct stored rows.
    pub fn stored_rows(&self) -> usize {
        self.rows.len()
    }

    /// Heap bytes: headers, stored rows and cells.
    pub fn heap_bytes(&self) -> usize {
        self.headers.bytes()
            + self.rows.len() * size_of::<StoredRow>()
            + self.cells.len() * size_of::<Voxel>()
    }

    /// Mark the packed row `r` packed with `material` (no stored row changes).
    pub fn set_packed(&mut self, r: usize, material: u8) {
        debug_assert!(!self.is_allocated(r));
        self.headers.set_packed(r, material);
    }

    /// The material when no row is stored and every row is packed with it.
    pub fn single_material(&self) -> Option<u8> {
        let first = self.headers.get(0);
        (self.rows.is_empty() && self.headers.iter().all(|h| h == first)).then_some(first as u8)
    }

    /// Copy rows `lo[1]..hi[1]` × `lo[2]..hi[2]`, voxels `lo[0]..hi[0]` of each, into `out` (see
    /// `PackedBox::copy_box_into`). One monomorphized loop per header width.
    pub fn copy_rows<const N: usize>(&self, lo: [usize; 3], hi: [usize; 3], to: RowsOut<'_>) {
        match &self.headers {
            Headers::Wide(h) => self.copy_with::<N>(lo, hi, to, |r| h[r]),
            Headers::Narrow(h) => self.copy_with::<N>(lo, hi, to, |r| Headers::widen(h[r])),
        }
    }

    #[inline]
    fn copy_with<const N: usize>(
        &self,
        lo: [usize; 3],
        hi: [usize; 3],
        to: RowsOut<'_>,
        header: impl Fn(usize) -> u16,
    ) {
        let (x0, x1) = (lo[0], hi[0]);
        let len = x1 - x0;
        // Stored rows are assembled in a ring and copied out LAG stored rows later, when the
        // assembling stores have left the store buffer: copying a row out right after assembling
        // it stalled on store forwarding (about half a box read). Four rows measured best on AMD,
        // two on the Intel Xeon (1, 3, 4, 8 and 16 slower there; docs/benchmarks.md).
        const LAG: usize = 2;
        let mut ring: [RowBuf; LAG] = Default::default();
        let mut at = [0usize; LAG];
        let mut k = 0usize;
        for z in lo[2]..hi[2] {
            let mut o = to.start + (z - lo[2]) * to.slab_stride;
            for y in lo[1]..hi[1] {
                // As `stored`: `Err(m)` when the part is a run of material `m` (a packed row, or
                // a part inside a stored row's prefix or suffix run), else the row to assemble.
                let part = self
                    .stored(header(z * N + y))
                    .and_then(|row| row.run_over(x0, x1).map_or(Ok(row), Err));
                match part {
                    Ok(row) => {
                        let slot = k % LAG;
                        if k >= LAG {
                            let a = at[slot];
                            copy_short(&mut to.out[a..a + len], &ring[slot].voxels[x0..x1]);
                        }
                        row.assemble::<N>(&self.cells, &mut ring[slot]);
                        at[slot] = o;
                        k += 1;
                    }
                    Err(m) => copy_short(&mut to.out[o..o + len], &filled_row(m)[x0..x1]),
                }
                o += to.row_stride;
            }
        }
        for j in k.saturating_sub(LAG)..k {
            let slot = j % LAG;
            let a = at[slot];
            copy_short(&mut to.out[a..a + len], &ring[slot].voxels[x0..x1]);
        }
    }

    /// Add the voxels of each material of this table's `N²` rows to `counts`.
    pub fn count_materials<const N: usize>(&self, counts: &mut [u64; MATERIAL_COUNT]) {
        // Each stored row is counted once, times the rows that share it.
        let mut uses = vec![0u64; self.rows.len()];
        for h in self.headers.iter() {
            if h & ALLOCATED == 0 {
                counts[usize::from(h & MATERIAL_MASK)] += N as u64;
            } else {
                uses[usize::from(h & SLOT_MASK)] += 1;
            }
        }
        for (row, &times) in self.rows.iter().zip(&uses) {
            row.count_materials(&self.cells, N, times, counts);
        }
    }

    /// Check every invariant of the table of an `N`³ box.
    ///
    /// # Panics
    /// When the table is malformed (a bug in the storage module).
    pub fn assert_valid<const N: usize>(&self) {
        assert_eq!(self.headers.len(), N * N, "header count");
        assert!(
            self.headers.is_canonical(self.rows.len()),
            "header width is not canonical"
        );
        // Middles in slot order, back to back; every stored row a canonical split of a row that
        // is not packable; no content stored twice.
        let mut end = 0usize;
        let mut seen = FxHashMap::<RowSplit<'_>, usize>::default();
        let mut buf = RowBuf::new();
        for (slot, row) in self.rows.iter().enumerate() {
            assert_eq!(
                usize::from(row.start),
                end,
                "slot {slot}: middle out of place"
            );
            end += usize::from(row.middle_len);
            assert!(
                end <= self.cells.len(),
                "slot {slot}: middle past the cells"
            );
            assert!(
                usize::from(row.prefix_len) + usize::from(row.middle_len) <= N,
                "slot {slot}: longer than a row"
            );
            let voxels = row.read::<N>(&self.cells, &mut buf);
            assert!(
                voxels.iter().all(|v| v.is_normalized()),
                "slot {slot}: unnormalized voxel"
            );
            let split = row.split(&self.cells);
            match RowSource::of::<N>(voxels) {
                RowSource::Packed(_) => panic!("slot {slot}: stored but packable"),
                RowSource::Split(canonical) => {
                    assert_eq!(canonical, split, "slot {slot}: split is not canonical");
                }
            }
            let first = *seen.entry(split).or_insert(slot);
            assert_eq!(
                first, slot,
                "slot {slot}: content stored twice (slot {first})"
            );
        }
        assert_eq!(end, self.cells.len(), "cells without a row");
        let mut next_slot = 0usize;
        for (r, h) in self.headers.iter().enumerate() {
            if h & ALLOCATED != 0 {
                let slot = usize::from(h & SLOT_MASK);
                assert!(
                    slot <= next_slot,
                    "row {r}: slots must first appear in row order"
                );
                if slot == next_slot {
                    next_slot += 1;
                }
            } else {
                assert_eq!(
                    h & !MATERIAL_MASK,
                    0,
                    "row {r}: packed header has stray bits"
                );
            }
        }
        assert_eq!(next_slot, self.rows.len(), "stored rows without a row");
        assert!(
            self.single_material().is_none(),
            "box of one packed material must be Uniform"
        );
    }
}

/// Where [`RowTable::copy_rows`] writes: row (`y`, `z`) of the copied part lands at
/// `start + (z - lo.z) * slab_stride + (y - lo.y) * row_stride` of `out`.
pub(crate) struct RowsOut<'a> {
    pub out: &'a mut [Voxel],
    pub start: usize,
    pub row_stride: usize,
    pub slab_stride: usize,
}
