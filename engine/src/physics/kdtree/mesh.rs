//! The meshes a [`super::KdTree`] indexes: anything that hands out a triangle's corners by id.
//!
//! The tree stores only triangle ids, so it works over any storage of the mesh: [`MeshRef`] borrows
//! the mesher's own form (`f32` positions, three `u32` indices per triangle), and physics cells keep
//! a compact quantized form (`physics::shape`). A mesh made of quads — triangle pairs
//! `(a, b, c), (a, c, d)` sharing the diagonal `a–c`, as the mesher emits them — says so with
//! [`TriangleMesh::is_quads`], and the tree then keeps each quad in one leaf.

use crate::{Error, Result};

use super::MAX_TRIANGLES;

/// A triangle mesh as the tree sees it.
pub trait TriangleMesh {
    /// Number of triangles.
    fn triangle_count(&self) -> usize;

    /// The three corners of triangle `id`.
    ///
    /// # Panics
    /// May panic when `id` is out of range (only after [`TriangleMesh::check`] failed).
    fn corners(&self, id: u32) -> [[f32; 3]; 3];

    /// True when the triangles come in quads: `2k = (a, b, c)` and `2k + 1 = (a, c, d)`.
    fn is_quads(&self) -> bool;

    /// The corners `a, b, c, d` of the quad whose first triangle is `first` (only for quads).
    fn quad_corners(&self, first: u32) -> [[f32; 3]; 4] {
        let [a, b, c] = self.corners(first);
        let [_, _, d] = self.corners(first + 1);
        [a, b, c, d]
    }

    /// Check that every triangle's corners can be read and are finite.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad triangle or vertex.
    fn check(&self) -> Result<()>;
}

/// A borrowed indexed mesh: `f32` positions and three `u32` indices per triangle.
#[derive(Debug, Clone, Copy)]
pub struct MeshRef<'a> {
    /// Vertex positions.
    pub positions: &'a [[f32; 3]],
    /// Three indices per triangle.
    pub indices: &'a [u32],
}

impl<'a> MeshRef<'a> {
    /// The mesh of `positions` and `indices` (three per triangle).
    pub fn new(positions: &'a [[f32; 3]], indices: &'a [u32]) -> Self {
        Self { positions, indices }
    }
}

impl TriangleMesh for MeshRef<'_> {
    fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    #[inline]
    fn corners(&self, id: u32) -> [[f32; 3]; 3] {
        let i = id as usize * 3;
        let tri = &self.indices[i..i + 3];
        [0, 1, 2].map(|k| self.positions[tri[k] as usize])
    }

    fn is_quads(&self) -> bool {
        let ix = self.indices;
        !ix.is_empty()
            && ix.len().is_multiple_of(6)
            && ix
                .chunks_exact(6)
                .fold(true, |ok, q| ok & (q[0] == q[3]) & (q[2] == q[4]))
    }

    // Always inlined: the builder's gather pass calls it once per quad, and a call returns the
    // corners through memory.
    #[inline(always)]
    fn quad_corners(&self, first: u32) -> [[f32; 3]; 4] {
        let i = first as usize * 3;
        let q = &self.indices[i..i + 6];
        let p = self.positions;
        // Written out: `[..].map` of four lookups is not always inlined.
        [
            p[q[0] as usize],
            p[q[1] as usize],
            p[q[2] as usize],
            p[q[5] as usize],
        ]
    }

    fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(format!("triangle mesh: {m}")));
        if !self.indices.len().is_multiple_of(3) {
            return bad(format!(
                "{} indices is not a multiple of 3",
                self.indices.len()
            ));
        }
        let count = self.triangle_count();
        if count > MAX_TRIANGLES {
            return bad(format!(
                "{count} triangles is over the limit of {MAX_TRIANGLES}"
            ));
        }
        let n = self.positions.len();
        // One branch-free pass (the largest index) proves every index in range; the first bad one is
        // looked for only when it fails.
        let largest = self.indices.iter().fold(0u32, |m, &i| m.max(i));
        let in_range = self.indices.is_empty() || (largest as usize) < n;
        if !in_range {
            if let Some((k, &i)) = self
                .indices
                .iter()
                .enumerate()
                .find(|&(_, &i)| i as usize >= n)
            {
                return bad(format!(
                    "triangle {} uses vertex {i} but there are {n}",
                    k / 3
                ));
            }
        }
        // Usually every position is finite and one pass proves it; otherwise each used one is checked.
        let finite = self
            .positions
            .as_flattened()
            .iter()
            .fold(true, |ok, c| ok & c.is_finite());
        if !finite {
            if let Some(&i) = self
                .indices
                .iter()
                .find(|&&i| !self.positions[i as usize].iter().all(|c| c.is_finite()))
            {
                return bad(format!(
                    "vertex {i} is not finite ({:?})",
                    self.positions[i as usize]
                ));
            }
        }
        Ok(())
    }
}
