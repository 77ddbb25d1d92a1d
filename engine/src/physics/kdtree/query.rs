//! Queries on a [`KdTree`]: AABB overlap, closest-hit raycast and any-hit raycast.
//!
//! All three walk the tree with a fixed-size stack on the call stack ([`MAX_DEPTH`] + 1 entries) and
//! allocate nothing: at a branch the walk goes straight into one child and pushes the other only when
//! both must be visited.
//!
//! **AABB:** a branch sends the walk left when `splits[0] >= box.min[axis]` and right when
//! `splits[1] <= box.max[axis]`; a leaf reports each triangle whose bounding box overlaps the box (a
//! quad leaf first checks its stored box).
//!
//! **Ray:** each stack entry is a node and the segment `[t_lo, t_hi]` of the ray inside the node's
//! half-spaces. At a branch the ray crosses the two planes at `t0` and `t1`:
//!
//! ```text
//!   dir[axis] > 0:  left child gets [t_lo, min(t_hi, t0)],  right child gets [max(t_lo, t1), t_hi]
//!   dir[axis] < 0:  right child gets [t_lo, min(t_hi, t1)], left child gets [max(t_lo, t0), t_hi]
//!   dir[axis] = 0:  a child gets the whole segment when the origin is on its side of its plane
//!                   (1 / dir is infinite, so the crossings are ±inf, or NaN on the plane: kept)
//! ```
//!
//! The crossings use `1 / dir` computed once per ray, and the sign of `dir[axis]` picks the near child
//! by index (`child + sign`), without a branch. The walk descends into the near child and pushes the
//! far one; an entry whose `t_lo` lies beyond the best hit so far is dropped when popped (early
//! termination). The plane crossings are rounded floats, so each is widened before it bounds a
//! segment: by [`SEGMENT_PAD`] times the largest `|t|` of the ray's segment in the tree bounds, one
//! absolute pad per ray that is at least the relative pad of every crossing that matters. A triangle
//! lying exactly in a split plane (common on voxel terrain) is never skipped.
//!
//! **Quad leaves** (see [`super::build`]) carry their quad's box on a 10-bit grid over the tree
//! bounds. The walk slab-tests it against the leaf's segment before reading any vertex: the ray is
//! moved into grid units once per ray (`(q − go) · gi` is the crossing of grid plane `q`), and the
//! box is one grid step wider than the quad on every side, which covers that transform's rounding.
//! A leaf's region is only bounded by its ancestors' planes, usually far wider than its quad, so most
//! leaves a ray reaches are rejected here.
//!
//! Triangles are tested by [`super::triangle`]: an `f32` reject test (one shared test for both
//! triangles of a quad), then `f64` for the answer.

use super::triangle::{intersect_f64, intersect_with, quad_candidates, Ray};
use super::{KdTree, Node, TriangleMesh, MAX_DEPTH};
use crate::vec3::{cross, dot, sub};

/// Relative widening of every plane crossing (see the module docs).
pub const SEGMENT_PAD: f32 = 1e-5;

/// Direction components smaller than this are treated as parallel to the root box's faces.
const PARALLEL: f32 = 1e-30;

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

impl KdTree {
    /// Append to `out` (not cleared) the id of every triangle whose bounding box overlaps the closed box
    /// `min..=max`. `mesh` must be the mesh the tree was built from.
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn query_aabb<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
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
        let mut len = 0;
        let mut at = 0usize;
        loop {
            let node = self.nodes[at];
            if node.is_leaf() {
                // A quad leaf whose box misses the query box is skipped before any vertex is read.
                let skip = node.is_quad_leaf() && {
                    let (lo, hi) = self.grid.dequantize(node.quad_box());
                    (0..3).any(|k| lo[k] > max[k] || hi[k] < min[k])
                };
                for &id in node.triangles().iter().filter(|_| !skip) {
                    let [a, b, c] = mesh.corners(id);
                    if (0..3).all(|k| {
                        a[k].min(b[k]).min(c[k]) <= max[k] && a[k].max(b[k]).max(c[k]) >= min[k]
                    }) {
                        out.push(id);
                    }
                }
            } else {
                let (axis, [s0, s1], child) = (node.axis(), node.splits(), node.child());
                let (left, right) = (s0 >= min[axis], s1 <= max[axis]);
                if left {
                    if right {
                        stack[len] = child as u32 + 1;
                        len += 1;
                    }
                    at = child;
                    continue;
                }
                if right {
                    at = child + 1;
                    continue;
                }
            }
            let Some(next) = len.checked_sub(1) else {
                return;
            };
            len = next;
            at = stack[len] as usize;
        }
    }

    /// The closest triangle `ray` hits with `0 ≤ t ≤ max_t`, both faces counting.
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        max_t: f32,
    ) -> Option<RayHit> {
        self.raycast_filtered(mesh, ray, max_t, |_| true)
    }

    /// [`KdTree::raycast`] over only the triangles for which `accept(triangle)` is true (for example
    /// solid but not water).
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast_filtered<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        max_t: f32,
        accept: impl Fn(u32) -> bool,
    ) -> Option<RayHit> {
        let mut best: Option<(f32, u32)> = None;
        let dir_len2 = dot(ray.dir, ray.dir);
        self.walk(ray, max_t, |ids, limit| {
            self.leaf_hits(mesh, ray, dir_len2, ids, |id, t| {
                if t >= 0.0 && t <= *limit && accept(id) && best.is_none_or(|(bt, _)| t < bt) {
                    best = Some((t, id));
                    *limit = t;
                }
                false
            })
        });
        best.map(|(t, triangle)| {
            let [a, b, c] = mesh.corners(triangle);
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
    pub fn raycast_any<M: TriangleMesh + ?Sized>(&self, mesh: &M, ray: &Ray, max_t: f32) -> bool {
        let mut found = false;
        let dir_len2 = dot(ray.dir, ray.dir);
        self.walk(ray, max_t, |ids, _| {
            self.leaf_hits(mesh, ray, dir_len2, ids, |_, t| {
                found = t >= 0.0 && t <= max_t;
                found
            })
        });
        found
    }

    /// Intersect `ray` with the triangles `ids` of one leaf, calling `hit(triangle, t)` for each one
    /// it crosses (in the order of `ids`) until `hit` returns true; returns what the last call did.
    /// `dir_len2` is `|ray.dir|²`, computed once per ray.
    /// A quad leaf runs the shared quad pre-test first, so usually only one triangle reaches `f64`.
    #[inline(always)]
    fn leaf_hits<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        dir_len2: f32,
        ids: &[u32],
        mut hit: impl FnMut(u32, f32) -> bool,
    ) -> bool {
        if self.quads {
            let first = ids[0];
            let [a, b, c, d] = mesh.quad_corners(first);
            let may = quad_candidates(ray, dir_len2, [a, b, c, d]);
            if may[0] {
                if let Some(t) = intersect_f64(ray, [a, b, c]) {
                    if hit(first, t as f32) {
                        return true;
                    }
                }
            }
            if may[1] {
                if let Some(t) = intersect_f64(ray, [a, c, d]) {
                    return hit(first + 1, t as f32);
                }
            }
            return false;
        }
        for &id in ids {
            if let Some(t) = intersect_with(ray, dir_len2, mesh.corners(id)) {
                if hit(id, t) {
                    return true;
                }
            }
        }
        false
    }

    /// Walk the nodes `ray` passes through, front to back, calling `leaf(triangles, &mut limit)` for
    /// each leaf reached (a quad leaf only when the ray crosses its box). `limit` starts at `max_t`;
    /// the callback may lower it (the best hit so far), and nodes whose segment starts beyond it are
    /// then dropped. The walk ends when the callback returns true.
    ///
    /// The near child is descended into at once and the far one pushed; a direction component of
    /// zero makes its crossings infinite (or NaN when the origin lies on a plane), and every test
    /// below is written so that NaN keeps the child. Per-axis ray data sits in 4-entry arrays so that
    /// the 2-bit axis field indexes them without a bounds check.
    // `!(a < b)` on purpose: it is true for NaN, which must keep the child.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline(always)]
    fn walk(&self, ray: &Ray, max_t: f32, mut leaf: impl FnMut(&[u32], &mut f32) -> bool) {
        let Some((mut lo, mut hi)) = self.root_segment(ray, max_t) else {
            return;
        };
        // One absolute pad for the whole walk: at least the relative pad of every crossing inside
        // the root segment.
        let pad = lo.abs().max(hi.abs()) * SEGMENT_PAD + f32::MIN_POSITIVE;
        let [ox, oy, oz] = ray.origin;
        let origin = [ox, oy, oz, 0.0];
        let inv = [1.0 / ray.dir[0], 1.0 / ray.dir[1], 1.0 / ray.dir[2], 0.0];
        // 1 when the ray runs toward −axis: then the right child (`child + 1`) is met first.
        let neg = [0, 1, 2, 2].map(|a| usize::from(ray.dir[a].is_sign_negative()));
        // The ray in the units of the quad leaves' box grid: crossing `q` at `(q − go) · gi`.
        let grid = &self.grid;
        let go = [0, 1, 2].map(|a| (ray.origin[a] - grid.min[a]) * grid.per_step[a]);
        let gi = [0, 1, 2].map(|a| inv[a] * grid.step[a]);
        // Bit offsets of the near and far box coordinates on each axis (see `Node::quad_box_bits`).
        let near_bit = [0, 1, 2].map(|a| 10 * a as u32 + 30 * neg[a] as u32);
        let far_bit = [0, 1, 2].map(|a| 10 * a as u32 + 30 - 30 * neg[a] as u32);
        let mut limit = max_t;
        // The segment never needs to reach past the best hit so far (padded).
        let mut reach = limit + pad;
        let mut stack = [(0u32, 0f32, 0f32); MAX_DEPTH + 1];
        let mut len = 0;
        let mut at = 0usize;
        loop {
            let node = self.nodes[at];
            if node.is_leaf() {
                let misses_box = node.is_quad_leaf() && {
                    // The slab test against the quad's box, inside the leaf's segment.
                    let bits = node.quad_box_bits();
                    let (mut l, mut h) = (lo, min_of(hi, reach));
                    for a in 0..3 {
                        let near = Node::box_coordinate(bits, near_bit[a]) as f32;
                        let far = Node::box_coordinate(bits, far_bit[a]) as f32;
                        let t_near = (near - go[a]) * gi[a] - pad;
                        let t_far = (far - go[a]) * gi[a] + pad;
                        l = max_of(l, t_near);
                        h = min_of(h, t_far);
                    }
                    l > h
                };
                if !misses_box {
                    if leaf(&node.triangles(), &mut limit) {
                        return;
                    }
                    reach = limit + pad;
                }
            } else {
                let (a, child) = (node.axis(), node.child());
                let (o, ia, n) = (origin[a], inv[a], neg[a]);
                let hi_c = min_of(hi, reach);
                let t_out = (node.split(n) - o) * ia + pad;
                let t_in = (node.split(1 - n) - o) * ia - pad;
                let near_ok = !(t_out < lo);
                let far_ok = !(t_in > hi_c);
                if near_ok {
                    if far_ok {
                        stack[len] = ((child + 1 - n) as u32, max_of(lo, t_in), hi_c);
                        len += 1;
                    }
                    at = child + n;
                    hi = min_of(hi_c, t_out);
                    continue;
                }
                if far_ok {
                    at = child + 1 - n;
                    lo = max_of(lo, t_in);
                    hi = hi_c;
                    continue;
                }
            }
            loop {
                let Some(next) = len.checked_sub(1) else {
                    return;
                };
                len = next;
                let (n, l, h) = stack[len];
                if l <= limit {
                    (at, lo, hi) = (n as usize, l, h);
                    break;
                }
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

/// The smaller of `a` and `b`; `a` when `b` is NaN (one instruction, unlike `f32::min`).
#[inline(always)]
fn min_of(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

/// The larger of `a` and `b`; `a` when `b` is NaN.
#[inline(always)]
fn max_of(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
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
