//! Narrowphase data of one 8³ physics cell: its LOD 0 mesh and the loose kD tree over it.
//!
//! A physics cell is meshed on its own with the terrain mesher: the input is the cell's 8³ core plus
//! the mesher's border ([`MeshInput::padded_box`], 12³ voxels), so the cell gets exactly the
//! triangles of the edges that start inside it — the same triangles that the 32³ storage-chunk mesh
//! or a whole-world mesh has there, with positions snapped to the 1/4096-voxel grid of the compact
//! [`CellMesh`]. Solid and water triangles share one tree; water quads come after the solid ones.
//!
//! ```text
//!   core (8³) ──padded_box──> 12³ voxels ──mesh──> MeshBuffer ──compact──> CellShape { mesh, tree }
//!   triangle vertices lie in the cells around the core's edges: within 0.5 voxel of the core box
//! ```
//!
//! Vertices sit inside their cell (the sharp placement is clamped to it), and a cell's edges start in
//! its core, so every triangle of cell `c` lies in the box `8c − 0.5 ..= 8c + 8.5`: a triangle can
//! spill half a voxel into a neighbouring cell's region. [`SPILL`] is the margin world queries use.

use super::broadphase::PHYSICS_CELL;
use super::cell_mesh::CellMesh;
use super::kdtree::{self, KdTree, TriangleMesh};
use crate::mesh::{mesh, MeshBuffer, MeshInput};
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};
use crate::Result;

/// How far (voxels) a cell's triangles may reach outside its box: 0.5 by construction, doubled for
/// safety.
pub const SPILL: f32 = 1.0;

/// One physics cell's mesh and tree.
#[derive(Debug, Clone, Default)]
pub struct CellShape {
    /// The compact mesh: solid quads, then water quads.
    pub mesh: CellMesh,
    /// The tree over all its triangles.
    pub tree: KdTree,
}

/// Reusable buffers for [`CellShape::build`].
#[derive(Debug, Default)]
pub struct ShapeScratch {
    voxels: Vec<Voxel>,
    mesh: MeshBuffer,
    tree: kdtree::BuildScratch,
}

impl CellShape {
    /// Mesh physics cell `cell_pos` of `grid` at LOD 0 and build its tree.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when the mesh cannot be stored compactly or the tree cannot be built
    /// (never for a mesher's output).
    pub fn build(
        grid: &Grid,
        table: &MaterialTable,
        cell_pos: [i32; 3],
        scratch: &mut ShapeScratch,
    ) -> Result<Self> {
        let min = cell_pos.map(|c| c * PHYSICS_CELL);
        let core = VoxelBox::from_min_size(VoxelPos::from(min), [PHYSICS_CELL as u32; 3]);
        let padded = MeshInput::padded_box(core);
        scratch.voxels.clear();
        scratch.voxels.resize(padded.volume(), Voxel::AIR);
        grid.read_box(padded, &mut scratch.voxels);
        let input = MeshInput::new(&scratch.voxels, padded.size(), padded.min);
        mesh(&input, table, &mut scratch.mesh);
        let mesh = CellMesh::from_mesher(&scratch.mesh, min)?;
        let mut tree = KdTree::new();
        tree.rebuild(&mesh, &mut scratch.tree)?;
        Ok(Self { mesh, tree })
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.mesh.triangle_count()
    }

    /// True when triangle `id` is a water triangle.
    pub fn is_water(&self, id: u32) -> bool {
        self.mesh.is_water(id)
    }

    /// The three corners of triangle `id`.
    ///
    /// # Panics
    /// If `id` is out of range.
    pub fn corners(&self, id: u32) -> [[f32; 3]; 3] {
        self.mesh.corners(id)
    }

    /// The material at `point` on triangle `id` (see [`super::cell_mesh::blend_material`]).
    ///
    /// # Panics
    /// If `id` is out of range.
    pub fn material_at(&self, id: u32, point: [f32; 3]) -> u8 {
        self.mesh.material_at(id, point)
    }

    /// Bytes held: the mesh and the tree, arrays by length, structs included.
    pub fn memory_bytes(&self) -> usize {
        self.mesh.memory_bytes() + self.tree.memory_bytes()
    }
}
