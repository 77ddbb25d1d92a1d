//! The mesher's input box, how a chunk's box is gathered from the grid, and the empty/full test.
//!
//! A chunk is meshed from its own samples plus a border of [`BORDER`] samples on every side:
//!
//! ```text
//!   samples along one axis (level 0, chunk origin O):
//!
//!     O−2  O−1 │ O ............................ O+31 │ O+32  O+33
//!     ─border─ │        core: quad edges start here   │ ─border──
//!   O−1: the cells just below the chunk carry vertices of the quads the chunk emits;
//!   O+32: the far end of the chunk's last edges; O−2 and O+33: central differences (sharp normals).
//! ```
//!
//! At LOD `l` the samples are the voxels of the `32 >> l` mip, each covering `2^l` voxels per axis;
//! the border comes from the neighbouring chunks' mips at the same level.

use crate::storage::{Chunk, Grid, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, CHUNK_SIZE};

use super::mesh_field::{Class, MaterialLut};
use crate::voxel::MaterialTable;

/// Border samples needed on each side of the core.
pub const BORDER: usize = 2;

/// Coarsest LOD level (the 4³ mip).
pub const MAX_LOD: u32 = 3;

/// Coarsest node level: a node of 32 chunks a side, one sample per chunk.
pub const MAX_NODE_LEVEL: u32 = 5;

/// A box of voxels to mesh: `size[0] × size[1] × size[2]` samples, X fastest, then Y, then Z (the
/// layout of [`Grid::read_box`]). The outer [`BORDER`] samples on each side are context only: quads
/// are emitted for the core.
#[derive(Debug, Clone, Copy)]
pub struct MeshInput<'a> {
    /// The samples.
    pub voxels: &'a [Voxel],
    /// Samples per axis, border included.
    pub size: [usize; 3],
    /// World voxel position of the lowest corner of sample 0 (border included).
    pub origin: VoxelPos,
    /// Level of detail: each sample spans `2^lod` voxels per axis (0 = full resolution).
    pub lod: u32,
}

impl<'a> MeshInput<'a> {
    /// A full-resolution input.
    ///
    /// # Panics
    /// If `voxels.len()` is not the product of `size`, or an axis has fewer than `2·BORDER + 1` samples
    /// (caller contract).
    pub fn new(voxels: &'a [Voxel], size: [usize; 3], origin: VoxelPos) -> Self {
        Self::with_lod(voxels, size, origin, 0)
    }

    /// An input at level of detail `lod`.
    ///
    /// # Panics
    /// As [`MeshInput::new`], or if `lod` is above the coarsest node level.
    pub fn with_lod(voxels: &'a [Voxel], size: [usize; 3], origin: VoxelPos, lod: u32) -> Self {
        assert!(lod <= MAX_NODE_LEVEL, "LOD {lod} does not exist");
        assert!(
            size.iter().all(|&s| s > 2 * BORDER),
            "mesh input {size:?} is smaller than its border"
        );
        assert_eq!(
            voxels.len(),
            size[0] * size[1] * size[2],
            "mesh input length does not match its size"
        );
        Self {
            voxels,
            size,
            origin,
            lod,
        }
    }

    /// The box to read for meshing world box `core` at full resolution (`core` grown by the border).
    pub fn padded_box(core: VoxelBox) -> VoxelBox {
        let b = BORDER as i32;
        VoxelBox::new(
            VoxelPos::new(core.min.x - b, core.min.y - b, core.min.z - b),
            VoxelPos::new(core.max.x + b, core.max.y + b, core.max.z + b),
        )
    }

    /// Voxels per sample along an axis, as a float.
    pub fn scale(&self) -> f32 {
        (1u32 << self.lod) as f32
    }
}

/// Fill `out` with the samples for chunk `pos` at `lod` and return the input's size.
pub(crate) fn gather_chunk(
    grid: &Grid,
    pos: ChunkPos,
    lod: u32,
    out: &mut Vec<Voxel>,
) -> [usize; 3] {
    if lod == 0 {
        let b = MeshInput::padded_box(pos.voxel_box());
        out.clear();
        out.resize(b.volume(), Voxel::AIR);
        grid.read_box(b, out);
        return b.size();
    }
    let n = CHUNK_SIZE >> lod;
    let m = n + 2 * BORDER;
    let mut around: [Option<&Chunk>; 27] = [None; 27];
    for (k, slot) in around.iter_mut().enumerate() {
        let d = [
            (k % 3) as i32 - 1,
            ((k / 3) % 3) as i32 - 1,
            (k / 9) as i32 - 1,
        ];
        *slot = grid.chunk(ChunkPos::new(pos.x + d[0], pos.y + d[1], pos.z + d[2]));
    }
    // Along an axis, sample j (0..m) lies in neighbour (j − BORDER) div n at local (j − BORDER) mod n.
    let split = |j: usize| {
        let w = j as i32 - BORDER as i32;
        (
            (w.div_euclid(n as i32) + 1) as usize,
            w.rem_euclid(n as i32) as usize,
        )
    };
    out.clear();
    out.reserve(m * m * m);
    let mut bufs: [RowBuf; 3] = Default::default();
    for z in 0..m {
        let (cz, lz) = split(z);
        for y in 0..m {
            let (cy, ly) = split(y);
            // The row of each of the three neighbours along X at this (y, z), read once.
            let [b0, b1, b2] = &mut bufs;
            let at = cz * 9 + cy * 3;
            let rows = [
                around[at].map(|c| mip_row(c, lod, ly, lz, b0)),
                around[at + 1].map(|c| mip_row(c, lod, ly, lz, b1)),
                around[at + 2].map(|c| mip_row(c, lod, ly, lz, b2)),
            ];
            for x in 0..m {
                let (cx, lx) = split(x);
                out.push(rows[cx].map_or(Voxel::AIR, |r| r[lx]));
            }
        }
    }
    [m; 3]
}

/// Row (`y`, `z`) of mip level `lod` (1..=3) of `chunk`.
fn mip_row<'a>(chunk: &'a Chunk, lod: u32, y: usize, z: usize, buf: &'a mut RowBuf) -> &'a [Voxel] {
    match lod {
        1 => chunk.mip16().read_row(y, z, buf),
        2 => chunk.mip8().read_row(y, z, buf),
        _ => chunk.mip4().read_row(y, z, buf),
    }
}

/// What a chunk is made of, as far as the fast exit cares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill {
    Air,
    Full(Class),
    Mixed,
}

fn fill_of(grid: &Grid, pos: ChunkPos, lut_class: impl Fn(u8) -> Class) -> Fill {
    match grid.chunk(pos) {
        None => Fill::Air,
        Some(c) if c.is_air() => Fill::Air,
        Some(c) => match c.uniform_material() {
            Some(m) => Fill::Full(lut_class(m)),
            None => Fill::Mixed,
        },
    }
}

/// True when the 4³ mip's layer 0 across `axis` is all Air, which proves the chunk's first 8 voxel
/// layers along `axis` are Air (an Air mip voxel only ever covers Air).
fn low_face_is_air(chunk: &Chunk, axis: usize) -> bool {
    let mip = chunk.mip4();
    (0..4).all(|u| {
        (0..4).all(|v| {
            let p = match axis {
                0 => [0, u, v],
                1 => [u, 0, v],
                _ => [u, v, 0],
            };
            mip.get(p[0], p[1], p[2]).is_air()
        })
    })
}

/// True when chunk `pos` has no surface at any LOD, decided from chunk flags and mips only.
///
/// A chunk owns the edges from its own samples one step toward +X, +Y and +Z, so besides the chunk
/// itself only the facing layer of those three neighbours matters: the chunk is trivially empty when
/// it is all Air and the facing layers are Air, or when it and those neighbours are completely full
/// of one class (all solid, or all liquid).
pub(crate) fn is_trivial(grid: &Grid, pos: ChunkPos, table: &MaterialTable) -> bool {
    let class = |m: u8| MaterialLut::class_in(table, m);
    let me = fill_of(grid, pos, class);
    let next = [
        ChunkPos::new(pos.x + 1, pos.y, pos.z),
        ChunkPos::new(pos.x, pos.y + 1, pos.z),
        ChunkPos::new(pos.x, pos.y, pos.z + 1),
    ];
    match me {
        Fill::Mixed => false,
        Fill::Air => next
            .iter()
            .enumerate()
            .all(|(axis, &p)| match grid.chunk(p) {
                None => true,
                Some(c) => c.is_air() || low_face_is_air(c, axis),
            }),
        Fill::Full(_) => next.iter().all(|&p| fill_of(grid, p, class) == me),
    }
}
