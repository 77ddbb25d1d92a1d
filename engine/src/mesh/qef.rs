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

use super::cube::EDGE_CORNERS;

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
/// `strides` are the box's index strides and `corners` the index offsets of a cell's eight corners;
/// `d` holds the eight corner densities; `edges` and `points` the sign-changing edges of the component
/// being placed (indices into `cube::EDGES`) and their crossing points (`cube::crossing_point`, as the
/// caller computed them for the mass point); `mass` the mean of
/// the crossing points. The cell must not touch the box's outer layer (central differences read one
/// sample beyond each corner). Normals are left unnormalised, so an edge with a weak density step (a
/// vague crossing) weighs less than a crisp one.
pub(crate) fn place_sharp(
    density: &[f32],
    i: usize,
    (strides, corners): ([usize; 3], &[usize; 8]),
    d: &[f32; 8],
    edges: &[u8],
    points: &[[f32; 3]],
    mass: [f32; 3],
) -> [f32; 3] {
    let off = |k: usize| i + corners[k];
    // Upper triangle of AᵀA and Aᵀb, with the pull toward the mass point already added.
    let mut ata = [LAMBDA, 0.0, 0.0, LAMBDA, 0.0, LAMBDA];
    let mut atb = mass.map(|m| LAMBDA * m);
    for (&e, &p) in edges.iter().zip(points) {
        let (a, b, axis) = EDGE_CORNERS[usize::from(e)];
        let (a, b, axis) = (usize::from(a), usize::from(b), usize::from(axis));
        let (ia, ib) = (off(a), off(b));
        // Built component by component with selects: a store at a dynamic index followed by a
        // vector reload stalls store forwarding in this hot loop.
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
        let n = [component(0), component(1), component(2)];
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
    match solve_sym3(ata, atb) {
        Some(v) => v.map(|c| c.clamp(0.0, 1.0)),
        None => mass,
    }
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
