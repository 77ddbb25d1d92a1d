//! Tests of the top-down render: exact bounds, the height field read from the mips, and shading.

use super::height_field::{HeightField, NONE};
use super::shade::Palette;
use super::*;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

fn table() -> MaterialTable {
    MaterialTable::builtin()
}

fn id(name: &str) -> u8 {
    table().require(name).expect("builtin material")
}

fn srgb(name: &str) -> [u8; 3] {
    let (r, g, b) = table().materials[usize::from(id(name))].color;
    [r, g, b]
}

/// A flat slab of `material`, `size[0] × size[1] × size[2]` voxels from the origin.
fn slab(material: &str, size: [u32; 3]) -> Grid {
    let mut g = Grid::new();
    g.fill_box(
        VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), size),
        Voxel::filled(id(material)),
    );
    g
}

fn close(a: [u8; 4], b: [u8; 3]) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= 1) && a[3] == 255
}

fn brightness(p: [u8; 4]) -> u32 {
    u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])
}

#[test]
fn flat_world_shows_its_material_colour() {
    let g = slab("Sand", [64, 8, 64]);
    let img = render_topdown(&g, &table(), 64, 64);
    let centre = img.pixel(32, 32).expect("inside");
    assert!(close(centre, srgb("Sand")), "{centre:?}");
    // Every pixel is covered: the world fills the square image.
    assert!(img.rgba.chunks_exact(4).all(|p| p[3] == 255));
}

#[test]
fn downsampled_render_reads_mips_and_keeps_the_colour() {
    let g = slab("Grass", [256, 40, 256]);
    for size in [256, 128, 37] {
        let img = render_topdown(&g, &table(), size, size);
        let centre = img.pixel(size / 2, size / 2).expect("inside");
        assert!(close(centre, srgb("Grass")), "size {size}: {centre:?}");
    }
}

#[test]
fn water_is_drawn_bluish_over_the_ground() {
    let mut g = slab("Sand", [64, 4, 64]);
    g.fill_box(
        VoxelBox::from_min_size(VoxelPos::new(0, 4, 0), [64, 6, 64]),
        Voxel::filled(id("Water")),
    );
    let img = render_topdown(&g, &table(), 32, 32);
    let p = img.pixel(16, 16).expect("inside");
    let sand = srgb("Sand");
    assert!(p[2] > p[0] && p[2] > p[1], "not bluish: {p:?}");
    assert!(p[0] < sand[0], "water does not cover the sand: {p:?}");
    // Translucent: the sand still shows, so it differs from plain water.
    assert!(!close(p, srgb("Water")), "{p:?}");
}

/// Terrain of `material` whose column (x, z) rises to `h(x, z)`, with fractional top voxels.
fn terrain(material: &str, size: [i32; 2], h: impl Fn(f32, f32) -> f32) -> Grid {
    let m = id(material);
    let mut g = Grid::new();
    let region = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(size[0], 32, size[1]));
    g.modify_box(region, |p, _| {
        let top = h(p.x as f32 + 0.5, p.z as f32 + 0.5);
        Voxel::from_fraction(m, top - p.y as f32)
    });
    g
}

#[test]
fn hillshade_lights_north_west_faces() {
    // A cone of slope 1/2 on flat ground at height 8.
    let g = terrain("Grass", [64, 64], |x, z| {
        let r = ((x - 32.0).powi(2) + (z - 32.0).powi(2)).sqrt();
        8.0 + (10.0 - r / 2.0).max(0.0)
    });
    let img = render_topdown(&g, &table(), 64, 64);
    let px = |x, y| brightness(img.pixel(x, y).expect("inside"));
    let flat = px(4, 4);
    let (west, east) = (px(24, 32), px(40, 32));
    let (north, south) = (px(32, 24), px(32, 40));
    // The north-west-facing flanks are brighter than flat ground, the south-east ones darker.
    assert!(west > flat && north > flat, "{west} {north} vs flat {flat}");
    assert!(east < flat && south < flat, "{east} {south} vs flat {flat}");
    assert!(west > east && north > south);
    // Same slope, same height: faces towards and away from the light mirror each other.
    assert_eq!(west, north);
    assert_eq!(east, south);
}

#[test]
fn sizes_and_aspect_are_honoured() {
    let g = slab("Rock", [128, 8, 32]);
    let img = render_topdown(&g, &table(), 100, 37);
    assert_eq!(
        (img.width, img.height, img.rgba.len()),
        (100, 37, 100 * 37 * 4)
    );
    // A 4:1 world in a square image: a centred band, transparent above and below.
    let img = render_topdown(&g, &table(), 64, 64);
    assert_eq!(img.pixel(32, 2).expect("inside")[3], 0);
    assert_eq!(img.pixel(32, 61).expect("inside")[3], 0);
    assert_eq!(img.pixel(32, 32).expect("inside")[3], 255);
    assert_eq!(img.pixel(0, 32).expect("inside")[3], 255);
    assert_eq!(img.pixel(64, 0), None);
}

#[test]
fn empty_world_and_zero_sizes_do_not_panic() {
    let empty = render_topdown(&Grid::new(), &table(), 16, 8);
    assert_eq!(empty.rgba.len(), 16 * 8 * 4);
    assert!(empty.rgba.iter().all(|&b| b == 0));
    let g = slab("Sand", [40, 8, 40]);
    assert!(render_topdown(&g, &table(), 0, 10).rgba.is_empty());
    assert!(render_topdown(&g, &table(), 10, 0).rgba.is_empty());
    assert_eq!(topdown_bounds(&Grid::new(), &table()), None);
}

#[test]
fn bounds_are_exact_to_the_voxel() {
    let mut g = Grid::new();
    g.fill_box(
        VoxelBox::new(VoxelPos::new(-37, 0, 5), VoxelPos::new(90, 3, 71)),
        Voxel::filled(id("Sand")),
    );
    let b = topdown_bounds(&g, &table()).expect("occupied");
    assert_eq!((b.x0, b.z0, b.x1, b.z1), (-37, 5, 90, 71));
    assert_eq!(fit_size(Some(b), 254), (254, 132));
    assert_eq!(fit_size(None, 10), (10, 10));
    // Thin matter (occupancy below one half) does not count as occupied.
    let mut thin = Grid::new();
    thin.set(
        VoxelPos::new(3, 3, 3),
        Voxel::from_fraction(id("Sand"), 0.25),
    );
    let img = render_topdown(&thin, &table(), 8, 8);
    assert!(img.rgba.iter().all(|&b| b == 0));
}

#[test]
fn ground_height_is_refined_by_occupancy() {
    let sand = id("Sand");
    let mut g = slab("Sand", [32, 4, 32]);
    // Column (1, 1): a three-quarter voxel on top. Column (2, 2): full, then a quarter voxel above.
    g.set(VoxelPos::new(1, 4, 1), Voxel::from_fraction(sand, 0.75));
    g.set(VoxelPos::new(2, 4, 2), Voxel::filled(sand));
    g.set(VoxelPos::new(2, 5, 2), Voxel::from_fraction(sand, 0.25));
    // Column (3, 3): water two voxels deep over the slab.
    let water = id("Water");
    g.fill_box(
        VoxelBox::new(VoxelPos::new(3, 4, 3), VoxelPos::new(4, 6, 4)),
        Voxel::filled(water),
    );
    let liquid = Palette::new(&table()).liquid;
    let f = HeightField::read(&g, 0, &liquid).expect("field");
    let at = |x: usize, z: usize| z * f.width + x;
    assert_eq!(f.ground[at(0, 0)], 4.0);
    assert_eq!(f.ground[at(1, 1)], 4.75);
    assert_eq!(f.ground[at(2, 2)], 5.25);
    assert_eq!((f.ground[at(3, 3)], f.water[at(3, 3)]), (4.0, 6.0));
    assert_eq!(f.water_material[at(3, 3)], water);
    assert_eq!(f.water[at(0, 0)], NONE);
    // The half-resolution field agrees on flat ground and averages the bump into its cell.
    let half = HeightField::read(&g, 1, &liquid).expect("field");
    assert_eq!((half.width, half.depth), (16, 16));
    assert_eq!(half.ground[4 * half.width + 4], 4.0);
    assert!(
        half.ground[0] > 4.0 && half.ground[0] < 4.75,
        "{}",
        half.ground[0]
    );
}

#[test]
fn chunks_at_opposite_ends_of_the_range_render_at_the_image_size() {
    use crate::voxel::COORD_LIMIT;
    // Two small hills 2³¹ voxels apart on both axes: the field used to be sized by that distance
    // (16 GiB); it must now follow the image.
    let mut g = Grid::new();
    let rock = Voxel::filled(id("Rock"));
    for (x, z) in [
        (-COORD_LIMIT, -COORD_LIMIT),
        (COORD_LIMIT - 32, COORD_LIMIT - 32),
    ] {
        g.fill_box(
            VoxelBox::new(VoxelPos::new(x, 0, z), VoxelPos::new(x + 32, 8, z + 32)),
            rock,
        );
    }
    let field = HeightField::read(&g, 30, &Palette::new(&table()).liquid).expect("field");
    assert!(
        field.width * field.depth <= 9,
        "{}x{}",
        field.width,
        field.depth
    );
    let started = std::time::Instant::now();
    let img = render_topdown(&g, &table(), 64, 64);
    assert!(started.elapsed().as_secs() < 10);
    let px = |x: usize, y: usize| {
        let i = (y * 64 + x) * 4;
        [
            img.rgba[i],
            img.rgba[i + 1],
            img.rgba[i + 2],
            img.rgba[i + 3],
        ]
    };
    assert_eq!(px(0, 0)[3], 255, "the far corner's hill is drawn");
    assert_eq!(px(63, 63)[3], 255, "the near corner's hill is drawn");
    assert_eq!(px(32, 10)[3], 0, "the space between is empty");
}

#[test]
fn coarse_levels_keep_the_highest_ground() {
    let mut g = slab("Sand", [256, 4, 256]);
    g.fill_box(
        VoxelBox::new(VoxelPos::new(100, 4, 100), VoxelPos::new(101, 20, 101)),
        Voxel::filled(id("Rock")),
    );
    let liquid = Palette::new(&table()).liquid;
    let fine = HeightField::read(&g, 3, &liquid).expect("fine");
    let coarse = HeightField::read(&g, 7, &liquid).expect("coarse");
    assert_eq!((coarse.width, coarse.depth), (2, 2));
    let fine_max = fine.ground.iter().copied().fold(NONE, f32::max);
    assert_eq!(coarse.ground[0], fine_max, "the pillar's top wins its cell");
    assert!(coarse.ground[3] < coarse.ground[0]);
}
