//! Terrain edits during a simulation (a brush dab, a box edit, an undo): the world's collision data
//! is refreshed, bodies near the edit wake, and a body whose centre the edit buried is lifted out.
//!
//! ```text
//!   changed box ──> PhysicsWorld::on_edit (broadphase bits, cached cell shapes dropped)
//!               ──> every body whose AABB, grown by 1, meets the box: wake
//!                     centre inside solid?  (a ray straight up leaves the solid through an
//!                     up-facing surface before it meets a down-facing one)
//!                       yes: move up until its lowest point is on that surface; no downward speed
//! ```
//!
//! Contacts alone cannot do the lifting: a triangle above a buried centre pushes the body *down*,
//! away from its closest point, deeper into the new ground. A body still half out is left to the
//! contacts, which push it up through the surface it pokes through.

use super::super::sleep;
use super::simulation::Simulation;
use crate::physics::world::{PhysicsWorld, RayFilter};
use crate::storage::Grid;
use crate::vec3::V3;
use crate::voxel::VoxelBox;
use crate::Result;

/// Gap (voxels) left between a lifted body and the surface it is lifted onto.
const LIFT_GAP: f32 = 0.01;

/// Solid surfaces only.
const SOLID: RayFilter = RayFilter {
    solid: true,
    water: false,
};

impl Simulation {
    /// Report an edit of the voxels in `changed` (after the grid holds the new voxels): updates
    /// `world`, wakes the bodies near it and lifts those whose centre it buried. Returns how many
    /// bodies were lifted.
    ///
    /// # Errors
    /// Errors of building narrowphase shapes for the lifting rays (the world is updated and bodies
    /// are woken before that).
    pub fn on_edit(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        changed: VoxelBox,
    ) -> Result<usize> {
        world.on_edit(grid, changed);
        self.on_world_edited(world, grid, changed)
    }

    /// As [`Simulation::on_edit`] for a `world` that already holds the edit (its owner refreshed it,
    /// as the editor's document does for every edit): wakes the bodies near `changed` and lifts
    /// those whose centre it buried. Returns how many bodies were lifted.
    ///
    /// # Errors
    /// Errors of building narrowphase shapes for the lifting rays (bodies are woken before that).
    pub fn on_world_edited(
        &mut self,
        world: &mut PhysicsWorld,
        grid: &Grid,
        changed: VoxelBox,
    ) -> Result<usize> {
        let (lo, hi) = (changed.min, changed.max);
        let (lo, hi) = ([lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z]);
        let mut near = Vec::new();
        for (i, b) in self.bodies.iter_mut().enumerate() {
            let (min, max) = b.aabb();
            if b.lost.is_none()
                && (0..3).all(|k| max[k] + 1.0 >= lo[k] as f32 && min[k] - 1.0 <= hi[k] as f32)
            {
                sleep::wake(b);
                near.push(i);
            }
        }
        let mut lifted = 0;
        for i in near {
            let b = &mut self.bodies[i];
            if let Some(surface) = buried_under(world, grid, b.position)? {
                let (min, _) = b.aabb();
                let below = b.position[1] - min[1];
                b.position[1] = surface + below + LIFT_GAP;
                b.velocity[1] = b.velocity[1].max(0.0);
                lifted += 1;
            }
        }
        Ok(lifted)
    }
}

/// When `p` lies inside solid terrain, the height where a ray straight up leaves it.
fn buried_under(world: &mut PhysicsWorld, grid: &Grid, p: V3) -> Result<Option<f32>> {
    let hit = world.raycast_with(grid, p, [0.0, 1.0, 0.0], f32::INFINITY, SOLID)?;
    Ok(hit.filter(|h| h.normal[1] > 0.0).map(|h| h.point[1]))
}
