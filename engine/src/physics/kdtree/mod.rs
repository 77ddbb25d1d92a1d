//! A loose kD tree over one chunk's triangle mesh: the narrowphase acceleration structure.
//!
//! Every branch splits its triangles along one axis, but instead of one plane it keeps **two**: the
//! highest coordinate reached by the left triangles and the lowest reached by the right ones. The two
//! half-spaces may overlap (or leave a gap), so no triangle ever has to be cut:
//!
//! ```text
//!        left triangles ≤ splits[0]          splits[1] ≤ right triangles
//!   ─────────────────────────┤                  ├──────────────────────────   overlap case:
//!                            │                  │                             splits[1] < splits[0]
//!   ──────────────┤     gap     ├─────────────────────────────────────────   gap case:
//!                 splits[0]     splits[1]                                     splits[0] < splits[1]
//! ```
//!
//! A node is 12 bytes: a branch holds the two planes (`f32`), the axis (2 bits, 0 = X, 1 = Y, 2 = Z)
//! and the index of its first child (30 bits; the second child follows it); a leaf holds up to two
//! triangle ids, the tag 3 in the axis bits and its triangle count. The builder keeps every leaf but
//! at most one full, so there are at most as many nodes as triangles: 12 bytes per triangle or less
//! (plus the struct itself, 56 bytes on 64-bit targets).
//!
//! The tree stores only triangle ids; the caller keeps the mesh (`positions` + `indices`, three
//! indices per triangle) and passes the same slices to every query. Queries run on a fixed-size stack:
//! the 25 % balance rule of the builder bounds the depth by [`MAX_DEPTH`] for any mesh the builder
//! accepts.
//!
//! # Rationale
//! Terrain physics builds a tree lazily whenever a chunk is first touched by a body or a ray, and again
//! after every edit, so build time and memory matter as much as query speed. A kD node needs two
//! floats where an AABB-tree node needs six, and construction is a few linear passes per level.
//! Queries recover node extents on the way down (the segment of the ray inside a node, or the
//! half-space test of an AABB), and a per-tree AABB rejects misses at once.

mod build;
mod query;
#[cfg(test)]
mod tests;
mod triangle;
mod validate;

pub use build::BuildScratch;
pub use query::{Ray, RayHit};

/// Most triangles one tree accepts (so node indices fit in 30 bits with room to spare).
pub const MAX_TRIANGLES: usize = 1 << 28;

/// Deepest a tree can be: each side of a split gets at least a quarter of the triangles, so the depth
/// is at most `log(MAX_TRIANGLES / 2) / log(4 / 3) + 1`, which is below 70.
pub const MAX_DEPTH: usize = 72;

/// The axis tag of a leaf.
const LEAF: u32 = 3;

/// One 12-byte node (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    /// Branch: the bits of `splits[0]` and `splits[1]`. Leaf: triangle ids.
    words: [u32; 2],
    /// Low 2 bits: axis (3 = leaf). High 30 bits: first child index, or the leaf's triangle count.
    meta: u32,
}

const _: () = assert!(size_of::<Node>() == 12, "kD nodes must stay 12 bytes");

impl Node {
    /// A branch over `axis` whose children are at `child` and `child + 1`.
    fn branch(axis: usize, splits: [f32; 2], child: usize) -> Self {
        debug_assert!(axis < 3 && child < 1 << 30);
        Self {
            words: splits.map(f32::to_bits),
            meta: ((child as u32) << 2) | axis as u32,
        }
    }

    /// A leaf with one or two triangles.
    fn leaf(triangles: &[u32]) -> Self {
        debug_assert!((1..=2).contains(&triangles.len()));
        let mut words = [0; 2];
        words[..triangles.len()].copy_from_slice(triangles);
        Self {
            words,
            meta: ((triangles.len() as u32) << 2) | LEAF,
        }
    }

    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.meta & 3 == LEAF
    }

    /// The split axis of a branch (0 = X, 1 = Y, 2 = Z; 3 for a leaf).
    #[inline]
    pub fn axis(&self) -> usize {
        (self.meta & 3) as usize
    }

    /// A branch's planes: the left children lie at or below `splits[0]`, the right ones at or above
    /// `splits[1]`.
    #[inline]
    pub fn splits(&self) -> [f32; 2] {
        self.words.map(f32::from_bits)
    }

    /// One plane of a branch: `splits()[side]` (`side` is 0 or 1).
    #[inline]
    pub fn split(&self, side: usize) -> f32 {
        f32::from_bits(self.words[side & 1])
    }

    /// A branch's first child index (the second is the next node).
    #[inline]
    pub fn child(&self) -> usize {
        (self.meta >> 2) as usize
    }

    /// A leaf's triangle ids.
    #[inline]
    pub fn triangles(&self) -> &[u32] {
        let n = ((self.meta >> 2) as usize).min(2);
        &self.words[..n]
    }
}

/// A loose kD tree over a triangle mesh (see the module docs). Build it with [`KdTree::build`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KdTree {
    /// Node 0 is the root; empty for a mesh without triangles.
    nodes: Vec<Node>,
    /// Lowest corner of the mesh's bounds.
    bounds_min: [f32; 3],
    /// Highest corner of the mesh's bounds.
    bounds_max: [f32; 3],
    /// Longest root-to-leaf path, in nodes.
    depth: u32,
    /// Triangles in the mesh.
    triangle_count: u32,
    /// True when every leaf holds one quad, the triangles `2k, 2k + 1` (see [`build`]).
    quads: bool,
}

impl KdTree {
    /// An empty tree (no triangles).
    pub fn new() -> Self {
        Self::default()
    }

    /// The nodes, root first.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The mesh bounds `(min, max)`; meaningless when the tree is empty.
    pub fn bounds(&self) -> ([f32; 3], [f32; 3]) {
        (self.bounds_min, self.bounds_max)
    }

    /// Longest root-to-leaf path in nodes (0 for an empty tree).
    pub fn depth(&self) -> usize {
        self.depth as usize
    }

    /// Number of triangles indexed.
    pub fn triangle_count(&self) -> usize {
        self.triangle_count as usize
    }

    /// True when the tree was built over quads (every leaf holds the two triangles of one quad).
    pub fn is_quad_tree(&self) -> bool {
        self.quads
    }

    /// True when the tree indexes no triangle.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes the tree occupies: the node array (by length) plus the struct itself.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * size_of::<Node>() + size_of::<Self>()
    }
}
