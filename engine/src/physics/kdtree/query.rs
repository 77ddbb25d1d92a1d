//! Queries on a [`KdTree`]: AABB overlap, closest-hit raycast and any-hit raycast.
//!
//! All three walk the tree with a fixed-size stack on the call stack and allocate nothing: at a
//! branch the walk goes straight into one child and pushes the other only when both must be visited.
//!
//! **AABB:** a branch sends the walk left when `splits[0] >= box.min[axis]` and right when
//! `splits[1] <= box.max[axis]`; a leaf reports each triangle whose bounding box overlaps the box (a
//! quad leaf first checks its stored box).
//!
//! **Ray:** the walk of [`super::ray_walk`] hands each leaf the ray reaches (a quad leaf only when the
//! ray crosses its stored box) to the closest-hit or any-hit test here.
//!
//! Triangles are tested by [`super::triangle`]: an `f32` reject test (one shared test for both
//! triangles of a quad), then `f64` for the answer.

use super::triangle::{intersect_f64, intersect_with, quad_candidates, Ray};
use super::{KdTree, Node, TriangleMesh, MAX_DEPTH};
use crate::vec3::{cross, dot, sub};

/// Nodes one or more walks took in hand (see [`KdTree::raycast_counted`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkCounts {
    /// Branch nodes.
    pub branches: u64,
    /// Leaves (a quad leaf counts before its box test).
    pub leaves: u64,
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
        self.closest_hit(mesh, ray, max_t, accept, |_| {})
    }

    /// [`KdTree::raycast`], also counting the nodes its walk takes in hand (for benchmarks and
    /// tests of the tree's shape: a ray's cost is about its branches and leaves).
    ///
    /// # Panics
    /// If the mesh is not the one the tree was built from (an index out of range).
    pub fn raycast_counted<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        max_t: f32,
        counts: &mut WalkCounts,
    ) -> Option<RayHit> {
        self.closest_hit(
            mesh,
            ray,
            max_t,
            |_| true,
            |node| {
                counts.branches += u64::from(!node.is_leaf());
                counts.leaves += u64::from(node.is_leaf());
            },
        )
    }

    /// The closest hit among the accepted triangles; `visit` sees every node the walk takes. Of
    /// triangles hit at the same `t` the first one the walk meets wins, so a tree of another shape
    /// could answer a tie with the other triangle.
    #[inline(always)]
    fn closest_hit<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        max_t: f32,
        accept: impl Fn(u32) -> bool,
        visit: impl FnMut(Node),
    ) -> Option<RayHit> {
        let mut best: Option<(f32, u32)> = None;
        let dir_len2 = dot(ray.dir, ray.dir);
        // Inlined into the walk: a call would make the walk spill its ray data around it.
        self.walk_visiting(
            ray,
            max_t,
            #[inline(always)]
            |node| Self::early_corners(mesh, node),
            #[inline(always)]
            |node, corners, limit| {
                self.leaf_hits_with(mesh, ray, dir_len2, node, corners, |id, t| {
                    if t >= 0.0 && t <= *limit && accept(id) && best.is_none_or(|(bt, _)| t < bt) {
                        best = Some((t, id));
                        *limit = t;
                    }
                    false
                })
            },
            visit,
        );
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
        self.walk(
            ray,
            max_t,
            #[inline(always)]
            |node| Self::early_corners(mesh, node),
            #[inline(always)]
            |node, corners, _| {
                self.leaf_hits_with(mesh, ray, dir_len2, node, corners, |_, t| {
                    found = t >= 0.0 && t <= max_t;
                    found
                })
            },
        );
        found
    }

    /// Intersect `ray` with the triangles of leaf `node`, calling `hit(triangle, t)` for each one
    /// it crosses (in id order) until `hit` returns true; returns what the last call did.
    /// `dir_len2` is `|ray.dir|²`, computed once per ray.
    /// A quad leaf runs the shared quad pre-test first, so usually only one triangle reaches `f64`.
    #[cfg(test)]
    pub(super) fn leaf_hits<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        dir_len2: f32,
        node: Node,
        hit: impl FnMut(u32, f32) -> bool,
    ) -> bool {
        let corners = Self::early_corners(mesh, node);
        self.leaf_hits_with(mesh, ray, dir_len2, node, corners, hit)
    }

    /// A quad leaf's four corners (zeros for another leaf): the walk's `early` read, made before
    /// the leaf's box test so that the mesh reads overlap it.
    #[inline(always)]
    fn early_corners<M: TriangleMesh + ?Sized>(mesh: &M, node: Node) -> [[f32; 3]; 4] {
        if node.is_quad_leaf() {
            mesh.quad_corners(node.first_triangle())
        } else {
            [[0.0; 3]; 4]
        }
    }

    /// `leaf_hits` with a quad leaf's corners already read (by [`KdTree::early_corners`]).
    #[inline(always)]
    fn leaf_hits_with<M: TriangleMesh + ?Sized>(
        &self,
        mesh: &M,
        ray: &Ray,
        dir_len2: f32,
        node: Node,
        [a, b, c, d]: [[f32; 3]; 4],
        mut hit: impl FnMut(u32, f32) -> bool,
    ) -> bool {
        if node.is_quad_leaf() {
            let first = node.first_triangle();
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
        for &id in node.triangles().iter() {
            if let Some(t) = intersect_with(ray, dir_len2, mesh.corners(id)) {
                if hit(id, t) {
                    return true;
                }
            }
        }
        false
    }
}
