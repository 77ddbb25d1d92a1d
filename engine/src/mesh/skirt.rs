//! Skirts: the walls that hide cracks where chunks of different LOD meet.
//!
//! A chunk meshed at LOD `l > 0` has an open rim where its surface patch stops at the chunk boundary.
//! A neighbour at another LOD ends its patch in a slightly different place, which would leave a crack.
//! For every rim edge (an edge used by exactly one of the chunk's solid triangles) the skirt adds a
//! quad hanging from the edge into the terrain, along the vertices' inward normals:
//!
//! ```text
//!        surface patch ──a━━━━━━━━b── rim (chunk boundary)
//!                         ┃ skirt  ┃
//!                         a'━━━━━━━b'    a' = a − depth · n(a)
//! ```
//!
//! Seen from outside, a crack then shows the skirt (terrain-coloured, same materials as the rim) rather
//! than the sky. Skirts go to their own index list so physics and export, which use one LOD throughout,
//! never see them.

use super::buffer::MeshBuffer;

/// How deep skirts hang, in samples of the chunk's LOD.
const DEPTH_SAMPLES: f32 = 1.5;

/// Append skirts along the rim of `buf`'s solid triangles; `scale` is the size of one sample in voxels.
pub(crate) fn add_skirts(buf: &mut MeshBuffer, scale: f32) {
    let mut edges = std::mem::take(&mut buf.scratch.edges);
    edges.clear();
    for tri in buf.solid_indices.chunks_exact(3) {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    let depth = DEPTH_SAMPLES * scale;
    buf.skirt_from = Some(buf.vertex_count());
    buf.skirt_depth = depth;
    let mut lowered = rustc_hash::FxHashMap::<u32, u32>::default();
    let tri_count = buf.solid_indices.len() / 3;
    for t in 0..tri_count {
        for k in 0..3 {
            let a = buf.solid_indices[3 * t + k];
            let b = buf.solid_indices[3 * t + (k + 1) % 3];
            if edges.get(&(a.min(b), a.max(b))) != Some(&1) {
                continue;
            }
            let a2 = lower(buf, &mut lowered, a, depth);
            let b2 = lower(buf, &mut lowered, b, depth);
            // The rim edge runs a → b in the patch; the skirt continues the surface past it.
            buf.skirt_indices.extend_from_slice(&[b, a, a2, b, a2, b2]);
        }
    }
    buf.scratch.edges = edges;
}

/// The copy of vertex `v` moved `depth` along its inward normal (made once per vertex).
fn lower(
    buf: &mut MeshBuffer,
    lowered: &mut rustc_hash::FxHashMap<u32, u32>,
    v: u32,
    depth: f32,
) -> u32 {
    if let Some(&i) = lowered.get(&v) {
        return i;
    }
    let k = v as usize;
    let (p, n) = (buf.positions[k], buf.normals[k]);
    let moved = [
        p[0] - n[0] * depth,
        p[1] - n[1] * depth,
        p[2] - n[2] * depth,
    ];
    let i = buf.push_vertex(moved, n, buf.materials[k], buf.weights[k]);
    lowered.insert(v, i);
    i
}
