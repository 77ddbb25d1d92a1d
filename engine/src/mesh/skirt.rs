//! Skirts: the flaps that hide cracks where meshes of different levels of detail meet.
//!
//! A mesh node's surface patch stops near its box: its rim vertices sit within half a sample of a
//! box face. A neighbour at another level ends its patch somewhere else: up to half of *its* sample
//! away along the face (a gap in the surface's own plane, which shows when the surface is seen
//! head-on) and up to about one of its samples off along the normal (a step, which shows at
//! grazing angles). For every rim edge (an edge used by exactly one of the node's solid triangles)
//! the skirt adds a quad, a flap that continues the surface past the rim, out across the box face
//! and down into the terrain:
//!
//! ```text
//!              this node's patch              │  neighbour (another level)
//!   ───────────────────────a━━━━━━━━━━━━━━━━━━┿━━━━━━━━━━━━━━━━
//!              rim vertex ─┘ ╲  flap          │
//!                              ╲              │    a' = a + out · t − deep · n
//!                               a'            │    t: out of the patch across its rim
//!                                             │       edges, tangent to the surface at a
//!                                        box face
//! ```
//!
//! Reaching [`OUT_SAMPLES`] out along the surface and [`DEEP_SAMPLES`] into it, a flap covers both
//! kinds of gap to a neighbour up to one level coarser, seen from any side the surface faces (the
//! viewport lengthens the flaps of a node whose neighbour is coarser still, while the view
//! refines). A flap must stay inside the matter it hangs into, or it would show: where the surface
//! turns at the face (the top of a world's edge, a cliff), the flap first gives up reaching out,
//! then half its depth, ending as a plain skirt [`DEEP_SAMPLES`] / 2 down the normal. The matter
//! is read from the mesher's own input (its border reaches two samples past the box).
//!
//! Seen from outside, a crack then shows the flap (terrain-coloured, the rim's materials) rather
//! than the sky. Skirts need nothing from the neighbours' meshes, so a node's mesh never has to be
//! rebuilt when they change level. They go to their own index list, so physics and export, which use
//! one level throughout, never see them; [`MeshBuffer::skirt_rims`] names the rim vertex of each
//! flap bottom, so a renderer can shade a flap as the rim it hangs from.

use super::buffer::MeshBuffer;
use super::input::MeshInput;
use super::mesh_field::{Class, MaterialLut};
use crate::vec3;
use crate::voxel::MaterialTable;

/// How far a flap reaches out across the box face, along the surface, in samples of its level.
pub const OUT_SAMPLES: f32 = 1.5;
/// How deep a flap reaches into the terrain, along the normal, in samples of its level.
pub const DEEP_SAMPLES: f32 = 3.0;

/// Append flaps along the rim of `buf`'s solid triangles, meshed from `input`.
pub(crate) fn add_skirts(buf: &mut MeshBuffer, input: &MeshInput<'_>, table: &MaterialTable) {
    let mut edges = std::mem::take(&mut buf.scratch.edges);
    edges.clear();
    for tri in buf.solid_indices.chunks_exact(3) {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    // Rim edges (a → b, the triangle's third corner c) and each rim vertex's way out of the
    // patch: away from c, across the edge, in the triangle's plane, summed over its rim edges.
    let mut rims = Vec::new();
    let mut outward = rustc_hash::FxHashMap::<u32, [f32; 3]>::default();
    for tri in buf.solid_indices.chunks_exact(3) {
        for k in 0..3 {
            let (a, b, c) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
            if edges.get(&(a.min(b), a.max(b))) != Some(&1) {
                continue;
            }
            let [pa, pb, pc] = [a, b, c].map(|i| buf.positions[i as usize]);
            let edge = vec3::sub(pb, pa);
            let plane = vec3::cross(edge, vec3::sub(pc, pa));
            // Counter-clockwise triangles: edge × normal points away from the third corner.
            let out = vec3::normalize(vec3::cross(edge, plane)).unwrap_or([0.0; 3]);
            for v in [a, b] {
                let sum = outward.entry(v).or_insert([0.0; 3]);
                *sum = vec3::add(*sum, out);
            }
            rims.push((a, b));
        }
    }
    buf.skirt_from = Some(buf.vertex_count());
    buf.skirt_rims.clear();
    let scale = input.scale();
    let flap = Flap {
        matter: Matter {
            input,
            lut: MaterialLut::new(table),
        },
        out: OUT_SAMPLES * scale,
        deep: DEEP_SAMPLES * scale,
    };
    let mut lowered = rustc_hash::FxHashMap::<u32, u32>::default();
    for (a, b) in rims {
        let a2 = flap.bottom(buf, &mut lowered, &outward, a);
        let b2 = flap.bottom(buf, &mut lowered, &outward, b);
        // The rim edge runs a → b in the patch; the flap continues the surface past it.
        buf.skirt_indices.extend_from_slice(&[b, a, a2, b, a2, b2]);
    }
    buf.scratch.edges = edges;
}

/// Where flap bottoms go.
struct Flap<'a> {
    matter: Matter<'a>,
    out: f32,
    deep: f32,
}

impl Flap<'_> {
    /// The flap bottom of rim vertex `v` (made once per vertex), `outward` its way out of the
    /// patch.
    fn bottom(
        &self,
        buf: &mut MeshBuffer,
        lowered: &mut rustc_hash::FxHashMap<u32, u32>,
        outward: &rustc_hash::FxHashMap<u32, [f32; 3]>,
        v: u32,
    ) -> u32 {
        if let Some(&i) = lowered.get(&v) {
            return i;
        }
        let k = v as usize;
        let (p, n) = (buf.positions[k], buf.normals[k]);
        // Out of the patch along the surface (tangent at the vertex); none where the rim
        // folds back on itself.
        let out = outward.get(&v).copied().unwrap_or([0.0; 3]);
        let along = vec3::sub(out, vec3::scale(n, vec3::dot(out, n)));
        let t = match vec3::normalize(along) {
            Some(t) if vec3::length(along) > 0.2 => t,
            _ => [0.0; 3],
        };
        let reach = |out: f32, deep: f32| vec3::add_scaled(vec3::add_scaled(p, t, out), n, -deep);
        let tries = [
            (self.out, self.deep),
            (0.0, self.deep),
            (0.0, 0.5 * self.deep),
        ];
        let hidden = |&&(out, deep): &&(f32, f32)| {
            let end = reach(out, deep);
            let mid = reach(0.5 * out, 0.5 * deep);
            self.matter.inside(end) && self.matter.inside(mid)
        };
        let (out, deep) = tries.iter().find(hidden).unwrap_or(&tries[2]);
        let i = buf.push_vertex(reach(*out, *deep), n, buf.materials[k], buf.weights[k]);
        buf.skirt_rims.push(v);
        lowered.insert(v, i);
        i
    }
}

/// The solid matter of a mesher input, between its samples.
struct Matter<'a> {
    input: &'a MeshInput<'a>,
    lut: MaterialLut,
}

impl Matter<'_> {
    /// Solid occupancy of sample `(x, y, z)`, 0 to 1 (liquid counts as empty, as for the mesher's
    /// solid surface).
    fn sample(&self, x: usize, y: usize, z: usize) -> f32 {
        let [sx, sy, _] = self.input.size;
        let v = self.input.voxels[(z * sy + y) * sx + x];
        match self.lut.class_of(v) {
            Class::Solid => f32::from(v.occupancy) / 255.0,
            Class::Air | Class::Liquid => 0.0,
        }
    }

    /// True when world point `p` lies in matter (interpolated occupancy over one half; points
    /// beyond the input read its outermost samples).
    fn inside(&self, p: [f32; 3]) -> bool {
        let o = self.input.origin;
        let origin = [o.x as f32, o.y as f32, o.z as f32];
        let s = self.input.scale();
        let mut base = [0usize; 3];
        let mut frac = [0f32; 3];
        for a in 0..3 {
            let last = self.input.size[a] - 1;
            let u = ((p[a] - origin[a]) / s - 0.5).clamp(0.0, last as f32);
            let i = (u.floor() as usize).min(last.saturating_sub(1));
            base[a] = i;
            frac[a] = (u - i as f32).clamp(0.0, 1.0);
        }
        let mut sum = 0.0;
        for corner in 0..8 {
            let d = [corner & 1, corner >> 1 & 1, corner >> 2 & 1];
            let w: f32 = (0..3)
                .map(|a| if d[a] == 1 { frac[a] } else { 1.0 - frac[a] })
                .product();
            if w > 0.0 {
                sum += w * self.sample(base[0] + d[0], base[1] + d[1], base[2] + d[2]);
            }
        }
        sum > 0.5
    }
}
