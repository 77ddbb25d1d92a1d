//! The smooth-terrain mesher: voxels in, triangles with materials out.
//!
//! # Surface
//! Every voxel is a density sample at its centre (`occupancy − 0.5` for matter, `−0.5` for empty
//! space); the surface is where occupancy crosses one half. Shapes come from occupancy across
//! neighbours, not from voxel cubes: a full voxel beside a quarter-full one pushes the surface past
//! their shared face into the neighbour ("overflow"), and a lone full voxel of a smooth
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
#[cfg(test)]
mod export_tests;
pub(crate) mod gltf;
mod input;
#[cfg(test)]
mod lod_fidelity;
#[cfg(test)]
mod mesh_digest_tests;
pub(crate) mod mesh_export;
mod mesh_field;
#[cfg(test)]
mod mesh_tests;
mod mesher;
mod needed_rows;
mod nets;
mod node;
pub(crate) mod obj;
mod one_material_rows;
mod qef;
mod quads;
mod ramp;
mod scene;
mod set_bits;
mod skirt;
#[cfg(test)]
mod tall_box_tests;
#[cfg(test)]
mod test_rng;
mod vertex_blend;
mod vertex_normals;
pub(crate) mod weld;

pub use buffer::{MaterialSlots, MeshBuffer};
pub use input::{MeshInput, BORDER, MAX_LOD, MAX_NODE_LEVEL};
pub use mesh_export::{
    export_glb, export_glb_lit, export_obj, export_obj_lit, surface_owners, ExportLooks,
    ExportStats,
};
pub(crate) use mesher::mesh_chunk_with;
pub use mesher::{mesh, mesh_chunk, samples_per_chunk};
pub use node::{mesh_node, NodeKey};
pub use obj::obj_material_path;
pub use scene::{
    export_scene, scene_bytes, SceneCompression, SceneContainer, SceneOptions, SceneStats,
    DEFAULT_SCENE_LODS, DEFAULT_TILE_VOXELS, MAX_SCENE_LODS,
};
