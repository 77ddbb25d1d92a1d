//! Separating-axis test of an oriented box against a triangle or another box, with contact points by
//! face clipping.
//!
//! ```text
//!   axes: faces of A (3), faces of B (1 for a triangle, 3 for a box), edge × edge (3 × 3)
//!   per axis L:  gap = max( minA − maxB , minB − maxA )   (the triangle face only the first way)
//!   best = largest gap; no contact when best > margin
//!   points:  face axis  -> reference face = that face, incident = the other's most opposed face,
//!                          clip incident against the reference's side planes, keep gap < margin
//!            edge axis  -> closest points of the two supporting edges
//! ```
//!
//! Face axes win ties against edge axes (within [`FACE_BIAS`]) and B's triangle face wins against A's
//! faces: a box sliding over a flat mesh then keeps the mesh normal instead of snagging on the
//! interior edges between triangles.

use super::contact::Contact;
use super::math::closest_segment_segment;
use crate::vec3::{add, add_scaled, cross, dot, normalize, scale, sub, V3};

/// Gap (voxels) an edge axis must beat the best face axis by to be used.
pub const FACE_BIAS: f32 = 0.02;

/// An oriented box in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxGeom {
    /// Centre.
    pub center: V3,
    /// Unit axes.
    pub axes: [V3; 3],
    /// Half extents along `axes`.
    pub half: V3,
}

impl BoxGeom {
    fn radius_along(&self, l: V3) -> f32 {
        (0..3)
            .map(|k| dot(self.axes[k], l).abs() * self.half[k])
            .sum()
    }

    fn corners(&self) -> [V3; 8] {
        std::array::from_fn(|i| {
            (0..3).fold(self.center, |p, k| {
                let s = if i >> k & 1 == 1 { 1.0 } else { -1.0 };
                add_scaled(p, self.axes[k], s * self.half[k])
            })
        })
    }

    /// The face with outward normal `sign · axes[k]`.
    fn face(&self, k: usize, sign: f32) -> Face {
        let (j, l) = ((k + 1) % 3, (k + 2) % 3);
        let n = scale(self.axes[k], sign);
        let c = add_scaled(self.center, n, self.half[k]);
        let (u, v) = (
            scale(self.axes[j], self.half[j]),
            scale(self.axes[l], self.half[l]),
        );
        let mut verts = Poly::default();
        for (su, sv) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
            verts.push(add(add_scaled(c, u, su), scale(v, sv)));
        }
        let side = |a: V3, h: f32| (a, dot(a, self.center) + h);
        Face {
            verts,
            normal: n,
            origin: c,
            sides: [
                side(self.axes[j], self.half[j]),
                side(scale(self.axes[j], -1.0), self.half[j]),
                side(self.axes[l], self.half[l]),
                side(scale(self.axes[l], -1.0), self.half[l]),
            ],
            side_count: 4,
        }
    }

    /// The face whose outward normal is most aligned with `dir`.
    fn face_towards(&self, dir: V3) -> Face {
        let (mut best, mut bk) = (f32::MIN, 0);
        for k in 0..3 {
            let d = dot(self.axes[k], dir).abs();
            if d > best {
                (best, bk) = (d, k);
            }
        }
        let sign = if dot(self.axes[bk], dir) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        self.face(bk, sign)
    }
}

/// The other convex: a triangle (one-sided face, outward normal from its winding) or a box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Other {
    /// A terrain triangle, counter-clockwise seen from outside.
    Triangle([V3; 3]),
    /// Another box.
    Box(BoxGeom),
}

/// A small polygon on the stack.
#[derive(Debug, Clone, Copy, Default)]
struct Poly {
    pts: [V3; 16],
    len: usize,
}

impl Poly {
    fn push(&mut self, p: V3) {
        if self.len < self.pts.len() {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[V3] {
        &self.pts[..self.len]
    }
}

/// A reference face: polygon, outward normal, a point on it, and side planes `n · p <= d`.
#[derive(Debug, Clone, Copy)]
struct Face {
    verts: Poly,
    normal: V3,
    origin: V3,
    sides: [(V3, f32); 4],
    side_count: usize,
}

fn triangle_face(t: [V3; 3], n: V3) -> Face {
    let centroid = scale(add(add(t[0], t[1]), t[2]), 1.0 / 3.0);
    let mut sides = [([0.0; 3], 0.0); 4];
    for (i, side) in sides.iter_mut().take(3).enumerate() {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let mut s = normalize(cross(sub(b, a), n)).unwrap_or([0.0; 3]);
        if dot(s, sub(centroid, a)) > 0.0 {
            s = scale(s, -1.0);
        }
        *side = (s, dot(s, a));
    }
    let mut verts = Poly::default();
    t.iter().for_each(|&v| verts.push(v));
    Face {
        verts,
        normal: n,
        origin: t[0],
        sides,
        side_count: 3,
    }
}

/// Keep the part of `poly` with `n · p <= d` (Sutherland–Hodgman, one plane).
fn clip(poly: &Poly, n: V3, d: f32) -> Poly {
    let mut out = Poly::default();
    let pts = poly.as_slice();
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let (da, db) = (dot(n, a) - d, dot(n, b) - d);
        if da <= 0.0 {
            out.push(a);
        }
        if (da < 0.0) != (db < 0.0) && da != db {
            out.push(add_scaled(a, sub(b, a), da / (da - db)));
        }
    }
    out
}

/// The axis result: unit normal pushing A, gap, and which feature gave it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Feature {
    FaceA,
    FaceB,
    Edge,
}

fn project(points: &[V3], l: V3) -> (f32, f32) {
    points
        .iter()
        .map(|&p| dot(p, l))
        .fold((f32::MAX, f32::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)))
}

/// Contacts of box A against `other` with gap below `margin`, appended to `out` (normals push A).
pub fn box_contacts(a: &BoxGeom, other: &Other, margin: f32, out: &mut Vec<Contact>) {
    let b_verts: Poly = match other {
        Other::Triangle(t) => {
            let mut p = Poly::default();
            t.iter().for_each(|&v| p.push(v));
            p
        }
        Other::Box(b) => {
            let mut p = Poly::default();
            b.corners().iter().for_each(|&v| p.push(v));
            p
        }
    };
    let bv = b_verts.as_slice();
    let ca = |l: V3| (dot(a.center, l), a.radius_along(l));
    // gap with the normal pointing +l (A above B) or −l (A below B).
    let gap_both = |l: V3| {
        let (c, r) = ca(l);
        let (lo, hi) = project(bv, l);
        let up = (c - r) - hi;
        let down = lo - (c + r);
        if up >= down {
            (l, up)
        } else {
            (scale(l, -1.0), down)
        }
    };
    let mut best_a: Option<(V3, f32)> = None;
    let keep = |slot: &mut Option<(V3, f32)>, cand: (V3, f32)| {
        if slot.is_none_or(|(_, g)| cand.1 > g) {
            *slot = Some(cand);
        }
    };
    for k in 0..3 {
        keep(&mut best_a, gap_both(a.axes[k]));
    }
    let mut best_b: Option<(V3, f32)> = None;
    let (b_edges, tri_normal): ([V3; 3], Option<V3>) = match other {
        Other::Triangle(t) => {
            let n = normalize(cross(sub(t[1], t[0]), sub(t[2], t[0])));
            if let Some(n) = n {
                let (c, r) = ca(n);
                best_b = Some((n, (c - r) - dot(t[0], n)));
            }
            ([sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])], n)
        }
        Other::Box(b) => {
            for k in 0..3 {
                keep(&mut best_b, gap_both(b.axes[k]));
            }
            (b.axes, None)
        }
    };
    let mut best_e: Option<(V3, f32)> = None;
    for &ea in &a.axes {
        for &eb in &b_edges {
            if let Some(l) = normalize(cross(ea, eb)) {
                if dot(cross(ea, eb), cross(ea, eb)) > 1e-6 * dot(eb, eb) {
                    keep(&mut best_e, gap_both(l));
                }
            }
        }
    }
    let Some((mut n, mut gap)) = best_a.or(best_b) else {
        return;
    };
    let mut feature = if best_a.is_some() {
        Feature::FaceA
    } else {
        Feature::FaceB
    };
    if let (Some(fa), Some(fb)) = (best_a, best_b) {
        let bias = if tri_normal.is_some() {
            FACE_BIAS
        } else {
            1e-4
        };
        if fb.1 + bias >= fa.1 {
            (n, gap, feature) = (fb.0, fb.1, Feature::FaceB);
        } else {
            (n, gap, feature) = (fa.0, fa.1, Feature::FaceA);
        }
    }
    if let Some((en, eg)) = best_e {
        if eg > gap + FACE_BIAS {
            (n, gap, feature) = (en, eg, Feature::Edge);
        }
    }
    if gap > margin {
        return;
    }
    let start = out.len();
    match feature {
        Feature::FaceB => {
            let reference = match other {
                Other::Triangle(t) => triangle_face(*t, n),
                Other::Box(b) => b.face_towards(n),
            };
            let incident = a.face_towards(scale(n, -1.0)).verts;
            clip_points(&incident, &reference, margin, out, false);
        }
        Feature::FaceA => {
            let reference = a.face_towards(scale(n, -1.0));
            let incident = match other {
                Other::Triangle(_) => b_verts,
                Other::Box(b) => b.face_towards(n).verts,
            };
            clip_points(&incident, &reference, margin, out, true);
        }
        Feature::Edge => {}
    }
    if out.len() == start {
        out.push(edge_contact(a, bv, n, gap));
    }
}

/// Clip `incident` against `reference`'s side planes and push the points with gap below `margin`.
/// `reference_is_a`: the reference face belongs to A (its normal points away from A, towards B).
fn clip_points(
    incident: &Poly,
    reference: &Face,
    margin: f32,
    out: &mut Vec<Contact>,
    reference_is_a: bool,
) {
    let mut poly = *incident;
    for &(sn, sd) in &reference.sides[..reference.side_count] {
        poly = clip(&poly, sn, sd);
        if poly.len == 0 {
            return;
        }
    }
    for &p in poly.as_slice() {
        let gap = dot(sub(p, reference.origin), reference.normal);
        if gap < margin {
            out.push(if reference_is_a {
                // p is on B; the normal pushing A is −(A's face normal).
                Contact::from_b(p, scale(reference.normal, -1.0), gap)
            } else {
                Contact::from_a(p, reference.normal, gap)
            });
        }
    }
}

/// One contact at the closest points of A's and B's supporting features along `n`.
fn edge_contact(a: &BoxGeom, bv: &[V3], n: V3, gap: f32) -> Contact {
    let support = |pts: &[V3], dir: V3| -> (V3, V3) {
        let top = pts.iter().map(|&p| dot(p, dir)).fold(f32::MIN, f32::max);
        let near: Vec<V3> = pts
            .iter()
            .copied()
            .filter(|&p| dot(p, dir) >= top - 1e-3 * (1.0 + top.abs()))
            .collect();
        let first = near.first().copied().unwrap_or([0.0; 3]);
        let last = near.last().copied().unwrap_or(first);
        (first, last)
    };
    let (a0, a1) = support(&a.corners(), scale(n, -1.0));
    let (b0, b1) = support(bv, n);
    let (pa, pb) = closest_segment_segment(a0, a1, b0, b1);
    let mid = scale(add(pa, pb), 0.5);
    Contact::from_a(add_scaled(mid, n, 0.5 * gap), n, gap)
}

#[cfg(test)]
mod sat_tests;
