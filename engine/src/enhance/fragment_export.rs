//! Writing a box of fragments: raw bytes, a MagicaVoxel file, or the visible faces as OBJ / glb.
//!
//! ```text
//!   .raw  one byte per fragment (material id, 0 empty), X fastest, then Y, then Z, no header;
//!         streamed one voxel layer (f fragment layers) at a time
//!   .vox  MagicaVoxel, 256³ models (vox.rs)
//!   .obj  the mesh's OBJ + MTL writer (sRGB vertex colours, one usemtl group per material)
//!   .glb  the mesh's glTF writer (linear COLOR_0, flat normals)
//! ```
//!
//! Every format covers the fragments of the voxels in the box, computed with the real neighbours
//! outside it. The meshes are closed where the box cuts the terrain. Each format has a size limit
//! ([`OutputFormat::max_fragments`]), checked before any work starts.

use std::io::Write;
use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};

use super::face_light::{light_faces, FaceLight};
use super::face_mesh::{mesh_fragment_chunk, FragmentMesh};
use super::volume::{FragmentBox, FragmentVolume};
use crate::format::{write_atomic, AtomicFile};
use crate::mesh::gltf::glb_bytes;
use crate::mesh::obj::ObjWriter;
use crate::mesh::weld::Marks;
use crate::mesh::weld::Welded;
use crate::progress::Progress;
use crate::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos};
use crate::{Error, Result};

/// The file formats of enhanced fragments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// One byte per fragment.
    Raw,
    /// MagicaVoxel.
    Vox,
    /// Wavefront OBJ + MTL of the visible faces.
    Obj,
    /// Binary glTF 2.0 of the visible faces.
    Glb,
}

impl OutputFormat {
    /// The format named by `path`'s extension (case-insensitive).
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "raw" => Some(Self::Raw),
            "vox" => Some(Self::Vox),
            "obj" => Some(Self::Obj),
            "glb" => Some(Self::Glb),
            _ => None,
        }
    }

    /// The extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Vox => "vox",
            Self::Obj => "obj",
            Self::Glb => "glb",
        }
    }

    /// Most fragments a box may hold for this format: 2³² for raw (4 GiB), 2²⁸ for vox (its chunk
    /// sizes are 32-bit: 4 bytes per solid fragment must stay under 2 GiB), 2³⁰ for the meshes.
    pub fn max_fragments(self) -> u64 {
        match self {
            Self::Raw => 1 << 32,
            Self::Vox => 1 << 28,
            Self::Obj | Self::Glb => 1 << 30,
        }
    }

    /// Check that box `b` at factor `f` fits this format's limit.
    ///
    /// # Errors
    /// [`Error::Invalid`] with the box's fragment count and the limit.
    pub fn check_size(self, b: VoxelBox, f: usize) -> Result<()> {
        let [x, y, z] = b.size().map(|d| d as u128 * f as u128);
        let n = x * y * z;
        let max = u128::from(self.max_fragments());
        if n > max {
            return Err(Error::Invalid(format!(
                "the box holds {n} fragments at {f} per voxel edge; .{} output is limited to {max} \
                 (2^{}): use a smaller box or fewer levels",
                self.extension(),
                max.trailing_zeros()
            )));
        }
        Ok(())
    }
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportSummary {
    /// Fragments in the box.
    pub fragments: u64,
    /// Solid fragments in the box (raw and vox).
    pub solid_fragments: u64,
    /// MagicaVoxel models written (vox).
    pub models: usize,
    /// Visible faces written (obj and glb).
    pub faces: usize,
    /// Vertices written (obj and glb).
    pub vertices: usize,
}

/// Write the fragments of the voxels of `b` as raw bytes at `path`, one progress unit per voxel layer.
///
/// # Errors
/// [`Error::Invalid`] over the size limit, [`Error::Io`], [`Error::Cancelled`].
pub fn export_raw(
    volume: &FragmentVolume<'_>,
    b: VoxelBox,
    path: &Path,
    progress: &Progress,
) -> Result<ExportSummary> {
    OutputFormat::Raw.check_size(b, volume.factor())?;
    let f = volume.factor();
    let mut file = AtomicFile::create(path)?;
    let mut slab = Vec::new();
    let mut solid = 0u64;
    progress.start(b.size()[2] as u64);
    for z in b.min.z..b.max.z {
        progress.check()?;
        let layer = VoxelBox::new(
            VoxelPos::new(b.min.x, b.min.y, z),
            VoxelPos::new(b.max.x, b.max.y, z + 1),
        );
        let fb = FragmentBox::of_voxels(layer, f);
        slab.clear();
        slab.resize(fb.volume(), 0);
        volume.read_box(fb, &mut slab);
        solid += slab.iter().filter(|&&c| c != 0).count() as u64;
        file.write_all(&slab).map_err(|e| Error::io(path, e))?;
        progress.advance(1);
    }
    file.commit()?;
    Ok(ExportSummary {
        fragments: FragmentBox::of_voxels(b, f).volume() as u64,
        solid_fragments: solid,
        ..ExportSummary::default()
    })
}

/// Write the fragments of the voxels of `b` as a MagicaVoxel file at `path`.
///
/// # Errors
/// As [`export_raw`].
pub fn export_vox(
    volume: &FragmentVolume<'_>,
    b: VoxelBox,
    table: &MaterialTable,
    path: &Path,
    progress: &Progress,
) -> Result<ExportSummary> {
    let f = volume.factor();
    OutputFormat::Vox.check_size(b, f)?;
    let fb = FragmentBox::of_voxels(b, f);
    let (models, solid) = super::vox::write_vox(volume, fb, table, path, progress)?;
    Ok(ExportSummary {
        fragments: fb.volume() as u64,
        solid_fragments: solid,
        models,
        ..ExportSummary::default()
    })
}

/// Vertex key for welding: position bits, face direction, material, colour bits.
type WeldKey = ([u32; 3], u8, u8, [u32; 3]);

fn direction(n: [f32; 3]) -> u8 {
    (0..3)
        .find(|&a| n[a] != 0.0)
        .map_or(0, |a| 2 * a as u8 + u8::from(n[a] > 0.0))
}

/// Append `mesh` to `welded`, sharing vertices of the same position, direction and material.
fn weld_into(welded: &mut Welded, map: &mut FxHashMap<WeldKey, u32>, mesh: &FragmentMesh) {
    let mut remap = Vec::with_capacity(mesh.positions.len());
    for (i, p) in mesh.positions.iter().enumerate() {
        // Lit faces meeting at a vertex can differ in colour: the colour is part of the key.
        let key = (
            p.map(f32::to_bits),
            direction(mesh.normals[i]),
            mesh.materials[i],
            mesh.colors[i].map(f32::to_bits),
        );
        let next = welded.positions.len() as u32;
        let g = *map.entry(key).or_insert(next);
        if g == next {
            welded.positions.push(*p);
            welded.normals.push(mesh.normals[i]);
            welded.colors.push(mesh.colors[i]);
            // The face's light: its colour over its material's (which it is a multiple of).
            let base = welded.base_color(mesh.materials[i]);
            let c = mesh.colors[i];
            welded.light.push(std::array::from_fn(|a| {
                if base[a] > 1e-4 {
                    c[a] / base[a]
                } else {
                    1.0
                }
            }));
            welded.material.push(mesh.materials[i]);
        }
        remap.push(g);
    }
    welded
        .solid
        .extend(mesh.indices.iter().map(|&i| remap[i as usize]));
}

/// The chunks of `b` with anything to draw: stored grid chunks, chunks with stored blocks, and the
/// neighbours of both (fragments can grow into an empty chunk). Sorted Z, Y, X.
fn chunks_with_faces(volume: &FragmentVolume<'_>, b: VoxelBox) -> Vec<ChunkPos> {
    let mut set: FxHashSet<ChunkPos> = volume.grid().chunks().map(|(p, _)| p).collect();
    set.extend(volume.enhanced().chunk_positions());
    b.chunks().filter(|p| set.contains(p)).collect()
}

/// Write the visible fragment faces of the voxels of `b` as OBJ (+ MTL) or glb at `path`, one progress
/// unit per chunk, their colours multiplied by `light`.
///
/// # Errors
/// As [`export_raw`]; [`Error::Invalid`] for a format that is not a mesh.
pub fn export_mesh(
    volume: &FragmentVolume<'_>,
    b: VoxelBox,
    table: &MaterialTable,
    format: OutputFormat,
    path: &Path,
    light: FaceLight<'_>,
    progress: &Progress,
) -> Result<ExportSummary> {
    if !matches!(format, OutputFormat::Obj | OutputFormat::Glb) {
        return Err(Error::Invalid(format!(
            ".{} is not a mesh format",
            format.extension()
        )));
    }
    format.check_size(b, volume.factor())?;
    let chunks = chunks_with_faces(volume, b);
    progress.start(chunks.len() as u64);
    let mut obj = match format {
        OutputFormat::Obj => Some(ObjWriter::create(path, table)?),
        _ => None,
    };
    let mut welded = Welded::new(table);
    let mut map = FxHashMap::default();
    let mut mesh = FragmentMesh::new();
    let mut faces = 0;
    for pos in chunks {
        progress.check()?;
        mesh_fragment_chunk(volume, table, pos, Some(b), &mut mesh);
        light_faces(&mut mesh, light, volume.factor());
        faces += mesh.quad_count();
        let marks = Marks {
            vertices: welded.positions.len(),
            solid: welded.solid.len(),
            water: 0,
        };
        weld_into(&mut welded, &mut map, &mesh);
        if let Some(w) = obj.as_mut() {
            w.append(&welded, marks)?;
        }
        progress.advance(1);
    }
    match obj {
        Some(w) => w.finish()?,
        None => write_atomic(path, &glb_bytes(&welded, table, None)?)?,
    }
    Ok(ExportSummary {
        fragments: FragmentBox::of_voxels(b, volume.factor()).volume() as u64,
        faces,
        vertices: welded.positions.len(),
        ..ExportSummary::default()
    })
}
