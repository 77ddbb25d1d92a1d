//! The unit cell's fixed geometry, shared by the mesher files (`nets`, `qef`, `components`).
//!
//! A cell is the cube between eight neighbouring samples. Its corners, edges and axes are numbered
//! once here so every table built from them agrees:
//!
//! ```text
//!         6 ─────── 7        corner k sits at (k & 1, (k >> 1) & 1, k >> 2):
//!        /│        /│        bit 0 = x (right), bit 1 = y (up), bit 2 = z (into the page)
//!       2 ─────── 3 │
//!       │ 4 ──────│─ 5       edges 0..4 run along x, 4..8 along y, 8..12 along z,
//!       │/        │/         each as (lower corner, upper corner, axis)
//!       0 ─────── 1
//! ```
//!
//! This is a leaf module: it imports nothing from the mesher, so the files that read it do not
//! import each other for their tables.

/// Corner `k` of a cell is at `(k & 1, (k >> 1) & 1, k >> 2)`.
pub(crate) const CORNER_POS: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// Unit vectors of the three axes.
pub(crate) const UNIT: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// The twelve cell edges as (lower corner, upper corner, axis).
pub(crate) const EDGES: [(usize, usize, usize); 12] = [
    (0, 1, 0),
    (2, 3, 0),
    (4, 5, 0),
    (6, 7, 0),
    (0, 2, 1),
    (1, 3, 1),
    (4, 6, 1),
    (5, 7, 1),
    (0, 4, 2),
    (1, 5, 2),
    (2, 6, 2),
    (3, 7, 2),
];

/// [`EDGES`] as bytes: a denser table for the vertex loop, padded to 16 entries (corner 0 to corner 0
/// along x, never read) so that an edge index taken from four bits needs no bounds check.
pub(crate) const EDGE_CORNERS: [(u8, u8, u8); 16] = {
    let mut t = [(0u8, 0u8, 0u8); 16];
    let mut e = 0;
    while e < 12 {
        t[e] = (EDGES[e].0 as u8, EDGES[e].1 as u8, EDGES[e].2 as u8);
        e += 1;
    }
    t
};

/// Per axis, the cell edges on the cell's upper face across that axis (their lower corner has that
/// coordinate 1), as bit sets over [`EDGES`]; the other edges lie on the lower face or along the axis.
pub(crate) const UPPER_FACE_EDGES: [u16; 3] = {
    let mut t = [0u16; 3];
    let mut e = 0;
    while e < 12 {
        let lower = EDGES[e].0;
        let mut a = 0;
        while a < 3 {
            if (lower >> a) & 1 == 1 {
                t[a] |= 1 << e;
            }
            a += 1;
        }
        e += 1;
    }
    t
};

/// All twelve cell edges as a bit set.
pub(crate) const ALL_EDGES: u16 = 0xfff;

/// The cell-local point `t` of the way from corner `a` along `axis`.
#[inline]
pub(crate) fn crossing_point(a: usize, axis: u8, t: f32) -> [f32; 3] {
    // Corner plus t along the axis, without a dynamic store (it would stall the reload).
    let (c, u) = (CORNER_POS[a], UNIT[usize::from(axis)]);
    [c[0] + t * u[0], c[1] + t * u[1], c[2] + t * u[2]]
}

/// Where the surface crosses each of the cell's twelve edges at full resolution, as a fraction of
/// the edge from its lower corner: `d[a] / (d[a] − d[b])` for edge `(a, b)` (indexed as [`EDGES`],
/// padded to 16). Made for all twelve edges four lanes at a time (the edges along one axis), so the
/// loop over a cell's crossings does no division; edges the surface does not cross get a
/// meaningless value nobody reads.
#[inline]
pub(crate) fn edge_fractions(d: &[f32; 8]) -> [f32; 16] {
    // Lower and upper corners of the edges along x, y and z (see `EDGES`).
    let low = [
        [d[0], d[2], d[4], d[6]],
        [d[0], d[1], d[4], d[5]],
        [d[0], d[1], d[2], d[3]],
    ];
    let high = [
        [d[1], d[3], d[5], d[7]],
        [d[2], d[3], d[6], d[7]],
        [d[4], d[5], d[6], d[7]],
    ];
    let mut t = [0.0f32; 16];
    for axis in 0..3 {
        for k in 0..4 {
            t[4 * axis + k] = low[axis][k] / (low[axis][k] - high[axis][k]);
        }
    }
    t
}

/// Per edge (indexed as [`EDGES`], padded to 16) and component, its lower corner's position and
/// its direction, as `[component][edge]`: the lanes of [`edge_points`].
const EDGE_LANES: [[[f32; 16]; 3]; 2] = {
    let mut lanes = [[[0.0f32; 16]; 3]; 2];
    let mut e = 0;
    while e < 12 {
        let mut c = 0;
        while c < 3 {
            lanes[0][c][e] = CORNER_POS[EDGES[e].0][c];
            lanes[1][c][e] = UNIT[EDGES[e].2][c];
            c += 1;
        }
        e += 1;
    }
    lanes
};

/// The full-resolution crossing point of each of the cell's twelve edges (cell-local), as
/// `[component][edge]` (indexed as [`EDGES`], padded to 16): [`crossing_point`] of the
/// [`edge_fractions`], the same arithmetic lane by lane, so the loop over a cell's crossings reads
/// its points instead of looking up corners and axes per crossing. Edges the surface does not cross
/// get meaningless values nobody reads.
#[inline]
pub(crate) fn edge_points(d: &[f32; 8]) -> [[f32; 16]; 3] {
    let t = edge_fractions(d);
    let [base, dir] = EDGE_LANES;
    let mut p = [[0.0f32; 16]; 3];
    for c in 0..3 {
        for e in 0..16 {
            p[c][e] = base[c][e] + t[e] * dir[c][e];
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;

    #[test]
    fn edge_lanes_equal_the_per_edge_arithmetic() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || rng.next_u64();
        let mut crossed = 0;
        for round in 0..20_000 {
            // Blocky corners (few levels) and smooth ones, in the density range `-0.5..=0.5`.
            let levels = if round % 2 == 0 { 5 } else { 1 << 20 };
            let d: [f32; 8] =
                std::array::from_fn(|_| (next() % levels) as f32 / (levels - 1) as f32 - 0.5);
            let t = edge_fractions(&d);
            let p = edge_points(&d);
            for (e, &(a, b, axis)) in EDGES.iter().enumerate() {
                if (d[a] > 0.0) != (d[b] > 0.0) {
                    let twin = d[a] / (d[a] - d[b]);
                    assert_eq!(t[e].to_bits(), twin.to_bits(), "{d:?} {e}");
                    let twin = crossing_point(a, axis as u8, twin).map(f32::to_bits);
                    let lanes = [p[0][e], p[1][e], p[2][e]].map(f32::to_bits);
                    assert_eq!(lanes, twin, "{d:?} {e}");
                    crossed += 1;
                }
            }
        }
        assert!(crossed > 20_000, "{crossed}");
    }
}
