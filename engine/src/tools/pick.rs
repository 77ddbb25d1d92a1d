//! Alt-click material picking: the material of the voxel nearest a hit point, ground preferred.
//!
//! A surface hit lies between voxel centres, often nearer an empty voxel than a full one, so the
//! nearest voxel alone would often be Air. The picker looks at every voxel whose centre is within
//! [`PICK_RADIUS`] of the hit and takes the nearest ground voxel; only if there is none, the nearest
//! liquid one (so clicking a lake picks Water).

use super::sculpt_field::Palette;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, VoxelBox, VoxelPos};

/// How far from the hit point (voxels, centre to point) a voxel may be to be picked.
pub const PICK_RADIUS: f32 = 2.0;

/// The material at hit point `hit`: the nearest ground voxel within [`PICK_RADIUS`], else the nearest
/// liquid one, else `None`. Ties go to the voxel first in Z, Y, X order.
pub fn pick_material(grid: &Grid, table: &MaterialTable, hit: [f32; 3]) -> Option<u8> {
    if !hit.iter().all(|c| c.is_finite()) {
        return None;
    }
    let palette = Palette::new(table);
    let lo = hit.map(|c| (c - PICK_RADIUS - 0.5).floor() as i32);
    let hi = hit.map(|c| (c + PICK_RADIUS - 0.5).ceil() as i32 + 1);
    let region = VoxelBox::new(VoxelPos::from(lo), VoxelPos::from(hi));
    let voxels = grid.read_box_vec(region);
    let mut best_solid: Option<(f32, u8)> = None;
    let mut best_liquid: Option<(f32, u8)> = None;
    let mut k = 0;
    for z in region.min.z..region.max.z {
        for y in region.min.y..region.max.y {
            for x in region.min.x..region.max.x {
                let v = voxels[k];
                k += 1;
                let d = [x, y, z]
                    .iter()
                    .zip(hit)
                    .map(|(&c, h)| (c as f32 + 0.5 - h).powi(2))
                    .sum::<f32>();
                if d > PICK_RADIUS * PICK_RADIUS {
                    continue;
                }
                let slot = if palette.is_solid(v.material) {
                    &mut best_solid
                } else if palette.is_liquid(v.material) {
                    &mut best_liquid
                } else {
                    continue;
                };
                if slot.is_none_or(|(b, _)| d < b) {
                    *slot = Some((d, v.material));
                }
            }
        }
    }
    best_solid.or(best_liquid).map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::Voxel;

    #[test]
    fn prefers_ground_then_water() {
        let table = MaterialTable::builtin();
        let water = table.require("Water").expect("water");
        let mut grid = Grid::new();
        // Ground at y = 0 (rock 3 under x < 0, grass-ish 5 under x >= 0), water above at y = 1.
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-8, 0, -8), VoxelPos::new(0, 1, 8)),
            Voxel::filled(3),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, -8), VoxelPos::new(8, 1, 8)),
            Voxel::filled(5),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-8, 1, -8), VoxelPos::new(8, 2, 8)),
            Voxel::filled(water),
        );
        assert_eq!(pick_material(&grid, &table, [2.3, 1.0, 0.5]), Some(5));
        assert_eq!(pick_material(&grid, &table, [-2.3, 1.0, 0.5]), Some(3));
        // Far above the ground but next to the water sheet: water.
        assert_eq!(pick_material(&grid, &table, [0.5, 3.2, 0.5]), Some(water));
        assert_eq!(pick_material(&grid, &table, [0.5, 30.0, 0.5]), None);
        assert_eq!(pick_material(&grid, &table, [f32::NAN, 0.0, 0.0]), None);
    }
}
