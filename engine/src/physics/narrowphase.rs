//! Narrowphase data of one 8³ physics chunk: its LOD 0 mesh and the loose kD tree over it.
//!
//! A physics chunk is meshed on its own with the terrain mesher: the input is the chunk's 8³ core plus
//! the mesher's border ([`MeshInput::padded_box`], 12³ voxels), so the chunk gets exactly the
//! triangles of the edges that start inside it — the same triangles, bit for bit, that the 32³
//! storage-chunk mesh or a whole-world mesh has there. Solid and water triangles share one tree; ids
//! below [`ChunkShape::solid_triangles`] are solid, the rest water.
//!
//! ```text
//!   core (8³) ──padded_box──> 12³ voxels ──mesh──> MeshBuffer ──copy──> ChunkShape { mesh, tree }
//!   triangle vertices lie in the cells around the core's edges: within 0.5 voxel of the core box
//! ```
//!
//! Vertices sit inside their cell (the sharp placement is clamped to it), and a chunk's edges start in
//! its core, so every triangle of chunk `c` lies in the box `8c − 0.5 ..= 8c + 8.5`: a triangle can
//! spill half a voxel into a neighbouring chunk's region. [`SPILL`] is the margin world queries use.

use super::broadphase::PHYSICS_CHUNK;
use super::kdtree::{self, KdTree};
use crate::mesh::{mesh, MaterialSlots, MeshBuffer, MeshInput};
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos, MATERIAL_COUNT};
use crate::Result;

/// How far (voxels) a chunk's triangles may reach outside its box: 0.5 by construction, doubled for
/// safety.
pub const SPILL: f32 = 1.0;

/// One physics chunk's mesh and tree.
#[derive(Debug, Clone, Default)]
pub struct ChunkShape {
    /// Vertex positions, world voxel units.
    pub positions: Vec<[f32; 3]>,
    /// Material ids per vertex, heaviest first.
    pub materials: Vec<MaterialSlots>,
    /// Weights matching `materials` (sum 255).
    pub weights: Vec<[u8; 4]>,
    /// Solid triangles, then water triangles, three indices each.
    pub indices: Vec<u32>,
    /// Number of solid triangles (they come first).
    pub solid_triangles: u32,
    /// The tree over all triangles.
    pub tree: KdTree,
}

/// Reusable buffers for [`ChunkShape::build`].
#[derive(Debug, Default)]
pub struct ShapeScratch {
    voxels: Vec<Voxel>,
    mesh: MeshBuffer,
    tree: kdtree::BuildScratch,
}

impl ChunkShape {
    /// Mesh physics chunk `chunk_pos` of `grid` at LOD 0 and build its tree.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when the tree cannot be built (never for a mesher's output).
    pub fn build(
        grid: &Grid,
        table: &MaterialTable,
        chunk_pos: [i32; 3],
        scratch: &mut ShapeScratch,
    ) -> Result<Self> {
        let min = chunk_pos.map(|c| c * PHYSICS_CHUNK);
        let core = VoxelBox::from_min_size(VoxelPos::from(min), [PHYSICS_CHUNK as u32; 3]);
        let padded = MeshInput::padded_box(core);
        scratch.voxels.clear();
        scratch.voxels.resize(padded.volume(), Voxel::AIR);
        grid.read_box(padded, &mut scratch.voxels);
        let input = MeshInput::new(&scratch.voxels, padded.size(), padded.min);
        let buf = &mut scratch.mesh;
        mesh(&input, table, buf);
        let mut indices = Vec::with_capacity(buf.solid_indices.len() + buf.water_indices.len());
        indices.extend_from_slice(&buf.solid_indices);
        indices.extend_from_slice(&buf.water_indices);
        let mut tree = KdTree::new();
        tree.rebuild(&buf.positions, &indices, &mut scratch.tree)?;
        Ok(Self {
            positions: buf.positions.clone(),
            materials: buf.materials.clone(),
            weights: buf.weights.clone(),
            indices,
            solid_triangles: (buf.solid_indices.len() / 3) as u32,
            tree,
        })
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// True when triangle `id` is a water triangle.
    pub fn is_water(&self, id: u32) -> bool {
        id >= self.solid_triangles
    }

    /// The three corners of triangle `id`.
    ///
    /// # Panics
    /// If `id` is out of range.
    pub fn corners(&self, id: u32) -> [[f32; 3]; 3] {
        let i = id as usize * 3;
        [0, 1, 2].map(|k| self.positions[self.indices[i + k] as usize])
    }

    /// The material at `point` on triangle `id`: the id with the largest blended weight, blending the
    /// three vertices' material slots with the point's barycentric coordinates (ties: lowest id).
    ///
    /// # Panics
    /// If `id` is out of range.
    pub fn material_at(&self, id: u32, point: [f32; 3]) -> u8 {
        let i = id as usize * 3;
        let verts = [0, 1, 2].map(|k| self.indices[i + k] as usize);
        let bary = barycentric(verts.map(|v| self.positions[v]), point);
        let mut score = [0.0f32; MATERIAL_COUNT];
        for (v, b) in verts.into_iter().zip(bary) {
            for (&m, &w) in self.materials[v].iter().zip(&self.weights[v]) {
                score[usize::from(m) % MATERIAL_COUNT] += b * f32::from(w) + f32::from(w) * 1e-6;
            }
        }
        let mut best = 0;
        for (m, &s) in score.iter().enumerate() {
            if s > score[best] {
                best = m;
            }
        }
        best as u8
    }

    /// Bytes held: mesh arrays (by length) plus the tree.
    pub fn memory_bytes(&self) -> usize {
        self.positions.len() * (12 + 8) + self.indices.len() * 4 + self.tree.memory_bytes()
    }
}

/// Barycentric coordinates of `p` (projected onto the triangle's plane), clamped to `0..=1`; a
/// degenerate triangle gives equal thirds.
fn barycentric([a, b, c]: [[f32; 3]; 3], p: [f32; 3]) -> [f32; 3] {
    let sub = |x: [f32; 3], y: [f32; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: [f32; 3], y: [f32; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let (v0, v1, v2) = (sub(b, a), sub(c, a), sub(p, a));
    let (d00, d01, d11) = (dot(v0, v0), dot(v0, v1), dot(v1, v1));
    let (d20, d21) = (dot(v2, v0), dot(v2, v1));
    let den = d00 * d11 - d01 * d01;
    if den.abs() <= f32::EPSILON * d00 * d11 || den == 0.0 {
        return [1.0 / 3.0; 3];
    }
    let v = ((d11 * d20 - d01 * d21) / den).clamp(0.0, 1.0);
    let w = ((d00 * d21 - d01 * d20) / den).clamp(0.0, 1.0);
    let u = (1.0 - v - w).max(0.0);
    [u, v, w]
}
