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
use super::mesher::mesh;
use super::weld::{Marks, Welded};
use crate::light::LightMap;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, Textures, Voxel, VoxelBox, VoxelPos};
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
    export_obj_lit(
        grid,
        table,
        lod,
        region,
        ExportLooks::default(),
        obj_path,
        progress,
    )
}

/// What a mesh export draws besides the voxels and the material table: the baked light (vertex
/// colours) and the material textures (glb only).
#[derive(Debug, Clone, Copy, Default)]
pub struct ExportLooks<'a> {
    /// The project's baked light, if any.
    pub light: Option<&'a LightMap>,
    /// The project's texture images, if the textured materials should carry them.
    pub textures: Option<&'a Textures>,
}

/// [`export_obj`] with the vertex colours multiplied by the light of `looks` when given.
///
/// # Errors
/// As [`export_obj`].
pub fn export_obj_lit(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    looks: ExportLooks<'_>,
    obj_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    let mut writer = super::obj::ObjWriter::create(obj_path, table)?;
    let welded = mesh_world(grid, table, lod, region, looks.light, progress, |w, m| {
        writer.append(w, m)
    })?;
    writer.finish()?;
    Ok(stats_of(&welded, progress))
}

/// Write the mesh of `grid` (or of `region` only) at `lod` as binary glTF 2.0 at `glb_path`: one mesh
/// with a primitive per material (named and coloured from `table`), normals and the light as linear
/// vertex colours (`COLOR_0`). Reports one progress unit per chunk.
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
    export_glb_lit(
        grid,
        table,
        lod,
        region,
        ExportLooks::default(),
        glb_path,
        progress,
    )
}

/// [`export_glb`] with the light and the textures of `looks` when given.
///
/// # Errors
/// As [`export_obj`].
pub fn export_glb_lit(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    looks: ExportLooks<'_>,
    glb_path: &Path,
    progress: &Progress,
) -> Result<ExportStats> {
    let welded = mesh_world(grid, table, lod, region, looks.light, progress, |_, _| {
        Ok(())
    })?;
    let bytes = super::gltf::glb_bytes(&welded, table, looks.textures)?;
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
    after_chunk: impl FnMut(&Welded, Marks) -> Result<()>,
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
    mesh_chunks(
        grid,
        table,
        lod,
        region,
        &chunks,
        light,
        progress,
        after_chunk,
    )
}

/// Mesh `chunks` (from [`chunks_to_mesh`]) at `lod` and weld them in order, advancing `progress` by
/// one per chunk without declaring its total (the caller does, so several passes share one bar).
#[expect(
    clippy::too_many_arguments,
    reason = "the export's inputs, its chunk list and its per-chunk callback"
)]
pub(crate) fn mesh_chunks(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    chunks: &[ChunkPos],
    light: Option<&LightMap>,
    progress: &Progress,
    mut after_chunk: impl FnMut(&Welded, Marks) -> Result<()>,
) -> Result<Welded> {
    let mut welded = Welded::new(table);
    welded.origin = export_origin(chunks);
    let origin = welded.origin;
    let mut bufs: Vec<MeshBuffer> = Vec::new();
    bufs.resize_with(BATCH.min(chunks.len()), MeshBuffer::new);
    for batch in chunks.chunks(BATCH) {
        progress.check()?;
        bufs[..batch.len()]
            .par_iter_mut()
            .zip(batch.par_iter())
            .for_each_init(Vec::new, |scratch, (buf, &pos)| {
                let clip =
                    region.filter(|r| !r.contains_box(&MeshInput::padded_box(pos.voxel_box())));
                mesh_for_export(grid, pos, lod, table, clip, origin, scratch, buf);
            });
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

/// Mesh `chunks` (from [`chunks_to_mesh`]) at `lod`, one buffer each in the same order (no scratch
/// kept), in parallel, advancing `progress` by one per chunk without declaring its total. For a caller
/// that welds them its own way (the scene export welds each tile apart, in parallel); the returned
/// origin is what the positions are relative to, as [`mesh_chunks`]'s weld.
///
/// # Errors
/// [`Error::Cancelled`] when `progress` is cancelled.
pub(crate) fn mesh_chunk_buffers(
    grid: &Grid,
    table: &MaterialTable,
    lod: u32,
    region: Option<VoxelBox>,
    chunks: &[ChunkPos],
    progress: &Progress,
) -> Result<(VoxelPos, Vec<MeshBuffer>)> {
    let origin = export_origin(chunks);
    let mut out = Vec::with_capacity(chunks.len());
    for batch in chunks.chunks(BATCH) {
        progress.check()?;
        let meshed: Vec<MeshBuffer> = batch
            .par_iter()
            .map_init(
                || (Vec::new(), MeshBuffer::new()),
                |(scratch, buf), &pos| {
                    let clip =
                        region.filter(|r| !r.contains_box(&MeshInput::padded_box(pos.voxel_box())));
                    mesh_for_export(grid, pos, lod, table, clip, origin, scratch, buf);
                    let mut kept = MeshBuffer::new();
                    kept.positions = std::mem::take(&mut buf.positions);
                    kept.normals = std::mem::take(&mut buf.normals);
                    kept.materials = std::mem::take(&mut buf.materials);
                    kept.weights = std::mem::take(&mut buf.weights);
                    kept.solid_indices = std::mem::take(&mut buf.solid_indices);
                    kept.water_indices = std::mem::take(&mut buf.water_indices);
                    kept
                },
            )
            .collect();
        out.extend(meshed);
        progress.advance(batch.len() as u64);
    }
    Ok((origin, out))
}

/// Multiply the colours of vertices `from..` by the light sampled at their positions.
pub(crate) fn light_vertices(w: &mut Welded, from: usize, light: &LightMap) {
    let origin = w.origin;
    let colors = w.colors[from..].iter_mut().zip(&mut w.light[from..]);
    for ((c, lit), p) in colors.zip(&w.positions[from..]) {
        if let Some(l) = light.sample_from(origin, *p) {
            *lit = l;
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
/// the edges into the chunk above it), those near `region` when there is one. Sorted Z, Y, X. The
/// work follows the stored chunks, never the box's volume, so a box of any size is cheap.
pub(crate) fn chunks_to_mesh(grid: &Grid, lod: u32, region: Option<VoxelBox>) -> Vec<ChunkPos> {
    let set: FxHashSet<ChunkPos> = grid.chunks().flat_map(|(p, _)| surface_owners(p)).collect();
    let mut v: Vec<ChunkPos> = match region {
        None => set.into_iter().collect(),
        Some(r) => {
            let s = 1i32 << lod;
            let min = VoxelPos::new(
                r.min.x.saturating_sub(s),
                r.min.y.saturating_sub(s),
                r.min.z.saturating_sub(s),
            );
            let grown = VoxelBox::new(min, r.max);
            set.into_iter()
                .filter(|p| !p.voxel_box().intersect(&grown).is_empty())
                .collect()
        }
    };
    v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    v
}

/// Farthest a chunk may lie from the world origin (in voxels) for an export in world coordinates:
/// `f32` positions keep 1/128 voxel of detail up to 2¹⁶.
const WORLD_COORDINATE_REACH: i64 = 1 << 16;

/// The position an export's vertices are relative to: the world origin when every chunk lies within
/// [`WORLD_COORDINATE_REACH`] of it, else the lowest corner of the chunks (the mesh is written
/// relative to it and the offset stated: a glTF node translation, an OBJ comment).
fn export_origin(chunks: &[ChunkPos]) -> VoxelPos {
    let far = |c: &ChunkPos| {
        let m = c.min_voxel();
        [m.x, m.y, m.z]
            .iter()
            .any(|&v| i64::from(v).abs() + 32 > WORLD_COORDINATE_REACH)
    };
    if !chunks.iter().any(far) {
        return VoxelPos::new(0, 0, 0);
    }
    let mins = chunks.iter().map(|c| c.min_voxel());
    let min = |f: fn(&VoxelPos) -> i32| mins.clone().map(|m| f(&m)).min().unwrap_or(0);
    VoxelPos::new(min(|m| m.x), min(|m| m.y), min(|m| m.z))
}

/// Mesh chunk `pos` for export, without skirts: every sample outside `clip` (when given) read as
/// Air, and positions relative to `origin`.
#[expect(
    clippy::too_many_arguments,
    reason = "one chunk's inputs and the caller's scratch"
)]
fn mesh_for_export(
    grid: &Grid,
    pos: ChunkPos,
    lod: u32,
    table: &MaterialTable,
    clip: Option<VoxelBox>,
    origin: VoxelPos,
    scratch: &mut Vec<Voxel>,
    buf: &mut MeshBuffer,
) {
    buf.clear();
    if is_trivial(grid, pos, table)
        && (clip.is_none() || grid.chunk(pos).is_none_or(|c| c.is_air()))
    {
        return;
    }
    let size = gather_chunk(grid, pos, lod, scratch);
    let s = 1i32 << lod;
    let min = pos.min_voxel();
    let b = BORDER as i32 * s;
    let first = VoxelPos::new(min.x - b, min.y - b, min.z - b);
    if let Some(region) = clip {
        let mut k = 0;
        for z in 0..size[2] as i32 {
            for y in 0..size[1] as i32 {
                for x in 0..size[0] as i32 {
                    let p = VoxelPos::new(first.x + x * s, first.y + y * s, first.z + z * s);
                    if !region.contains(p) {
                        scratch[k] = Voxel::AIR;
                    }
                    k += 1;
                }
            }
        }
    }
    let local = VoxelPos::new(first.x - origin.x, first.y - origin.y, first.z - origin.z);
    mesh(&MeshInput::with_lod(scratch, size, local, lod), table, buf);
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
