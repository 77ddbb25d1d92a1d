//! Quaternion and closest-point helpers on plain arrays (quaternions as `[x, y, z, w]`); the vector
//! operations they build on live in [`crate::vec3`].
//!
//! Bodies keep their state in plain arrays so it can be compared bit for bit (determinism tests) and
//! printed as JSON without conversion; these free functions are the few operations the contact
//! routines and the solver need.

use crate::vec3::{add, add_scaled, cross, dot, normalize, scale, sub, V3};

/// A unit quaternion `[x, y, z, w]`.
pub type Quat = [f32; 4];

/// The identity rotation.
pub const QUAT_IDENTITY: Quat = [0.0, 0.0, 0.0, 1.0];

/// Rotate `v` by the unit quaternion `q`.
#[inline]
pub fn rotate(q: Quat, v: V3) -> V3 {
    let u = [q[0], q[1], q[2]];
    let t = scale(cross(u, v), 2.0);
    add(add_scaled(v, t, q[3]), cross(u, t))
}

/// Rotate `v` by the inverse of `q`.
#[inline]
pub fn rotate_inv(q: Quat, v: V3) -> V3 {
    rotate([-q[0], -q[1], -q[2], q[3]], v)
}

/// The body's local axes in world space (columns of its rotation matrix).
pub fn axes(q: Quat) -> [V3; 3] {
    [
        rotate(q, [1.0, 0.0, 0.0]),
        rotate(q, [0.0, 1.0, 0.0]),
        rotate(q, [0.0, 0.0, 1.0]),
    ]
}

/// `q` advanced by angular velocity `w` over `h` seconds (first order), renormalized.
pub fn integrate_rotation(q: Quat, w: V3, h: f32) -> Quat {
    let hw = scale(w, 0.5 * h);
    // dq = (w, 0) * q
    let dq = [
        hw[0] * q[3] + hw[1] * q[2] - hw[2] * q[1],
        hw[1] * q[3] + hw[2] * q[0] - hw[0] * q[2],
        hw[2] * q[3] + hw[0] * q[1] - hw[1] * q[0],
        -hw[0] * q[0] - hw[1] * q[1] - hw[2] * q[2],
    ];
    let r = [q[0] + dq[0], q[1] + dq[1], q[2] + dq[2], q[3] + dq[3]];
    let n = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]).sqrt();
    if n > 1e-12 {
        r.map(|c| c / n)
    } else {
        QUAT_IDENTITY
    }
}

/// The rotation of `angle` radians about the unit `axis`.
pub fn quat_from_axis_angle(axis: V3, angle: f32) -> Quat {
    let (s, c) = (0.5 * angle).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// Two unit vectors orthogonal to the unit `n` and to each other.
pub fn tangents(n: V3) -> (V3, V3) {
    let a = if n[0].abs() < 0.57 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let t1 = normalize(cross(n, a)).unwrap_or([0.0, 0.0, 1.0]);
    (t1, cross(n, t1))
}

/// The points `(on_a, on_b)` closest between segments `p0..p1` and `q0..q1` (Ericson 5.1.9).
pub fn closest_segment_segment(p0: V3, p1: V3, q0: V3, q1: V3) -> (V3, V3) {
    let (d1, d2, r) = (sub(p1, p0), sub(q1, q0), sub(p0, q0));
    let (a, e, f) = (dot(d1, d1), dot(d2, d2), dot(d2, r));
    let eps = 1e-12;
    let (s, t);
    if a <= eps && e <= eps {
        return (p0, q0);
    }
    if a <= eps {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = dot(d1, r);
        if e <= eps {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = dot(d1, d2);
            let denom = a * e - b * b;
            let s0 = if denom > eps {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (add_scaled(p0, d1, s), add_scaled(q0, d2, t))
}

/// The point of segment `a..b` closest to `p`.
pub fn closest_point_on_segment(p: V3, a: V3, b: V3) -> V3 {
    let ab = sub(b, a);
    let l = dot(ab, ab);
    if l <= 1e-12 {
        return a;
    }
    add_scaled(a, ab, (dot(sub(p, a), ab) / l).clamp(0.0, 1.0))
}

/// True when triangle `t` has no area: two corners coincide or all three lie on a line (up to `f32`
/// rounding). Such a triangle has no normal, and the barycentric divisions of
/// [`closest_point_on_triangle`] would be 0 / 0 on it.
pub fn is_degenerate(t: [V3; 3]) -> bool {
    let (ab, ac) = (sub(t[1], t[0]), sub(t[2], t[0]));
    let n = cross(ab, ac);
    dot(n, n) <= f32::EPSILON * f32::EPSILON * dot(ab, ab) * dot(ac, ac)
}

/// The point of triangle `[a, b, c]` closest to `p` (Ericson, Real-Time Collision Detection 5.1.5).
///
/// A degenerate triangle ([`is_degenerate`]) is treated as the segments between its corners.
pub fn closest_point_on_triangle(p: V3, [a, b, c]: [V3; 3]) -> V3 {
    if is_degenerate([a, b, c]) {
        return closest_on_edges(p, [a, b, c]);
    }
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return add_scaled(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return add_scaled(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return add_scaled(b, sub(c, b), w);
    }
    let den = 1.0 / (va + vb + vc);
    let (v, w) = (vb * den, vc * den);
    add_scaled(add_scaled(a, ab, v), ac, w)
}

/// The point of the three segments between the corners of `t` closest to `p`.
fn closest_on_edges(p: V3, t: [V3; 3]) -> V3 {
    let mut best = t[0];
    let mut best_d = f32::INFINITY;
    for i in 0..3 {
        let q = closest_point_on_segment(p, t[i], t[(i + 1) % 3]);
        let d = dot(sub(p, q), sub(p, q));
        if d < best_d {
            (best, best_d) = (q, d);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vec3::length;

    fn close(a: V3, b: V3) -> bool {
        length(sub(a, b)) < 1e-5
    }

    #[test]
    fn closest_point_regions() {
        let t = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]];
        assert_eq!(
            closest_point_on_triangle([0.5, 0.5, 3.0], t),
            [0.5, 0.5, 0.0]
        );
        assert_eq!(closest_point_on_triangle([-1.0, -1.0, 0.0], t), [0.0; 3]);
        assert_eq!(
            closest_point_on_triangle([3.0, -1.0, 1.0], t),
            [2.0, 0.0, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([1.0, -5.0, 0.0], t),
            [1.0, 0.0, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([2.0, 2.0, 0.0], t),
            [1.0, 1.0, 0.0]
        );
    }

    #[test]
    fn closest_point_on_degenerate_triangles() {
        // Two equal corners: the triangle is the segment a..c. This input gave NaN (0 / 0 in the
        // region of the zero-length edge a..b).
        let (a, c) = ([65.5, 29.5, 107.5], [65.8999, 29.653809, 107.1001]);
        let p = [66.9282, 30.142, 107.99249];
        for t in [[a, a, c], [a, c, a], [c, a, a]] {
            assert!(is_degenerate(t));
            let q = closest_point_on_triangle(p, t);
            assert!(
                close(q, closest_point_on_segment(p, a, c)),
                "{t:?} -> {q:?}"
            );
        }
        // Three equal corners, and three corners on a line.
        assert_eq!(closest_point_on_triangle([1.0, 2.0, 3.0], [a; 3]), a);
        let line = [[0.0; 3], [1.0, 1.0, 0.0], [3.0, 3.0, 0.0]];
        assert!(is_degenerate(line));
        assert!(close(
            closest_point_on_triangle([0.0, 2.0, 5.0], line),
            [1.0, 1.0, 0.0]
        ));
        // A thin but real triangle is not degenerate, and the point is inside the edge regions.
        let thin = [[0.0; 3], [1.0, 0.0, 0.0], [0.5, 1e-3, 0.0]];
        assert!(!is_degenerate(thin));
        let q = closest_point_on_triangle([0.5, -1.0, 0.0], thin);
        assert!(q.iter().all(|c| c.is_finite()) && close(q, [0.5, 0.0, 0.0]));
    }

    #[test]
    fn segments_crossing_and_parallel() {
        let (a, b) = closest_segment_segment(
            [-1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.5, -1.0, 2.0],
            [0.5, 1.0, 2.0],
        );
        assert!(
            close(a, [0.5, 0.0, 0.0]) && close(b, [0.5, 0.0, 2.0]),
            "{a:?} {b:?}"
        );
        // Parallel, overlapping: any pair at distance 1 is right.
        let (a, b) = closest_segment_segment(
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [3.0, 1.0, 0.0],
        );
        assert!((length(sub(a, b)) - 1.0).abs() < 1e-6);
        assert_eq!(
            closest_point_on_segment([5.0, 1.0, 0.0], [0.0; 3], [2.0, 0.0, 0.0]),
            [2.0, 0.0, 0.0]
        );
    }

    #[test]
    fn rotation_round_trip_and_integration() {
        let q = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        assert!(close(rotate(q, [1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
        assert!(close(
            rotate_inv(q, rotate(q, [0.3, -2.0, 5.0])),
            [0.3, -2.0, 5.0]
        ));
        // Spinning at 1 rad/s about Y for 1 s in small steps turns X towards −Z by ~1 rad.
        let mut r = QUAT_IDENTITY;
        for _ in 0..1000 {
            r = integrate_rotation(r, [0.0, 1.0, 0.0], 1e-3);
        }
        let x = rotate(r, [1.0, 0.0, 0.0]);
        assert!(
            (x[0] - 1f32.cos()).abs() < 1e-3 && (x[2] + 1f32.sin()).abs() < 1e-3,
            "{x:?}"
        );
        let (t1, t2) = tangents([0.0, 1.0, 0.0]);
        assert!(dot(t1, [0.0, 1.0, 0.0]).abs() < 1e-6 && dot(t1, t2).abs() < 1e-6);
        assert!((length(t1) - 1.0).abs() < 1e-6 && (length(t2) - 1.0).abs() < 1e-6);
    }
}
