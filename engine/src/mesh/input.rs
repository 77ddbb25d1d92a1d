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
    gather_chunk_with(grid, pos, lod, BORDER, out)
}

/// [`gather_chunk`] with `border` samples around the core instead of [`BORDER`] (at `lod > 0`;
/// at most the samples of one chunk).
pub(crate) fn gather_chunk_with(
    grid: &Grid,
    pos: ChunkPos,
    lod: u32,
    border: usize,
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
    let m = n + 2 * border;
    let mut around: [Option<&Chunk>; 27] = [None; 27];
    for (k, slot) in around.iter_mut().enumerate() {
        let d = [
            (k % 3) as i32 - 1,
            ((k / 3) % 3) as i32 - 1,
            (k / 9) as i32 - 1,
        ];
        *slot = grid.chunk(ChunkPos::new(pos.x + d[0], pos.y + d[1], pos.z + d[2]));
    }
    // Along an axis, sample j (0..m) lies in neighbour (j − border) div n at local (j − border) mod n.
    let split = |j: usize| {
        let w = j as i32 - border as i32;
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

/// Occupancy a kept thin layer is raised to: just over half, so the mesher sees matter.
const KEPT_LAYER: u8 = 128;

/// Keep thin layers of a coarse input. In every vertical run of matter (solid or liquid samples)
/// without a solid sample at least half full: if it holds solid samples, the fullest is raised to
/// just over half; if it is all liquid, the empty sample under it becomes ground.
///
/// At level of detail `l` a sample spans `2^l` voxels. The mesher sees ground only where a sample
/// is at least half full of it, so a layer thinner than half a sample (a world's one-voxel floor
/// under a canyon at level 2, the low ground of a heightmap at level 5) vanished and left a hole
/// through the world onto the sky; and a mip block holding water over its bed is water (so
/// shallow water survives), so the bed of a lake on a thin floor vanished too, and the lake showed
/// the sky through it. A raised sample keeps such a layer about half a sample thick; ground put
/// under water (of the input's most common ground material) is the lake's bed. A run holding a
/// solid sample at least half full (any ground with a surface on top, a slope) is left as it is,
/// so the terrain's shape elsewhere does not change. Mesh nodes (the viewport) do this; chunk
/// meshes, which physics and export read, do not: a raised sample touching matter only along an
/// edge makes an edge four triangles share, harmless on screen.
///
/// `wide` holds the input with one more ring of samples than the mesher reads (`wide_size` per
/// axis), and a run that reaches its top or bottom row is left as it is, so a run is treated the
/// same way by every node that reads it whole, and neighbouring meshes still meet. The input
/// without that ring goes to `out`; returns its size.
pub(crate) fn keep_thin_layers(
    wide: &[Voxel],
    wide_size: [usize; 3],
    lut: &MaterialLut,
    out: &mut Vec<Voxel>,
) -> [usize; 3] {
    let [wx, wy, wz] = wide_size;
    let size = wide_size.map(|s| s.saturating_sub(2));
    let class = |v: Voxel| {
        if v.occupancy == 0 {
            Class::Air
        } else {
            lut.class_of(v)
        }
    };
    let ground = common_ground(wide, lut);
    let mut column = Vec::with_capacity(wy);
    // (index in `wide`, the sample it becomes), in index order per column.
    let mut changes: Vec<(usize, Voxel)> = Vec::new();
    for z in 0..wz {
        for x in 0..wx {
            column.clear();
            column.extend((0..wy).map(|y| wide[(z * wy + y) * wx + x]));
            let at = |y: usize| (z * wy + y) * wx + x;
            let mut y = 0;
            while y < wy {
                if class(column[y]) == Class::Air {
                    y += 1;
                    continue;
                }
                let start = y;
                while y < wy && class(column[y]) != Class::Air {
                    y += 1;
                }
                if start == 0 || y == wy {
                    continue;
                }
                let run = &column[start..y];
                let solid = |k: &usize| class(run[*k]) == Class::Solid;
                if (0..run.len()).any(|k| solid(&k) && run[k].occupancy >= KEPT_LAYER) {
                    continue;
                }
                match (0..run.len())
                    .filter(solid)
                    .max_by_key(|&k| (run[k].occupancy, std::cmp::Reverse(k)))
                {
                    Some(k) => {
                        changes.push((at(start + k), Voxel::new(run[k].material, KEPT_LAYER)))
                    }
                    None => {
                        if let Some(g) = ground {
                            changes.push((at(start - 1), Voxel::filled(g)));
                        }
                    }
                }
            }
        }
    }
    changes.sort_unstable_by_key(|c| c.0);
    let mut next = changes.iter().peekable();
    out.clear();
    out.reserve(size[0] * size[1] * size[2]);
    for z in 1..wz.saturating_sub(1) {
        for y in 1..wy.saturating_sub(1) {
            for x in 1..wx.saturating_sub(1) {
                let i = (z * wy + y) * wx + x;
                while next.next_if(|c| c.0 < i).is_some() {}
                out.push(match next.peek() {
                    Some(c) if c.0 == i => c.1,
                    _ => wide[i],
                });
            }
        }
    }
    size
}

/// The solid material most samples of `voxels` hold (`None` when none is solid).
fn common_ground(voxels: &[Voxel], lut: &MaterialLut) -> Option<u8> {
    let mut counts = [0u32; crate::voxel::MATERIAL_COUNT];
    for v in voxels {
        if v.occupancy > 0 && lut.class_of(*v) == Class::Solid {
            counts[usize::from(v.material & 0x3f)] += 1;
        }
    }
    let (id, &n) = counts.iter().enumerate().max_by_key(|(_, &n)| n)?;
    (n > 0).then_some(id as u8)
}
