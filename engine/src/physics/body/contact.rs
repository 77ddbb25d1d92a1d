//! Contact points and the shared contact record.
//!
//! A [`Contact`] always pushes body A: `normal` points from B (terrain or the other body) towards A,
//! `point_a` lies on A's surface, `point_b` on B's, and
//!
//! ```text
//!   separation = normal · (point_a − point_b)      < 0: penetrating by −separation
//! ```
//!
//! Routines report contacts up to `margin` apart (speculative contacts): the solver lets the gap close
//! within one substep but not further, which is what keeps fast bodies from tunnelling.

use crate::vec3::{add_scaled, V3};

/// One contact point between body A and B (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Unit normal from B towards A.
    pub normal: V3,
    /// The point on A, world space.
    pub point_a: V3,
    /// The point on B, world space.
    pub point_b: V3,
    /// Signed gap along `normal` (negative: penetration).
    pub separation: f32,
}

impl Contact {
    /// A contact from A's point, the normal and the gap (B's point follows).
    pub fn from_a(point_a: V3, normal: V3, separation: f32) -> Self {
        Self {
            normal,
            point_a,
            point_b: add_scaled(point_a, normal, -separation),
            separation,
        }
    }

    /// A contact from B's point, the normal and the gap (A's point follows).
    pub fn from_b(point_b: V3, normal: V3, separation: f32) -> Self {
        Self {
            normal,
            point_a: add_scaled(point_b, normal, separation),
            point_b,
            separation,
        }
    }

    /// The same contact seen from B (normal flipped, points swapped).
    pub fn flipped(&self) -> Self {
        Self {
            normal: self.normal.map(|c| -c),
            point_a: self.point_b,
            point_b: self.point_a,
            separation: self.separation,
        }
    }
}

/// At most this many points per manifold.
pub const MANIFOLD_POINTS: usize = 4;

/// Reduce `points` to at most [`MANIFOLD_POINTS`] that keep the deepest point and span the largest
/// area (deepest; farthest from it; farthest from that line; the one that most enlarges the
/// quadrilateral). Order of the result is deterministic for a given input order.
pub fn reduce_manifold(points: &mut Vec<Contact>) {
    if points.len() <= MANIFOLD_POINTS {
        return;
    }
    use crate::vec3::{cross, dot, length, sub};
    let pick =
        |score: &dyn Fn(&Contact) -> f32, taken: &[usize], pts: &[Contact]| -> Option<usize> {
            let mut best: Option<(usize, f32)> = None;
            for (i, c) in pts.iter().enumerate() {
                if taken.contains(&i) {
                    continue;
                }
                let s = score(c);
                if best.is_none_or(|(_, b)| s > b) {
                    best = Some((i, s));
                }
            }
            best.map(|(i, _)| i)
        };
    let pts = points.as_slice();
    let mut taken: Vec<usize> = Vec::with_capacity(4);
    let Some(first) = pick(&|c| -c.separation, &taken, pts) else {
        return;
    };
    taken.push(first);
    let p0 = pts[first].point_b;
    if let Some(i) = pick(&|c| length(sub(c.point_b, p0)), &taken, pts) {
        taken.push(i);
    }
    let p1 = pts[taken[1]].point_b;
    if let Some(i) = pick(
        &|c| length(cross(sub(p1, p0), sub(c.point_b, p0))),
        &taken,
        pts,
    ) {
        taken.push(i);
    }
    let p2 = pts[taken[2]].point_b;
    let n = cross(sub(p1, p0), sub(p2, p0));
    // The fourth point: the largest area added on any edge of the triangle, on its far side.
    let edges = [(p0, p1), (p1, p2), (p2, p0)];
    let fourth = pick(
        &|c| {
            edges
                .iter()
                .map(|&(a, b)| -dot(cross(sub(b, a), sub(c.point_b, a)), n))
                .fold(f32::MIN, f32::max)
        },
        &taken,
        pts,
    );
    if let Some(i) = fourth {
        taken.push(i);
    }
    let kept: Vec<Contact> = taken.iter().map(|&i| pts[i]).collect();
    *points = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_deepest_and_corners() {
        // A 5×5 grid of points on the plane y = 0, the centre one deepest.
        let mut pts = Vec::new();
        for i in 0..5 {
            for k in 0..5 {
                let sep = if (i, k) == (2, 2) { -0.3 } else { -0.1 };
                pts.push(Contact::from_b(
                    [i as f32, 0.0, k as f32],
                    [0.0, 1.0, 0.0],
                    sep,
                ));
            }
        }
        reduce_manifold(&mut pts);
        assert_eq!(pts.len(), 4);
        assert_eq!(pts[0].separation, -0.3);
        // The other three are corners of the grid.
        for c in &pts[1..] {
            let (x, z) = (c.point_b[0], c.point_b[2]);
            assert!((x == 0.0 || x == 4.0) && (z == 0.0 || z == 4.0), "{c:?}");
        }
        let few = vec![Contact::from_a([0.0; 3], [0.0, 1.0, 0.0], 0.1)];
        let mut same = few.clone();
        reduce_manifold(&mut same);
        assert_eq!(same, few);
        assert_eq!(few[0].point_b, [0.0, -0.1, 0.0]);
        assert_eq!(few[0].flipped().normal, [0.0, -1.0, 0.0]);
    }
}
