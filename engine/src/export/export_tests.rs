//! The terrain-map export against worlds built voxel by voxel: sub-voxel heights, overhangs, empty
//! and liquid columns, gaps between stored chunks, boxes, cancellation.

use super::*;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

/// Grass and Rock in the built-in table (1 is Water, a liquid).
const GRASS: u8 = 2;
const ROCK: u8 = 7;

fn world_box(sx: i32, sy: i32, sz: i32) -> VoxelBox {
    VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(sx, sy, sz))
}

/// Fill column (x, z) as the heightmap import does on flat ground: voxel y holds clamp(h − y, 0, 1).
fn ground(grid: &mut Grid, x: i32, z: i32, h: f32, material: u8) {
    for y in 0..h.ceil() as i32 {
        grid.set(
            VoxelPos::new(x, y, z),
            Voxel::from_fraction(material, (h - y as f32).clamp(0.0, 1.0)),
        );
    }
}

fn request(region: VoxelBox) -> TerrainMapsRequest {
    TerrainMapsRequest {
        region,
        size: None,
        splat: true,
        layers: true,
    }
}

#[test]
fn heights_come_from_occupancy_not_whole_voxels() {
    let mut grid = Grid::new();
    let table = MaterialTable::builtin();
    let heights = [3.25f32, 40.5, 33.75, 1.0, 63.9, 12.0625];
    for (i, &h) in heights.iter().enumerate() {
        ground(&mut grid, i as i32, 0, h, GRASS);
    }
    let region = world_box(heights.len() as i32, 64, 1);
    let surface = scan_top_surface(&grid, region, &[false; 64], &Progress::new()).expect("scan");
    for (got, want) in surface.heights.iter().zip(heights) {
        // Occupancy bytes hold (v + 1) / 256: the sum is exact to 1/256 per partial voxel.
        assert!((got - want).abs() < 1.0 / 128.0, "{got} vs {want}");
    }
    let maps =
        export_terrain_maps(&grid, &table, &request(region), &Progress::new()).expect("maps");
    for (&s, want) in maps.samples.iter().zip(heights) {
        assert!((sample_height(s, 0, 64) as f32 - want).abs() < 1.0 / 64.0);
    }
    assert_eq!(maps.overhang_columns, 0);
    assert_eq!(maps.empty_columns, 0);
    assert_eq!(maps.surface_materials, [(GRASS, heights.len() as u64)]);
}

#[test]
fn overhangs_caves_empty_and_liquid_columns_are_told_apart() {
    let mut grid = Grid::new();
    let mut table = MaterialTable::builtin();
    let water = table.require("Water").expect("water");
    // Column 0: ground at 10 with a cave from 4 to 6 (matter below air).
    ground(&mut grid, 0, 0, 10.0, GRASS);
    for y in 4..6 {
        grid.set(VoxelPos::new(0, y, 0), Voxel::AIR);
    }
    // Column 1: an overhang in a chunk above a missing one: a slab at 70..72, ground at 5.
    ground(&mut grid, 1, 0, 5.0, GRASS);
    for y in 70..72 {
        grid.set(VoxelPos::new(1, y, 0), Voxel::filled(ROCK));
    }
    // Column 2: water over ground at 8: the ground is the surface, not an overhang.
    ground(&mut grid, 2, 0, 8.0, ROCK);
    for y in 8..20 {
        grid.set(VoxelPos::new(2, y, 0), Voxel::filled(water));
    }
    // Column 3: only water. Column 4: nothing.
    grid.set(VoxelPos::new(3, 0, 0), Voxel::filled(water));
    let region = world_box(5, 128, 1);
    let maps =
        export_terrain_maps(&grid, &table, &request(region), &Progress::new()).expect("maps");
    let h: Vec<f64> = maps
        .samples
        .iter()
        .map(|&s| sample_height(s, 0, 128))
        .collect();
    assert!(
        (h[0] - 10.0).abs() < 0.01 && (h[1] - 72.0).abs() < 0.01,
        "{h:?}"
    );
    assert!(
        (h[2] - 8.0).abs() < 0.01 && h[3] == 0.0 && h[4] == 0.0,
        "{h:?}"
    );
    assert_eq!(maps.overhang_columns, 2);
    assert_eq!(maps.empty_columns, 2);
    assert_eq!(maps.surface_materials, [(ROCK, 2), (GRASS, 1)]);
    // A box whose top cuts the slab off sees column 1's ground instead, and no overhang there.
    let low = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(5, 64, 1));
    let maps = export_terrain_maps(&grid, &table, &request(low), &Progress::new()).expect("maps");
    assert!((sample_height(maps.samples[1], 0, 64) - 5.0).abs() < 0.01);
    assert_eq!(maps.overhang_columns, 1);
    // With water made solid, column 3 has a surface and column 2's ground hides no air.
    table.materials[usize::from(water)].liquid = false;
    let maps =
        export_terrain_maps(&grid, &table, &request(region), &Progress::new()).expect("maps");
    assert!((sample_height(maps.samples[2], 0, 128) - 20.0).abs() < 0.01);
    assert_eq!(maps.empty_columns, 1);
}

#[test]
fn uniform_chunks_and_offset_boxes_read_like_voxels() {
    let mut grid = Grid::new();
    // Two full chunks stacked at chunk column (-1, -1), and partial ground above them.
    grid.insert_chunk(
        crate::voxel::ChunkPos::new(-1, 0, -1),
        crate::storage::Chunk::uniform(3),
    );
    grid.insert_chunk(
        crate::voxel::ChunkPos::new(-1, 1, -1),
        crate::storage::Chunk::uniform(3),
    );
    for x in -32..0 {
        grid.set(VoxelPos::new(x, 64, -5), Voxel::from_fraction(GRASS, 0.5));
        grid.set(VoxelPos::new(x, 65, -5), Voxel::from_fraction(GRASS, 0.25));
    }
    let region = VoxelBox::new(VoxelPos::new(-40, -8, -6), VoxelPos::new(-1, 100, -4));
    let surface = scan_top_surface(&grid, region, &[false; 64], &Progress::new()).expect("scan");
    assert_eq!([surface.width, surface.depth], [39, 2]);
    // Columns -40..-32 are empty (box floor), the others reach 64 + the partial voxels' 0.75 at z = -5.
    assert_eq!(surface.heights[0], -8.0);
    assert_eq!(surface.empty_columns, 16);
    let at = |x: i32, z: i32| surface.heights[(z + 6) as usize * 39 + (x + 40) as usize];
    assert!((at(-10, -5) - 64.75).abs() < 0.01, "{}", at(-10, -5));
    assert_eq!(at(-10, -6), 64.0);
    assert_eq!(surface.materials[30], 3);
}

#[test]
fn bad_requests_and_cancellation_are_errors() {
    let grid = Grid::new();
    let table = MaterialTable::builtin();
    let mut r = request(world_box(8, 8, 8));
    r.size = Some([0, 5]);
    assert!(export_terrain_maps(&grid, &table, &r, &Progress::new()).is_err());
    r.size = Some([MAX_MAP_SIDE + 1, 5]);
    assert!(export_terrain_maps(&grid, &table, &r, &Progress::new()).is_err());
    r.size = None;
    r.region = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(8, 0, 8));
    assert!(export_terrain_maps(&grid, &table, &r, &Progress::new()).is_err());
    r.region = world_box(8, 8, 8);
    let p = Progress::new();
    p.cancel();
    assert!(matches!(
        export_terrain_maps(&grid, &table, &r, &p),
        Err(Error::Cancelled)
    ));
    // An empty world: every column at the floor, the splat all first channel.
    let maps = export_terrain_maps(&grid, &table, &r, &Progress::new()).expect("maps");
    assert!(maps.samples.iter().all(|&s| s == 0));
    assert_eq!(maps.empty_columns, 64);
    assert!(maps.splat.is_some_and(|s| s.materials.is_empty()));
}
