//! One physics cell's broadphase data: what a voxel is for physics, a cell's two dilated masks and
//! how they are computed from the 10³ box around it, and the XZ footprint tables a query ANDs with
//! them. The store, the bulk builder, the queries and the broadphase itself read these.

use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos, MATERIAL_COUNT};

/// log2 of the physics cell edge.
pub const PHYSICS_CELL_BITS: u32 = 3;

/// Physics cell edge in voxels.
pub const PHYSICS_CELL: i32 = 1 << PHYSICS_CELL_BITS;
/// Edge of the box a cell's masks are computed from (the cell plus one voxel on each side).
pub(super) const PADDED: usize = PHYSICS_CELL as usize + 2;

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
    pub(super) by_id: [Matter; MATERIAL_COUNT],
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

/// The broadphase data of one stored physics cell, as [`super::Broadphase::cell`] lends it.
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

/// `MASKS_X[x0][x1]`: bits `x0..=x1` set in every byte (empty when `x0 > x1`).
pub const MASKS_X: [[u64; 8]; 8] = masks_x();
/// `MASKS_Z[z0][z1]`: bytes `z0..=z1` all ones (empty when `z0 > z1`).
pub const MASKS_Z: [[u64; 8]; 8] = masks_z();

pub(super) const fn masks_x() -> [[u64; 8]; 8] {
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

pub(super) const fn masks_z() -> [[u64; 8]; 8] {
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
pub(super) fn floor_i32(c: f32) -> i32 {
    let i = c as i32;
    if (i as f32) > c {
        i.saturating_sub(1)
    } else {
        i
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
pub(super) type Rows = [[u16; PADDED]; PADDED];

/// Compute the entry from a 10³ box (X fastest, then Y, then Z).
pub(super) fn masks_from_box(matter: &MatterTable, voxels: &[Voxel]) -> Option<CellEntry> {
    let mut solid: Rows = [[0; PADDED]; PADDED];
    let mut water: Rows = [[0; PADDED]; PADDED];
    for (i, row) in voxels.chunks_exact(PADDED).enumerate() {
        let (z, y) = (i / PADDED, i % PADDED);
        let (s, w) = matter_bits(matter, row);
        solid[z][y] = s as u16;
        water[z][y] = w as u16;
    }
    masks_from_rows(&solid, &water)
}

/// Bit `x` of the solid and water words is set when voxel `x` of `row` (at most 64 voxels) is solid
/// or water.
pub(super) fn matter_bits(matter: &MatterTable, row: &[Voxel]) -> (u64, u64) {
    let (mut s, mut w) = (0u64, 0u64);
    for (x, &v) in row.iter().enumerate() {
        match matter.of(v) {
            Matter::Air => {}
            Matter::Solid => s |= 1 << x,
            Matter::Water => w |= 1 << x,
        }
    }
    (s, w)
}

/// The entry of a cell from its 10³ box as solid and water rows.
pub(super) fn masks_from_rows(solid: &Rows, water: &Rows) -> Option<CellEntry> {
    const FULL: u16 = (1 << PADDED) - 1;
    let (mut any, mut all_solid, mut all_water) = (0u16, FULL, FULL);
    for (s_rows, w_rows) in solid.iter().zip(water) {
        for (&s, &w) in s_rows.iter().zip(w_rows) {
            any |= s | w;
            all_solid &= s;
            all_water &= w;
        }
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
        solid: dilate(solid),
        water: dilate(water),
    }))
}

/// Dilate 10³ rows by one voxel in the 27-neighbourhood and keep the inner 8³ as a [`Mask`].
pub(super) fn dilate(rows: &Rows) -> Mask {
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
