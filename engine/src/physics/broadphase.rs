//! The bit broadphase: which 8³ physics cells an AABB can touch, answered from one bit per voxel.
//!
//! Every physics cell (8³ voxels; the 32³ storage units are chunks) keeps two masks: *solid*
//! (non-air, non-liquid matter) and *water* (liquid matter). A bit is set when the voxel **or any of
//! its 26 neighbours** holds that kind of matter, because the mesher's surface for a voxel can reach
//! into its neighbours. So a cell's masks are computed from the 10³ box around it:
//!
//! ```text
//!   one axis, cell origin O:   O−1 │ O  O+1 ... O+7 │ O+8        10 samples in, 8 bits out
//!   row bits (X):     b9 ........ b1 b0  ->  d = b | b<<1 | b>>1     (dilate X with shifts)
//!   then Y, then Z:   d[y][z] = d[y−1][z] | d[y][z] | d[y+1][z]      (dilate by OR-ing neighbour rows)
//!   keep bits 1..=8 of rows y, z in 1..=8
//! ```
//!
//! Stored layout, per mask (`[u64; 8]`): one word per Y slice, one byte per Z row, one bit per X:
//!
//! ```text
//!   word y:  byte 7 (z = 7) | ... | byte 1 (z = 1) | byte 0 (z = 0)      bit x of byte z = voxel (x, y, z)
//! ```
//!
//! A query expands the AABB by one voxel, visits the cells it covers, and for each one builds the XZ
//! footprint as `MASKS_X[x0][x1] & MASKS_Z[z0][z1]` (two table lookups), then ANDs it with the OR of
//! the Y slices it spans (one branch-free reduction over the eight words): up to 64 voxels per
//! instruction. Cells live in 4³-cell blocks (see `broadphase_store.rs`), so the walk finds each
//! run of cells along X with one array read, and a cell the box covers whole answers from its
//! slot word's flags without reading its masks.
//!
//! Cells whose 10³ box is all Air store nothing. Cells whose 10³ box is entirely solid or entirely
//! water are tagged ([`CellBits::Solid`], [`CellBits::Water`]) and keep no masks: the mesher makes no
//! surface there, but a body can still be inside rock or under water.
//!
//! # Rationale
//! The broadphase must cover the whole world at all times, so it has to be far smaller than the voxels
//! (at most 2 bits per voxel, usually much less) and cheap to rebuild for one edit. Bit masks give both,
//! and they make the reject test exact at voxel resolution instead of "the AABB overlaps the cell".

use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos, MATERIAL_COUNT};
use broadphase_store::CellStore;

/// log2 of the physics cell edge.
pub const PHYSICS_CELL_BITS: u32 = 3;

/// Physics cell edge in voxels.
pub const PHYSICS_CELL: i32 = 1 << PHYSICS_CELL_BITS;
/// Edge of the box a cell's masks are computed from (the cell plus one voxel on each side).
const PADDED: usize = PHYSICS_CELL as usize + 2;

/// One mask: word `y` is the Y slice, byte `z` of it the X row, bit `x` of that byte the voxel.
pub type Mask = [u64; 8];

/// What a voxel is for physics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matter {
    /// Nothing to collide with.
    Air,
    /// Collides (any non-air, non-liquid material, and any id the table does not know).
    Solid,
    /// Gives buoyancy (a liquid material).
    Water,
}

/// Material id → [`Matter`], from a material table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatterTable {
    by_id: [Matter; MATERIAL_COUNT],
}

impl MatterTable {
    /// Classify every id of `table`; ids past its end count as solid.
    pub fn new(table: &MaterialTable) -> Self {
        let mut by_id = [Matter::Solid; MATERIAL_COUNT];
        by_id[0] = Matter::Air;
        for (id, m) in table
            .materials
            .iter()
            .enumerate()
            .skip(1)
            .take(MATERIAL_COUNT)
        {
            if m.liquid {
                by_id[id] = Matter::Water;
            }
        }
        Self { by_id }
    }

    /// The class of one voxel.
    #[inline]
    pub fn of(&self, v: Voxel) -> Matter {
        self.by_id[usize::from(v.material & 0x3f)]
    }
}

/// The broadphase data of one stored physics cell, as [`Broadphase::cell`] lends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellBits<'a> {
    /// The whole 10³ box is solid: every solid bit is set, no water bit.
    Solid,
    /// The whole 10³ box is water: every water bit is set, no solid bit.
    Water,
    /// Dilated masks (stored side by side with the other cells' masks).
    Masks(&'a CellMasks),
}

/// The broadphase data of one physics cell as computed from the grid (owned [`CellBits`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellEntry {
    /// See [`CellBits::Solid`].
    Solid,
    /// See [`CellBits::Water`].
    Water,
    /// See [`CellBits::Masks`].
    Masks(CellMasks),
}

impl CellEntry {
    /// The borrowed form.
    pub fn as_bits(&self) -> CellBits<'_> {
        match self {
            Self::Solid => CellBits::Solid,
            Self::Water => CellBits::Water,
            Self::Masks(m) => CellBits::Masks(m),
        }
    }
}

/// The two dilated masks of a cell: 128 bytes on two cache lines.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[repr(align(64))]
pub struct CellMasks {
    /// Voxels that solid matter's surface may reach.
    pub solid: Mask,
    /// Voxels that water's surface may reach.
    pub water: Mask,
}

impl CellBits<'_> {
    /// The solid and water masks this entry stands for (all ones / all zeros for tagged cells).
    pub fn masks(&self) -> CellMasks {
        match self {
            Self::Solid => CellMasks {
                solid: [u64::MAX; 8],
                water: [0; 8],
            },
            Self::Water => CellMasks {
                solid: [0; 8],
                water: [u64::MAX; 8],
            },
            Self::Masks(m) => (*m).clone(),
        }
    }
}

/// One cell an AABB touches, with what it touches there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touch {
    /// Physics cell position (voxel position >> 3).
    pub cell_pos: [i32; 3],
    /// The expanded AABB covers a set solid bit.
    pub solid: bool,
    /// The expanded AABB covers a set water bit.
    pub water: bool,
}

/// Memory used by a [`Broadphase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BroadphaseMemory {
    /// Cells with stored masks.
    pub masked_cells: usize,
    /// Cells tagged all-solid or all-water.
    pub tagged_cells: usize,
    /// Heap bytes of the masks alone (128 per masked cell).
    pub mask_bytes: usize,
    /// Everything: hash-table slots plus masks.
    pub total_bytes: usize,
}

impl BroadphaseMemory {
    /// Bits per voxel of `total_bytes` spread over `voxels` voxels (0 when `voxels` is 0).
    pub fn bits_per_voxel(&self, voxels: u64) -> f64 {
        if voxels == 0 {
            0.0
        } else {
            self.total_bytes as f64 * 8.0 / voxels as f64
        }
    }
}

/// `MASKS_X[x0][x1]`: bits `x0..=x1` set in every byte (empty when `x0 > x1`).
pub const MASKS_X: [[u64; 8]; 8] = masks_x();
/// `MASKS_Z[z0][z1]`: bytes `z0..=z1` all ones (empty when `z0 > z1`).
pub const MASKS_Z: [[u64; 8]; 8] = masks_z();

const fn masks_x() -> [[u64; 8]; 8] {
    let mut t = [[0u64; 8]; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = a;
        while b < 8 {
            let row = ((1u64 << (b + 1)) - (1u64 << a)) & 0xff;
            t[a][b] = row * 0x0101_0101_0101_0101;
            b += 1;
        }
        a += 1;
    }
    t
}

const fn masks_z() -> [[u64; 8]; 8] {
    let mut t = [[0u64; 8]; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = a;
        while b < 8 {
            let mut z = a;
            while z <= b {
                t[a][b] |= 0xffu64 << (8 * z);
                z += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// The physics cell holding voxel coordinate `v` on one axis.
#[inline]
pub fn physics_cell_of(v: i32) -> i32 {
    v >> PHYSICS_CELL_BITS
}

/// The voxel range (inclusive) an AABB touches after expansion by one voxel: `floor(min − 1)` to
/// `floor(max + 1)` on each axis. NaN coordinates count as 0; huge ones saturate.
#[inline]
pub fn expanded_voxel_range(min: [f32; 3], max: [f32; 3]) -> ([i32; 3], [i32; 3]) {
    let lo = min.map(|c| floor_i32(c - 1.0));
    let hi = max.map(|c| floor_i32(c + 1.0));
    (lo, hi)
}

/// `c.floor() as i32` (saturating, NaN → 0) without a call to `floorf`, which the baseline x86-64
/// target has no instruction for.
#[inline]
fn floor_i32(c: f32) -> i32 {
    let i = c as i32;
    if (i as f32) > c {
        i.saturating_sub(1)
    } else {
        i
    }
}

/// How far outside an edited box [`Broadphase::refresh`] reads voxels: a physics cell and its
/// one-voxel border.
pub const REFRESH_REACH: i32 = PHYSICS_CELL + 2;

/// Cell entries computed off the broadphase for one edit (see [`Broadphase::refresh`]).
#[derive(Debug, Clone, Default)]
pub struct BroadphaseRefresh {
    cells: Vec<([i32; 3], Option<CellEntry>)>,
}

/// Reusable buffers for building cell masks.
#[derive(Debug, Clone, Default)]
pub struct BuildScratch {
    voxels: Vec<Voxel>,
    positions: Vec<[i32; 3]>,
}

/// The bit broadphase over a whole grid (see the module docs).
#[derive(Debug, Clone)]
pub struct Broadphase {
    matter: MatterTable,
    cells: CellStore,
}

impl Broadphase {
    /// An empty broadphase that classifies materials with `table`.
    pub fn new(table: &MaterialTable) -> Self {
        Self {
            matter: MatterTable::new(table),
            cells: CellStore::default(),
        }
    }

    /// Build the broadphase of every cell of `grid`.
    pub fn build(grid: &Grid, table: &MaterialTable, scratch: &mut BuildScratch) -> Self {
        let mut bp = Self::new(table);
        bp.rebuild(grid, scratch);
        bp
    }

    /// Regenerate every cell whose masks can change when the voxels of `changed` change: the cells
    /// the box touches and the neighbours whose 10³ box reaches into it.
    pub fn update(&mut self, grid: &Grid, changed: VoxelBox, scratch: &mut BuildScratch) {
        if changed.is_empty() {
            return;
        }
        let lo = [changed.min.x, changed.min.y, changed.min.z].map(|v| physics_cell_of(v - 1));
        let hi = [changed.max.x, changed.max.y, changed.max.z].map(physics_cell_of);
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                for x in lo[0]..=hi[0] {
                    self.refresh_cell(grid, [x, y, z], &mut scratch.voxels);
                }
            }
        }
    }

    /// The entries [`Broadphase::update`] would store for an edit of `changed`, computed without
    /// changing the broadphase (on any thread, from a grid holding the voxels of `changed` grown by
    /// [`REFRESH_REACH`]); [`Broadphase::apply_refresh`] stores them.
    pub fn refresh(matter: &MatterTable, grid: &Grid, changed: VoxelBox) -> BroadphaseRefresh {
        let mut cells = Vec::new();
        if !changed.is_empty() {
            let lo = [changed.min.x, changed.min.y, changed.min.z].map(|v| physics_cell_of(v - 1));
            let hi = [changed.max.x, changed.max.y, changed.max.z].map(physics_cell_of);
            let mut voxels = Vec::new();
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        cells.push(([x, y, z], cell_bits(grid, matter, [x, y, z], &mut voxels)));
                    }
                }
            }
        }
        BroadphaseRefresh { cells }
    }

    /// Store entries computed by [`Broadphase::refresh`].
    pub fn apply_refresh(&mut self, refresh: BroadphaseRefresh) {
        for (pos, bits) in refresh.cells {
            self.cells.set(pos, bits);
        }
    }

    /// The material classification (for [`Broadphase::refresh`] on another thread).
    pub fn matter(&self) -> &MatterTable {
        &self.matter
    }

    /// Recompute one cell's entry from the grid.
    fn refresh_cell(&mut self, grid: &Grid, cell_pos: [i32; 3], voxels: &mut Vec<Voxel>) {
        let bits = cell_bits(grid, &self.matter, cell_pos, voxels);
        self.cells.set(cell_pos, bits);
    }

    /// The entry of one physics cell (`None`: all Air around it).
    pub fn cell(&self, cell_pos: [i32; 3]) -> Option<CellBits<'_>> {
        self.cells.get(cell_pos)
    }

    /// Number of stored cells (masked and tagged).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Memory used (see [`BroadphaseMemory`]).
    pub fn memory(&self) -> BroadphaseMemory {
        let masked = self.cells.masked_count();
        let mask_bytes = masked * size_of::<CellMasks>();
        BroadphaseMemory {
            masked_cells: masked,
            tagged_cells: self.cells.len() - masked,
            mask_bytes,
            total_bytes: self.cells.table_bytes() + mask_bytes,
        }
    }

    /// Check that every stored entry equals a fresh computation from `grid`, that no all-Air cell is
    /// stored, that tagged cells are not stored as masks, and that no cell with matter is missing.
    ///
    /// # Panics
    /// On any violated invariant (tests call this after every operation).
    pub fn assert_valid(&self, grid: &Grid) {
        let mut voxels = Vec::new();
        self.cells.assert_valid();
        for (pos, bits) in self.cells.iter() {
            let fresh = cell_bits(grid, &self.matter, pos, &mut voxels);
            assert_eq!(
                fresh.as_ref().map(CellEntry::as_bits),
                Some(bits),
                "cell {pos:?} is stale"
            );
            if let CellBits::Masks(m) = bits {
                let empty = |k: &Mask| k.iter().all(|&w| w == 0);
                assert!(
                    !(empty(&m.solid) && empty(&m.water)),
                    "{pos:?}: empty masks"
                );
            }
        }
        let mut scratch = BuildScratch::default();
        let mut all = Self::new_with(self.matter.clone());
        all.rebuild(grid, &mut scratch);
        assert_eq!(all.cells.len(), self.cells.len(), "stored cell count");
        for (pos, _) in all.cells.iter() {
            assert!(self.cells.get(pos).is_some(), "cell {pos:?} is missing");
        }
    }

    fn new_with(matter: MatterTable) -> Self {
        Self {
            matter,
            cells: CellStore::default(),
        }
    }
}

/// The entry of cell `pos`, computed from the 10³ box around it (`None` when it is all Air).
pub fn cell_bits(
    grid: &Grid,
    matter: &MatterTable,
    pos: [i32; 3],
    voxels: &mut Vec<Voxel>,
) -> Option<CellEntry> {
    let o = pos.map(|c| (c << PHYSICS_CELL_BITS) - 1);
    let b = VoxelBox::from_min_size(VoxelPos::new(o[0], o[1], o[2]), [PADDED as u32; 3]);
    voxels.clear();
    voxels.resize(b.volume(), Voxel::AIR);
    grid.read_box(b, voxels);
    masks_from_box(matter, voxels)
}

/// Rows of the 10³ box as 10-bit integers, `[z][y]`, for solid and water.
type Rows = [[u16; PADDED]; PADDED];

/// Compute the entry from a 10³ box (X fastest, then Y, then Z).
fn masks_from_box(matter: &MatterTable, voxels: &[Voxel]) -> Option<CellEntry> {
    const FULL: u16 = (1 << PADDED) - 1;
    let mut solid: Rows = [[0; PADDED]; PADDED];
    let mut water: Rows = [[0; PADDED]; PADDED];
    let (mut any, mut all_solid, mut all_water) = (0u16, FULL, FULL);
    for (i, row) in voxels.chunks_exact(PADDED).enumerate() {
        let (z, y) = (i / PADDED, i % PADDED);
        let (mut s, mut w) = (0u16, 0u16);
        for (x, &v) in row.iter().enumerate() {
            match matter.of(v) {
                Matter::Air => {}
                Matter::Solid => s |= 1 << x,
                Matter::Water => w |= 1 << x,
            }
        }
        solid[z][y] = s;
        water[z][y] = w;
        any |= s | w;
        all_solid &= s;
        all_water &= w;
    }
    if any == 0 {
        return None;
    }
    if all_solid == FULL {
        return Some(CellEntry::Solid);
    }
    if all_water == FULL {
        return Some(CellEntry::Water);
    }
    Some(CellEntry::Masks(CellMasks {
        solid: dilate(&solid),
        water: dilate(&water),
    }))
}

/// Dilate 10³ rows by one voxel in the 27-neighbourhood and keep the inner 8³ as a [`Mask`].
fn dilate(rows: &Rows) -> Mask {
    let mut x: Rows = [[0; PADDED]; PADDED];
    for z in 0..PADDED {
        for y in 0..PADDED {
            let r = rows[z][y];
            x[z][y] = r | (r << 1) | (r >> 1);
        }
    }
    let mut xy: Rows = [[0; PADDED]; PADDED];
    for z in 0..PADDED {
        for y in 1..PADDED - 1 {
            xy[z][y] = x[z][y - 1] | x[z][y] | x[z][y + 1];
        }
    }
    let mut out = [0u64; 8];
    for z in 1..PADDED - 1 {
        for y in 1..PADDED - 1 {
            let r = xy[z - 1][y] | xy[z][y] | xy[z + 1][y];
            out[y - 1] |= u64::from((r >> 1) & 0xff) << (8 * (z - 1));
        }
    }
    out
}

mod broadphase_bulk;
mod broadphase_query;
mod broadphase_store;

#[cfg(test)]
mod broadphase_tests;
