//! Meshing one chunk: gather its voxels (at a LOD, with a border), run the mesher over solid then
//! water, add skirts at coarse LODs. The LOD nodes and the exports build on these.

use super::buffer::MeshBuffer;
use super::input::{self, MeshInput, BORDER, MAX_LOD};
use super::mesh_field::{MaterialLut, Surface};
use super::{nets, skirt};
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, VoxelPos, CHUNK_SIZE};
use crate::{Error, Result};

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
