//! Buoyancy and drag from the water voxels a body's AABB overlaps.
//!
//! ```text
//!   for each physics cell whose water bits the AABB touches (one water contact per body–cell pair):
//!       for each water voxel v in AABB ∩ cell:  wet += overlap_volume(v, AABB) · occupancy(v)
//!   fraction = wet / volume(AABB)                          (0 dry .. 1 fully under)
//!   buoyancy = −gravity · water_density · body_volume · fraction      (at the centre of mass)
//!   drag:      v *= 1 / (1 + linear_drag · fraction · h),  ω likewise with angular_drag
//! ```
//!
//! The AABB estimate is coarse for thin rotated boxes but it is continuous in the body's position
//! (overlap volumes slide smoothly across voxel faces), so a floating body settles instead of
//! jittering between voxel layers. A body lighter than water settles where `fraction = density /
//! water_density`.

use crate::physics::broadphase::{Matter, MatterTable, PHYSICS_CELL};
use crate::physics::world::PhysicsWorld;
use crate::storage::Grid;
use crate::vec3::V3;
use crate::voxel::VoxelPos;

/// Water settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterSettings {
    /// Mass per voxel³ of water.
    pub density: f32,
    /// Linear drag rate (1/s) when fully submerged.
    pub linear_drag: f32,
    /// Angular drag rate (1/s) when fully submerged.
    pub angular_drag: f32,
}

impl Default for WaterSettings {
    fn default() -> Self {
        Self {
            density: 1.0,
            linear_drag: 4.0,
            angular_drag: 4.0,
        }
    }
}

/// Length of the overlap of `[a0, a1)` and `[b0, b1)`.
fn overlap(a0: f32, a1: f32, b0: f32, b1: f32) -> f32 {
    (a1.min(b1) - a0.max(b0)).max(0.0)
}

/// The submerged fraction of the box `min..max` and the number of cells with water in it.
pub fn submerged_fraction(
    world: &PhysicsWorld,
    grid: &Grid,
    matter: &MatterTable,
    min: V3,
    max: V3,
    touches: &mut Vec<crate::physics::broadphase::Touch>,
) -> (f32, u32) {
    let volume: f32 = (0..3).map(|i| (max[i] - min[i]).max(0.0)).product();
    if volume <= 0.0 {
        return (0.0, 0);
    }
    touches.clear();
    world.broadphase().query(min, max, touches);
    let lo = min.map(|c| c.floor() as i32);
    let hi = max.map(|c| c.ceil() as i32 - 1);
    let mut wet = 0.0f32;
    let mut cells = 0;
    for t in touches.iter().filter(|t| t.water) {
        let c0 = t.cell_pos.map(|c| c * PHYSICS_CELL);
        let a: [i32; 3] = std::array::from_fn(|i| lo[i].max(c0[i]));
        let b: [i32; 3] = std::array::from_fn(|i| hi[i].min(c0[i] + PHYSICS_CELL - 1));
        let mut here = 0.0f32;
        for z in a[2]..=b[2] {
            let oz = overlap(z as f32, z as f32 + 1.0, min[2], max[2]);
            for y in a[1]..=b[1] {
                let oy = overlap(y as f32, y as f32 + 1.0, min[1], max[1]);
                for x in a[0]..=b[0] {
                    let v = grid.get(VoxelPos::new(x, y, z));
                    if matter.of(v) == Matter::Water {
                        let ox = overlap(x as f32, x as f32 + 1.0, min[0], max[0]);
                        here += ox * oy * oz * v.occupancy_f32();
                    }
                }
            }
        }
        if here > 0.0 {
            cells += 1;
            wet += here;
        }
    }
    ((wet / volume).min(1.0), cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::world::DEFAULT_CACHE_BYTES;
    use crate::voxel::{MaterialTable, Voxel, VoxelBox};

    #[test]
    fn fraction_of_a_box_half_in_water() {
        let table = MaterialTable::builtin();
        let mut grid = Grid::new();
        let water = Voxel::filled(table.require("Water").expect("water"));
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-10, 0, -10), VoxelPos::new(10, 10, 10)),
            water,
        );
        let world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        let matter = MatterTable::new(&table);
        let mut t = Vec::new();
        let (f, cells) = submerged_fraction(
            &world,
            &grid,
            &matter,
            [0.2, 9.0, 0.3],
            [2.2, 11.0, 2.3],
            &mut t,
        );
        assert!((f - 0.5).abs() < 1e-5, "{f}");
        assert_eq!(cells, 1);
        // Straddling cell seams at x = 8 and z = 8: same fraction, four cells.
        let (f, cells) = submerged_fraction(
            &world,
            &grid,
            &matter,
            [7.0, 9.5, 7.0],
            [9.0, 11.5, 9.0],
            &mut t,
        );
        assert!((f - 0.25).abs() < 1e-5, "{f}");
        assert_eq!(cells, 4);
        let (f, _) = submerged_fraction(
            &world,
            &grid,
            &matter,
            [0.0, 20.0, 0.0],
            [1.0, 21.0, 1.0],
            &mut t,
        );
        assert_eq!(f, 0.0);
        let (f, _) = submerged_fraction(
            &world,
            &grid,
            &matter,
            [1.5, 2.0, 1.5],
            [3.5, 4.0, 3.5],
            &mut t,
        );
        assert!((f - 1.0).abs() < 1e-5);
    }
}
