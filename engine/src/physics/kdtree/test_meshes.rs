//! Test meshes for the kD tree tests: voxel-face quads, mesher chunks, triangle and quad soups, plus
//! seeded random rays and a brute-force closest hit.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{MeshRef, Ray};
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::mesh::{mesh_chunk, MeshBuffer};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, VoxelPos};

/// A test mesh: positions and indices.
pub(super) struct Mesh {
    pub name: String,
    pub positions: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
}

impl Mesh {
    pub fn mesh(&self) -> MeshRef<'_> {
        MeshRef::new(&self.positions, &self.indices)
    }

    /// A mesh of quads, each `(a, b, c, d)` as the triangles `(a, b, c)` and `(a, c, d)` (the
    /// mesher's split).
    pub fn from_quads(name: &str, quads: impl IntoIterator<Item = [[f32; 3]; 4]>) -> Self {
        let mut positions = Vec::new();
        let mut indices = Vec::new();
        for corners in quads {
            let b = positions.len() as u32;
            positions.extend(corners);
            indices.extend([b, b + 1, b + 2, b, b + 2, b + 3]);
        }
        Self {
            name: name.into(),
            positions,
            indices,
        }
    }
}

pub(super) fn canyons(size: [u32; 3]) -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size,
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

/// Per-voxel face quads of the occupancy ≥ 0.5 surface inside `[min, min + size)`.
pub(super) fn face_quads(grid: &Grid, min: [i32; 3], size: i32) -> Mesh {
    let inside = |p: [i32; 3]| grid.get(VoxelPos::from(p)).occupancy_f32() >= 0.5;
    let mut m = Mesh {
        name: format!("quads {size}³ at {min:?}"),
        positions: Vec::new(),
        indices: Vec::new(),
    };
    for z in min[2]..min[2] + size {
        for y in min[1]..min[1] + size {
            for x in min[0]..min[0] + size {
                if !inside([x, y, z]) {
                    continue;
                }
                for axis in 0..3 {
                    for side in [0, 1] {
                        let mut n = [x, y, z];
                        n[axis] += if side == 1 { 1 } else { -1 };
                        if inside(n) {
                            continue;
                        }
                        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                        let base = m.positions.len() as u32;
                        for (du, dv) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                            let mut p = [x as f32, y as f32, z as f32];
                            p[axis] += side as f32;
                            p[u] += du as f32;
                            p[v] += dv as f32;
                            m.positions.push(p);
                        }
                        m.indices
                            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
                    }
                }
            }
        }
    }
    m
}

/// The mesher's solid triangles of one 32³ chunk.
pub(super) fn mesher_chunk(grid: &Grid, pos: ChunkPos) -> Mesh {
    let mut buf = MeshBuffer::new();
    mesh_chunk(grid, pos, 0, &MaterialTable::builtin(), &mut buf).expect("meshes");
    Mesh {
        name: format!("mesher chunk {pos:?}"),
        positions: buf.positions.clone(),
        indices: buf.solid_indices.clone(),
    }
}

/// Random triangles, some degenerate and some repeated.
pub(super) fn soup(rng: &mut ChaCha8Rng, n: usize) -> Mesh {
    let mut m = Mesh {
        name: format!("soup {n}"),
        positions: Vec::new(),
        indices: Vec::new(),
    };
    for i in 0..n {
        let c: [f32; 3] = std::array::from_fn(|_| rng.random_range(-20.0..20.0));
        for _ in 0..3 {
            let p: [f32; 3] = std::array::from_fn(|a| c[a] + rng.random_range(-2.0..2.0));
            m.positions.push(p);
        }
        let b = (i * 3) as u32;
        if i % 17 == 0 {
            m.positions[i * 3 + 2] = m.positions[i * 3];
        }
        m.indices.extend([b, b + 1, b + 2]);
        if i % 23 == 0 {
            m.indices.extend([b, b + 1, b + 2]);
        }
    }
    m
}

/// Random quads as the mesher lays them out (`(a, b, c), (a, c, d)`), many of them folded along the
/// diagonal or self-overlapping; with `degenerate`, every seventh quad has `d = a` (its second
/// triangle is a segment).
pub(super) fn quad_soup(rng: &mut ChaCha8Rng, n: usize, degenerate: bool) -> Mesh {
    let mut m = Mesh {
        name: format!("quad soup {n} (degenerate: {degenerate})"),
        positions: Vec::new(),
        indices: Vec::new(),
    };
    for i in 0..n {
        let c: [f32; 3] = std::array::from_fn(|_| rng.random_range(-20.0..20.0));
        let b = m.positions.len() as u32;
        for _ in 0..4 {
            let p: [f32; 3] = std::array::from_fn(|a| c[a] + rng.random_range(-2.0..2.0));
            m.positions.push(p);
        }
        if degenerate && i % 7 == 0 {
            m.positions[b as usize + 3] = m.positions[b as usize];
        }
        m.indices.extend([b, b + 1, b + 2, b, b + 2, b + 3]);
    }
    m
}

pub(super) fn test_meshes() -> Vec<Mesh> {
    let grid = canyons([64, 64, 64]);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut v = vec![
        (0..8)
            .map(|i| face_quads(&grid, [16, i * 8, 16], 8))
            .max_by_key(|m| m.indices.len())
            .expect("eight blocks"),
        face_quads(&grid, [0, 16, 32], 32),
        mesher_chunk(&grid, ChunkPos::new(1, 0, 0)),
        mesher_chunk(&grid, ChunkPos::new(0, 1, 1)),
        soup(&mut rng, 700),
        quad_soup(&mut rng, 400, false),
    ];
    v.retain(|m| !m.indices.is_empty());
    assert_eq!(v.len(), 6, "test world has too few surfaces");
    v
}

pub(super) fn brute_closest(m: &Mesh, ray: &Ray, max_t: f32) -> Option<f32> {
    let mut best: Option<f32> = None;
    for tri in m.indices.chunks_exact(3) {
        let c = [0, 1, 2].map(|k| m.positions[tri[k] as usize]);
        if let Some(t) = super::triangle::intersect(ray, c) {
            if t >= 0.0 && t <= max_t && best.is_none_or(|b| t < b) {
                best = Some(t);
            }
        }
    }
    best
}

/// A random ray: from a random point near the mesh, either in a random direction or toward a random
/// point of a random triangle.
pub(super) fn random_ray(rng: &mut ChaCha8Rng, m: &Mesh, lo: [f32; 3], hi: [f32; 3]) -> Ray {
    let origin: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
    let dir: [f32; 3] = if rng.random_bool(0.5) {
        let t = rng.random_range(0..m.indices.len() / 3);
        let (u, v): (f32, f32) = (rng.random(), rng.random());
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        let [a, b, c] = [0, 1, 2].map(|k| m.positions[m.indices[t * 3 + k] as usize]);
        std::array::from_fn(|k| a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]) - origin[k])
    } else {
        std::array::from_fn(|_| rng.random_range(-1.0..1.0))
    };
    let len = dir.iter().map(|d| d * d).sum::<f32>().sqrt().max(1e-6);
    Ray {
        origin,
        dir: dir.map(|d| d / len),
    }
}
