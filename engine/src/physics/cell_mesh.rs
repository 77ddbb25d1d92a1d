//! The compact triangle mesh of one physics cell: 16-bit positions, one material byte per vertex,
//! four 16-bit indices per quad.
//!
//! ```text
//!   mesher output (per vertex 12 B position + 8 B material slots/weights, per triangle 12 B indices)
//!     │  snap positions to the 1/4096-voxel grid, keep each vertex's heaviest material,
//!     │  fold each triangle pair (a, b, c), (a, c, d) into one quad [a, b, c, d]
//!     v
//!   CellMesh: 6 B + 1 B per vertex, 8 B per quad (4 B per triangle)
//! ```
//!
//! A position is stored as `q = p · 4096 − base · 4096` in a `u16`, where `base` is the cell's low
//! corner minus [`BASE_MARGIN`], so the 16 voxels from `base` are covered (a cell's vertices lie
//! within half a voxel of its 8³ box). Reading back `base + q / 4096` in `f32` gives exactly
//! [`snap`]`(p)`: both are the one rounding of the real number `K / 4096`, `K = ⌊p · 4096 + ½⌋`.
//! So any mesh snapped with [`snap`] — a whole-world brute force in tests, say — has bit-identical
//! triangles, and snapping moves a vertex by at most 1/8192 voxel.
//!
//! # Rationale
//! Narrowphase data is built lazily and cached under a byte budget, so its size decides how much of a
//! world stays ready for contacts and rays. With the kD tree at 12 B per triangle, the mesh must stay
//! near 12 B per triangle too; `f32` positions alone cost about 7.5 B per triangle on 8³ cells (0.63
//! vertices per triangle). Triangle ids stay `2k` and `2k + 1` for quad `k`, the layout the tree's
//! quad leaves expect.

use crate::mesh::MeshBuffer;
use crate::vec3::{dot, sub};
use crate::{Error, Result};

use super::kdtree::TriangleMesh;

/// Grid steps per voxel of stored positions.
pub const STEPS_PER_VOXEL: f32 = 4096.0;

/// How far below the cell's low corner the position grid starts, in voxels.
pub const BASE_MARGIN: i32 = 4;

/// `p` on the 1/4096-voxel grid positions are stored on (see the module docs).
pub fn snap(p: f32) -> f32 {
    (grid_index(p) / f64::from(STEPS_PER_VOXEL)) as f32
}

/// `⌊p · 4096 + ½⌋`, exact in `f64`.
fn grid_index(p: f32) -> f64 {
    (f64::from(p) * f64::from(STEPS_PER_VOXEL) + 0.5).floor()
}

/// One physics cell's mesh (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellMesh {
    /// World position of grid coordinate 0 (integers).
    base: [f32; 3],
    /// Vertex positions: `base + q / 4096`.
    positions: Vec<[u16; 3]>,
    /// The heaviest material of each vertex.
    materials: Vec<u8>,
    /// Solid quads, then water quads: corners `[a, b, c, d]`, triangles `(a, b, c)` and `(a, c, d)`.
    quads: Vec<[u16; 4]>,
    /// Number of solid quads (they come first).
    solid_quads: u32,
}

impl CellMesh {
    /// The compact form of the mesher's output `buf` for a cell whose low corner is `min`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a vertex lies outside the 16 voxels from `min − 4`, there are more
    /// than 65 536 vertices, the materials do not match the vertices, or the triangles do not come in
    /// quads (none of which the mesher does).
    pub fn from_mesher(buf: &MeshBuffer, min: [i32; 3]) -> Result<Self> {
        let base = min.map(|c| c - BASE_MARGIN);
        let n = buf.positions.len();
        if n > usize::from(u16::MAX) + 1 {
            return Err(Error::Invalid(format!(
                "physics cell at {min:?}: {n} vertices do not fit 16-bit indices"
            )));
        }
        let mut positions = Vec::with_capacity(n);
        for p in &buf.positions {
            let mut q = [0u16; 3];
            for a in 0..3 {
                let v = grid_index(p[a]) - f64::from(base[a]) * f64::from(STEPS_PER_VOXEL);
                if !(0.0..=f64::from(u16::MAX)).contains(&v) {
                    return Err(Error::Invalid(format!(
                        "physics cell at {min:?}: vertex {p:?} is outside the cell's range"
                    )));
                }
                q[a] = v as u16;
            }
            positions.push(q);
        }
        if buf.materials.len() != n {
            return Err(Error::Invalid(format!(
                "physics cell at {min:?}: {} vertex materials for {n} vertices",
                buf.materials.len()
            )));
        }
        let materials = buf.materials.iter().map(|m| m[0]).collect();
        let mut quads = Vec::with_capacity((buf.solid_indices.len() + buf.water_indices.len()) / 6);
        for list in [&buf.solid_indices, &buf.water_indices] {
            if list.len() % 6 != 0 {
                return Err(Error::Invalid(format!(
                    "physics cell at {min:?}: {} indices do not make quads",
                    list.len()
                )));
            }
            for t in list.chunks_exact(6) {
                if t[0] != t[3] || t[2] != t[4] {
                    return Err(Error::Invalid(format!(
                        "physics cell at {min:?}: triangles {t:?} are not one quad"
                    )));
                }
                // Every index is below `n`, which fits 16 bits (checked above).
                quads.push([t[0], t[1], t[2], t[5]].map(|i| i as u16));
            }
        }
        Ok(Self {
            base: base.map(|b| b as f32),
            positions,
            materials,
            quads,
            solid_quads: (buf.solid_indices.len() / 6) as u32,
        })
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// True when triangle `id` is a water triangle.
    pub fn is_water(&self, id: u32) -> bool {
        id / 2 >= self.solid_quads
    }

    /// Position of vertex `v`.
    #[inline]
    fn position(&self, v: u16) -> [f32; 3] {
        let q = self.positions[usize::from(v)];
        [0, 1, 2].map(|a| self.base[a] + f32::from(q[a]) * (1.0 / STEPS_PER_VOXEL))
    }

    /// The material at `point` on triangle `id` (see [`blend_material`]).
    ///
    /// # Panics
    /// If `id` is out of range.
    pub fn material_at(&self, id: u32, point: [f32; 3]) -> u8 {
        let q = self.quads[id as usize / 2];
        let verts = if id.is_multiple_of(2) {
            [q[0], q[1], q[2]]
        } else {
            [q[0], q[2], q[3]]
        };
        blend_material(
            verts.map(|v| self.position(v)),
            verts.map(|v| self.materials[usize::from(v)]),
            point,
        )
    }

    /// Bytes held by the arrays (by length) and the struct.
    pub fn memory_bytes(&self) -> usize {
        self.positions.len() * size_of::<[u16; 3]>()
            + self.materials.len()
            + self.quads.len() * size_of::<[u16; 4]>()
            + size_of::<Self>()
    }
}

impl TriangleMesh for CellMesh {
    fn triangle_count(&self) -> usize {
        self.quads.len() * 2
    }

    #[inline]
    fn corners(&self, id: u32) -> [[f32; 3]; 3] {
        let [a, b, c, d] = self.quad_corners(id & !1);
        if id.is_multiple_of(2) {
            [a, b, c]
        } else {
            [a, c, d]
        }
    }

    fn is_quads(&self) -> bool {
        !self.quads.is_empty()
    }

    #[inline]
    fn quad_corners(&self, first: u32) -> [[f32; 3]; 4] {
        self.quads[first as usize / 2].map(|v| self.position(v))
    }

    fn check(&self) -> Result<()> {
        let n = self.positions.len();
        match self
            .quads
            .iter()
            .position(|q| q.iter().any(|&v| usize::from(v) >= n))
        {
            Some(k) => Err(Error::Invalid(format!(
                "cell mesh: quad {k} uses a vertex beyond the {n} there are"
            ))),
            None => Ok(()),
        }
    }
}

/// The material at `point` on a triangle with corners `corners` whose vertices carry `materials`:
/// the material with the largest summed barycentric weight (ties: the lowest id).
pub fn blend_material(corners: [[f32; 3]; 3], materials: [u8; 3], point: [f32; 3]) -> u8 {
    let bary = barycentric(corners, point);
    let mut best = (materials[0], -1.0f32);
    for &m in &materials {
        let score: f32 = (0..3).filter(|&k| materials[k] == m).map(|k| bary[k]).sum();
        if score > best.1 || (score == best.1 && m < best.0) {
            best = (m, score);
        }
    }
    best.0
}

/// Barycentric coordinates of `p` (projected onto the triangle's plane), clamped to `0..=1`; a
/// degenerate triangle gives equal thirds.
fn barycentric([a, b, c]: [[f32; 3]; 3], p: [f32; 3]) -> [f32; 3] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, GeneratorSettings, Preset};
    use crate::mesh::{mesh, MeshInput};
    use crate::progress::Progress;
    use crate::voxel::{MaterialTable, VoxelBox, VoxelPos};

    #[test]
    fn snap_matches_what_the_cell_mesh_reads_back() {
        let grid = generate(
            &GeneratorSettings {
                preset: Preset::Canyons,
                size: [32, 32, 32],
                seed: 4,
            },
            &MaterialTable::builtin(),
            &Progress::new(),
        )
        .expect("generates");
        let mut buf = MeshBuffer::new();
        let mut checked = 0;
        for i in 0..64 {
            let min = [(i % 4) * 8, (i / 4 % 4) * 8, (i / 16) * 8];
            let core = VoxelBox::from_min_size(VoxelPos::from(min), [8, 8, 8]);
            let padded = MeshInput::padded_box(core);
            let voxels = grid.read_box_vec(padded);
            let input = MeshInput::new(&voxels, padded.size(), padded.min);
            mesh(&input, &MaterialTable::builtin(), &mut buf);
            let cm = CellMesh::from_mesher(&buf, min).expect("compacts");
            cm.check().expect("valid");
            assert_eq!(cm.triangle_count(), buf.triangle_count());
            let all: Vec<u32> = buf
                .solid_indices
                .iter()
                .chain(&buf.water_indices)
                .copied()
                .collect();
            for (id, t) in all.chunks_exact(3).enumerate() {
                let want = [0, 1, 2].map(|k| buf.positions[t[k] as usize].map(snap));
                assert_eq!(cm.corners(id as u32), want, "cell {min:?} triangle {id}");
                // Snapping moves a vertex by at most half a grid step.
                for k in 0..3 {
                    let p = buf.positions[t[k] as usize];
                    assert!((0..3).all(|a| (p[a] - want[k][a]).abs() <= 0.5 / 4096.0 + 1e-6));
                }
                assert_eq!(
                    cm.is_water(id as u32),
                    id >= buf.solid_indices.len() / 3,
                    "water flag"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} triangles");
    }

    #[test]
    fn bad_mesher_output_is_rejected() {
        let mut buf = MeshBuffer::new();
        buf.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
        buf.materials = vec![[1, 0, 0, 0]; 4];
        buf.weights = vec![[255, 0, 0, 0]; 4];
        buf.solid_indices = vec![0, 1, 2, 0, 2, 3];
        assert!(CellMesh::from_mesher(&buf, [0, 0, 0]).is_ok());
        // A material missing.
        buf.materials.pop();
        assert!(CellMesh::from_mesher(&buf, [0, 0, 0]).is_err());
        buf.materials.push([1, 0, 0, 0]);
        // Far outside the cell's 16-voxel range.
        assert!(CellMesh::from_mesher(&buf, [40, 0, 0]).is_err());
        // Not a quad.
        buf.solid_indices = vec![0, 1, 2, 1, 2, 3];
        assert!(CellMesh::from_mesher(&buf, [0, 0, 0]).is_err());
        buf.solid_indices = vec![0, 1, 2];
        assert!(CellMesh::from_mesher(&buf, [0, 0, 0]).is_err());
    }

    #[test]
    fn material_blends_by_barycentric_weight() {
        let c = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert_eq!(blend_material(c, [3, 5, 5], [0.05, 0.05, 0.0]), 3);
        assert_eq!(blend_material(c, [3, 5, 5], [0.4, 0.4, 0.0]), 5);
        // A degenerate triangle weighs its corners equally: the tie goes to the lower id.
        let point = [[0.5, 0.5, 0.0]; 3];
        assert_eq!(blend_material(point, [7, 2, 9], [0.5, 0.5, 0.0]), 2);
    }
}
