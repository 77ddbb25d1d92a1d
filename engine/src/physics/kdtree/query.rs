//! Queries on a [`KdTree`]: AABB overlap, closest-hit raycast and any-hit raycast.
//!
//! All three walk the tree with a fixed-size stack on the call stack ([`MAX_DEPTH`] + 1 entries).
//!
//! **AABB:** a branch sends the walk left when `splits[0] >= box.min[axis]` and right when
//! `splits[1] <= box.max[axis]`; a leaf reports each triangle whose bounding box overlaps the box.
//!
//! **Ray:** each stack entry is a node and the segment `[t_lo, t_hi]` of the ray inside the node's
//! half-spaces. At a branch the ray crosses the two planes at `t0` and `t1`:
//!
//! ```text
//!   dir[axis] > 0:  left child gets [t_lo, min(t_hi, t0)],  right child gets [max(t_lo, t1), t_hi]
//!   dir[axis] < 0:  right child gets [t_lo, min(t_hi, t1)], left child gets [max(t_lo, t0), t_hi]
//!   dir[axis] = 0:  a child gets the whole segment when the origin is on its side of its plane
//! ```
//!
//! The child met first along the ray is pushed last, so it is visited first; an entry whose `t_lo`
//! lies beyond the best hit so far is dropped (early termination). The plane crossings are rounded
//! floats, so each crossing is widened by a relative [`SEGMENT_PAD`] before it bounds a segment: a
//! triangle lying exactly in a split plane (common on voxel terrain) is never skipped.

use super::{KdTree, Node, MAX_DEPTH};

/// Relative widening of every plane crossing (see the module docs).
pub const SEGMENT_PAD: f32 = 1e-5;

/// Direction components smaller than this are treated as parallel to the planes.
const PARALLEL: f32 = 1e-30;

/// A ray: points `origin + t · dir` for `t ≥ 0`. `dir` need not be normalized; `t` is in units of
/// `dir`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Start point.
    pub origin: [f32; 3],
    /// Direction.
    pub dir: [f32; 3],
}

/// The closest triangle a ray hits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit (distance when `dir` is a unit vector).
    pub t: f32,
    /// Id of the triangle hit (`indices[3 · triangle ..]`).
    pub triangle: u32,
    /// Unit normal of the triangle by its winding (counter-clockwise seen from the front), not
    /// flipped toward the ray.
    pub normal: [f32; 3],
}

#[inline]
fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The three corners of triangle `id`.
///
/// # Panics
/// If the mesh is not the one the tree was built from (an index out of range).
#[inline]
fn corners(positions: &[[f32; 3]], indices: &[u32], id: u32) -> [[f32; 3]; 3] {
    let i = id as usize * 3;
    [
        positions[indices[i] as usize],
        positions[indices[i + 1] as usize],
        positions[indices[i + 2] as usize],
    ]
}

/// Barycentric slack of the `f32` pre-test: far above its rounding error for the triangles it runs on.
const PRETEST_SLACK: f32 = 1e-2;

/// Möller–Trumbore, two-sided: the ray parameter where `ray` crosses the triangle, if it does.
///
/// The answer comes from an `f64` evaluation ([`intersect_f64`]): for a ray that grazes a triangle,
/// or a sliver triangle, `f32` loses several digits of the distance (its error grows like `1 / cos`
/// of the incidence angle). Most tested triangles are clear misses, so an `f32` pre-test with a wide
/// margin rejects those first; it only runs when the ray is not close to the triangle's plane
/// (`|det| ≥ 1e-3 · |e1| |e2| |dir|`), where its error is far below the margin.
#[inline]
pub(super) fn intersect(ray: &Ray, [a, b, c]: [[f32; 3]; 3]) -> Option<f32> {
    let e1 = sub(b, a);
    let e2 = sub(c, a);
    let p = cross(ray.dir, e2);
    let det = dot(e1, p);
    let scale = dot(e1, e1) * dot(e2, e2) * dot(ray.dir, ray.dir);
    if det * det >= 1e-6 * scale {
        let inv = 1.0 / det;
        let s = sub(ray.origin, a);
        let u = dot(s, p) * inv;
        if !(-PRETEST_SLACK..=1.0 + PRETEST_SLACK).contains(&u) {
            return None;
        }
        let v = dot(ray.dir, cross(s, e1)) * inv;
        if v < -PRETEST_SLACK || u + v > 1.0 + PRETEST_SLACK {
            return None;
        }
    }
    intersect_f64(ray, [a, b, c]).map(|t| t as f32)
}

/// Möller–Trumbore in `f64` (the exact answer of [`intersect`]).
#[inline]
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

/// `t` moved outward by the relative pad: toward `-inf` when `down`, else toward `+inf`.
#[inline]
fn pad(t: f32, down: bool) -> f32 {
    let d = t.abs() * SEGMENT_PAD + f32::MIN_POSITIVE;
    if down {
        t - d
    } else {
        t + d
    }
}

/// A ray walk in progress: stack of (node, t_lo, t_hi).
struct Walk {
    stack: [(u32, f32, f32); MAX_DEPTH + 1],
    len: usize,
}

impl Walk {
    #[inline]
    fn push(&mut self, node: usize, lo: f32, hi: f32) {
        self.stack[self.len] = (node as u32, lo, hi);
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(usize, f32, f32)> {
        self.len = self.len.checked_sub(1)?;
        let (n, lo, hi) = self.stack[self.len];
        Some((n as usize, lo, hi))
    }
}

impl KdTree {
    /// Append to `out` (not cleared) the id of every triangle whose bounding box overlaps the closed box
    /// `min..=max`. `positions` and `indices` must be the mesh the tree was built from.
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn query_aabb(
        &self,
        positions: &[[f32; 3]],
        indices: &[u32],
        min: [f32; 3],
        max: [f32; 3],
        out: &mut Vec<u32>,
    ) {
        if self.nodes.is_empty()
            || (0..3).any(|a| !(min[a] <= self.bounds_max[a] && max[a] >= self.bounds_min[a]))
        {
            return;
        }
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let node = self.nodes[stack[len] as usize];
            if node.is_leaf() {
                for &id in node.triangles() {
                    let [a, b, c] = corners(positions, indices, id);
                    if (0..3).all(|k| {
                        a[k].min(b[k]).min(c[k]) <= max[k] && a[k].max(b[k]).max(c[k]) >= min[k]
                    }) {
                        out.push(id);
                    }
                }
                continue;
            }
            let (axis, [s0, s1], child) = (node.axis(), node.splits(), node.child() as u32);
            if s1 <= max[axis] {
                stack[len] = child + 1;
                len += 1;
            }
            if s0 >= min[axis] {
                stack[len] = child;
                len += 1;
            }
        }
    }

    /// The closest triangle `ray` hits with `0 ≤ t ≤ max_t`, both faces counting.
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast(
        &self,
        positions: &[[f32; 3]],
        indices: &[u32],
        ray: &Ray,
        max_t: f32,
    ) -> Option<RayHit> {
        self.raycast_filtered(positions, indices, ray, max_t, |_| true)
    }

    /// [`KdTree::raycast`] over only the triangles for which `accept(triangle)` is true (for example
    /// solid but not water).
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast_filtered(
        &self,
        positions: &[[f32; 3]],
        indices: &[u32],
        ray: &Ray,
        max_t: f32,
        accept: impl Fn(u32) -> bool,
    ) -> Option<RayHit> {
        let mut best: Option<(f32, u32)> = None;
        self.walk(ray, max_t, |id, limit| {
            if !accept(id) {
                return false;
            }
            if let Some(t) = intersect(ray, corners(positions, indices, id)) {
                if t >= 0.0 && t <= *limit && best.is_none_or(|(bt, _)| t < bt) {
                    best = Some((t, id));
                    *limit = t;
                }
            }
            false
        });
        best.map(|(t, triangle)| {
            let [a, b, c] = corners(positions, indices, triangle);
            let n = cross(sub(b, a), sub(c, a));
            let len = dot(n, n).sqrt();
            let normal = if len > 0.0 { n.map(|v| v / len) } else { n };
            RayHit {
                t,
                triangle,
                normal,
            }
        })
    }

    /// True when `ray` hits any triangle with `0 ≤ t ≤ max_t` (stops at the first one found).
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast_any(
        &self,
        positions: &[[f32; 3]],
        indices: &[u32],
        ray: &Ray,
        max_t: f32,
    ) -> bool {
        let mut found = false;
        self.walk(ray, max_t, |id, _| {
            if let Some(t) = intersect(ray, corners(positions, indices, id)) {
                found = t >= 0.0 && t <= max_t;
            }
            found
        });
        found
    }

    /// Walk the nodes `ray` passes through, front to back, calling `leaf(triangle, &mut limit)` for
    /// each triangle of each leaf reached. `limit` starts at `max_t`; the callback may lower it (the
    /// best hit so far), and nodes whose segment starts beyond it are then dropped. The walk ends
    /// when the callback returns true.
    #[inline]
    fn walk(&self, ray: &Ray, max_t: f32, mut leaf: impl FnMut(u32, &mut f32) -> bool) {
        let Some((lo, hi)) = self.root_segment(ray, max_t) else {
            return;
        };
        let parallel = ray.dir.map(|d| d.abs() < PARALLEL);
        let inv = ray.dir.map(|d| 1.0 / d);
        let mut limit = max_t;
        let mut walk = Walk {
            stack: [(0, 0.0, 0.0); MAX_DEPTH + 1],
            len: 0,
        };
        walk.push(0, lo, hi);
        while let Some((at, lo, hi)) = walk.pop() {
            if lo > limit {
                continue;
            }
            let node: Node = self.nodes[at];
            if node.is_leaf() {
                for &id in node.triangles() {
                    if leaf(id, &mut limit) {
                        return;
                    }
                }
                continue;
            }
            // Nothing beyond the best hit matters: clip the segment there (padded like a crossing).
            let hi = hi.min(pad(limit, false));
            let (a, [s0, s1], child) = (node.axis(), node.splits(), node.child());
            let o = ray.origin[a];
            if parallel[a] {
                if o >= s1 {
                    walk.push(child + 1, lo, hi);
                }
                if o <= s0 {
                    walk.push(child, lo, hi);
                }
                continue;
            }
            let t0 = (s0 - o) * inv[a];
            let t1 = (s1 - o) * inv[a];
            // (near child, its exit crossing), (far child, its entry crossing)
            let ((near, t_out), (far, t_in)) = if ray.dir[a] > 0.0 {
                ((child, t0), (child + 1, t1))
            } else {
                ((child + 1, t1), (child, t0))
            };
            let t_in = pad(t_in, true);
            if t_in <= hi {
                walk.push(far, lo.max(t_in), hi);
            }
            let t_out = pad(t_out, false);
            if t_out >= lo {
                walk.push(near, lo, hi.min(t_out));
            }
        }
    }

    /// The padded segment of `ray` inside the tree's bounds, clipped to `0..=max_t`.
    fn root_segment(&self, ray: &Ray, max_t: f32) -> Option<(f32, f32)> {
        if self.nodes.is_empty() || max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        let (mut lo, mut hi) = (0.0f32, max_t);
        for a in 0..3 {
            let (o, d) = (ray.origin[a], ray.dir[a]);
            let (bmin, bmax) = (self.bounds_min[a], self.bounds_max[a]);
            if d.abs() < PARALLEL {
                if o < bmin || o > bmax {
                    return None;
                }
                continue;
            }
            let (ta, tb) = ((bmin - o) / d, (bmax - o) / d);
            let (ta, tb) = if ta <= tb { (ta, tb) } else { (tb, ta) };
            lo = lo.max(pad(ta, true));
            hi = hi.min(pad(tb, false));
        }
        (lo <= hi).then_some((lo, hi))
    }
}
