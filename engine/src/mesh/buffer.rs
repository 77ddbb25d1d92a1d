//! The caller-owned, reusable output of the mesher.
//!
//! One [`MeshBuffer`] holds one box's mesh: shared vertex attributes and three index lists that split
//! the triangles by what they are, so each consumer takes what it needs without copying.
//!
//! ```text
//!   positions[i] normals[i] materials[i] weights[i]    one entry per vertex (one per used surface cell)
//!   solid_indices   ── ground, rock, ...   (physics, viewport, export)
//!   water_indices   ── liquid surface      (viewport draws it apart, buoyancy)
//!   skirt_indices   ── LOD seam skirts     (viewport only; mesh nodes, and chunks above LOD 0)
//! ```
//!
//! # Rationale
//! Meshing runs every time a chunk changes, so nothing here is freed between calls: [`MeshBuffer::clear`]
//! keeps every capacity, and the scratch arrays the mesher needs (densities, cell → vertex map) live in
//! the buffer too. A chunk re-mesh therefore allocates nothing once the buffer has grown.

/// Material blending data of one vertex: up to four material ids with weights that sum to 255.
///
/// The ids are the materials of the matter around the vertex, heaviest first; unused slots have weight
/// 0. A renderer blends the four materials' textures with the weights; across a triangle it passes all
/// three vertices' ids as flat attributes and the weights interpolated, so borders blend smoothly.
pub type MaterialSlots = [u8; 4];

/// Scratch arrays reused between mesh calls.
#[derive(Debug, Default, Clone)]
pub(crate) struct Scratch {
    /// One density sample per input voxel.
    pub density: Vec<f32>,
    /// Vertex index of each cell that has one (other entries are stale and never read).
    pub cell_vertex: Vec<u32>,
    /// Per-row states, inside bits and needed flags.
    pub rows: super::mesh_field::Rows,
    /// Corner inside-mask of each surface cell (stale elsewhere).
    pub cell_mask: Vec<u8>,
    /// Gathered voxels for `mesh_chunk`.
    pub voxels: Vec<crate::voxel::Voxel>,
    /// Coarse samples gathered with one more ring, before thin layers are kept.
    pub wide: Vec<crate::voxel::Voxel>,
    /// Edge use counts for skirts.
    pub edges: rustc_hash::FxHashMap<(u32, u32), u32>,
}

/// A mesh: vertex attributes and index lists (see the module docs). Positions are in world voxel units:
/// voxel `(x, y, z)` spans `x..x + 1` and its centre is at `x + 0.5`.
#[derive(Debug, Default, Clone)]
pub struct MeshBuffer {
    /// Vertex positions, world units.
    pub positions: Vec<[f32; 3]>,
    /// Unit outward normals.
    pub normals: Vec<[f32; 3]>,
    /// Material ids per vertex, heaviest first.
    pub materials: Vec<MaterialSlots>,
    /// Weights matching `materials`; each entry sums to 255.
    pub weights: Vec<[u8; 4]>,
    /// Triangles of solid terrain, counter-clockwise seen from outside.
    pub solid_indices: Vec<u32>,
    /// Triangles of liquid surfaces, counter-clockwise seen from outside the liquid.
    pub water_indices: Vec<u32>,
    /// Triangles of LOD skirts (see [`crate::mesh`]), counter-clockwise seen from the side their
    /// rim faces.
    pub skirt_indices: Vec<u32>,
    /// The first skirt bottom vertex, when there are skirts: every vertex from it on is the bottom
    /// of a flap hanging from a rim vertex (see `skirt_rims`).
    pub skirt_from: Option<usize>,
    /// The rim vertex of each skirt bottom, in order from `skirt_from` on (a renderer can shade a
    /// skirt as the rim it hangs from).
    pub skirt_rims: Vec<u32>,
    pub(crate) scratch: Scratch,
}

impl MeshBuffer {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty every list, keeping capacity.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.materials.clear();
        self.weights.clear();
        self.solid_indices.clear();
        self.water_indices.clear();
        self.skirt_indices.clear();
        self.skirt_from = None;
        self.skirt_rims.clear();
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Number of triangles over all three index lists.
    pub fn triangle_count(&self) -> usize {
        (self.solid_indices.len() + self.water_indices.len() + self.skirt_indices.len()) / 3
    }

    /// True when the buffer holds no triangle.
    pub fn is_empty(&self) -> bool {
        self.triangle_count() == 0
    }

    /// Bytes the mesh itself occupies (lengths, not capacities; scratch excluded).
    pub fn mesh_bytes(&self) -> usize {
        use std::mem::size_of;
        let per_vertex = 2 * size_of::<[f32; 3]>() + 2 * size_of::<[u8; 4]>();
        let indices =
            self.solid_indices.len() + self.water_indices.len() + self.skirt_indices.len();
        self.positions.len() * per_vertex + indices * size_of::<u32>()
    }

    /// Append a vertex; returns its index.
    #[inline]
    pub(crate) fn push_vertex(
        &mut self,
        position: [f32; 3],
        normal: [f32; 3],
        materials: MaterialSlots,
        weights: [u8; 4],
    ) -> u32 {
        let i = self.positions.len() as u32;
        self.positions.push(position);
        self.normals.push(normal);
        self.materials.push(materials);
        self.weights.push(weights);
        i
    }

    /// Check internal consistency: equal attribute lengths, indices in range, unit normals, weights
    /// summing to 255.
    ///
    /// # Panics
    /// On any violation (tests call this after meshing).
    pub fn assert_valid(&self) {
        let n = self.positions.len();
        assert_eq!(self.normals.len(), n, "normals length");
        assert_eq!(self.materials.len(), n, "materials length");
        assert_eq!(self.weights.len(), n, "weights length");
        for list in [
            &self.solid_indices,
            &self.water_indices,
            &self.skirt_indices,
        ] {
            assert_eq!(list.len() % 3, 0, "index list is not whole triangles");
            assert!(list.iter().all(|&i| (i as usize) < n), "index out of range");
        }
        for (i, nrm) in self.normals.iter().enumerate() {
            let len = (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-3, "normal {i} has length {len}");
        }
        for w in &self.weights {
            assert_eq!(w.iter().map(|&x| u32::from(x)).sum::<u32>(), 255, "weights");
        }
        assert!(self.positions.iter().flatten().all(|c| c.is_finite()));
    }
}
