//! Contact gathering for a substep: each awake body against the terrain (one manifold per body–cell
//! pair) and against the other bodies (an AABB sweep along X, then the narrow test per pair).
//!
//! The same routines answer [`Simulation::contact_points`] for drawing, with a small fixed margin
//! instead of the substep's travel.

use super::super::contact::{reduce_manifold, Contact};
use super::super::pair::body_pair;
use super::super::shape::Body;
use super::super::sleep;
use super::super::solver::{self, Mass};
use super::super::terrain::body_triangle;
use super::{margin, Simulation};
use crate::physics::broadphase::PHYSICS_CELL;
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::Result;

/// Reusable buffers of the gathering.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    tris: Vec<[[f32; 3]; 3]>,
    contacts: Vec<Contact>,
    keyed: Vec<([i32; 3], Contact)>,
    boxes: Vec<([f32; 3], [f32; 3])>,
    order: Vec<usize>,
    pairs: Vec<(usize, usize)>,
    pair_contacts: Vec<(usize, usize, Contact)>,
    skipped: Vec<usize>,
}

impl Scratch {
    /// The contacts of `body` with the terrain within `margin`, reduced to one manifold of at most 4
    /// points per physics cell, appended to `out` (after `out` is cleared); returns the number of
    /// manifolds.
    fn terrain_manifolds(
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
    fn overlapping_pairs(
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

fn is_finite(c: &Contact) -> bool {
    c.separation.is_finite()
        && c.normal
            .iter()
            .chain(&c.point_a)
            .chain(&c.point_b)
            .all(|v| v.is_finite())
}

impl Simulation {
    /// Contacts of every awake body with the terrain, one manifold per body–cell pair.
    pub(super) fn terrain_contacts(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        h: f32,
    ) -> Result<()> {
        let mut found = Vec::new();
        for i in 0..self.bodies.len() {
            let b = self.bodies[i];
            if b.asleep {
                continue;
            }
            let manifolds =
                self.scratch
                    .terrain_manifolds(world, grid, i, &b, margin(&b, h), &mut found)?;
            let stats = &mut self.stats[i];
            stats.penetration = found.iter().map(|c| -c.separation).fold(0.0, f32::max);
            stats.max_penetration = stats.max_penetration.max(stats.penetration);
            stats.solid_contacts = manifolds;
            for c in &found {
                let k = solver::prepare(&self.bodies, &self.masses, i, None, c);
                self.constraints.push(k);
            }
        }
        Ok(())
    }

    /// Contacts between bodies whose grown AABBs overlap (sweep along X), at least one awake.
    ///
    /// Sleepers that a moving body runs into are woken first, and only then are constraints
    /// prepared: a constraint prepared while its partner still counted as immovable would carry an
    /// effective mass up to twice too large, and a pile of such overshooting contacts diverged (bodies
    /// shot off at thousands of voxels per second). Pairs of two sleepers are kept by the sweep so a
    /// woken body also meets the sleepers around it in the same substep.
    pub(super) fn body_contacts(&mut self, h: f32, g: f32) {
        if self.bodies.len() < 2 {
            return;
        }
        self.scratch
            .overlapping_pairs(&self.bodies, true, |b| margin(b, h));
        let mut found = std::mem::take(&mut self.scratch.pair_contacts);
        let mut skipped = std::mem::take(&mut self.scratch.skipped);
        found.clear();
        skipped.clear();
        // Pairs with a moving body: their contacts, and the sleepers they wake.
        for k in 0..self.scratch.pairs.len() {
            let (i, j) = self.scratch.pairs[k];
            if self.bodies[i].asleep && self.bodies[j].asleep {
                skipped.push(k);
                continue;
            }
            let start = found.len();
            self.pair_manifold(i, j, h, &mut found);
            if found.len() == start {
                continue;
            }
            for (x, y) in [(i, j), (j, i)] {
                if self.bodies[x].asleep && sleep::disturbs(&self.bodies[y], g * h) {
                    sleep::wake(&mut self.bodies[x]);
                    self.masses[x] = Mass {
                        inv_mass: self.bodies[x].inv_mass,
                        inv_inertia_scale: 1.0,
                    };
                }
            }
        }
        // Pairs of sleepers one of which has just been woken.
        for &k in &skipped {
            let (i, j) = self.scratch.pairs[k];
            if !(self.bodies[i].asleep && self.bodies[j].asleep) {
                self.pair_manifold(i, j, h, &mut found);
            }
        }
        for &(i, j, c) in &found {
            let k = solver::prepare(&self.bodies, &self.masses, i, Some(j), &c);
            self.constraints.push(k);
        }
        self.scratch.pair_contacts = found;
        self.scratch.skipped = skipped;
    }

    /// The reduced contacts of bodies `i` and `j` for a substep of `h`, appended to `out`.
    fn pair_manifold(
        &mut self,
        i: usize,
        j: usize,
        h: f32,
        out: &mut Vec<(usize, usize, Contact)>,
    ) {
        let m = margin(&self.bodies[i], h).max(margin(&self.bodies[j], h));
        let contacts = &mut self.scratch.contacts;
        contacts.clear();
        body_pair(&self.bodies[i], &self.bodies[j], m, contacts);
        reduce_manifold(contacts);
        for c in contacts.iter() {
            debug_assert!(
                is_finite(c),
                "bodies {i} and {j} got the non-finite contact {c:?}: {:?} / {:?}",
                self.bodies[i],
                self.bodies[j]
            );
            out.push((i, j, *c));
        }
    }

    /// The contacts every body has now (terrain and other bodies, gaps under `margin` voxels), for
    /// drawing: works while paused and for sleeping bodies. `out` is cleared first.
    ///
    /// # Errors
    /// Errors of building narrowphase shapes.
    pub fn contact_points(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        margin: f32,
        out: &mut Vec<super::ContactPoint>,
    ) -> Result<()> {
        out.clear();
        let margin = if margin.is_finite() {
            margin.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mut found = Vec::new();
        for (i, b) in self.bodies.iter().enumerate() {
            if b.lost.is_some() {
                continue;
            }
            self.scratch
                .terrain_manifolds(world, grid, i, b, margin, &mut found)?;
            out.extend(found.iter().map(|c| super::ContactPoint::new(i, None, c)));
        }
        self.scratch
            .overlapping_pairs(&self.bodies, true, |_| margin);
        for &(i, j) in &self.scratch.pairs {
            found.clear();
            body_pair(&self.bodies[i], &self.bodies[j], margin, &mut found);
            reduce_manifold(&mut found);
            out.extend(
                found
                    .iter()
                    .map(|c| super::ContactPoint::new(i, Some(j), c)),
            );
        }
        Ok(())
    }
}
