//! The row-packed box: the in-memory voxel format of every chunk and mip level.
//!
//! An `N`³ box is `N²` X rows, row `r = z * N + y`. A box whose rows are all one material at its
//! default occupancy is `Uniform` and holds no heap memory at all (deep rock, open sky); any other
//! box is a [`RowTable`](super::row_table): per row either that packed form (a material, nothing
//! stored) or a slot of a deduplicated stored row, kept as a prefix run, the voxels in the middle
//! and a suffix run (`stored_row.rs`). Every box has exactly one representation.
//!
//! # Rationale
//! Terrain is mostly long runs of one material at full occupancy (inside) or air (outside); only rows
//! that cross a surface or a material border need per-voxel data, and even those keep only the few
//! voxels between their two runs: a cliff row "rock × k, three partial voxels, air" takes 12 bytes
//! instead of 64, which keeps smooth slopes as compact as the old staircases. Reads of a packed row
//! are a slice borrow of a static table of pre-filled rows; reads of a stored row write it to the
//! caller's [`RowBuf`] with fixed-width selects or copies. Writes first mark the rows a write touches
//! (building each new row and deciding whether it stays packed), then, only if stored rows are
//! involved, rebuild the table once, deduplicated and exactly sized, taking kept rows' middles from
//! the old table and new rows' from the marked rows. A write never rebuilds a box more than once.

use super::row_table::{RowSource, RowTable, RowsOut};
use super::stored_row::{copy_short, filled_row, RowBuf, MAX_EDGE};

use crate::voxel::{Voxel, MATERIAL_COUNT};

/// An `N`³ box of voxels in the row-packed format (see the module docs). `N` is 4, 8, 16 or 32.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedBox<const N: usize> {
    repr: Repr,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Repr {
    /// Every row packed with this material.
    Uniform(u8),
    /// Per-row headers and the stored rows.
    Rows(RowTable),
}

#[inline]
fn normalize(row: &mut [Voxel]) {
    for v in row {
        *v = Voxel::new(v.material, v.occupancy);
    }
}

/// The representation of the table built from `rows`.
fn build<'a, const N: usize>(rows: impl Iterator<Item = RowSource<'a>>) -> Repr {
    match RowTable::build(N, rows) {
        Ok(table) => Repr::Rows(table),
        Err(m) => Repr::Uniform(m),
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
            repr: build::<N>(normalized.chunks_exact(N).map(RowSource::of::<N>)),
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
        let sources: Vec<RowSource<'_>> =
            rows.iter().map(|r| RowSource::of::<N>(&r[..N])).collect();
        Self {
            repr: build::<N>((0..Self::ROWS).map(|r| sources[r % N])),
        }
    }

    /// The X row at (`y`, `z`): `N` voxels, a static row when packed, else assembled in `buf`.
    ///
    /// # Panics
    /// If `y` or `z` is not below `N`.
    #[inline]
    pub fn read_row<'a>(&'a self, y: usize, z: usize, buf: &'a mut RowBuf) -> &'a [Voxel] {
        assert!(y < N && z < N, "row out of range");
        match &self.repr {
            Repr::Uniform(m) => &filled_row(*m)[..N],
            Repr::Rows(table) => table.read::<N>(z * N + y, buf),
        }
    }

    /// One voxel.
    ///
    /// # Panics
    /// If a coordinate is not below `N`.
    #[inline]
    pub fn get(&self, x: usize, y: usize, z: usize) -> Voxel {
        assert!(x < N && y < N && z < N, "voxel out of range");
        match &self.repr {
            Repr::Uniform(m) => Voxel::filled(*m),
            Repr::Rows(table) => table.voxel(z * N + y, x),
        }
    }

    /// The material when every voxel is that material at default occupancy.
    pub fn uniform_material(&self) -> Option<u8> {
        match self.repr {
            Repr::Uniform(m) => Some(m),
            Repr::Rows(_) => None,
        }
    }

    /// The X row at (`y`, `z`) (as [`PackedBox::read_row`]) and whether it is packed (every voxel
    /// one material at its default occupancy), from one header read: copies turn packed rows into one
    /// run without reading them.
    ///
    /// # Panics
    /// If `y` or `z` is not below `N`.
    #[inline]
    pub fn read_row_packed<'a>(
        &'a self,
        y: usize,
        z: usize,
        buf: &'a mut RowBuf,
    ) -> (&'a [Voxel], bool) {
        let packed = !self.is_row_allocated(y, z);
        (self.read_row(y, z, buf), packed)
    }

    /// True when the row at (`y`, `z`) has its own stored data.
    pub fn is_row_allocated(&self, y: usize, z: usize) -> bool {
        match &self.repr {
            Repr::Uniform(_) => false,
            Repr::Rows(table) => table.is_allocated(z * N + y),
        }
    }

    /// Number of rows that are not packed (several may share one stored row).
    pub fn allocated_rows(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows(table) => table.allocated_rows(),
        }
    }

    /// Number of distinct rows actually stored.
    pub fn stored_rows(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows(table) => table.stored_rows(),
        }
    }

    /// Heap bytes owned by this box (headers, stored rows and their cells).
    pub fn heap_bytes(&self) -> usize {
        match &self.repr {
            Repr::Uniform(_) => 0,
            Repr::Rows(table) => table.heap_bytes(),
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
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return;
        }
        match &self.repr {
            Repr::Uniform(m) => {
                let (x0, x1) = (lo[0], hi[0]);
                let len = x1 - x0;
                let row = &filled_row(*m)[x0..x1];
                for z in lo[2]..hi[2] {
                    let mut o = start + (z - lo[2]) * slab_stride;
                    for _ in lo[1]..hi[1] {
                        copy_short(&mut out[o..o + len], row);
                        o += row_stride;
                    }
                }
            }
            Repr::Rows(table) => table.copy_rows::<N>(
                lo,
                hi,
                RowsOut {
                    out,
                    start,
                    row_stride,
                    slab_stride,
                },
            ),
        }
    }

    /// Copy the whole box into `out` (X fastest; `N³` voxels).
    ///
    /// # Panics
    /// If `out.len() != N³`.
    pub fn to_dense(&self, out: &mut [Voxel]) {
        assert_eq!(out.len(), Self::VOLUME, "dense box has the wrong size");
        self.copy_box_into([0; 3], [N; 3], out, 0, N, N * N);
    }

    /// Add the number of voxels of each material to `counts`.
    pub fn count_materials(&self, counts: &mut [u64; MATERIAL_COUNT]) {
        match &self.repr {
            Repr::Uniform(m) => counts[usize::from(*m)] += Self::VOLUME as u64,
            Repr::Rows(table) => table.count_materials::<N>(counts),
        }
    }

    /// Rewrite the rows of the sub-box `lo..hi` (local, half-open).
    ///
    /// `edit(y, z, row)` receives each touched row's current `N` voxels and changes those it wants
    /// (normally `row[lo[0]..hi[0]]`). Voxels are normalized afterwards. Stage one marks (builds every
    /// touched row and decides packed or stored); stage two rebuilds the table in one pass, and is
    /// skipped when only packed rows change.
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
        let mut buf = RowBuf::new();
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                let start = rows.len();
                rows.extend_from_slice(self.read_row(y, z, &mut buf));
                let row = &mut rows[start..];
                edit(y, z, row);
                normalize(row);
            }
        }
        let marks: Vec<RowSource<'_>> = rows.chunks_exact(N).map(RowSource::of::<N>).collect();
        let ny = hi[1] - lo[1];
        let touched_index = |r: usize| -> Option<usize> {
            let (y, z) = (r % N, r / N);
            let inside = (lo[1]..hi[1]).contains(&y) && (lo[2]..hi[2]).contains(&z);
            inside.then(|| (z - lo[2]) * ny + (y - lo[1]))
        };
        let was_allocated = |r: usize| match &self.repr {
            Repr::Uniform(_) => false,
            Repr::Rows(table) => table.is_allocated(r),
        };
        let stored_change = (0..Self::ROWS).any(|r| {
            touched_index(r)
                .is_some_and(|i| matches!(marks[i], RowSource::Split(_)) || was_allocated(r))
        });
        if !stored_change {
            // Every touched row is packed: only their materials are needed.
            let materials: Vec<u8> = marks
                .iter()
                .filter_map(|s| match s {
                    RowSource::Packed(m) => Some(*m),
                    RowSource::Split(_) => None,
                })
                .collect();
            self.write_packed_rows(&materials, touched_index);
            return;
        }
        // Stage 2: rebuild once into an exactly sized, deduplicated table, taking kept rows from the
        // old table and new rows from the marked ones.
        let old = std::mem::replace(&mut self.repr, Repr::Uniform(0));
        let kept = |r: usize| match &old {
            Repr::Uniform(m) => RowSource::Packed(*m),
            Repr::Rows(table) => table.source(r),
        };
        let new = build::<N>((0..Self::ROWS).map(|r| match touched_index(r) {
            Some(i) => marks[i],
            None => kept(r),
        }));
        self.repr = new;
    }

    /// Only packed rows change material: rewrite their headers, no stored row is touched.
    fn write_packed_rows(
        &mut self,
        materials: &[u8],
        touched_index: impl Fn(usize) -> Option<usize>,
    ) {
        if let Repr::Uniform(m) = self.repr {
            if materials.iter().all(|&t| t == m) {
                return;
            }
            self.repr = Repr::Rows(RowTable::packed(m, N));
        }
        if let Repr::Rows(table) = &mut self.repr {
            for r in 0..Self::ROWS {
                if let Some(i) = touched_index(r) {
                    table.set_packed(r, materials[i]);
                }
            }
            if let Some(m) = table.single_material() {
                self.repr = Repr::Uniform(m);
            }
        }
    }

    /// Check every invariant of the format; panics with a description on the first violation.
    ///
    /// # Panics
    /// When the box is malformed (a bug in this module).
    pub fn assert_valid(&self) {
        match &self.repr {
            Repr::Uniform(m) => assert!(
                usize::from(*m) < MATERIAL_COUNT,
                "uniform material {m} out of range"
            ),
            Repr::Rows(table) => table.assert_valid::<N>(),
        }
    }
}

#[cfg(test)]
mod packed_tests;
