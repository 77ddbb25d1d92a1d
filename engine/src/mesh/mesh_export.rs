//! Whole-world mesh export: mesh chunk by chunk with progress, weld, hand the result to a writer.
//!
//! ```text
//!   chunks, sorted Z, Y, X
//!     │ 32 at a time, in parallel (rayon)
//!     ▼
//!   mesh_chunk ──> MeshBuffer ×32 ──Welded::add, in chunk order──> one welded mesh
//!                                      │                             │ after each chunk
//!                            Progress::advance(1)          obj: stream the new tail to disk
//!                                                          glb: written once at the end
//! ```
//!
//! With baked light, each vertex's colour is multiplied by the light sampled from the surface voxels
//! around it ([`LightMap::sample`]) and clamped to 1; vertices with no lit voxel near keep their colour.
//!
//! With a region, voxels outside it read as Air, so the exported piece is closed where the box cuts
//! the terrain. Skirts are never exported: every chunk uses the same LOD, so there are no LOD seams.

use std::path::Path;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::buffer::MeshBuffer;
use super::input::{gather_chunk, is_trivial, MeshInput, BORDER, MAX_LOD};
use super::mesher::{mesh, mesh_chunk_with};
use super::weld::{Marks, Welded};
use crate::light::LightMap;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};
use crate::{Error, Result};

/// Chunks meshed in parallel before their meshes are welded, in order, on the calling thread.
const BATCH: usize = 32;

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportStats {
    /// Chunks visited.
    pub chunks: usize,
    /// Welded vertices written.
    pub vertices: usize,
    /// Solid triangles written.
    pub solid_triangles: usize,
    /// Water triangles written.
    pub water_triangles: usize,
}

/// Write the mesh of `grid` (or of `region` only) at `lod` as Wavefront OBJ at `obj_path`, with its
/// materials in a `.mtl` file beside it (same stem). Reports one progress unit per chunk.
///
/// # Errors
/// [`Error::Invalid`] for a bad LOD or an empty region, [`Error::Cancelled`] when `progress` is
/// cancelled, [`Error::Io`] when a file cannot be written.
pub fn export_obj(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    obj_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    export_obj_lit(grid, table, lod, region, None, obj_path, progress)
}

/// [`export_obj`] with the vertex colours multiplied by `light` when given.
///
/// # Errors
/// As [`export_obj`].
pub fn export_obj_lit(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    light: Option<&LightMap>,
    obj_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    let mut writer = super::obj::ObjWriter::create(obj_path, table)?;
    let welded = mesh_world(grid, table, lod, region, light, progress, |w, m| {
        writer.append(w, m)
    })?;
    writer.finish()?;
    Ok(stats_of(&welded, progress))
}

/// Write the mesh of `grid` (or of `region` only) at `lod` as binary glTF 2.0 at `glb_path`: one mesh
/// with a solid and a water primitive, normals and linear vertex colors (`COLOR_0`). Reports one
/// progress unit per chunk.
///
/// # Errors
/// As [`export_obj`].
pub fn export_glb(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    glb_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    export_glb_lit(grid, table, lod, region, None, glb_path, progress)
}

/// [`export_glb`] with the vertex colours multiplied by `light` when given.
///
/// # Errors
/// As [`export_obj`].
pub fn export_glb_lit(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    light: Option<&LightMap>,
    glb_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    let welded = mesh_world(grid, table, lod, region, light, progress, |_, _| Ok(()))?;
    let bytes = super::gltf::glb_bytes(&welded, table)?;
    crate::format::write_atomic(glb_path, &bytes)?;
    Ok(stats_of(&welded, progress))
}

fn stats_of(w: &Welded, progress: &Progress) -> ExportStats {
    ExportStats {
        chunks: progress.counts().1 as usize,
        vertices: w.positions.len(),
        solid_triangles: w.solid.len() / 3,
        water_triangles: w.water.len() / 3,
    }
}

/// Mesh every chunk with surface, weld, and call `after_chunk` with the mesh and where the chunk's
/// additions start.
pub(crate) fn mesh_world(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    light: Option<&LightMap>,
    progress: &Progress,
    mut after_chunk: impl FnMut(&Welded, Marks) -> Result<()>,
) -> Result<Welded> {
    if lod > MAX_LOD {
        return Err(Error::Invalid(format!(
            "LOD {lod} does not exist (0 to {MAX_LOD})"
        )));
    }
    if region.is_some_and(|r| r.is_empty()) {
        return Err(Error::Invalid("the export box is empty".into()));
    }
    let chunks = chunks_to_mesh(grid, lod, region);
    progress.start(chunks.len() as u64);
    let mut welded = Welded::new(table);
    let mut bufs: Vec<MeshBuffer> = Vec::new();
    bufs.resize_with(BATCH.min(chunks.len()), MeshBuffer::new);
    for batch in chunks.chunks(BATCH) {
        progress.check()?;
        bufs[..batch.len()]
            .par_iter_mut()
            .zip(batch.par_iter())
            .try_for_each_init(Vec::new, |scratch, (buf, &pos)| match region {
                Some(r) if !r.contains_box(&MeshInput::padded_box(pos.voxel_box())) => {
                    mesh_clipped(grid, pos, lod, table, r, scratch, buf);
                    Ok(())
                }
                _ => mesh_chunk_with(grid, pos, lod, table, buf, false),
            })?;
        for buf in &bufs[..batch.len()] {
            let marks = Marks {
                vertices: welded.positions.len(),
                solid: welded.solid.len(),
                water: welded.water.len(),
            };
            welded.add(buf);
            if let Some(light) = light {
                light_vertices(&mut welded, marks.vertices, light);
            }
            after_chunk(&welded, marks)?;
            progress.advance(1);
        }
    }
    Ok(welded)
}

/// Multiply the colours of vertices `from..` by the light sampled at their positions.
fn light_vertices(w: &mut Welded, from: usize, light: &LightMap) {
    for (c, p) in w.colors[from..].iter_mut().zip(&w.positions[from..]) {
        if let Some(l) = light.sample(*p) {
            for a in 0..3 {
                c[a] = (c[a] * l[a]).clamp(0.0, 1.0);
            }
        }
    }
}

/// The chunks whose meshes can hold surface of stored chunk `p`: `p` and its −X, −Y and −Z
/// neighbours (the mesher puts the faces between two chunks in the lower one, so an empty chunk owns
/// the edges into the chunk above it). Exporters and the editor mesh exactly these.
pub fn surface_owners(p: ChunkPos) -> [ChunkPos; 4] {
    [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [0, 0, -1]]
        .map(|d| ChunkPos::new(p.x + d[0], p.y + d[1], p.z + d[2]))
}

/// Chunks that can own surface: stored chunks and their −X, −Y and −Z neighbours (an empty chunk owns
/// the edges into the chunk above it), or every chunk near `region`. Sorted Z, Y, X.
fn chunks_to_mesh(grid: &Grid, lod: u32, region: Option<VoxelBox>) -> Vec<ChunkPos> {
    let set: FxHashSet<ChunkPos> = grid.chunks().flat_map(|(p, _)| surface_owners(p)).collect();
    let mut v: Vec<ChunkPos> = match region {
        None => set.into_iter().collect(),
        Some(r) => {
            let s = 1i32 << lod;
            let grown = VoxelBox::new(VoxelPos::new(r.min.x - s, r.min.y - s, r.min.z - s), r.max);
            grown.chunks().filter(|p| set.contains(p)).collect()
        }
    };
    v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    v
}

/// Mesh chunk `pos` with every sample outside `region` read as Air.
fn mesh_clipped(
    grid: &Grid,
    pos: ChunkPos,
    lod: u32,
    table: &MaterialTable,
    region: VoxelBox,
    scratch: &mut Vec<Voxel>,
    buf: &mut MeshBuffer,
) {
    buf.clear();
    if is_trivial(grid, pos, table) && grid.chunk(pos).is_none_or(|c| c.is_air()) {
        return;
    }
    let size = gather_chunk(grid, pos, lod, scratch);
    let s = 1i32 << lod;
    let min = pos.min_voxel();
    let b = BORDER as i32 * s;
    let origin = VoxelPos::new(min.x - b, min.y - b, min.z - b);
    let mut k = 0;
    for z in 0..size[2] as i32 {
        for y in 0..size[1] as i32 {
            for x in 0..size[0] as i32 {
                let p = VoxelPos::new(origin.x + x * s, origin.y + y * s, origin.z + z * s);
                if !region.contains(p) {
                    scratch[k] = Voxel::AIR;
                }
                k += 1;
            }
        }
    }
    mesh(&MeshInput::with_lod(scratch, size, origin, lod), table, buf);
}

/// True when `inner` lies inside `outer` (used to skip clipping for chunks well inside the region).
trait ContainsBox {
    fn contains_box(&self, inner: &VoxelBox) -> bool;
}

impl ContainsBox for VoxelBox {
    fn contains_box(&self, inner: &VoxelBox) -> bool {
        inner.min.x >= self.min.x
            && inner.min.y >= self.min.y
            && inner.min.z >= self.min.z
            && inner.max.x <= self.max.x
            && inner.max.y <= self.max.y
            && inner.max.z <= self.max.z
    }
}
