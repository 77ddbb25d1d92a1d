//! The reusable buffers of contact gathering, and the per-body queries that fill them: a body's
//! manifold against the terrain of the cells it touches, and the body pairs whose boxes overlap.
//! [`super::gather`] runs them for a substep.

use super::super::contact::{reduce_manifold, Contact};
use super::super::shape::Body;
use super::super::terrain::body_triangle;
use crate::physics::broadphase::PHYSICS_CELL;
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::Result;

/// Reusable buffers of the gathering.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub(super) tris: Vec<[[f32; 3]; 3]>,
    pub(super) contacts: Vec<Contact>,
    pub(super) keyed: Vec<([i32; 3], Contact)>,
    pub(super) boxes: Vec<([f32; 3], [f32; 3])>,
    pub(super) order: Vec<usize>,
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) pair_contacts: Vec<(usize, usize, Contact)>,
    pub(super) skipped: Vec<usize>,
}

impl Scratch {
    /// The contacts of `body` with the terrain within `margin`, reduced to one manifold of at most 4
    /// points per physics cell, appended to `out` (after `out` is cleared); returns the number of
    /// manifolds.
    pub(super) fn terrain_manifolds(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        index: usize,
        body: &Body,
        margin: f32,
        out: &mut Vec<Contact>,
    ) -> Result<u32> {
        let (min, max) = body.aabb();
        let (min, max) = (min.map(|c| c - margin), max.map(|c| c + margin));
        self.tris.clear();
        world.solid_triangles_in(grid, min, max, &mut self.tris)?;
        self.keyed.clear();
        for &t in &self.tris {
            self.contacts.clear();
            body_triangle(body, t, margin, &mut self.contacts);
            for c in &self.contacts {
                debug_assert!(
                    is_finite(c),
                    "body {index} ({:?}) got the non-finite contact {c:?} from terrain triangle \
                     {t:?}; body {body:?}",
                    body.shape
                );
            }
            let centroid: [f32; 3] = std::array::from_fn(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
            let key = centroid.map(|c| (c / PHYSICS_CELL as f32).floor() as i32);
            self.keyed.extend(self.contacts.iter().map(|&c| (key, c)));
        }
        self.keyed.sort_by_key(|(k, _)| (k[2], k[1], k[0]));
        out.clear();
        let mut manifolds = 0;
        let mut start = 0;
        while start < self.keyed.len() {
            let key = self.keyed[start].0;
            let end = self.keyed[start..]
                .iter()
                .position(|(k, _)| *k != key)
                .map_or(self.keyed.len(), |p| start + p);
            self.contacts.clear();
            self.contacts
                .extend(self.keyed[start..end].iter().map(|(_, c)| *c));
            reduce_manifold(&mut self.contacts);
            out.extend_from_slice(&self.contacts);
            manifolds += 1;
            start = end;
        }
        Ok(manifolds)
    }

    /// Pairs `(i, j)`, `i < j`, of bodies whose AABBs grown by `margin_of` overlap, neither lost and
    /// (unless `sleepers` is set) at least one of them awake, in `self.pairs` (sorted).
    pub(super) fn overlapping_pairs(
        &mut self,
        bodies: &[Body],
        sleepers: bool,
        margin_of: impl Fn(&Body) -> f32,
    ) {
        self.pairs.clear();
        self.boxes.clear();
        self.boxes.extend(bodies.iter().map(|b| {
            let m = margin_of(b);
            let (lo, hi) = b.aabb();
            (lo.map(|c| c - m), hi.map(|c| c + m))
        }));
        self.order.clear();
        self.order
            .extend((0..bodies.len()).filter(|&i| bodies[i].lost.is_none()));
        let boxes = &self.boxes;
        self.order
            .sort_by(|&a, &b| boxes[a].0[0].total_cmp(&boxes[b].0[0]).then(a.cmp(&b)));
        for (k, &i) in self.order.iter().enumerate() {
            for &j in &self.order[k + 1..] {
                if boxes[j].0[0] > boxes[i].1[0] {
                    break;
                }
                let overlap = (1..3)
                    .all(|a| boxes[i].0[a] <= boxes[j].1[a] && boxes[j].0[a] <= boxes[i].1[a]);
                if overlap && (sleepers || !(bodies[i].asleep && bodies[j].asleep)) {
                    self.pairs.push((i.min(j), i.max(j)));
                }
            }
        }
        self.pairs.sort_unstable();
    }
}

pub(super) fn is_finite(c: &Contact) -> bool {
    c.separation.is_finite()
        && c.normal
            .iter()
            .chain(&c.point_a)
            .chain(&c.point_b)
            .all(|v| v.is_finite())
}
