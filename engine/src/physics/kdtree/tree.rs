//! The kD tree's data: the tree, its 12-byte nodes and the grid quad leaves quantize their boxes on.
//! The builder, the queries and the validator (the sibling files) all read these; the layout is
//! described in the module above.

/// Most triangles one tree accepts. A leaf holds at least one triangle, so a tree has fewer than
/// twice as many nodes as triangles, and node indices fit in the 28 bits a branch keeps for its
/// first child.
pub const MAX_TRIANGLES: usize = 1 << 27;

const _: () = assert!(
    2 * MAX_TRIANGLES <= 1 << 28,
    "node indices must fit in 28 bits"
);

/// Deepest a tree can be: each side of a split gets at least a quarter of the triangles, so the depth
/// is at most `log(MAX_TRIANGLES / 2) / log(4 / 3) + 1`, which is below 70.
pub const MAX_DEPTH: usize = 72;

/// The axis tag of a leaf.
pub(super) const LEAF: u32 = 3;

/// Bits per coordinate of a quad leaf's box.
pub(super) const BOX_BITS: u32 = 10;

/// Largest quantized box coordinate.
pub(super) const BOX_MAX: u32 = (1 << BOX_BITS) - 1;

/// The tree's extent on an axis spans this many box steps (the rest of the range is margin).
pub(super) const BOX_STEPS: f32 = 1000.0;

/// One 12-byte node (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    /// Branch: the bits of `splits[0]` and `splits[1]`. Leaf: triangle ids.
    pub(super) words: [u32; 2],
    /// Low 2 bits: axis (3 = leaf). Branch: bits 2 and 3 tell whether the first and second child
    /// are leaves, the high 28 bits hold the first child's index. Leaf: the high 30 bits hold its
    /// triangle count (0 for a quad leaf, whose box takes bits 4 and up).
    pub(super) meta: u32,
}

const _: () = assert!(size_of::<Node>() == 12, "kD nodes must stay 12 bytes");

impl Node {
    /// A branch over `axis` whose children are at `child` and `child + 1`, `leaves[k]` telling
    /// whether child `k` is a leaf.
    pub(super) fn branch(axis: usize, splits: [f32; 2], child: usize, leaves: [bool; 2]) -> Self {
        debug_assert!(axis < 3 && child < 1 << 28);
        let kinds = u32::from(leaves[0]) << 2 | u32::from(leaves[1]) << 3;
        Self {
            words: splits.map(f32::to_bits),
            meta: ((child as u32) << 4) | kinds | axis as u32,
        }
    }

    /// A leaf with one or two triangles.
    pub(super) fn leaf(triangles: &[u32]) -> Self {
        debug_assert!((1..=2).contains(&triangles.len()));
        let mut words = [0; 2];
        words[..triangles.len()].copy_from_slice(triangles);
        Self {
            words,
            meta: ((triangles.len() as u32) << 2) | LEAF,
        }
    }

    /// A quad leaf: the triangles `first` and `first + 1`, and the quad's box quantized on the tree's
    /// box grid (`[min x, min y, min z, max x, max y, max z]`, each at most [`BOX_MAX`]).
    pub(super) fn quad_leaf(first: u32, qbox: [u32; 6]) -> Self {
        debug_assert!(qbox.iter().all(|&q| q <= BOX_MAX));
        let [x0, y0, z0, x1, y1, z1] = qbox;
        let low = x0 | (y0 << 10) | (z0 << 20) | ((x1 & 3) << 30);
        let high = (x1 >> 2) | (y1 << 8) | (z1 << 18);
        Self {
            words: [first, low],
            meta: (high << 4) | LEAF,
        }
    }

    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.meta & 3 == LEAF
    }

    /// True for a quad leaf (a leaf whose count field is 0).
    #[inline]
    pub fn is_quad_leaf(&self) -> bool {
        self.meta & 15 == LEAF
    }

    /// A quad leaf's quantized box (see `Node::quad_leaf`).
    #[inline]
    pub fn quad_box(&self) -> [u32; 6] {
        let bits = self.quad_box_bits();
        [0, 1, 2, 3, 4, 5].map(|k| Self::box_coordinate(bits, 10 * k))
    }

    /// A quad leaf's box as one 60-bit word: coordinate `k` of [`Node::quad_box`] at bit `10 k`.
    #[inline(always)]
    pub(super) fn quad_box_bits(&self) -> u64 {
        u64::from(self.words[1]) | (u64::from(self.meta >> 4) << 32)
    }

    /// The box coordinate at bit `shift` of [`Node::quad_box_bits`].
    #[inline(always)]
    pub(super) fn box_coordinate(bits: u64, shift: u32) -> u32 {
        (bits >> shift) as u32 & BOX_MAX
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
        f32::from_bits(if side == 0 {
            self.words[0]
        } else {
            self.words[1]
        })
    }

    /// A branch's first child index (the second is the next node).
    #[inline]
    pub fn child(&self) -> usize {
        (self.meta >> 4) as usize
    }

    /// True when a branch's child `side` (0 or 1: `child() + side`) is a leaf: the walk knows the
    /// kind of the node it goes to before it loads it.
    #[inline]
    pub fn child_is_leaf(&self, side: usize) -> bool {
        self.meta & (4 << side) != 0
    }

    /// Bit 31 set when a branch's child `1 − near` is a leaf (`near` is 0 or 1), else 0: the mark
    /// of a walk's stack entry for that child.
    #[inline(always)]
    pub(super) fn far_leaf_bit(&self, near: usize) -> u32 {
        // Bit `3 − near` of the meta word, moved to bit 31.
        (self.meta << (28 + near)) & (1 << 31)
    }

    /// A quad leaf's first triangle id (the second is the next one).
    #[inline(always)]
    pub(super) fn first_triangle(&self) -> u32 {
        self.words[0]
    }

    /// A leaf's triangle ids.
    #[inline]
    pub fn triangles(&self) -> LeafTriangles {
        if self.is_quad_leaf() {
            let first = self.words[0];
            return LeafTriangles {
                ids: [first, first.wrapping_add(1)],
                len: 2,
            };
        }
        LeafTriangles {
            ids: self.words,
            len: ((self.meta >> 2) as usize).min(2),
        }
    }
}

/// The one or two triangle ids of a leaf (dereferences to a slice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafTriangles {
    pub(super) ids: [u32; 2],
    pub(super) len: usize,
}

impl std::ops::Deref for LeafTriangles {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.ids[..self.len]
    }
}

/// The grid quad leaves quantize their boxes on: `min + q · step` on each axis.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct BoxGrid {
    pub(super) min: [f32; 3],
    pub(super) step: [f32; 3],
    /// `1 / step`.
    pub(super) per_step: [f32; 3],
}

impl BoxGrid {
    /// The grid over the bounds `min..=max`: [`BOX_STEPS`] steps across each axis (1 for a flat
    /// one), so the highest coordinates keep a margin below [`BOX_MAX`].
    pub(super) fn new(min: [f32; 3], max: [f32; 3]) -> Self {
        let step = [0, 1, 2].map(|a| {
            let s = (max[a] - min[a]) / BOX_STEPS;
            if s > 0.0 && s.is_finite() {
                s
            } else {
                1.0
            }
        });
        Self {
            min,
            step,
            per_step: step.map(|s| 1.0 / s),
        }
    }

    /// The corners of a quantized box.
    pub(super) fn dequantize(&self, q: [u32; 6]) -> ([f32; 3], [f32; 3]) {
        let at = |a: usize, v: u32| self.min[a] + v as f32 * self.step[a];
        (
            [at(0, q[0]), at(1, q[1]), at(2, q[2])],
            [at(0, q[3]), at(1, q[4]), at(2, q[5])],
        )
    }

    /// The quantized box of `lo..=hi`, grown by one step on every side (so that rounding in the
    /// ray's transform to grid units never cuts the quad). `lo` and `hi` lie in the bounds the grid
    /// was made over (a quad's bounds in its tree's).
    #[inline]
    pub(super) fn quantize(&self, lo: [f32; 3], hi: [f32; 3]) -> [u32; 6] {
        [
            self.quantize_down(0, lo[0]),
            self.quantize_down(1, lo[1]),
            self.quantize_down(2, lo[2]),
            self.quantize_up(0, hi[0]),
            self.quantize_up(1, hi[1]),
            self.quantize_up(2, hi[2]),
        ]
    }

    /// `floor(x) − 1` for the grid coordinate `x` of `v` on `axis`, clamped to `0..=BOX_MAX`.
    #[inline(always)]
    fn quantize_down(&self, axis: usize, v: f32) -> u32 {
        floor_in_range(self.scaled(axis, v))
            .saturating_sub(1)
            .min(BOX_MAX)
    }

    /// `floor(x) + 2` for the grid coordinate `x` of `v` on `axis`, clamped to `0..=BOX_MAX`.
    #[inline(always)]
    fn quantize_up(&self, axis: usize, v: f32) -> u32 {
        (floor_in_range(self.scaled(axis, v)) + 2).min(BOX_MAX)
    }

    /// The grid coordinate of `v` on `axis`, clamped to `0..=2048` (NaN, from a degenerate step, to
    /// 0). `v` is not below the grid's `min`, so the coordinate is never negative: its floor is its
    /// truncation, and the clamp changes no result (anything above [`BOX_MAX`] clamps to it anyway).
    #[expect(
        clippy::manual_clamp,
        reason = "NaN must become 0; `clamp` keeps it NaN"
    )]
    #[inline(always)]
    fn scaled(&self, axis: usize, v: f32) -> f32 {
        ((v - self.min[axis]) * self.per_step[axis])
            .max(0.0)
            .min(2048.0)
    }
}

/// `floor(x)` for `0 ≤ x ≤ 2048`, without a float-to-integer conversion (whose saturation and NaN
/// handling cost more than the rest of the quantization): adding `2²³` rounds `x` to the nearest
/// integer in the low mantissa bits, and one compare turns that into the floor.
#[inline(always)]
fn floor_in_range(x: f32) -> u32 {
    const MAGIC: f32 = 8_388_608.0;
    let shifted = x + MAGIC;
    let nearest = shifted.to_bits() - MAGIC.to_bits();
    // `shifted − 2²³` is `nearest` as a float, exactly.
    nearest - u32::from(shifted - MAGIC > x)
}

/// A loose kD tree over a triangle mesh (see the module docs). Build it with [`KdTree::build`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KdTree {
    /// Node 0 is the root; empty for a mesh without triangles.
    pub(super) nodes: Vec<Node>,
    /// Lowest corner of the mesh's bounds.
    pub(super) bounds_min: [f32; 3],
    /// Highest corner of the mesh's bounds.
    pub(super) bounds_max: [f32; 3],
    /// Longest root-to-leaf path, in nodes.
    pub(super) depth: u32,
    /// Triangles in the mesh.
    pub(super) triangle_count: u32,
    /// True when every leaf holds one quad, the triangles `2k, 2k + 1` (see [`build`]).
    pub(super) quads: bool,
    /// The grid of the quad leaves' boxes.
    pub(super) grid: BoxGrid,
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

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The quantization as it was defined: truncation by `as`, saturating steps and a clamp.
    fn quantize_by_truncation(grid: &BoxGrid, lo: [f32; 3], hi: [f32; 3]) -> [u32; 6] {
        let q = |a: usize, v: f32, up: bool| -> u32 {
            let x = ((v - grid.min[a]) * grid.per_step[a]) as i32;
            let x = if up {
                x.saturating_add(2)
            } else {
                x.saturating_sub(1)
            };
            x.clamp(0, BOX_MAX as i32) as u32
        };
        [
            q(0, lo[0], false),
            q(1, lo[1], false),
            q(2, lo[2], false),
            q(0, hi[0], true),
            q(1, hi[1], true),
            q(2, hi[2], true),
        ]
    }

    #[test]
    fn quantize_equals_truncation() {
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        for round in 0..20_000 {
            // Ordinary bounds, flat ones, tiny ones (a step whose inverse overflows) and huge ones.
            let scale = [1.0, 1e-3, 1e-39, 1e37][round % 4];
            let min: [f32; 3] = std::array::from_fn(|_| rng.random_range(-100.0..100.0f32));
            let ext: [f32; 3] = std::array::from_fn(|a| {
                if round % 7 == a {
                    0.0
                } else {
                    rng.random_range(0.0..50.0f32) * scale
                }
            });
            let max: [f32; 3] = std::array::from_fn(|a| min[a] + ext[a]);
            let grid = BoxGrid::new(min, max);
            let mut at = |a: usize| match rng.random_range(0..8) {
                0 => min[a],
                1 => max[a],
                // A whole number of steps, where truncation and rounding meet.
                2 => min[a] + rng.random_range(0..=1000) as f32 * grid.step[a],
                _ => min[a] + rng.random_range(0.0..=1.0f32) * (max[a] - min[a]),
            };
            let p: [f32; 3] = std::array::from_fn(&mut at);
            let r: [f32; 3] = std::array::from_fn(&mut at);
            let lo: [f32; 3] = std::array::from_fn(|a| p[a].min(r[a]).clamp(min[a], max[a]));
            let hi: [f32; 3] = std::array::from_fn(|a| p[a].max(r[a]).clamp(min[a], max[a]));
            assert_eq!(
                grid.quantize(lo, hi),
                quantize_by_truncation(&grid, lo, hi),
                "round {round}: {lo:?} {hi:?} in {min:?} {max:?}"
            );
        }
    }

    #[test]
    fn floor_in_range_is_floor() {
        for k in 0..=2048 * 16 {
            let x = k as f32 / 16.0;
            assert_eq!(floor_in_range(x), x.floor() as u32, "{x}");
            let below = f32::from_bits(x.to_bits().saturating_sub(1)).max(0.0);
            assert_eq!(floor_in_range(below), below.floor() as u32, "{below}");
        }
    }
}
