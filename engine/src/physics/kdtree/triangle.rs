//! Ray–triangle intersection for kD tree queries: an `f32` reject test in front of an exact `f64` one.
//!
//! ```text
//!   f32 pre-test (no division)          is the ray close to the triangle's plane?
//!     det = e1 · (dir × e2)               det² < 1e-6 |e1|² |e2|² |dir|²  ──yes──> skip to f64
//!     u·det, v·det vs. [−slack, 1 + slack]·|det|  ──outside──> miss
//!   f64 Möller–Trumbore                  the answer (t), for the few triangles left
//! ```
//!
//! For a ray that grazes a triangle, or a sliver triangle, `f32` loses several digits of the distance
//! (its error grows like `1 / cos` of the incidence angle), so the reported `t` always comes from the
//! `f64` evaluation. Most tested triangles are clear misses: the `f32` test rejects those with a wide
//! barycentric margin ([`PRETEST_SLACK`]), and only runs where it is reliable (`|cos| ≳ 1e-3`), where
//! its error is far below that margin.
//!
//! A quad `(a, b, c), (a, c, d)` is pre-tested as one ([`quad_candidates`]): both triangles use the
//! diagonal as an edge, so the cross product with the ray and the side of the diagonal the ray passes
//! are computed once, and the triangle on the other side fails at its first comparison.

use crate::vec3::{cross, cross64, dot, dot64, sub, sub64};

/// A ray: points `origin + t · dir` for `t ≥ 0`. `dir` need not be normalized; `t` is in units of
/// `dir`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Start point.
    pub origin: [f32; 3],
    /// Direction.
    pub dir: [f32; 3],
}

/// Barycentric slack of the `f32` pre-test: far above its rounding error for the triangles it runs on.
const PRETEST_SLACK: f32 = 1e-2;

/// `det²` below this fraction of `|e1|² |e2|² |dir|²` skips the `f32` pre-test.
const PRETEST_MIN_DET2: f32 = 1e-6;

/// Möller–Trumbore, two-sided: the ray parameter where `ray` crosses the triangle, if it does.
#[cfg(test)]
pub(super) fn intersect(ray: &Ray, tri: [[f32; 3]; 3]) -> Option<f32> {
    intersect_with(ray, dot(ray.dir, ray.dir), tri)
}

/// [`intersect`] with `dir_len2 = |ray.dir|²` computed once per ray.
#[inline(always)]
pub(super) fn intersect_with(ray: &Ray, dir_len2: f32, tri: [[f32; 3]; 3]) -> Option<f32> {
    if pretest_rejects(ray, dir_len2, tri) {
        None
    } else {
        intersect_f64(ray, tri).map(|t| t as f32)
    }
}

/// The `f32` pre-test: true when the ray surely misses the triangle.
#[inline(always)]
fn pretest_rejects(ray: &Ray, dir_len2: f32, [a, b, c]: [[f32; 3]; 3]) -> bool {
    let e2 = sub(c, a);
    let p = cross(ray.dir, e2);
    let s = sub(ray.origin, a);
    !may_hit(ray, s, p, dot(s, p), sub(b, a), dot(e2, e2) * dir_len2)
}

/// The `f32` pre-test of a quad `(a, b, c, d)`, the triangles `(a, b, c)` and `(a, c, d)` sharing the
/// diagonal `a–c`: for each triangle, false when the ray surely misses it.
///
/// Both triangles are tested with the diagonal as their second edge, `(a, b, c)` and `(a, d, c)`, so
/// `p = dir × (c − a)` and `u · det = (origin − a) · p` are shared. `u · det` is the side of the
/// diagonal the ray passes, and `b` and `d` lie on opposite sides: for all but a ray along a folded
/// quad, one triangle fails at its `u` test and only the other computes `v`.
#[inline(always)]
pub(super) fn quad_candidates(ray: &Ray, dir_len2: f32, [a, b, c, d]: [[f32; 3]; 4]) -> [bool; 2] {
    let e2 = sub(c, a);
    let p = cross(ray.dir, e2);
    let s = sub(ray.origin, a);
    let w = dot(s, p);
    let e2_dir2 = dot(e2, e2) * dir_len2;
    [
        may_hit(ray, s, p, w, sub(b, a), e2_dir2),
        may_hit(ray, s, p, w, sub(d, a), e2_dir2),
    ]
}

/// Möller–Trumbore's tests in `f32` without the division, for the triangle `(a, a + e1, a + e2)`
/// given `s = origin − a`, `p = dir × e2`, `w = s · p` and `e2_dir2 = |e2|² |dir|²`: false when the
/// ray surely misses it (barycentric slack [`PRETEST_SLACK`]); true when it may hit, or when the ray
/// is too close to the triangle's plane for `f32` to tell.
#[inline(always)]
fn may_hit(ray: &Ray, s: [f32; 3], p: [f32; 3], w: f32, e1: [f32; 3], e2_dir2: f32) -> bool {
    let det = dot(e1, p);
    if det * det < PRETEST_MIN_DET2 * dot(e1, e1) * e2_dir2 {
        return true;
    }
    // u·|det| and v·|det|, compared without dividing.
    let sign = 1f32.copysign(det);
    let ad = det.abs();
    let u = w * sign;
    if u < -PRETEST_SLACK * ad || u > (1.0 + PRETEST_SLACK) * ad {
        return false;
    }
    let v = dot(ray.dir, cross(s, e1)) * sign;
    !(v < -PRETEST_SLACK * ad || u + v > (1.0 + PRETEST_SLACK) * ad)
}

/// Möller–Trumbore in `f64` (the exact answer of [`intersect`]). Inlined into the ray walk: as a
/// call, every live `f32` of the walk (all of x86-64's vector registers are caller-saved) was
/// spilled and reloaded around each candidate triangle.
#[inline(always)]
pub(crate) fn intersect_f64(ray: &Ray, [a, b, c]: [[f32; 3]; 3]) -> Option<f64> {
    let w = |p: [f32; 3]| p.map(f64::from);
    let (a, b, c) = (w(a), w(b), w(c));
    let (o, d) = (w(ray.origin), w(ray.dir));
    let e1 = sub64(b, a);
    let e2 = sub64(c, a);
    let p = cross64(d, e2);
    let det = dot64(e1, p);
    if det == 0.0 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub64(o, a);
    let u = dot64(s, p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = cross64(s, e1);
    let v = dot64(d, q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some(dot64(e2, q) * inv)
}
