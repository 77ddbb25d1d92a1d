//! The walk of one ray through a [`KdTree`], front to back: the traversal behind the closest-hit and
//! any-hit raycasts of [`super::query`].
//!
//! Each stack entry is a node and the segment `[t_lo, t_hi]` of the ray inside the node's
//! half-spaces. At a branch the ray crosses the two planes at `t0` and `t1`:
//!
//! ```text
//!   dir[axis] > 0:  left child gets [t_lo, min(t_hi, t0)],  right child gets [max(t_lo, t1), t_hi]
//!   dir[axis] < 0:  right child gets [t_lo, min(t_hi, t1)], left child gets [max(t_lo, t0), t_hi]
//!   dir[axis] = 0:  a child gets the whole segment when the origin is on its side of its plane
//!                   (1 / dir is infinite, so the crossings are ±inf, or NaN on the plane: kept)
//! ```
//!
//! The crossings use `1 / dir` computed once per ray (the root box's crossings too), and the sign of
//! `dir[axis]` picks the near child by index (`child + sign`), without a branch. Both child tests
//! are as good as random, so a branch node branches on one of them only: the far child is written
//! to the stack top every time and kept (the stack length grows by its test's result), then the walk
//! descends into the near child. When the ray misses the near child, the walk goes straight to the
//! far one (when it is kept and starts within the best hit, as its pop would have checked) and pops
//! only when both are missed: a pop's loads wait for the stack length, that is for the far test's
//! float chain, while a branch lets the next node's load start on its prediction. An entry whose
//! `t_lo` lies beyond the best hit so far is dropped when popped (early termination), and a popped
//! segment is cut back to the best hit (the walk always pops after a leaf), so a branch never clips
//! against it. The plane crossings are rounded floats,
//! so each is widened before it bounds a segment: by [`SEGMENT_PAD`] times the largest `|t|` of the
//! ray's segment in the tree bounds, one absolute pad per ray that is at least the relative pad of
//! every crossing that matters. (The near test moves the pad to the other side: the bare crossing
//! against `t_lo − pad`, which differs from the padded crossing against `t_lo` by a rounding far
//! below the pad, and takes one add off the path its branch waits on.) A triangle lying exactly in a
//! split plane (common on voxel terrain) is never skipped.
//!
//! **Quad leaves** carry their quad's box on a 10-bit grid over the tree bounds. The walk slab-tests
//! it against the leaf's segment before the leaf is handed on: the ray is moved into grid units once
//! per ray (`(q − go) · gi` is the crossing of grid plane `q`), and the box is one grid step wider
//! than the quad on every side, which covers that transform's rounding. A leaf's region is only
//! bounded by its ancestors' planes, usually far wider than its quad, so most leaves a ray reaches
//! are rejected here.
//!
//! **Mesh reads before the box test.** A quad leaf that passes its box test reads its quad's four
//! vertex ids and then their positions from the caller's mesh, which a 32³ chunk's nodes and mesh
//! (about 94 kB together) push out of L1: the first of those reads was the walk's slowest
//! instruction. So the walk hands every leaf it reaches to an `early` hook before the box test and
//! passes what it returns on to the leaf test: the closest-hit and any-hit queries read the quad's
//! corners there, and the reads (at least the vertex ids and their bounds checks, which the
//! compiler cannot move past the box test's branch) overlap the box test instead of following it.
//!
//! **The stack** lives on the call stack and is as deep as the tree needs: a walk holds at most one
//! entry per branch on the path to the node in hand, so a tree of depth `d` needs `d − 1` entries.
//! The walk is compiled for two stack sizes (16 entries, and 128 for any deeper tree, above
//! [`MAX_DEPTH`]) and picks the smaller when it fits the tree, so a typical walk clears 192 bytes, not
//! the 1.5 kB the deepest tree would need.

use super::triangle::Ray;
use super::{KdTree, Node, MAX_DEPTH};

/// Relative widening of every plane crossing (see the module docs).
pub const SEGMENT_PAD: f32 = 1e-5;

/// Direction components smaller than this are treated as parallel to the root box's faces.
const PARALLEL: f32 = 1e-30;

/// The stack of a walk through a tree at most this deep (every physics cell's and storage chunk's
/// tree: 8³ cells of the canyons bench reach depth 11, 32³ chunks 15).
pub(super) const SHALLOW_STACK: usize = 16;

/// The bit of a stack entry that marks its node a leaf (node indices stay below 2²⁸; see
/// `Node::far_leaf_bit`).
const STACK_LEAF: u32 = 1 << 31;

/// The largest stack a walk uses: a power of two above [`MAX_DEPTH`].
const DEEP_STACK: usize = 128;

const _: () = assert!(
    DEEP_STACK > MAX_DEPTH && DEEP_STACK.is_power_of_two() && SHALLOW_STACK.is_power_of_two()
);

/// What a walk knows about its ray, computed once: per-axis data in 4-entry arrays so that the 2-bit
/// axis field indexes them without a bounds check.
struct RayWalk {
    /// The ray's origin (`[x, y, z, 0]`).
    origin: [f32; 4],
    /// `1 / dir` per axis.
    inv: [f32; 4],
    /// Bit `k` is 1 when the ray runs toward −axis `k mod 4` (axis 3, a leaf's tag, never): then a
    /// branch's right child (`child + 1`) is met first. A bit mask, not an array, so that the step
    /// from a node to its child waits on one shift by the node's meta word (a shift of a `u32` uses
    /// the low five bits of its amount, and the axis is the low two) rather than on a load.
    neg: u32,
    /// The origin in quad-box grid units: grid plane `q` is crossed at `(q − go) · gi`.
    go: [f32; 3],
    /// `1 / dir` in grid units.
    gi: [f32; 3],
    /// Bit offsets of the near and far box coordinates on each axis (see `Node::quad_box_bits`).
    near_bit: [u32; 3],
    far_bit: [u32; 3],
    /// The absolute widening of every crossing.
    pad: f32,
    /// The padded segment of the ray inside the tree bounds, clipped to `0..=max_t`.
    lo: f32,
    hi: f32,
}

impl RayWalk {
    /// The walk of `ray` through `tree` up to `max_t`, or `None` when the ray misses the tree's
    /// bounds (or the tree is empty, or `max_t` is NaN or negative).
    #[inline(always)]
    fn new(tree: &KdTree, ray: &Ray, max_t: f32) -> Option<Self> {
        if tree.nodes.is_empty() || max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        let [dx, dy, dz] = ray.dir;
        let inv = [1.0 / dx, 1.0 / dy, 1.0 / dz, 0.0];
        let (mut lo, mut hi) = (0.0f32, max_t);
        for (a, &ia) in inv.iter().take(3).enumerate() {
            let (o, d) = (ray.origin[a], ray.dir[a]);
            let (bmin, bmax) = (tree.bounds_min[a], tree.bounds_max[a]);
            if d.abs() < PARALLEL {
                if o < bmin || o > bmax {
                    return None;
                }
                continue;
            }
            let (ta, tb) = ((bmin - o) * ia, (bmax - o) * ia);
            // Ordered with min / max, not a branch (either sign is as likely).
            let (ta, tb) = (min_of(ta, tb), max_of(ta, tb));
            lo = lo.max(pad(ta, true));
            hi = hi.min(pad(tb, false));
        }
        if lo > hi {
            return None;
        }
        // One absolute pad for the whole walk: at least the relative pad of every crossing inside
        // the root segment.
        let pad = lo.abs().max(hi.abs()) * SEGMENT_PAD + f32::MIN_POSITIVE;
        let [ox, oy, oz] = ray.origin;
        let neg = [
            usize::from(dx.is_sign_negative()),
            usize::from(dy.is_sign_negative()),
            usize::from(dz.is_sign_negative()),
            0,
        ];
        let grid = &tree.grid;
        let go = [
            (ox - grid.min[0]) * grid.per_step[0],
            (oy - grid.min[1]) * grid.per_step[1],
            (oz - grid.min[2]) * grid.per_step[2],
        ];
        let gi = [
            inv[0] * grid.step[0],
            inv[1] * grid.step[1],
            inv[2] * grid.step[2],
        ];
        let n = [neg[0] as u32, neg[1] as u32, neg[2] as u32];
        Some(Self {
            origin: [ox, oy, oz, 0.0],
            inv,
            // The three axis bits in every nibble.
            neg: (n[0] | n[1] << 1 | n[2] << 2) * 0x1111_1111,
            go,
            gi,
            near_bit: [30 * n[0], 10 + 30 * n[1], 20 + 30 * n[2]],
            far_bit: [30 - 30 * n[0], 40 - 30 * n[1], 50 - 30 * n[2]],
            pad,
            lo,
            hi,
        })
    }

    /// True when the ray's segment `lo..=hi` misses the box of quad leaf `node`.
    #[inline(always)]
    fn misses_box(&self, node: Node, lo: f32, hi: f32) -> bool {
        let bits = node.quad_box_bits();
        let (mut l, mut h) = (lo, hi);
        for a in 0..3 {
            let near = Node::box_coordinate(bits, self.near_bit[a]) as f32;
            let far = Node::box_coordinate(bits, self.far_bit[a]) as f32;
            let t_near = (near - self.go[a]) * self.gi[a] - self.pad;
            let t_far = (far - self.go[a]) * self.gi[a] + self.pad;
            l = max_of(l, t_near);
            h = min_of(h, t_far);
        }
        l > h
    }

    /// The walk itself, on a stack of `N` entries (a power of two, at least the tree's depth).
    // `!(a < b)` on purpose: it is true for NaN, which must keep the child.
    #[expect(
        clippy::neg_cmp_op_on_partial_ord,
        reason = "NaN crossings must keep the child"
    )]
    #[inline(always)]
    fn run<const N: usize, E>(
        &self,
        nodes: &[Node],
        max_t: f32,
        mut early: impl FnMut(Node) -> E,
        mut leaf: impl FnMut(Node, E, &mut f32) -> bool,
        mut visit: impl FnMut(Node),
    ) {
        let pad = self.pad;
        let mut limit = max_t;
        // Every segment in hand is cut to `reach` (the best hit so far, padded) when it is taken.
        let mut reach = limit + pad;
        // The stack as three arrays (node, segment start, segment end): each slot is addressed by
        // a scaled index, with no multiply by an entry size.
        let mut stack_node = [0u32; N];
        let mut stack_lo = [0f32; N];
        let mut stack_hi = [0f32; N];
        let mut len = 0usize;
        let (mut at, mut lo, mut hi) = (0usize, self.lo, self.hi);
        // `lo − pad`: the near test compares the unpadded crossing with it, one add shorter than
        // padding the crossing first, on the path that decides the branch.
        let mut lo_near = lo - pad;
        // The kind of node `at`, known from its parent (or its stack entry) before it is loaded.
        let mut at_leaf = nodes[0].is_leaf();
        loop {
            let node = nodes[at];
            debug_assert_eq!(at_leaf, node.is_leaf());
            visit(node);
            if at_leaf {
                // Read before the box test, so that the leaf's mesh reads overlap it.
                let read = early(node);
                if !(node.is_quad_leaf() && self.misses_box(node, lo, hi)) {
                    if leaf(node, read, &mut limit) {
                        return;
                    }
                    reach = limit + pad;
                }
            } else {
                let (a, child) = (node.axis(), node.child());
                let (o, ia) = (self.origin[a], self.inv[a]);
                let n = (self.neg.wrapping_shr(node.meta) & 1) as usize;
                let out = (node.split(n) - o) * ia;
                let t_in = (node.split(1 - n) - o) * ia - pad;
                let near_ok = !(out < lo_near);
                let far_ok = !(t_in > hi);
                // The far child is written to the top slot every time and kept (the stack length
                // grows by its test's result) when the near child is visited, so the walk branches
                // once per branch node, on the near test. The slot is free (`len` stays below the
                // tree's depth), so the mask never wraps. When the near child is skipped, the far
                // one is taken at once if its pop would keep it (a second branch, on that path
                // only), not popped: a pop's loads wait for `len`, so for the far test's float
                // chain, while the branch lets the next node's load start on its prediction.
                let slot = len % N;
                let far_lo = max_of(lo, t_in);
                stack_node[slot] = (child + 1 - n) as u32 | node.far_leaf_bit(n);
                stack_lo[slot] = far_lo;
                stack_hi[slot] = hi;
                if near_ok {
                    len += usize::from(far_ok);
                    at = child + n;
                    at_leaf = node.child_is_leaf(n);
                    hi = min_of(hi, out + pad);
                    continue;
                }
                if far_ok & (far_lo <= limit) {
                    at = child + 1 - n;
                    at_leaf = node.child_is_leaf(1 - n);
                    (lo, hi) = (far_lo, min_of(hi, reach));
                    lo_near = far_lo - pad;
                    continue;
                }
            }
            loop {
                let Some(next) = len.checked_sub(1) else {
                    return;
                };
                len = next;
                let slot = len % N;
                let l = stack_lo[slot];
                if l <= limit {
                    let entry = stack_node[slot];
                    at = (entry & !STACK_LEAF) as usize;
                    at_leaf = entry & STACK_LEAF != 0;
                    (lo, hi) = (l, min_of(stack_hi[slot], reach));
                    lo_near = l - pad;
                    break;
                }
            }
        }
    }
}

impl KdTree {
    /// Walk the nodes `ray` passes through, front to back, calling `leaf(node, early(node), &mut
    /// limit)` for each leaf reached (a quad leaf only when the ray crosses its box). `early(node)`
    /// runs for every leaf reached, before its box test: what it reads from the mesh is in flight
    /// while the box is tested (see the module docs). `limit` starts at `max_t`; `leaf` may lower
    /// it (the best hit so far), and nodes whose segment starts beyond it are then dropped. The
    /// walk ends when `leaf` returns true.
    #[inline(always)]
    pub(super) fn walk<E>(
        &self,
        ray: &Ray,
        max_t: f32,
        early: impl FnMut(Node) -> E,
        leaf: impl FnMut(Node, E, &mut f32) -> bool,
    ) {
        self.walk_visiting(ray, max_t, early, leaf, |_| {});
    }

    /// [`KdTree::walk`], also calling `visit(node)` for every node the walk takes in hand (every
    /// branch and leaf it reaches, before a quad leaf's box test): the counts of
    /// [`KdTree::raycast_counted`].
    #[inline(always)]
    pub(super) fn walk_visiting<E>(
        &self,
        ray: &Ray,
        max_t: f32,
        early: impl FnMut(Node) -> E,
        leaf: impl FnMut(Node, E, &mut f32) -> bool,
        visit: impl FnMut(Node),
    ) {
        let Some(walk) = RayWalk::new(self, ray, max_t) else {
            return;
        };
        if self.depth as usize <= SHALLOW_STACK {
            walk.run::<SHALLOW_STACK, E>(&self.nodes, max_t, early, leaf, visit);
        } else {
            walk.run::<DEEP_STACK, E>(&self.nodes, max_t, early, leaf, visit);
        }
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
