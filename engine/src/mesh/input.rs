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

/// Keep thin layers of a coarse input, sample by sample from its vertical neighbours only: a solid
/// sample less than half full, with no solid neighbour at least half full above or below it and
/// fuller than its solid neighbours (the lower one wins a tie), is raised to just over half; a
/// liquid sample with nothing under it becomes ground.
///
/// At level of detail `l` a sample spans `2^l` voxels. The mesher sees ground only where a sample
/// is at least half full of it, so a layer thinner than half a sample (a world's one-voxel floor
/// under a canyon at level 2, the low ground of a heightmap at level 5) vanished and left a hole
/// through the world onto the sky; and a mip block holding water over its bed is water (so
/// shallow water survives), so the bed of a lake on a thin floor vanished too, and the lake showed
/// the sky through it. A raised sample keeps such a layer about half a sample thick; the lowest
/// water sample turned to ground (of the input's most common ground material) is the lake's bed,
/// within the block that held the bed, and within the same node as the water above it (ground put
/// under the water instead lay in the node below a world's floor, which is meshed after the one
/// above, so the sky showed through the lake while the view refined). A sample beside
/// ground at least half full (any ground with a surface on top, a slope) is left as it is, so the
/// terrain's shape elsewhere does not change. Mesh nodes (the viewport) do this; chunk meshes,
/// which physics and export read, do not.
///
/// Each rule reads a sample and the two beside it in its column, nothing further: two nodes that
/// both read a sample (one in its core, the other in its border) decide it the same way, so the
/// surface between them is the same in both meshes. (A rule over a whole run of matter decided
/// differently in a node that saw the run cut by its border, which left a lake without its bed,
/// and the sky through it, along a node border.) `wide` holds the input with one more ring of
/// samples than the mesher reads (`wide_size` per axis), the neighbours of the outermost samples;
/// the input without that ring goes to `out`; returns its size.
pub(crate) fn keep_thin_layers(
    wide: &[Voxel],
    wide_size: [usize; 3],
    lut: &MaterialLut,
    out: &mut Vec<Voxel>,
) -> [usize; 3] {
    let [wx, wy, wz] = wide_size;
    let size = wide_size.map(|s| s.saturating_sub(2));
    // The bed's material only colours it; a node with no ground takes the first solid material.
    let ground = common_ground(wide, lut).or_else(|| {
        (1..crate::voxel::MATERIAL_COUNT as u8)
            .find(|&m| lut.class_of(Voxel::filled(m)) == Class::Solid)
    });
    let class = |v: Voxel| {
        if v.occupancy == 0 {
            Class::Air
        } else {
            lut.class_of(v)
        }
    };
    let solid = |v: Voxel| class(v) == Class::Solid;
    out.clear();
    out.reserve(size[0] * size[1] * size[2]);
    for z in 1..wz.saturating_sub(1) {
        for y in 1..wy.saturating_sub(1) {
            for x in 1..wx.saturating_sub(1) {
                let at = |y: usize| wide[(z * wy + y) * wx + x];
                let (below, v, above) = (at(y - 1), at(y), at(y + 1));
                let kept = if solid(v) && v.occupancy < KEPT_LAYER {
                    let full = |n: Voxel| solid(n) && n.occupancy >= KEPT_LAYER;
                    // The fullest of its solid neighbours; the lower one wins a tie.
                    let fuller = |n: Voxel, or_equal: bool| {
                        solid(n)
                            && (n.occupancy > v.occupancy || or_equal && n.occupancy == v.occupancy)
                    };
                    let fullest = !fuller(below, true) && !fuller(above, false);
                    (!full(below) && !full(above) && fullest)
                        .then(|| Voxel::new(v.material, KEPT_LAYER))
                } else if class(v) == Class::Liquid && class(below) == Class::Air {
                    ground.map(Voxel::filled)
                } else {
                    None
                };
                out.push(kept.unwrap_or(v));
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

#[cfg(test)]
mod thin_layer_tests {
    use super::*;

    /// `column` (bottom up) in every column of a 3 × n × 3 wide input, through
    /// [`keep_thin_layers`]: the kept middle column.
    fn kept(column: &[Voxel]) -> Vec<Voxel> {
        let table = MaterialTable::builtin();
        let lut = MaterialLut::new(&table);
        let wy = column.len();
        let mut wide = Vec::new();
        for _z in 0..3 {
            for &v in column {
                wide.extend([v; 3]);
            }
        }
        let mut out = Vec::new();
        let size = keep_thin_layers(&wide, [3, wy, 3], &lut, &mut out);
        assert_eq!(size, [1, wy - 2, 1]);
        out
    }

    #[test]
    fn each_sample_is_decided_by_its_own_column_neighbours_alone() {
        let table = MaterialTable::builtin();
        let water = (0..=255u8)
            .find(|&m| table.get(m).is_some_and(|t| t.liquid))
            .expect("a liquid");
        let (air, rock) = (Voxel::AIR, Voxel::new(2, 60));
        let liquid = Voxel::filled(water);
        // Air under a lake, a thin rock layer in air, then a tall lake: cut anywhere, a window
        // of the column decides every sample it keeps as the whole column does.
        let column = [
            air, air, rock, air, air, liquid, liquid, liquid, liquid, air, air,
        ];
        let whole = kept(&column);
        assert_eq!(
            whole[1].occupancy, KEPT_LAYER,
            "the thin rock layer is kept"
        );
        assert_eq!(whole[3], air, "the air under the lake stays air");
        assert!(
            whole[4].occupancy == 255 && table.get(whole[4].material).is_some_and(|m| !m.liquid),
            "the lake's lowest sample becomes its bed: {:?}",
            whole[4]
        );
        assert!(table.get(whole[5].material).is_some_and(|m| m.liquid));
        for lo in 0..column.len() - 3 {
            for hi in lo + 3..=column.len() {
                // The same shape; a bed's material (its colour) may come from elsewhere.
                let shape = |v: &[Voxel]| -> Vec<(bool, u8)> {
                    v.iter()
                        .map(|v| (table.get(v.material).is_some_and(|m| m.liquid), v.occupancy))
                        .collect()
                };
                let part = kept(&column[lo..hi]);
                assert_eq!(shape(&part), shape(&whole[lo..hi - 2]), "window {lo}..{hi}");
            }
        }
    }
}
