//! Building a [`KdTree`]: recursive mean split with a median fallback.
//!
//! ```text
//!   node with n triangles (bounds B):
//!     axis  = longest axis of B
//!     split = mean of the triangle midpoints on that axis
//!     left  = midpoint < split, right = the rest          (one in-place partition)
//!     if a side holds under 25 %, or n <= 4: left = the n/2 lowest midpoints (select_nth), right =
//!     the rest (so 4 triangles always make two full leaves)
//!     splits[0] = max over the left triangles, splits[1] = min over the right ones
//!   stop at 2 triangles or fewer: a leaf
//! ```
//!
//! A triangle's midpoint is the centre of its bounding box. The pass that computes the children's
//! planes also gathers their bounds and midpoint sums, so each level costs two linear passes over the
//! node's triangles: partition, then bounds.

use super::{KdTree, Node, MAX_TRIANGLES};
use crate::{Error, Result};

/// One triangle while building: its bounds and id.
#[derive(Debug, Clone, Copy)]
struct Item {
    min: [f32; 3],
    max: [f32; 3],
    id: u32,
}

impl Item {
    /// Twice the midpoint on `axis` (halving is not needed to compare).
    #[inline]
    fn mid2(&self, axis: usize) -> f32 {
        self.min[axis] + self.max[axis]
    }
}

/// Reusable buffers for [`KdTree::rebuild`].
#[derive(Debug, Clone, Default)]
pub struct BuildScratch {
    items: Vec<Item>,
}

/// Bounds and doubled-midpoint sums of a run of items.
#[derive(Debug, Clone, Copy)]
struct Summary {
    min: [f32; 3],
    max: [f32; 3],
    mid2_sum: [f32; 3],
}

impl Summary {
    fn of(items: &[Item]) -> Self {
        let mut s = Summary {
            min: [f32::INFINITY; 3],
            max: [f32::NEG_INFINITY; 3],
            mid2_sum: [0.0; 3],
        };
        for it in items {
            for a in 0..3 {
                s.min[a] = s.min[a].min(it.min[a]);
                s.max[a] = s.max[a].max(it.max[a]);
                s.mid2_sum[a] += it.mid2(a);
            }
        }
        s
    }

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
    /// Build a tree over the triangles `indices[3i..3i + 3]` of `positions`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `indices.len()` is not a multiple of 3, there are more than
    /// [`MAX_TRIANGLES`] triangles, an index is out of range or a used position is not finite.
    pub fn build(positions: &[[f32; 3]], indices: &[u32]) -> Result<Self> {
        let mut tree = Self::new();
        tree.rebuild(positions, indices, &mut BuildScratch::default())?;
        Ok(tree)
    }

    /// Rebuild this tree in place for a new mesh, reusing its node array and `scratch`.
    ///
    /// # Errors
    /// As [`KdTree::build`]; the tree is left empty on error.
    pub fn rebuild(
        &mut self,
        positions: &[[f32; 3]],
        indices: &[u32],
        scratch: &mut BuildScratch,
    ) -> Result<()> {
        self.nodes.clear();
        self.depth = 0;
        self.triangle_count = 0;
        self.bounds_min = [f32::INFINITY; 3];
        self.bounds_max = [f32::NEG_INFINITY; 3];
        gather(positions, indices, &mut scratch.items)?;
        let items = &mut scratch.items[..];
        if items.is_empty() {
            return Ok(());
        }
        let root = Summary::of(items);
        self.bounds_min = root.min;
        self.bounds_max = root.max;
        self.triangle_count = items.len();
        self.nodes.reserve(items.len());
        self.nodes.push(Node::leaf(&[0]));
        self.depth = split(items, &mut self.nodes, 0, &root);
        Ok(())
    }
}

/// Check the mesh and fill `items` with one entry per triangle.
fn gather(positions: &[[f32; 3]], indices: &[u32], items: &mut Vec<Item>) -> Result<()> {
    items.clear();
    if indices.len() % 3 != 0 {
        return Err(Error::Invalid(format!(
            "triangle mesh: {} indices is not a multiple of 3",
            indices.len()
        )));
    }
    let count = indices.len() / 3;
    if count > MAX_TRIANGLES {
        return Err(Error::Invalid(format!(
            "triangle mesh: {count} triangles is over the limit of {MAX_TRIANGLES}"
        )));
    }
    items.reserve(count);
    for (id, tri) in indices.chunks_exact(3).enumerate() {
        let mut it = Item {
            min: [f32::INFINITY; 3],
            max: [f32::NEG_INFINITY; 3],
            id: id as u32,
        };
        for &i in tri {
            let p = positions.get(i as usize).ok_or_else(|| {
                Error::Invalid(format!(
                    "triangle mesh: triangle {id} uses vertex {i} but there are {}",
                    positions.len()
                ))
            })?;
            if !p.iter().all(|c| c.is_finite()) {
                return Err(Error::Invalid(format!(
                    "triangle mesh: vertex {i} is not finite ({p:?})"
                )));
            }
            for (a, &c) in p.iter().enumerate() {
                it.min[a] = it.min[a].min(c);
                it.max[a] = it.max[a].max(c);
            }
        }
        items.push(it);
    }
    Ok(())
}

/// Fill node `at` with the subtree over `items` (summarised by `s`); returns the subtree depth.
fn split(items: &mut [Item], nodes: &mut Vec<Node>, at: usize, s: &Summary) -> usize {
    let n = items.len();
    if n <= 2 {
        let mut ids = [0u32; 2];
        for (d, it) in ids.iter_mut().zip(items.iter()) {
            *d = it.id;
        }
        nodes[at] = Node::leaf(&ids[..n]);
        return 1;
    }
    let axis = s.longest_axis();
    let mean2 = s.mid2_sum[axis] / n as f32;
    let mut left = 0;
    for j in 0..n {
        if items[j].mid2(axis) < mean2 {
            items.swap(left, j);
            left += 1;
        }
    }
    if n <= 4 || left * 4 < n || (n - left) * 4 < n {
        left = n / 2;
        items.select_nth_unstable_by(left, |a, b| a.mid2(axis).total_cmp(&b.mid2(axis)));
    }
    let (lo, hi) = items.split_at_mut(left);
    let (ls, hs) = (Summary::of(lo), Summary::of(hi));
    let child = nodes.len();
    nodes.push(Node::leaf(&[0]));
    nodes.push(Node::leaf(&[0]));
    nodes[at] = Node::branch(axis, [ls.max[axis], hs.min[axis]], child);
    let dl = split(lo, nodes, child, &ls);
    let dh = split(hi, nodes, child + 1, &hs);
    1 + dl.max(dh)
}
