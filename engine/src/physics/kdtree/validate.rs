//! [`KdTree::assert_valid`]: the structural invariants, checked from scratch against the mesh.
//!
//! - every node is reachable exactly once, children come after their parent;
//! - every triangle id appears in exactly one leaf, and leaves hold one or two; in a quad tree the
//!   mesh is made of quads and every leaf holds the two triangles of one;
//! - a branch's left subtree lies at or below `splits[0]` and its right subtree at or above
//!   `splits[1]` on the branch axis, and each side holds at least a quarter of the branch's triangles;
//! - the stored bounds are exactly the mesh bounds, and the stored depth is the real depth (at most
//!   [`MAX_DEPTH`]).

use super::{KdTree, TriangleMesh, MAX_DEPTH};

/// What a subtree holds: bounds, triangle count and depth.
struct Sub {
    min: [f32; 3],
    max: [f32; 3],
    triangles: usize,
    depth: usize,
}

impl KdTree {
    /// Check every invariant of the tree against the mesh it was built from.
    ///
    /// # Panics
    /// On any violated invariant (tests call this after every build).
    pub fn assert_valid<M: TriangleMesh + ?Sized>(&self, mesh: &M) {
        assert_eq!(
            self.triangle_count(),
            mesh.triangle_count(),
            "triangle count does not match the mesh"
        );
        assert!(
            !self.quads || mesh.is_quads(),
            "a quad tree over a mesh that is not made of quads"
        );
        if self.nodes.is_empty() {
            assert_eq!(self.triangle_count, 0, "an empty tree with triangles");
            assert_eq!(self.depth, 0, "an empty tree with depth");
            return;
        }
        let mut seen_node = vec![false; self.nodes.len()];
        let mut seen_tri = vec![false; self.triangle_count()];
        let root = self.check(0, mesh, &mut seen_node, &mut seen_tri);
        assert!(seen_node.iter().all(|&s| s), "unreachable nodes");
        assert!(
            seen_tri.iter().all(|&s| s),
            "triangles missing from the tree"
        );
        assert_eq!(root.triangles, self.triangle_count());
        assert_eq!(root.depth, self.depth(), "stored depth");
        assert!(
            self.depth() <= MAX_DEPTH,
            "depth {} over the limit",
            self.depth
        );
        assert_eq!(root.min, self.bounds_min, "tree bounds (min)");
        assert_eq!(root.max, self.bounds_max, "tree bounds (max)");
    }

    fn check<M: TriangleMesh + ?Sized>(
        &self,
        at: usize,
        mesh: &M,
        seen_node: &mut [bool],
        seen_tri: &mut [bool],
    ) -> Sub {
        assert!(!seen_node[at], "node {at} is reachable twice");
        seen_node[at] = true;
        let node = self.nodes[at];
        if node.is_leaf() {
            let tris = node.triangles();
            assert!(
                (1..=2).contains(&tris.len()),
                "leaf {at} holds {} triangles",
                tris.len()
            );
            assert!(
                !self.quads
                    || (node.is_quad_leaf() && tris[0].is_multiple_of(2) && tris[1] == tris[0] + 1),
                "leaf {at} of a quad tree holds {tris:?}, not one quad"
            );
            let mut sub = Sub {
                min: [f32::INFINITY; 3],
                max: [f32::NEG_INFINITY; 3],
                triangles: tris.len(),
                depth: 1,
            };
            for &id in tris.iter() {
                let id = id as usize;
                assert!(id < seen_tri.len(), "leaf {at}: triangle {id} out of range");
                assert!(!seen_tri[id], "triangle {id} is in two leaves");
                seen_tri[id] = true;
                for p in mesh.corners(id as u32) {
                    for (a, &c) in p.iter().enumerate() {
                        sub.min[a] = sub.min[a].min(c);
                        sub.max[a] = sub.max[a].max(c);
                    }
                }
            }
            if node.is_quad_leaf() {
                let (lo, hi) = self.grid.dequantize(node.quad_box());
                assert!(
                    (0..3).all(|a| lo[a] <= sub.min[a] && hi[a] >= sub.max[a]),
                    "leaf {at}: quad box {lo:?}..{hi:?} does not hold the quad"
                );
            }
            return sub;
        }
        let (axis, [s0, s1], child) = (node.axis(), node.splits(), node.child());
        assert!(
            child > at && child + 1 < self.nodes.len(),
            "branch {at}: bad child {child}"
        );
        for side in 0..2 {
            assert_eq!(
                node.child_is_leaf(side),
                self.nodes[child + side].is_leaf(),
                "branch {at}: child {side}'s kind is marked wrong"
            );
        }
        let l = self.check(child, mesh, seen_node, seen_tri);
        let r = self.check(child + 1, mesh, seen_node, seen_tri);
        assert!(
            l.max[axis] <= s0,
            "branch {at}: left subtree pokes past splits[0]"
        );
        assert!(
            r.min[axis] >= s1,
            "branch {at}: right subtree pokes below splits[1]"
        );
        let n = l.triangles + r.triangles;
        assert!(
            l.triangles * 4 >= n && r.triangles * 4 >= n,
            "branch {at}: unbalanced split {} / {}",
            l.triangles,
            r.triangles
        );
        Sub {
            min: [0, 1, 2].map(|a| l.min[a].min(r.min[a])),
            max: [0, 1, 2].map(|a| l.max[a].max(r.max[a])),
            triangles: n,
            depth: 1 + l.depth.max(r.depth),
        }
    }
}
