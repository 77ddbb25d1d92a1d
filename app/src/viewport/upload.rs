//! Mesher output to GPU-ready meshes: one [`ChunkUpload`] per chunk and level of detail, built on the
//! UI thread (in parallel with rayon) and handed to the scene, which uploads it inside the paint
//! callback where the GL context is current.
//!
//! ```text
//!   MeshBuffer (shared vertices, solid / water / skirt index lists)
//!     ├─ solid + skirt indices ─> compact vertices ─> CpuMesh (positions, normals, sRGB colors)
//!     └─ water indices        ─> compact vertices ─> CpuMesh (drawn translucent)
//! ```
//!
//! Vertex colors blend the vertex's up to four materials by weight in linear light, so material
//! borders fade over one cell like the exported meshes do.

use rustc_hash::FxHashMap;
use three_d::{CpuMesh, Indices, Positions, Srgba, Vec3};

use strata_engine::mesh::{mesh_chunk, MeshBuffer};
use strata_engine::storage::Grid;
use strata_engine::voxel::{linear_palette, linear_to_srgb, ChunkPos, MaterialTable};

/// The meshes of one chunk at one level of detail; `None` parts have no triangles.
pub struct ChunkUpload {
    /// Which chunk.
    pub pos: ChunkPos,
    /// Level of detail the mesh was built at.
    pub lod: u32,
    /// Ground (and LOD skirts).
    pub solid: Option<CpuMesh>,
    /// Water surface.
    pub water: Option<CpuMesh>,
    /// Triangles in both parts.
    pub triangles: usize,
}

/// Linear-light colors of every material id.
#[derive(Debug, Clone)]
pub struct Palette {
    linear: Vec<[f32; 3]>,
}

impl Palette {
    /// The palette of `table`; unknown ids are mid grey.
    pub fn new(table: &MaterialTable) -> Self {
        Self {
            linear: linear_palette(table).to_vec(),
        }
    }

    fn blend(&self, ids: [u8; 4], weights: [u8; 4]) -> Srgba {
        let mut c = [0f32; 3];
        for (id, w) in ids.iter().zip(weights) {
            if w == 0 {
                continue;
            }
            let w = f32::from(w) / 255.0;
            let m = self.linear[usize::from(*id)];
            for k in 0..3 {
                c[k] += m[k] * w;
            }
        }
        Srgba::new(
            linear_to_srgb(c[0]),
            linear_to_srgb(c[1]),
            linear_to_srgb(c[2]),
            255,
        )
    }
}

/// Mesh `pos` at `lod` into `buf` and convert it. Errors (a LOD out of range) give an empty upload,
/// which removes the chunk's old mesh.
pub fn build(
    grid: &Grid,
    table: &MaterialTable,
    palette: &Palette,
    pos: ChunkPos,
    lod: u32,
    buf: &mut MeshBuffer,
) -> ChunkUpload {
    if mesh_chunk(grid, pos, lod, table, buf).is_err() {
        buf.clear();
    }
    let solid_idx: Vec<u32> = buf
        .solid_indices
        .iter()
        .chain(&buf.skirt_indices)
        .copied()
        .collect();
    let solid = compact(buf, &solid_idx, palette);
    let water = compact(buf, &buf.water_indices, palette);
    ChunkUpload {
        pos,
        lod,
        triangles: (solid_idx.len() + buf.water_indices.len()) / 3,
        solid,
        water,
    }
}

/// A mesh of only the vertices `indices` uses.
fn compact(buf: &MeshBuffer, indices: &[u32], palette: &Palette) -> Option<CpuMesh> {
    if indices.is_empty() {
        return None;
    }
    let mut map: FxHashMap<u32, u32> = FxHashMap::default();
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut colors = Vec::new();
    let mut out = Vec::with_capacity(indices.len());
    for &i in indices {
        let next = positions.len() as u32;
        let j = *map.entry(i).or_insert_with(|| {
            let k = i as usize;
            positions.push(Vec3::from(buf.positions[k]));
            normals.push(Vec3::from(buf.normals[k]));
            colors.push(palette.blend(buf.materials[k], buf.weights[k]));
            next
        });
        out.push(j);
    }
    Some(CpuMesh {
        positions: Positions::F32(positions),
        indices: Indices::U32(out),
        normals: Some(normals),
        colors: Some(colors),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

    #[test]
    fn a_flat_ground_chunk_becomes_one_solid_mesh_with_material_colors() {
        let table = MaterialTable::builtin();
        let grass = table.require("Grass").expect("grass");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 10, 64)),
            Voxel::new(grass, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let up = build(&grid, &table, &palette, ChunkPos::new(0, 0, 0), 0, &mut buf);
        let mesh = up.solid.expect("ground");
        assert!(up.water.is_none());
        assert!(up.triangles > 0);
        let (r, g, b) = table.materials[usize::from(grass)].color;
        let colors = mesh.colors.as_ref().expect("colors");
        assert!(
            colors.iter().all(|c| c.r == r && c.g == g && c.b == b),
            "{:?}",
            colors[0]
        );
        let Indices::U32(idx) = &mesh.indices else {
            panic!("u32 indices")
        };
        assert!(idx.iter().all(|&i| (i as usize) < colors.len()));
    }

    #[test]
    fn water_is_kept_apart() {
        let table = MaterialTable::builtin();
        let water = table.require("Water").expect("water");
        let rock = table.require("Rock").expect("rock");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(40, 6, 40)),
            Voxel::new(rock, 255),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 6, 0), VoxelPos::new(40, 12, 40)),
            Voxel::new(water, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let up = build(&grid, &table, &palette, ChunkPos::new(0, 0, 0), 0, &mut buf);
        assert!(up.water.is_some());
        assert!(up.solid.is_some());
    }
}
