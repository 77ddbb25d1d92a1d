//! One chunk's visible fragment faces as a flat-shaded mesh, for the editor preview and the exports.
//!
//! A face is drawn where a solid fragment meets an empty one. Each chunk draws the faces of its own
//! solid fragments (on all six sides), so a world meshed chunk by chunk has every face exactly once.
//! Faces are found a row of fragments at a time (`f` bits): the ±x faces by shifting the row against
//! itself and the neighbouring voxel's edge bit, the ±y / ±z faces by comparing with the next row.
//! Where two voxels without stored blocks meet (a solid one beside an empty one), the whole voxel face
//! is one quad instead of `f²`.
//!
//! ```text
//!   quad of the +a face of fragment F (b, c = the next two axes):   p0 = F + e_a
//!      p0 ── p0+e_b ── p0+e_b+e_c ── p0+e_c     (counter-clockwise seen from outside)
//!   positions in voxel units (fragment coordinate / f); 4 vertices and 2 triangles per quad
//! ```

use super::block::BlockView;
use super::volume::FragmentVolume;
use crate::voxel::{linear_palette, ChunkPos, MaterialTable, VoxelBox, VoxelPos, MATERIAL_COUNT};

/// A mesh of fragment faces: four vertices per quad, flat normals, a material and a linear colour per
/// vertex.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FragmentMesh {
    /// Vertex positions in voxel units.
    pub positions: Vec<[f32; 3]>,
    /// Unit face normals (axis-aligned).
    pub normals: Vec<[f32; 3]>,
    /// Material id of each vertex's face.
    pub materials: Vec<u8>,
    /// Linear RGB of each vertex's material.
    pub colors: Vec<[f32; 3]>,
    /// Triangles, two per quad.
    pub indices: Vec<u32>,
}

impl FragmentMesh {
    /// An empty mesh.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty the mesh, keeping its capacity.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.materials.clear();
        self.colors.clear();
        self.indices.clear();
    }

    /// Number of quads.
    pub fn quad_count(&self) -> usize {
        self.positions.len() / 4
    }

    fn quad(&mut self, face: Face, f: f32, color: [f32; 3]) {
        let Face {
            corner,
            axis,
            positive,
            span,
            material,
        } = face;
        let b = (axis + 1) % 3;
        let cc = (axis + 2) % 3;
        let mut p0 = corner;
        if positive {
            p0[axis] += span;
        }
        let mut eb = [0i64; 3];
        eb[b] = span;
        let mut ec = [0i64; 3];
        ec[cc] = span;
        let add = |p: [i64; 3], d: [i64; 3]| [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
        let ring = if positive {
            [p0, add(p0, eb), add(add(p0, eb), ec), add(p0, ec)]
        } else {
            [p0, add(p0, ec), add(add(p0, eb), ec), add(p0, eb)]
        };
        let mut n = [0.0f32; 3];
        n[axis] = if positive { 1.0 } else { -1.0 };
        let base = self.positions.len() as u32;
        for p in ring {
            self.positions.push(p.map(|v| v as f32 / f));
            self.normals.push(n);
            self.materials.push(material);
            self.colors.push(color);
        }
        self.indices
            .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
}

/// One quad: the `axis` face (on the positive side or not) of the cube of `span` fragments at
/// `corner`.
#[derive(Debug, Clone, Copy)]
struct Face {
    corner: [i64; 3],
    axis: usize,
    positive: bool,
    span: i64,
    material: u8,
}

/// Mesh the visible faces of the solid fragments of chunk `chunk` into `out` (cleared first). With
/// `clip`, only voxels inside it are drawn and everything outside reads as empty, so the piece is
/// closed where the box cuts the terrain.
pub fn mesh_fragment_chunk(
    volume: &FragmentVolume<'_>,
    table: &MaterialTable,
    chunk: ChunkPos,
    clip: Option<VoxelBox>,
    out: &mut FragmentMesh,
) {
    out.clear();
    let part = clip.map_or(chunk.voxel_box(), |c| c.intersect(&chunk.voxel_box()));
    if part.is_empty() {
        return;
    }
    let palette: [[f32; 3]; MATERIAL_COUNT] = linear_palette(table);
    let f = volume.factor();
    let fi = f as i64;
    let ff = f as f32;
    let g = VoxelBox::new(
        VoxelPos::new(part.min.x - 1, part.min.y - 1, part.min.z - 1),
        VoxelPos::new(part.max.x + 1, part.max.y + 1, part.max.z + 1),
    );
    let classes = volume.classes(g);
    let gs = g.size();
    let view = |p: VoxelPos| -> BlockView<'_> {
        if clip.is_some_and(|c| !c.contains(p)) {
            return BlockView::Uniform(0);
        }
        let at = (((p.z - g.min.z) as usize * gs[1]) + (p.y - g.min.y) as usize) * gs[0]
            + (p.x - g.min.x) as usize;
        volume.block_with(p, classes[at])
    };
    let full = ((1u64 << f) - 1) as u32;
    let dirs: [[i32; 3]; 6] = [
        [-1, 0, 0],
        [1, 0, 0],
        [0, -1, 0],
        [0, 1, 0],
        [0, 0, -1],
        [0, 0, 1],
    ];
    for z in part.min.z..part.max.z {
        for y in part.min.y..part.max.y {
            for x in part.min.x..part.max.x {
                let v = VoxelPos::new(x, y, z);
                let bv = view(v);
                if let BlockView::Uniform(0) = bv {
                    continue;
                }
                let origin = v.to_array().map(|c| i64::from(c) * fi);
                for (d, dir) in dirs.iter().enumerate() {
                    let axis = d / 2;
                    let positive = d % 2 == 1;
                    let nv = view(VoxelPos::new(x + dir[0], y + dir[1], z + dir[2]));
                    if let (BlockView::Uniform(m), BlockView::Uniform(n)) = (bv, nv) {
                        if n == 0 {
                            let face = Face {
                                corner: origin,
                                axis,
                                positive,
                                span: fi,
                                material: m,
                            };
                            out.quad(face, ff, palette[usize::from(m & 0x3f)]);
                        }
                        continue;
                    }
                    for k in 0..f {
                        for j in 0..f {
                            let r = bv.row(f, j, k);
                            if r == 0 {
                                continue;
                            }
                            let cover = match (axis, positive) {
                                (0, true) => (r >> 1) | ((nv.row(f, j, k) & 1) << (f - 1)),
                                (0, false) => ((r << 1) & full) | (nv.row(f, j, k) >> (f - 1)),
                                (1, true) if j + 1 < f => bv.row(f, j + 1, k),
                                (1, true) => nv.row(f, 0, k),
                                (1, false) if j > 0 => bv.row(f, j - 1, k),
                                (1, false) => nv.row(f, f - 1, k),
                                (_, true) if k + 1 < f => bv.row(f, j, k + 1),
                                (_, true) => nv.row(f, j, 0),
                                (_, false) if k > 0 => bv.row(f, j, k - 1),
                                (_, false) => nv.row(f, j, f - 1),
                            };
                            let mut faces = r & !cover;
                            while faces != 0 {
                                let i = faces.trailing_zeros() as usize;
                                faces &= faces - 1;
                                let m = bv.material_of_solid(f, i, j, k);
                                let corner = [
                                    origin[0] + i as i64,
                                    origin[1] + j as i64,
                                    origin[2] + k as i64,
                                ];
                                let face = Face {
                                    corner,
                                    axis,
                                    positive,
                                    span: 1,
                                    material: m,
                                };
                                out.quad(face, ff, palette[usize::from(m & 0x3f)]);
                            }
                        }
                    }
                }
            }
        }
    }
}
