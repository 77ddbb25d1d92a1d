//! A loose kD tree over one cell's triangle mesh: the narrowphase acceleration structure.
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
//! A node is 12 bytes: a branch holds the two planes (`f32`), the axis (2 bits, 0 = X, 1 = Y, 2 = Z),
//! the index of its first child (28 bits; the second child follows it) and whether each child is a
//! leaf (one bit each, so a walk knows what it goes to before loading it); a leaf holds up to two
//! triangle ids, the tag 3 in the axis bits and its triangle count. The builder keeps every leaf but
//! at most one full, so there are at most as many nodes as triangles: 12 bytes per triangle or less
//! (plus the struct itself, under 100 bytes).
//!
//! Over a mesh of quads (the mesher's output) each leaf holds the two triangles of one quad, `2k` and
//! `2k + 1`. Such a leaf needs only the first id, and spends the 60 bits it frees (the second id word
//! and the count bits, count 0 marking a quad leaf) on the quad's bounding box, quantized to 10 bits
//! per coordinate on a grid over the tree bounds:
//!
//! ```text
//!   branch     [ splits[0]: f32 | splits[1]: f32 | child: 28, leaf 1?, leaf 0?, axis: 2 bits ]
//!   leaf       [ triangle id    | triangle id    | count: 30 bits, 3          ]
//!   quad leaf  [ first id       | box bits 0..32 | box bits 32..60, 00, 3     ]   box: 6 × 10 bits
//! ```
//!
//! The tree stores only triangle ids; the caller keeps the mesh (any [`TriangleMesh`]: the mesher's
//! `positions` + `indices` through [`MeshRef`], or a physics cell's compact mesh) and passes the same
//! one to every query. Queries run on a fixed-size stack:
//! the 25 % balance rule of the builder bounds the depth by [`MAX_DEPTH`] for any mesh the builder
//! accepts.
//!
//! # Rationale
//! Terrain physics builds a tree lazily whenever a cell is first touched by a body or a ray, and again
//! after every edit, so build time and memory matter as much as query speed. A kD node needs two
//! floats where an AABB-tree node needs six, and construction is a few linear passes per level.
//! Queries recover node extents on the way down (the segment of the ray inside a node, or the
//! half-space test of an AABB), and a per-tree AABB rejects misses at once.

mod build;
#[cfg(test)]
mod kdtree_tests;
mod mesh;
mod partition;
mod query;
mod ray_walk;
#[cfg(test)]
mod ray_walk_tests;
#[cfg(test)]
mod test_meshes;
mod tree;
mod triangle;
mod validate;

pub use build::BuildScratch;
pub use mesh::{MeshRef, TriangleMesh};
pub use query::{RayHit, WalkCounts};
use tree::BoxGrid;
pub use tree::{KdTree, LeafTriangles, Node, MAX_DEPTH, MAX_TRIANGLES};
pub use triangle::Ray;

/// The exact two-sided ray–triangle test the queries answer with (brute-force checks use it too).
#[cfg(test)]
pub(crate) use triangle::intersect_f64;
