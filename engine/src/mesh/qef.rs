//! Vertex placement for sharp materials: the point nearest to every crossing's tangent plane.
//!
//! Each sign-changing cell edge gives a point `p` (the crossing) and a normal `n`. The vertex is the
//! minimiser of the quadratic error function
//!
//! ```text
//!   E(v) = Σ (n · (v − p))²  +  λ |v − m|²        m = mean of the crossings (surface-nets point)
//! ```
//!
//! ```text
//!   smooth (mean)        sharp (planes)           two crossings with normals (1,0) and (0,1):
//!     ┌────────┐           ┌────────┐             the mean sits on the chamfer, the plane
//!     │  ·m    │           │     ·v │             intersection sits on the corner
//!   ──┘        │         ──┘        │
//! ```
//!
//! On a flat face every plane is the same, and the small `λ` term picks `m` within it, so sharp and
//! smooth placement agree there. Where planes meet, the solution is their intersection: a crease or a
//! corner.
//!
//! Normals come from finite differences. Along the edge axis the difference across the edge itself is
//! used; across it, the central differences at both ends are combined with a *minmod* limiter (the
//! smaller one when they agree in sign, else 0). On a linear field this is exact; on blocky data
//! (full voxels beside air) it yields the axis-aligned face normals, so a block of full rock keeps its
//! square corners instead of the chamfers plain surface nets would give it. The result is clamped to
//! the cell, so vertices never leave the cell that owns them.

/// Weight of the pull toward the mass point.
const LAMBDA: f32 = 0.02;

#[inline]
fn minmod(a: f32, b: f32) -> f32 {
    // Two selects rather than branches: the signs vary from edge to edge and mispredict.
    let smaller = if a.abs() < b.abs() { a } else { b };
    if a * b <= 0.0 {
        0.0
    } else {
        smaller
    }
}

/// The sharp vertex of the cell at box index `i` (cell-local coordinates in `0..=1`).
///
/// `strides` are the box's index strides; `d` holds the eight corner densities; `edges` the
/// sign-changing edges of the component being placed (indices into `cube::EDGES`) and `points`
/// their crossing points as `[component][edge]` (as the caller computed them for the mass point;
/// other edges' entries are not read);
/// `mass` the mean of the crossing points. The cell must not touch the box's outer layer (central
/// differences read one sample beyond each corner). Normals are left unnormalised, so an edge with a
/// weak density step (a vague crossing) weighs less than a crisp one.
///
/// The normals of all twelve edges are made first, side by side (`edge_normals`), so the loop over
/// the crossings has no branch on an edge's axis; each normal is the same arithmetic as the
/// per-crossing twin's (`place_sharp_per_edge` in the tests), so the vertex is the same to the bit.
pub(crate) fn place_sharp(
    density: &[f32],
    i: usize,
    strides: [usize; 3],
    d: &[f32; 8],
    edges: &[u8],
    points: &[[f32; 16]; 3],
    mass: [f32; 3],
) -> [f32; 3] {
    let normals = edge_normals(density, i, strides, d);
    // Upper triangle of AᵀA and Aᵀb, with the pull toward the mass point already added.
    let mut ata = [LAMBDA, 0.0, 0.0, LAMBDA, 0.0, LAMBDA];
    let mut atb = mass.map(|m| LAMBDA * m);
    for &e in edges {
        let e = usize::from(e & 15);
        let n = [normals[0][e], normals[1][e], normals[2][e]];
        let p = [points[0][e], points[1][e], points[2][e]];
        accumulate(&mut ata, &mut atb, n, p);
    }
    match solve_sym3(ata, atb) {
        Some(v) => v.map(|c| c.clamp(0.0, 1.0)),
        None => mass,
    }
}

/// Add the plane through `p` with normal `n` to the normal equations.
#[inline]
fn accumulate(ata: &mut [f32; 6], atb: &mut [f32; 3], n: [f32; 3], p: [f32; 3]) {
    let np = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    ata[0] += n[0] * n[0];
    ata[1] += n[0] * n[1];
    ata[2] += n[0] * n[2];
    ata[3] += n[1] * n[1];
    ata[4] += n[1] * n[2];
    ata[5] += n[2] * n[2];
    atb[0] += n[0] * np;
    atb[1] += n[1] * np;
    atb[2] += n[2] * np;
}

/// `N` samples of `density` from `start`: one bounds check for the window instead of one per read.
#[inline]
pub(crate) fn window<const N: usize>(density: &[f32], start: usize) -> [f32; N] {
    let mut w = [0.0; N];
    w.copy_from_slice(&density[start..start + N]);
    w
}

/// Half the [`minmod`] of each lane pair, four lanes at once (a plain loop the compiler keeps in
/// vector registers).
#[inline]
fn minmod4(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let mut m = [0.0; 4];
    for k in 0..4 {
        m[k] = 0.5 * minmod(a[k], b[k]);
    }
    m
}

/// The sharp normal of each of the cell's twelve edges, component by component: `[c][e]` is
/// component `c` of edge `e` (indexed as `cube::EDGES`, padded to 16).
///
/// Along the edge, the difference across it; across, half the minmod of the central differences at
/// its two corners (lower corner first). The central differences are made once per corner from rows
/// read as windows: the cell's four sample rows one sample wider on each side in X, and the rows one
/// step below and two above the cell in Y and in Z (two samples each). Every sample read lies in the
/// rows −1..=+2 (Y and Z) around the cell's row, which the density fill writes for every cell row
/// with surface cells (`needed_rows`).
fn edge_normals(
    density: &[f32],
    i: usize,
    [_, sy, sz]: [usize; 3],
    d: &[f32; 8],
) -> [[f32; 16]; 3] {
    // Central differences per corner k (bit 0 = x, bit 1 = y, bit 2 = z), upper minus lower sample.
    let mut gx = [0.0f32; 8];
    for (j, row) in [0, sy, sz, sz + sy].into_iter().enumerate() {
        let w: [f32; 4] = window(density, i + row - 1);
        gx[2 * j] = w[2] - w[0];
        gx[2 * j + 1] = w[3] - w[1];
    }
    let mut gy = [0.0f32; 8];
    let mut gz = [0.0f32; 8];
    for h in 0..2 {
        let below: [f32; 2] = window(density, i + h * sz - sy);
        let above: [f32; 2] = window(density, i + h * sz + 2 * sy);
        for x in 0..2 {
            let (low, high) = (x + 4 * h, x + 2 + 4 * h);
            gy[low] = d[high] - below[x];
            gy[high] = above[x] - d[low];
        }
        let below: [f32; 2] = window(density, i + h * sy - sz);
        let above: [f32; 2] = window(density, i + h * sy + 2 * sz);
        for x in 0..2 {
            let (low, high) = (x + 2 * h, x + 2 * h + 4);
            gz[low] = d[high] - below[x];
            gz[high] = above[x] - d[low];
        }
    }
    // Edges along x (`cube::EDGES` 0..4) join corners 0–1, 2–3, 4–5, 6–7; along y (4..8) 0–2, 1–3,
    // 4–6, 5–7; along z (8..12) 0–4, 1–5, 2–6, 3–7. Lanes are written out with constant indices so
    // they stay in registers.
    let x_low = |g: &[f32; 8]| [g[0], g[2], g[4], g[6]];
    let x_high = |g: &[f32; 8]| [g[1], g[3], g[5], g[7]];
    let y_low = |g: &[f32; 8]| [g[0], g[1], g[4], g[5]];
    let y_high = |g: &[f32; 8]| [g[2], g[3], g[6], g[7]];
    let z_low = |g: &[f32; 8]| [g[0], g[1], g[2], g[3]];
    let z_high = |g: &[f32; 8]| [g[4], g[5], g[6], g[7]];
    let sub4 = |h: [f32; 4], l: [f32; 4]| [h[0] - l[0], h[1] - l[1], h[2] - l[2], h[3] - l[3]];
    // Component c of edge e at [c][e].
    [
        join(
            sub4(x_high(d), x_low(d)),
            minmod4(y_low(&gx), y_high(&gx)),
            minmod4(z_low(&gx), z_high(&gx)),
        ),
        join(
            minmod4(x_low(&gy), x_high(&gy)),
            sub4(y_high(d), y_low(d)),
            minmod4(z_low(&gy), z_high(&gy)),
        ),
        join(
            minmod4(x_low(&gz), x_high(&gz)),
            minmod4(y_low(&gz), y_high(&gz)),
            sub4(z_high(d), z_low(d)),
        ),
    ]
}

/// One component of the twelve edge normals: the edges along x, y and z, padded to 16.
#[inline]
fn join(x: [f32; 4], y: [f32; 4], z: [f32; 4]) -> [f32; 16] {
    [
        x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], z[0], z[1], z[2], z[3], 0.0, 0.0, 0.0, 0.0,
    ]
}

/// Solve `M · x = r` for the symmetric matrix `M` given by its upper triangle
/// `[m00, m01, m02, m11, m12, m22]` (adjugate over determinant); `None` when singular or not finite.
fn solve_sym3(m: [f32; 6], r: [f32; 3]) -> Option<[f32; 3]> {
    let [a, b, c, d, e, f] = m;
    let c00 = d * f - e * e;
    let c01 = c * e - b * f;
    let c02 = b * e - c * d;
    let c11 = a * f - c * c;
    let c12 = b * c - a * e;
    let c22 = a * d - b * b;
    let det = a * c00 + b * c01 + c * c02;
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let x = [
        (c00 * r[0] + c01 * r[1] + c02 * r[2]) * inv,
        (c01 * r[0] + c11 * r[1] + c12 * r[2]) * inv,
        (c02 * r[0] + c12 * r[1] + c22 * r[2]) * inv,
    ];
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::cube::{crossing_point, EDGE_CORNERS};
    use crate::mesh::test_rng::XorShift;

    /// The per-crossing twin of [`place_sharp`]: each crossing's normal made on its own, behind a
    /// branch on the edge's axis.
    fn place_sharp_per_edge(
        density: &[f32],
        i: usize,
        (strides, corners): ([usize; 3], &[usize; 8]),
        d: &[f32; 8],
        edges: &[u8],
        points: &[[f32; 3]],
        mass: [f32; 3],
    ) -> [f32; 3] {
        let off = |k: usize| i + corners[k];
        let mut ata = [LAMBDA, 0.0, 0.0, LAMBDA, 0.0, LAMBDA];
        let mut atb = mass.map(|m| LAMBDA * m);
        for (&e, &p) in edges.iter().zip(points) {
            let (a, b, axis) = EDGE_CORNERS[usize::from(e)];
            let (a, b, axis) = (usize::from(a), usize::from(b), usize::from(axis));
            let (ia, ib) = (off(a), off(b));
            let along = d[b] - d[a];
            let component = |k: usize| {
                if k == axis {
                    along
                } else {
                    let s = strides[k];
                    let ga = density[ia + s] - density[ia - s];
                    let gb = density[ib + s] - density[ib - s];
                    0.5 * minmod(ga, gb)
                }
            };
            accumulate(
                &mut ata,
                &mut atb,
                [component(0), component(1), component(2)],
                p,
            );
        }
        match solve_sym3(ata, atb) {
            Some(v) => v.map(|c| c.clamp(0.0, 1.0)),
            None => mass,
        }
    }

    #[test]
    fn lane_normals_equal_the_per_edge_twin() {
        let size = [7usize, 6, 5];
        let strides = [1, size[0], size[0] * size[1]];
        let (sy, sz) = (strides[1], strides[2]);
        let corners = [0, 1, sy, sy + 1, sz, sz + 1, sz + sy, sz + sy + 1];
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || rng.next_u64();
        let mut checked = 0;
        for round in 0..4000 {
            // Blocky fields (few levels, many ties and zeros) and smooth ones.
            let levels = if round % 2 == 0 { 3 } else { 1 << 16 };
            let density: Vec<f32> = (0..size.iter().product::<usize>())
                .map(|_| (next() % levels) as f32 / (levels - 1) as f32 - 0.5)
                .collect();
            for z in 1..size[2] - 2 {
                for y in 1..size[1] - 2 {
                    for x in 1..size[0] - 2 {
                        let i = z * sz + y * sy + x;
                        let d = corners.map(|k| density[i + k]);
                        let mask = (0..8).fold(0u8, |m, k| m | u8::from(d[k] > 0.0) << k);
                        let mut edges = Vec::new();
                        let mut points = Vec::new();
                        for (e, &(a, b, axis)) in EDGE_CORNERS.iter().enumerate().take(12) {
                            let (a, b) = (usize::from(a), usize::from(b));
                            if (mask >> a & 1) != (mask >> b & 1) {
                                edges.push(e as u8);
                                points.push(crossing_point(a, axis, d[a] / (d[a] - d[b])));
                            }
                        }
                        if edges.is_empty() {
                            continue;
                        }
                        let inv = 1.0 / edges.len() as f32;
                        let mass =
                            [0, 1, 2].map(|a| points.iter().map(|p| p[a]).sum::<f32>() * inv);
                        let (e, p) = (&edges[..], &points[..]);
                        let mut point_lanes = [[f32::NAN; 16]; 3];
                        for (&edge, point) in e.iter().zip(p) {
                            for k in 0..3 {
                                point_lanes[k][usize::from(edge)] = point[k];
                            }
                        }
                        let lanes = place_sharp(&density, i, strides, &d, e, &point_lanes, mass);
                        let twin =
                            place_sharp_per_edge(&density, i, (strides, &corners), &d, e, p, mass);
                        assert_eq!(lanes.map(f32::to_bits), twin.map(f32::to_bits), "cell {i}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} cells");
    }

    #[test]
    fn solves_known_systems() {
        let diag = [2.0, 0.0, 0.0, 4.0, 0.0, 1.0];
        assert_eq!(solve_sym3(diag, [2.0, 2.0, 3.0]), Some([1.0, 0.5, 3.0]));
        // [[2,1,0],[1,2,1],[0,1,2]] · [1,1,1] = [3,4,3]
        let x = solve_sym3([2.0, 1.0, 0.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0]).expect("regular");
        assert!(x.iter().all(|v| (v - 1.0).abs() < 1e-6), "{x:?}");
        assert_eq!(solve_sym3([0.0; 6], [1.0; 3]), None);
    }

    #[test]
    fn minmod_picks_the_smaller_agreeing_slope() {
        assert_eq!(minmod(0.5, 0.25), 0.25);
        assert_eq!(minmod(-0.5, -0.25), -0.25);
        assert_eq!(minmod(-0.5, 0.0), 0.0);
        assert_eq!(minmod(-0.5, 0.5), 0.0);
    }
}
