//! Body–body contacts for every pair of sphere, capsule and box.
//!
//! ```text
//!   sphere–sphere, sphere–capsule, capsule–capsule: closest points of the core points/segments,
//!       gap = distance − r_a − r_b (capsule pairs also test each end cap, so parallel capsules get two)
//!   box–sphere:   closest point of the box to the centre (inside: the nearest face)
//!   box–capsule:  box–sphere at five points along the core segment (simple, robust, slightly rounded)
//!   box–box:      sat::box_contacts (clipped faces, or the closest points of two edges)
//! ```
//!
//! Normals push body A (see [`Contact`]).

use super::contact::Contact;
use super::math::{axes, closest_point_on_segment, closest_segment_segment};
use super::sat::{box_contacts, BoxGeom, Other};
use super::shape::{capsule_segment, Body, Shape};
use crate::vec3::{add_scaled, dot, length, sub, V3};

/// Core of a round shape: a segment (a point for spheres) and a radius.
fn core(body: &Body) -> Option<(V3, V3, f32)> {
    match body.shape {
        Shape::Sphere { radius } => Some((body.position, body.position, radius)),
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let (p0, p1) = capsule_segment(body.position, body.orientation, half_height);
            Some((p0, p1, radius))
        }
        Shape::Box { .. } => None,
    }
}

fn geom(body: &Body, half: V3) -> BoxGeom {
    BoxGeom {
        center: body.position,
        axes: axes(body.orientation),
        half,
    }
}

/// The contact of two balls (A at `a`, B at `b`) if their gap is below `margin`.
fn balls(a: V3, ra: f32, b: V3, rb: f32, margin: f32) -> Option<Contact> {
    let d = sub(a, b);
    let dist = length(d);
    let gap = dist - ra - rb;
    if gap >= margin {
        return None;
    }
    let n = if dist > 1e-6 {
        d.map(|c| c / dist)
    } else {
        [0.0, 1.0, 0.0]
    };
    Some(Contact::from_b(add_scaled(b, n, rb), n, gap))
}

/// The contact of a ball (A) with a box (B) if the gap is below `margin`.
fn ball_box(c: V3, r: f32, b: &BoxGeom, margin: f32) -> Option<Contact> {
    let local: V3 = std::array::from_fn(|k| dot(sub(c, b.center), b.axes[k]));
    let inside = (0..3).all(|k| local[k].abs() <= b.half[k]);
    if inside {
        // Push out through the nearest face.
        let (mut k, mut best) = (0, f32::MAX);
        for (i, (&h, &l)) in b.half.iter().zip(&local).enumerate() {
            let d = h - l.abs();
            if d < best {
                (k, best) = (i, d);
            }
        }
        let s = if local[k] >= 0.0 { 1.0 } else { -1.0 };
        let n = b.axes[k].map(|x| x * s);
        let on_face = add_scaled(c, n, best);
        return Some(Contact::from_b(on_face, n, -best - r));
    }
    let clamped: V3 = std::array::from_fn(|k| local[k].clamp(-b.half[k], b.half[k]));
    let q = (0..3).fold(b.center, |p, k| add_scaled(p, b.axes[k], clamped[k]));
    let d = sub(c, q);
    let dist = length(d);
    if dist - r >= margin || dist <= 1e-9 {
        return None;
    }
    Some(Contact::from_b(q, d.map(|x| x / dist), dist - r))
}

/// Append the contacts of bodies `a` and `b` with gap below `margin` (normals push `a`).
pub fn body_pair(a: &Body, b: &Body, margin: f32, out: &mut Vec<Contact>) {
    match (core(a), core(b), a.shape, b.shape) {
        (Some((a0, a1, ra)), Some((b0, b1, rb)), _, _) => {
            let (pa, pb) = closest_segment_segment(a0, a1, b0, b1);
            let start = out.len();
            out.extend(balls(pa, ra, pb, rb, margin));
            // Ends of A against B's core and ends of B against A's core (parallel capsules).
            for end in [a0, a1] {
                if length(sub(end, pa)) > 1e-4 {
                    let q = closest_point_on_segment(end, b0, b1);
                    out.extend(balls(end, ra, q, rb, margin));
                }
            }
            for end in [b0, b1] {
                if length(sub(end, pb)) > 1e-4 {
                    let q = closest_point_on_segment(end, a0, a1);
                    out.extend(balls(q, ra, end, rb, margin));
                }
            }
            dedup(out, start);
        }
        (Some((a0, a1, ra)), None, _, Shape::Box { half }) => {
            let g = geom(b, half);
            let start = out.len();
            for i in 0..5 {
                let c = add_scaled(a0, sub(a1, a0), i as f32 / 4.0);
                out.extend(ball_box(c, ra, &g, margin));
                if a0 == a1 {
                    break;
                }
            }
            dedup(out, start);
        }
        (None, Some(_), Shape::Box { .. }, _) => {
            let start = out.len();
            body_pair(b, a, margin, out);
            for c in &mut out[start..] {
                *c = c.flipped();
            }
        }
        (None, None, Shape::Box { half: ha }, Shape::Box { half: hb }) => {
            box_contacts(&geom(a, ha), &Other::Box(geom(b, hb)), margin, out);
        }
        _ => {}
    }
}

/// Merge points of `out[start..]` within 0.01 voxel of an earlier one, keeping the deeper of the two.
///
/// Several sample balls of a capsule near a box corner share that corner as their closest point; the
/// deepest of them is the one that matters (keeping the first one let a capsule sink into a box unseen).
fn dedup(out: &mut Vec<Contact>, start: usize) {
    let mut i = start;
    while i < out.len() {
        let c = out[i];
        let near = out[start..i]
            .iter()
            .position(|o| length(sub(o.point_b, c.point_b)) < 1e-2);
        match near {
            Some(k) => {
                if c.separation < out[start + k].separation {
                    out[start + k] = c;
                }
                out.remove(i);
            }
            None => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::math::quat_from_axis_angle;
    use super::super::shape::BodyMaterial;
    use super::*;

    fn body(shape: Shape, at: V3) -> Body {
        Body::new(shape, BodyMaterial::default(), at)
    }

    #[test]
    fn spheres_and_capsules() {
        let a = body(Shape::Sphere { radius: 1.0 }, [0.0, 1.9, 0.0]);
        let b = body(Shape::Sphere { radius: 1.0 }, [0.0, 0.0, 0.0]);
        let mut out = Vec::new();
        body_pair(&a, &b, 0.1, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.1).abs() < 1e-5 && (out[0].normal[1] - 1.0).abs() < 1e-6);
        // Two capsules lying parallel, one on the other: both ends touch.
        let lying = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        let cap = Shape::Capsule {
            radius: 0.5,
            half_height: 1.0,
        };
        let mut a = body(cap, [0.0, 0.98, 0.0]);
        a.orientation = lying;
        let mut b = body(cap, [0.0, 0.0, 0.0]);
        b.orientation = lying;
        out.clear();
        body_pair(&a, &b, 0.1, &mut out);
        assert!(out.len() >= 2, "{out:?}");
        for c in &out {
            assert!(
                (c.separation + 0.02).abs() < 1e-4 && c.normal[1] > 0.999,
                "{c:?}"
            );
        }
    }

    #[test]
    fn a_capsule_end_on_at_a_box_corner_reports_its_deepest_point() {
        // The capsule points straight at the corner (1, 1, 1) of a unit-half box: every sample ball
        // has the corner as its closest point; the end ball is the deepest.
        let b = body(Shape::Box { half: [1.0; 3] }, [0.0; 3]);
        let dir = [1.0 / 3f32.sqrt(); 3];
        let (r, hh) = (0.5, 1.0);
        let centre = 3f32.sqrt() + hh + r - 0.2;
        let mut cap = body(
            Shape::Capsule {
                radius: r,
                half_height: hh,
            },
            dir.map(|d| d * centre),
        );
        // Local Y onto the inward diagonal, so the first sample (−Y end) is the far one.
        let inward = dir.map(|d| -d);
        let axis =
            crate::vec3::normalize(crate::vec3::cross([0.0, 1.0, 0.0], inward)).expect("axis");
        cap.orientation = quat_from_axis_angle(axis, inward[1].acos());
        let mut out = Vec::new();
        body_pair(&cap, &b, 0.6, &mut out);
        let deepest = out.iter().map(|c| c.separation).fold(f32::MAX, f32::min);
        assert!((deepest + 0.2).abs() < 1e-3, "{out:?}");
    }

    #[test]
    fn sphere_and_box_both_ways() {
        let s = body(Shape::Sphere { radius: 0.5 }, [0.0, 0.95, 0.0]);
        let b = body(Shape::Box { half: [0.5; 3] }, [0.0; 3]);
        let mut out = Vec::new();
        body_pair(&s, &b, 0.1, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.05).abs() < 1e-5 && (out[0].normal[1] - 1.0).abs() < 1e-6);
        out.clear();
        body_pair(&b, &s, 0.1, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.05).abs() < 1e-5 && (out[0].normal[1] + 1.0).abs() < 1e-6);
        // Centre inside the box: pushed out through the nearest face (+X here).
        let inside = body(Shape::Sphere { radius: 0.25 }, [0.4, 0.1, 0.0]);
        out.clear();
        body_pair(&inside, &b, 0.0, &mut out);
        assert_eq!(out[0].normal, [1.0, 0.0, 0.0]);
        assert!((out[0].separation + 0.35).abs() < 1e-5);
        // A capsule lying on a box touches along its length.
        let mut cap = body(
            Shape::Capsule {
                radius: 0.25,
                half_height: 0.4,
            },
            [0.0, 0.74, 0.0],
        );
        cap.orientation = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        out.clear();
        body_pair(&cap, &b, 0.05, &mut out);
        assert_eq!(out.len(), 5, "{out:?}");
        assert!(out.iter().all(|c| (c.separation + 0.01).abs() < 1e-5));
    }
}
