//! Welding chunk meshes into one indexed mesh for export.
//!
//! Neighbouring chunks recompute the vertices of the cells along their shared face bit for bit (see
//! `nets`), so welding is an exact lookup on the position bits, kept apart per surface (a water vertex
//! and a ground vertex at the same point stay two vertices). Triangles that collapse when two of their
//! corners weld together are dropped.

use rustc_hash::FxHashMap;

use super::buffer::MeshBuffer;
use crate::voxel::{linear_palette, MaterialTable, VoxelPos};

/// Counts of the welded mesh so far, used to find what a chunk added.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Marks {
    pub vertices: usize,
    pub solid: usize,
    pub water: usize,
}

/// What [`Welded::add_where`] does with one triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TriangleUse {
    /// Weld its corners and keep it (unless two corners weld together).
    Keep,
    /// Weld its corners only: their attributes are then this triangle's, as in a whole weld.
    WeldOnly,
    /// Leave it out.
    Skip,
}

/// The growing welded mesh.
#[derive(Debug, Default)]
pub(crate) struct Welded {
    /// The world voxel position the positions are relative to (zero near the origin; the export's
    /// lowest chunk corner far from it, where `f32` world coordinates would lose the surface's detail).
    pub origin: VoxelPos,
    /// Positions, world units relative to `origin`.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Linear RGB blended from the vertex's materials (times the light, when lit).
    pub colors: Vec<[f32; 3]>,
    /// Linear light at the vertex (1, 1, 1 without a bake): what a glTF's `COLOR_0` carries, apart
    /// from the material colours.
    pub light: Vec<[f32; 3]>,
    /// Heaviest material of each vertex.
    pub material: Vec<u8>,
    /// The mesher's four material ids of each vertex, heaviest first (flag bits kept).
    pub slots: Vec<[u8; 4]>,
    /// The weights of `slots`, summing to 255.
    pub weights: Vec<[u8; 4]>,
    /// Solid triangles (global indices).
    pub solid: Vec<u32>,
    /// Water triangles (global indices).
    pub water: Vec<u32>,
    map: FxHashMap<([u32; 3], bool), u32>,
    remap: Vec<u32>,
    palette: Vec<[f32; 3]>,
}

impl Welded {
    /// An empty mesh whose colors come from `table`.
    pub fn new(table: &MaterialTable) -> Self {
        Self {
            palette: linear_palette(table).to_vec(),
            ..Self::default()
        }
    }

    /// The linear colour of material `id`.
    pub fn base_color(&self, id: u8) -> [f32; 3] {
        self.palette
            .get(usize::from(id & 0x3f))
            .copied()
            .unwrap_or([0.5; 3])
    }

    /// Add one chunk's solid and water triangles (skirts are left out).
    pub fn add(&mut self, buf: &MeshBuffer) {
        self.add_where(buf, |_| TriangleUse::Keep);
    }

    /// Add one chunk's solid and water triangles as `choose` says, given each triangle's corner
    /// positions. A vertex takes its attributes from the first triangle that welds it, so a caller
    /// welding part of a mesh gets the attributes a weld of all of it would give by welding (without
    /// keeping) every earlier triangle that shares a position with a kept one.
    pub fn add_where(
        &mut self,
        buf: &MeshBuffer,
        mut choose: impl FnMut(&[[f32; 3]; 3]) -> TriangleUse,
    ) {
        self.remap.clear();
        self.remap.resize(buf.vertex_count(), u32::MAX);
        for (water, list) in [(false, &buf.solid_indices), (true, &buf.water_indices)] {
            for tri in list.chunks_exact(3) {
                let keep = match choose(&[0, 1, 2].map(|k| buf.positions[tri[k] as usize])) {
                    TriangleUse::Skip => continue,
                    TriangleUse::WeldOnly => false,
                    TriangleUse::Keep => true,
                };
                let t = [
                    self.vertex(buf, tri[0], water),
                    self.vertex(buf, tri[1], water),
                    self.vertex(buf, tri[2], water),
                ];
                if !keep || t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                    continue;
                }
                let out = if water {
                    &mut self.water
                } else {
                    &mut self.solid
                };
                out.extend_from_slice(&t);
            }
        }
    }

    fn vertex(&mut self, buf: &MeshBuffer, v: u32, water: bool) -> u32 {
        let k = v as usize;
        if self.remap[k] != u32::MAX {
            return self.remap[k];
        }
        let p = buf.positions[k];
        let key = ([p[0].to_bits(), p[1].to_bits(), p[2].to_bits()], water);
        let next = self.positions.len() as u32;
        let g = *self.map.entry(key).or_insert(next);
        if g == next {
            self.positions.push(p);
            self.normals.push(buf.normals[k]);
            let mut c = [0.0f32; 3];
            for (m, w) in buf.materials[k].iter().zip(buf.weights[k]) {
                let col = self.palette[usize::from(m & 0x3f)];
                let f = f32::from(w) / 255.0;
                c = [c[0] + col[0] * f, c[1] + col[1] * f, c[2] + col[2] * f];
            }
            self.colors.push(c);
            self.light.push([1.0; 3]);
            self.material.push(buf.materials[k][0]);
            self.slots.push(buf.materials[k]);
            self.weights.push(buf.weights[k]);
        }
        self.remap[k] = g;
        g
    }
}
