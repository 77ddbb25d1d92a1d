//! The smooth-terrain mesher: voxels in, triangles with materials out.
//!
//! # Surface
//! Every voxel is a density sample at its centre (`occupancy − 0.5` for matter, `−0.5` for empty
//! space); the surface is where occupancy crosses one half. Shapes come from occupancy across
//! neighbours, not from voxel cubes: a full voxel beside a quarter-full one pushes the surface past
//! their shared face into the neighbour (the seed's "overflow"), and a lone full voxel of a smooth
//! material becomes a small blob well inside its voxel (its six crossings sit on its face centres and
//! surface nets averages them), while a sharp one keeps its cube.
//!
//! The mesher is *surface nets* (one vertex per surface cell that an emitted quad uses, one quad per
//! sign-changing edge, see `nets`) with *dual contouring* placement for `Sharp` materials (`qef`):
//! smooth materials round off, sharp ones keep flat faces and hard edges (to within 1/100 voxel: the
//! QEF keeps a slight pull toward the surface-nets point so it stays well-posed on flat faces). Solid ground and water are contoured
//! as two fields, and water faces against solid are dropped, so water is its own sheet in
//! [`MeshBuffer::water_indices`].
//!
//! # Chunks and seams
//! A chunk is meshed from its voxels plus a two-sample border ([`MeshInput`], [`BORDER`]). It emits the
//! quads of the edges that start inside it, so a world meshed chunk by chunk has the same triangles as
//! the world meshed as one box: no cracks and no duplicate faces. Empty and full chunks (decided from
//! the chunk flags and the 4³ mip of the neighbours) return at once.
//!
//! # LOD
//! At LOD `l` (1..=3) a chunk is meshed from its `32 >> l` mip with the same algorithm; each sample then
//! spans `2^l` voxels. Seams between chunks of different LOD are hidden with **skirts** (`skirt`), not
//! transition cells. Skirts need nothing from the neighbours, so a chunk's mesh does not depend on the
//! LOD its neighbours happen to have and never has to be rebuilt when they change level; transition
//! cells (Transvoxel) would tie every mesh to its neighbours' levels and are defined for marching
//! cubes, not for surface nets. The cost — a little overdraw where the skirt hides inside the terrain —
//! is small, and skirts live in their own index list, so physics and export never see them.
//!
//! A viewer of a large world meshes **nodes** (`node`): cubes of `2^l` chunks meshed as one at LOD
//! `l`, up to 32 chunks a side from one sample per chunk, so distant terrain costs a few small meshes.
//!
//! ```
//! use strata_engine::mesh::{mesh_chunk, MeshBuffer};
//! use strata_engine::storage::Grid;
//! use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};
//!
//! let table = MaterialTable::builtin();
//! let mut grid = Grid::new();
//! grid.fill_box(VoxelBox::new(VoxelPos::new(4, 4, 4), VoxelPos::new(12, 12, 12)), Voxel::filled(7));
//! let mut buf = MeshBuffer::new();
//! mesh_chunk(&grid, ChunkPos::new(0, 0, 0), 0, &table, &mut buf).unwrap();
//! assert!(buf.solid_indices.len() > 0 && buf.water_indices.is_empty());
//! ```

mod buffer;
mod components;
mod cube;
pub(crate) mod export;
mod field;
pub(crate) mod gltf;
mod input;
#[cfg(test)]
mod lod_fidelity;
mod nets;
mod node;
pub(crate) mod obj;
mod qef;
mod ramp;
mod skirt;
#[cfg(test)]
mod tests;
pub(crate) mod weld;

/// Moved to [`crate::voxel`]; re-exported here so existing paths keep working.
pub use crate::voxel::{linear_palette, linear_to_srgb, srgb_to_linear};
pub use buffer::{MaterialSlots, MeshBuffer};
pub use export::{
    export_glb, export_glb_lit, export_obj, export_obj_lit, surface_owners, ExportStats,
};
pub use input::{MeshInput, BORDER, MAX_LOD};
pub use node::{mesh_node, NodeKey, MAX_NODE_LEVEL};

use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, VoxelPos, CHUNK_SIZE};
use crate::{Error, Result};
use field::{MaterialLut, Surface};

/// Mesh `input` into `buf` (cleared first): solid triangles, then water triangles. No skirts.
pub fn mesh(input: &MeshInput, table: &MaterialTable, buf: &mut MeshBuffer) {
    buf.clear();
    let lut = MaterialLut::new(table);
    if nets::extract(input, &lut, Surface::Solid, buf) {
        nets::extract(input, &lut, Surface::Water, buf);
    }
}

/// Mesh chunk `chunk_pos` of `grid` at level of detail `lod` (0 = full resolution, 1..=3 = the 16³,
/// 8³ and 4³ mips) into `buf` (cleared first). At `lod > 0` skirts are added along the chunk's rim.
///
/// Chunks with no surface (empty, or full and surrounded by full chunks) return without reading
/// voxels.
///
/// # Errors
/// [`Error::Invalid`] when `lod > MAX_LOD`.
pub fn mesh_chunk(
    grid: &Grid,
    chunk_pos: ChunkPos,
    lod: u32,
    table: &MaterialTable,
    buf: &mut MeshBuffer,
) -> Result<()> {
    mesh_chunk_with(grid, chunk_pos, lod, table, buf, true)
}

/// [`mesh_chunk`], with skirts only when `skirts` is set (export never draws them).
pub(crate) fn mesh_chunk_with(
    grid: &Grid,
    chunk_pos: ChunkPos,
    lod: u32,
    table: &MaterialTable,
    buf: &mut MeshBuffer,
    skirts: bool,
) -> Result<()> {
    if lod > MAX_LOD {
        return Err(Error::Invalid(format!(
            "LOD {lod} does not exist (0 to {MAX_LOD})"
        )));
    }
    buf.clear();
    if input::is_trivial(grid, chunk_pos, table) {
        return Ok(());
    }
    let mut voxels = std::mem::take(&mut buf.scratch.voxels);
    let size = input::gather_chunk(grid, chunk_pos, lod, &mut voxels);
    let min = chunk_pos.min_voxel();
    let border = (BORDER << lod) as i32;
    let origin = VoxelPos::new(min.x - border, min.y - border, min.z - border);
    let inp = MeshInput::with_lod(&voxels, size, origin, lod);
    mesh(&inp, table, buf);
    if skirts && lod > 0 {
        skirt::add_skirts(buf, &inp, table);
    }
    buf.scratch.voxels = voxels;
    Ok(())
}

/// Samples per chunk edge at `lod`.
pub fn samples_per_chunk(lod: u32) -> usize {
    CHUNK_SIZE >> lod.min(MAX_LOD)
}
