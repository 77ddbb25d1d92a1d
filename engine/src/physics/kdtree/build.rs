//! Building a [`KdTree`]: recursive mean split with a median fallback.
//!
//! ```text
//!   node with n triangles, region R (root: the mesh bounds; child: R cut by its parent's plane):
//!     axis  = longest axis of R
//!     split = mean of the triangle midpoints on that axis
//!     left  = midpoint < split, right = the rest          (in the order of an in-place swap partition)
//!     if a side holds under 25 %: left = the lowest midpoints (select_nth), right = the rest
//!     if n is even and the sides are odd: move the triangle nearest the split across, so both
//!     sides stay even
//!     splits[0] = max over the left triangles, splits[1] = min over the right ones
//!   stop at 2 triangles or fewer: a leaf
//! ```
//!
//! **Quads.** The mesher emits every quad as two consecutive triangles `(a, b, c), (a, c, d)` that
//! share the diagonal `a–c`. When the whole mesh has that shape the builder works on quads instead:
//! each item is one quad (the bounds of its four corners), every leaf holds exactly the two triangles
//! of one quad (`2k, 2k + 1`), and queries test the pair as one quad ([`super::triangle`]). The rules
//! above are unchanged, with "triangle" read as "quad" (a leaf stops at one quad, and no evening of
//! sides is needed).
//!
//! A triangle's midpoint is the centre of its bounding box. The region is the box a query recovers
//! for the node, so choosing its longest axis keeps the recovered boxes compact: on a flat sheet of
//! terrain the triangles' own bounds are thin in Y and would never be split there, leaving every
//! node's recovered box as tall as the cell. Even sides mean every leaf but at most one holds two
//! triangles: `n` triangles make at most `n` nodes (12 bytes per triangle).
//!
//! Each level costs two linear passes over the node's triangles: the partition ([`super::partition`],
//! without a branch per triangle), then moving them into a second buffer in their new order while
//! summing the children's midpoints and planes; the children go on in that buffer. Validation happens
//! once, in the pass that gathers triangle bounds.

use super::partition::{self, side_facts, Item, PartitionWork};
use super::{BoxGrid, KdTree, Node, TriangleMesh, MAX_TRIANGLES};
use crate::{Error, Result};

/// Reusable buffers for [`KdTree::rebuild`].
#[derive(Debug, Clone, Default)]
pub struct BuildScratch {
    items: Vec<Item>,
    /// As long as `items`: the partition's second buffer.
    spare: Vec<Item>,
    work: PartitionWork,
}

/// What the builder knows about a node: its region (the box a query recovers for it: the root
/// bounds cut by the planes of its ancestors) and the doubled-midpoint sums of its triangles.
#[derive(Debug, Clone, Copy)]
struct Cell {
    min: [f32; 3],
    max: [f32; 3],
    mid2_sum: [f32; 3],
}

impl Cell {
    /// The axis along which the region is longest (ties: X, then Y).
    fn longest_axis(&self) -> usize {
        let e = [0, 1, 2].map(|a| self.max[a] - self.min[a]);
        if e[0] >= e[1] && e[0] >= e[2] {
            0
        } else if e[1] >= e[2] {
            1
        } else {
            2
        }
    }
}

impl KdTree {
    /// Build a tree over the triangles of `mesh`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the mesh fails [`TriangleMesh::check`] or has more than
    /// [`MAX_TRIANGLES`] triangles.
    pub fn build<M: TriangleMesh + ?Sized>(mesh: &M) -> Result<Self> {
        let mut tree = Self::new();
        tree.rebuild(mesh, &mut BuildScratch::default())?;
        Ok(tree)
    }

    /// Rebuild this tree in place for a new mesh, reusing its node array and `scratch`.
    ///
    /// # Errors
    /// As [`KdTree::build`]; the tree is left empty on error.
    pub fn rebuild<M: TriangleMesh + ?Sized>(
        &mut self,
        mesh: &M,
        scratch: &mut BuildScratch,
    ) -> Result<()> {
        self.nodes.clear();
        self.quads = false;
        self.depth = 0;
        self.triangle_count = 0;
        self.bounds_min = [f32::INFINITY; 3];
        self.bounds_max = [f32::NEG_INFINITY; 3];
        let count = mesh.triangle_count();
        if count > MAX_TRIANGLES {
            return Err(Error::Invalid(format!(
                "triangle mesh: {count} triangles is over the limit of {MAX_TRIANGLES}"
            )));
        }
        mesh.check()?;
        let quads = mesh.is_quads();
        let (min, max) = gather(mesh, quads, &mut scratch.items);
        let Some(&first) = scratch.items.first() else {
            return Ok(());
        };
        let n = scratch.items.len();
        if scratch.spare.len() < n {
            scratch.spare.resize(n, first);
        }
        scratch.work.reserve(n);
        let items = &mut scratch.items[..];
        self.bounds_min = min;
        self.bounds_max = max;
        self.triangle_count = count as u32;
        self.quads = quads;
        self.nodes.reserve(count);
        self.nodes.push(Node::leaf(&[0]));
        let root = Cell {
            min,
            max,
            mid2_sum: mid2_sums(items),
        };
        let per_leaf = if quads { 1 } else { 2 };
        self.grid = BoxGrid::new(min, max);
        let mut builder = Builder {
            nodes: &mut self.nodes,
            per_leaf,
            grid: &self.grid,
            work: &mut scratch.work,
        };
        self.depth = builder.split(items, &mut scratch.spare[..n], 0, &root) as u32;
        Ok(())
    }
}

/// Fill `items` with one entry per triangle (per quad when `quads`) of a checked mesh and return the
/// mesh bounds. Always inlined into [`KdTree::rebuild`], its one caller: left to itself the compiler
/// sometimes keeps it apart, and its loop then costs 3 % more of the whole build (callgrind).
#[inline(always)]
fn gather<M: TriangleMesh + ?Sized>(
    mesh: &M,
    quads: bool,
    items: &mut Vec<Item>,
) -> ([f32; 3], [f32; 3]) {
    items.clear();
    let count = mesh.triangle_count();
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    let mut push = |corners: &[[f32; 3]], id: u32| {
        let mut min = corners[0];
        let mut max = corners[0];
        for p in &corners[1..] {
            for a in 0..3 {
                // Checked finite, so plain comparisons do (no NaN handling needed).
                min[a] = if p[a] < min[a] { p[a] } else { min[a] };
                max[a] = if p[a] > max[a] { p[a] } else { max[a] };
            }
        }
        for a in 0..3 {
            lo[a] = if min[a] < lo[a] { min[a] } else { lo[a] };
            hi[a] = if max[a] > hi[a] { max[a] } else { hi[a] };
        }
        items.push(Item { min, max, id });
    };
    if quads {
        for first in (0..count as u32).step_by(2) {
            push(&mesh.quad_corners(first), first);
        }
    } else {
        for id in 0..count as u32 {
            push(&mesh.corners(id), id);
        }
    }
    (lo, hi)
}

/// Doubled-midpoint sums of `items`.
fn mid2_sums(items: &[Item]) -> [f32; 3] {
    let mut s = [0.0f32; 3];
    for it in items {
        for (a, v) in s.iter_mut().enumerate() {
            *v += it.mid2(a);
        }
    }
    s
}

/// The state one build threads through its recursion.
struct Builder<'a> {
    nodes: &'a mut Vec<Node>,
    /// 2 for triangles, 1 for quads (a quad leaf holds its two triangles).
    per_leaf: usize,
    grid: &'a BoxGrid,
    work: &'a mut PartitionWork,
}

impl Builder<'_> {
    /// Fill node `at` with the subtree over `items` (its region and sums in `cell`); returns the
    /// subtree depth. `spare` is as long as `items`; a partition may write the items there and go
    /// on in it, so either may hold them afterwards.
    fn split(&mut self, items: &mut [Item], spare: &mut [Item], at: usize, cell: &Cell) -> usize {
        let (per_leaf, grid) = (self.per_leaf, self.grid);
        let n = items.len();
        if self.is_leaf(n) {
            self.nodes[at] = leaf_node(items, per_leaf, grid);
            return 1;
        }
        let even = per_leaf == 2 && n.is_multiple_of(2);
        let axis = cell.longest_axis();
        let mean2 = cell.mid2_sum[axis] / n as f32;
        // The partition writes the items to `spare` in their new order; the rest goes on there.
        let (left, facts) =
            partition::small_split(items, spare, axis, mean2).unwrap_or_else(|| {
                let order = partition::queue_order(items, axis, mean2, self.work);
                (
                    order.left,
                    partition::gather(items, spare, self.work, order, axis),
                )
            });
        let mut facts = Some(facts);
        let (items, spare, mut left) = (spare, items, left);
        let key = |it: &Item| it.mid2(axis);
        if left * 4 < n || (n - left) * 4 < n {
            // Skewed: the lower half by midpoint goes left (an even count when `n` is even).
            left = n / 2;
            if even && left % 2 == 1 {
                left -= 1;
            }
            items.select_nth_unstable_by(left, |a, b| key(a).total_cmp(&key(b)));
            facts = None;
        } else if even && left % 2 == 1 {
            // Keep both sides even so that every leaf below holds two triangles: move the item
            // nearest the split across, toward the larger side's surplus.
            if left * 2 < n {
                let j = left + arg_min(&items[left..], key);
                items.swap(left, j);
                left += 1;
            } else {
                let j = arg_max(&items[..left], key);
                items.swap(left - 1, j);
                left -= 1;
            }
            facts = None;
        }
        let (lo, hi) = items.split_at_mut(left);
        let (lo_spare, hi_spare) = spare.split_at_mut(left);
        let [lf, hf] = facts.unwrap_or_else(|| [side_facts(lo, axis), side_facts(hi, axis)]);
        let mut lc = Cell {
            mid2_sum: lf.sums,
            ..*cell
        };
        let mut hc = Cell {
            mid2_sum: hf.sums,
            ..*cell
        };
        lc.max[axis] = lf.max;
        hc.min[axis] = hf.min;
        let child = self.nodes.len();
        self.nodes.push(Node::leaf(&[0]));
        self.nodes.push(Node::leaf(&[0]));
        let leaves = [self.is_leaf(lo.len()), self.is_leaf(hi.len())];
        self.nodes[at] = Node::branch(axis, [lc.max[axis], hc.min[axis]], child, leaves);
        let dl = self.side(lo, lo_spare, child, &lc);
        let dh = self.side(hi, hi_spare, child + 1, &hc);
        1 + dl.max(dh)
    }

    /// True when `n` items make a leaf: the one rule behind the leaves made and the leaf marks their
    /// parent branch carries.
    #[inline]
    fn is_leaf(&self, n: usize) -> bool {
        n <= self.per_leaf
    }

    /// [`Builder::split`] of one side, with leaves and quad pairs made here rather than by a call
    /// each (half of all nodes are leaves).
    #[inline]
    fn side(&mut self, items: &mut [Item], spare: &mut [Item], at: usize, cell: &Cell) -> usize {
        if self.is_leaf(items.len()) {
            self.nodes[at] = leaf_node(items, self.per_leaf, self.grid);
            1
        } else if self.per_leaf == 1 && items.len() == 2 {
            self.split_quad_pair(items, at, cell)
        } else {
            self.split(items, spare, at, cell)
        }
    }

    /// [`Builder::split`] of exactly two quads, without its loops: the same partition (the general
    /// code's swap when only the second quad lies below the mean, and its `select_nth` when neither
    /// or both do), the same planes and two quad leaves. Half of a quad tree's branches or more end
    /// here.
    #[inline]
    fn split_quad_pair(&mut self, items: &mut [Item], at: usize, cell: &Cell) -> usize {
        let axis = cell.longest_axis();
        let mean2 = cell.mid2_sum[axis] / 2.0;
        let below = [0, 1].map(|k| items[k].mid2(axis) < mean2);
        if below[0] == below[1] {
            items.select_nth_unstable_by(1, |a, b| a.mid2(axis).total_cmp(&b.mid2(axis)));
        } else if below[1] {
            items.swap(0, 1);
        }
        let child = self.nodes.len();
        for it in &items[..2] {
            let leaf = Node::quad_leaf(it.id, self.grid.quantize(it.min, it.max));
            self.nodes.push(leaf);
        }
        let splits = [items[0].max[axis], items[1].min[axis]];
        self.nodes[at] = Node::branch(axis, splits, child, [true, true]);
        2
    }
}

/// The leaf of at most `per_leaf` items: a quad leaf with its quantized box for one quad, else the
/// triangles' ids.
#[inline]
fn leaf_node(items: &[Item], per_leaf: usize, grid: &BoxGrid) -> Node {
    match items {
        [quad] if per_leaf == 1 => Node::quad_leaf(quad.id, grid.quantize(quad.min, quad.max)),
        _ => {
            let mut ids = [0u32; 2];
            for (d, it) in ids.iter_mut().zip(items.iter()) {
                *d = it.id;
            }
            Node::leaf(&ids[..items.len()])
        }
    }
}

/// Index of the item with the smallest key (the first of equals).
fn arg_min(items: &[Item], key: impl Fn(&Item) -> f32) -> usize {
    let mut best = 0;
    for (j, it) in items.iter().enumerate() {
        if key(it) < key(&items[best]) {
            best = j;
        }
    }
    best
}

/// Index of the item with the largest key (the first of equals).
fn arg_max(items: &[Item], key: impl Fn(&Item) -> f32) -> usize {
    let mut best = 0;
    for (j, it) in items.iter().enumerate() {
        if key(it) > key(&items[best]) {
            best = j;
        }
    }
    best
}
