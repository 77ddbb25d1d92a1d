//! Contact gathering for a substep: each awake body against the terrain (one manifold per body–cell
//! pair) and against the other bodies (an AABB sweep along X, then the narrow test per pair).
//!
//! The same routines answer [`Simulation::contact_points`] for drawing, with a small fixed margin
//! instead of the substep's travel.

use super::super::contact::{reduce_manifold, Contact};
use super::super::pair::body_pair;
use super::super::sleep;
use super::super::solver::{self, Mass};
use super::scratch::is_finite;
use super::simulation::{margin, Simulation};
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::Result;

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
