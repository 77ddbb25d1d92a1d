//! Body–triangle contact routines: sphere and capsule exactly (closest points), box by SAT.
//!
//! ```text
//!   sphere:   q = closest point of the triangle to the centre c;  gap = |c − q| − r,  n = (c − q)/|c − q|
//!   capsule:  each end cap as a sphere, plus the closest point of the core segment to the triangle
//!             when it lies strictly inside the segment (a capsule lying across a ridge)
//!   box:      sat::box_contacts (up to 4 clipped points)
//! ```
//!
//! When the centre (or the segment) lies exactly on the triangle the direction is undefined and the
//! triangle's outward normal (from its winding) is used.

use super::contact::Contact;
use super::math::{axes, closest_point_on_triangle, closest_segment_segment, is_degenerate};
use super::sat::{box_contacts, BoxGeom, Other};
use super::shape::{capsule_segment, Body, Shape};
use crate::vec3::{add_scaled, cross, dot, length, normalize, sub, V3};

fn face_normal(t: [V3; 3]) -> V3 {
    normalize(cross(sub(t[1], t[0]), sub(t[2], t[0]))).unwrap_or([0.0, 1.0, 0.0])
}

/// The contact of a sphere (centre `c`, radius `r`) with triangle `t` if their gap is below `margin`.
pub fn sphere_triangle(c: V3, r: f32, t: [V3; 3], margin: f32) -> Option<Contact> {
    let q = closest_point_on_triangle(c, t);
    let d = sub(c, q);
    let dist = length(d);
    if dist - r >= margin {
        return None;
    }
    let n = if dist > 1e-6 {
        d.map(|x| x / dist)
    } else {
        face_normal(t)
    };
    Some(Contact::from_b(q, n, dist - r))
}

/// The point pair `(on segment, on triangle)` closest between segment `p0..p1` and triangle `t`.
pub fn closest_segment_triangle(p0: V3, p1: V3, t: [V3; 3]) -> (V3, V3) {
    // The segment crossing the triangle's interior: distance 0 there.
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let (d0, d1) = (dot(sub(p0, t[0]), n), dot(sub(p1, t[0]), n));
    if (d0 <= 0.0) != (d1 <= 0.0) && d0 != d1 {
        let x = add_scaled(p0, sub(p1, p0), d0 / (d0 - d1));
        let q = closest_point_on_triangle(x, t);
        if length(sub(q, x)) < 1e-5 {
            return (x, q);
        }
    }
    let mut best = (p0, closest_point_on_triangle(p0, t));
    let mut best_d = length(sub(best.0, best.1));
    let mut consider = |pair: (V3, V3)| {
        let d = length(sub(pair.0, pair.1));
        if d < best_d {
            best_d = d;
            best = pair;
        }
    };
    consider((p1, closest_point_on_triangle(p1, t)));
    for i in 0..3 {
        consider(closest_segment_segment(p0, p1, t[i], t[(i + 1) % 3]));
    }
    best
}

/// Contacts of a capsule (segment `p0..p1`, radius `r`) with triangle `t` below `margin`.
pub fn capsule_triangle(p0: V3, p1: V3, r: f32, t: [V3; 3], margin: f32, out: &mut Vec<Contact>) {
    let start = out.len();
    for end in [p0, p1] {
        if let Some(c) = sphere_triangle(end, r, t, margin) {
            out.push(c);
        }
    }
    let (s, q) = closest_segment_triangle(p0, p1, t);
    let inner = length(sub(s, p0)) > 1e-4 && length(sub(s, p1)) > 1e-4;
    let dist = length(sub(s, q));
    let best_end = out[start..]
        .iter()
        .map(|c| c.separation)
        .fold(f32::MAX, f32::min);
    if inner && dist - r < margin && dist - r < best_end - 1e-4 {
        let n = if dist > 1e-6 {
            sub(s, q).map(|x| x / dist)
        } else {
            // The core crosses the triangle: push along the face normal, out past the deeper end.
            let f = face_normal(t);
            let depth = dot(sub(p0, t[0]), f).min(dot(sub(p1, t[0]), f)).min(0.0);
            return out.push(Contact::from_b(q, f, depth - r));
        };
        out.push(Contact::from_b(q, n, dist - r));
    }
}

/// Append the contacts of `body` with triangle `t` whose gap is below `margin`.
///
/// A degenerate triangle gives none: the mesher clamps sharp vertices to their cells, so two cells'
/// vertices can meet at a shared cell corner and a quad folds into zero-area triangles. Their corners
/// and edges belong to the neighbouring triangles too, and they have no outward normal to push along.
///
/// A contact whose normal is more than about 75° from the triangle's outward normal is dropped
/// ([`MIN_FACE_ALIGNMENT`]): terrain triangles are one-sided pieces of a closed surface, and such a
/// normal comes from a feature the neighbouring triangles own (an edge axis between two triangles
/// of one slope, or the far side of a thin wall). Kept, it took the place of the neighbour's good
/// contact in the manifold and let a box corner sink through a gentle slope.
pub fn body_triangle(body: &Body, t: [V3; 3], margin: f32, out: &mut Vec<Contact>) {
    if is_degenerate(t) {
        return;
    }
    let start = out.len();
    triangle_contacts(body, t, margin, out);
    let face = face_normal(t);
    let mut keep = start;
    for i in start..out.len() {
        if dot(out[i].normal, face) >= MIN_FACE_ALIGNMENT {
            out[keep] = out[i];
            keep += 1;
        }
    }
    out.truncate(keep);
}

/// Smallest cosine between a terrain contact's normal and its triangle's outward normal (75°).
pub const MIN_FACE_ALIGNMENT: f32 = 0.26;

fn triangle_contacts(body: &Body, t: [V3; 3], margin: f32, out: &mut Vec<Contact>) {
    match body.shape {
        Shape::Sphere { radius } => {
            if let Some(c) = sphere_triangle(body.position, radius, t, margin) {
                out.push(c);
            }
        }
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let (p0, p1) = capsule_segment(body.position, body.orientation, half_height);
            capsule_triangle(p0, p1, radius, t, margin, out);
        }
        Shape::Box { half } => {
            let geom = BoxGeom {
                center: body.position,
                axes: axes(body.orientation),
                half,
            };
            box_contacts(&geom, &Other::Triangle(t), margin, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> [V3; 3] {
        [[-10.0, 0.0, -10.0], [0.0, 0.0, 10.0], [10.0, 0.0, -10.0]]
    }

    #[test]
    fn sphere_on_face_edge_and_vertex() {
        let c = sphere_triangle([1.0, 0.4, 2.0], 0.5, floor(), 0.1).expect("touching");
        assert!((c.separation + 0.1).abs() < 1e-5, "{c:?}");
        assert!(length(sub(c.normal, [0.0, 1.0, 0.0])) < 1e-5, "{c:?}");
        assert!(length(sub(c.point_b, [1.0, 0.0, 2.0])) < 1e-5, "{c:?}");
        assert!((c.point_a[1] + 0.1).abs() < 1e-5);
        assert!(sphere_triangle([1.0, 0.65, 2.0], 0.5, floor(), 0.1).is_none());
        // Beyond the vertex (0, 0, 10): the normal points from the vertex to the centre.
        let c = sphere_triangle([0.0, 0.3, 10.4], 0.5, floor(), 0.1).expect("vertex");
        assert!(c.separation.abs() < 1e-5, "{c:?}");
        assert!(length(sub(c.normal, [0.0, 0.6, 0.8])) < 1e-5, "{c:?}");
        assert_eq!(c.point_b, [0.0, 0.0, 10.0]);
        // Centre on the surface: the face normal.
        let c = sphere_triangle([1.0, 0.0, 1.0], 0.5, floor(), 0.0).expect("inside");
        assert_eq!(c.normal, [0.0, 1.0, 0.0]);
        assert_eq!(c.separation, -0.5);
    }

    #[test]
    fn capsule_lying_flat_touches_with_both_caps() {
        let mut out = Vec::new();
        capsule_triangle(
            [-1.0, 0.48, 0.0],
            [1.0, 0.48, 0.0],
            0.5,
            floor(),
            0.1,
            &mut out,
        );
        assert_eq!(out.len(), 2, "{out:?}");
        for c in &out {
            assert!((c.separation + 0.02).abs() < 1e-5 && c.normal[1] > 0.999);
        }
        // Standing up: one cap only.
        out.clear();
        capsule_triangle(
            [0.0, 0.45, 0.0],
            [0.0, 2.45, 0.0],
            0.5,
            floor(),
            0.1,
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.05).abs() < 1e-5);
    }

    #[test]
    fn capsule_across_a_ridge_uses_its_middle() {
        // A thin triangle along Z under the capsule's middle (a ridge); the caps hang off its sides.
        let ridge = [[0.0, 0.0, -5.0], [0.0, 0.0, 5.0], [0.1, 0.0, 0.0]];
        let mut out = Vec::new();
        capsule_triangle(
            [-2.0, 0.45, 0.0],
            [2.0, 0.45, 0.0],
            0.5,
            ridge,
            0.1,
            &mut out,
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!((out[0].separation + 0.05).abs() < 1e-5);
        assert!(out[0].point_b[0].abs() <= 0.1 + 1e-6);
        let (s, q) = closest_segment_triangle([-1.0, 1.0, 0.0], [1.0, -1.0, 0.0], floor());
        assert!(length(sub(s, q)) < 1e-5 && s[0].abs() < 1e-5);
    }
}
