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

use super::query::Ray;

/// Barycentric slack of the `f32` pre-test: far above its rounding error for the triangles it runs on.
const PRETEST_SLACK: f32 = 1e-2;

/// `det²` below this fraction of `|e1|² |e2|² |dir|²` skips the `f32` pre-test.
const PRETEST_MIN_DET2: f32 = 1e-6;

#[inline]
pub(super) fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
pub(super) fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
pub(super) fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The three corners of triangle `id`.
///
/// # Panics
/// If the mesh is not the one the tree was built from (an index out of range).
#[inline]
pub(super) fn corners(positions: &[[f32; 3]], indices: &[u32], id: u32) -> [[f32; 3]; 3] {
    let i = id as usize * 3;
    let tri = &indices[i..i + 3];
    [
        positions[tri[0] as usize],
        positions[tri[1] as usize],
        positions[tri[2] as usize],
    ]
}

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
    let [dx, dy, dz] = ray.dir;
    let (e1x, e1y, e1z) = (b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    let (e2x, e2y, e2z) = (c[0] - a[0], c[1] - a[1], c[2] - a[2]);
    // p = dir × e2, det = e1 · p
    let (px, py, pz) = (
        dy * e2z - dz * e2y,
        dz * e2x - dx * e2z,
        dx * e2y - dy * e2x,
    );
    let det = e1x * px + e1y * py + e1z * pz;
    let e1_len2 = e1x * e1x + e1y * e1y + e1z * e1z;
    let e2_len2 = e2x * e2x + e2y * e2y + e2z * e2z;
    if det * det < PRETEST_MIN_DET2 * e1_len2 * e2_len2 * dir_len2 {
        return false;
    }
    // u·|det| and v·|det|, compared without dividing.
    let sign = 1f32.copysign(det);
    let ad = det.abs();
    let (sx, sy, sz) = (
        ray.origin[0] - a[0],
        ray.origin[1] - a[1],
        ray.origin[2] - a[2],
    );
    let u = (sx * px + sy * py + sz * pz) * sign;
    if u < -PRETEST_SLACK * ad || u > (1.0 + PRETEST_SLACK) * ad {
        return true;
    }
    // q = s × e1, v = dir · q
    let (qx, qy, qz) = (
        sy * e1z - sz * e1y,
        sz * e1x - sx * e1z,
        sx * e1y - sy * e1x,
    );
    let v = (dx * qx + dy * qy + dz * qz) * sign;
    v < -PRETEST_SLACK * ad || u + v > (1.0 + PRETEST_SLACK) * ad
}

/// Möller–Trumbore in `f64` (the exact answer of [`intersect`]).
#[inline(never)]
fn intersect_f64(ray: &Ray, [a, b, c]: [[f32; 3]; 3]) -> Option<f64> {
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

#[inline]
fn sub64(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
fn cross64(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
fn dot64(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
