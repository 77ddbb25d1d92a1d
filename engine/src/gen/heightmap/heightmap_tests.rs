//! Tests of heightmap import: sizes and limits, heights to occupancy, colour maps, terrace
//! smoothing.

use super::*;
use crate::voxel::{VoxelBox, VoxelPos};

fn table() -> MaterialTable {
    MaterialTable::builtin()
}

fn build(map: &Heightmap, materials: Option<&[u8]>, size: [u32; 2], height: u32) -> Result<Grid> {
    let settings = HeightmapSettings {
        size,
        height,
        smooth_radius: 0,
    };
    heightmap_grid(map, materials, &settings, &table(), &Progress::new())
}

/// Total occupancy of column (x, z): its surface height in voxels.
fn column_height(g: &Grid, x: i32, z: i32, height: i32) -> f32 {
    let b = VoxelBox::new(
        VoxelPos::new(x, 0, z),
        VoxelPos::new(x + 1, height + 1, z + 1),
    );
    g.read_box_vec(b).iter().map(|v| v.occupancy_f32()).sum()
}

/// A map rising linearly along X from 0 to full height.
fn ramp(width: u32, depth: u32) -> Heightmap {
    let samples = (0..depth)
        .flat_map(|_| (0..width).map(move |x| (u64::from(x) * 65535 / u64::from(width - 1)) as u16))
        .collect();
    Heightmap {
        width,
        depth,
        samples,
    }
}

#[test]
fn a_ramp_gives_monotonic_columns_from_floor_to_top() {
    for size in [[48, 4], [96, 8]] {
        let g = build(&ramp(48, 4), None, size, 40).expect("builds");
        g.assert_valid();
        let heights: Vec<f32> = (0..size[0] as i32)
            .map(|x| column_height(&g, x, 2, 40))
            .collect();
        assert!(heights.windows(2).all(|w| w[1] >= w[0]), "{heights:?}");
        // The lowest column keeps its one-voxel floor.
        assert!((1.0..1.5).contains(&heights[0]), "{}", heights[0]);
        // The last column reaches the top of the world: its surface (occupancy ½) is at 40, with the
        // part of its distance band above the world cut off.
        let last = size[0] as i32 - 1;
        assert!(g.get(VoxelPos::new(last, 39, 2)).occupancy_f32() >= 0.5);
        assert!(heights[heights.len() - 1] > 39.0, "{heights:?}");
        // The world stays inside its bounds.
        let outside = VoxelBox::new(
            VoxelPos::new(size[0] as i32, 0, 0),
            VoxelPos::new(128, 64, 32),
        );
        assert!(g.read_box_vec(outside).iter().all(|v| v.is_air()));
    }
}

#[test]
fn the_top_voxel_holds_the_fraction() {
    // 26214 / 65535 * 64 = 25.6 voxels.
    let map = Heightmap {
        width: 2,
        depth: 2,
        samples: vec![26214; 4],
    };
    let g = build(&map, None, [2, 2], 64).expect("builds");
    let h = 26214.0 / 65535.0 * 64.0f32;
    let top = g.get(VoxelPos::new(1, 25, 1));
    assert!(
        (top.occupancy_f32() - (h - 25.0)).abs() <= 1.0 / 256.0,
        "{top:?}"
    );
    assert_eq!(g.get(VoxelPos::new(1, 24, 1)).occupancy_f32(), 1.0);
    assert!(g.get(VoxelPos::new(1, 26, 1)).is_air());
    assert!((column_height(&g, 0, 0, 64) - h).abs() <= 1.0 / 256.0);
}

#[test]
fn default_layers_follow_height_and_slope() {
    let t = table();
    let id = |n: &str| t.require(n).expect("material");
    // Flat low ground: grass on top, soil, then rock.
    let flat = Heightmap {
        width: 4,
        depth: 4,
        samples: vec![33587; 16],
    };
    let g = build(&flat, None, [4, 4], 40).expect("builds");
    let h = 33587.0 / 65535.0 * 40.0f32;
    let top = h.floor() as i32;
    assert_eq!(g.get(VoxelPos::new(1, top, 1)).material, id("Grass"));
    assert_eq!(g.get(VoxelPos::new(1, top - 1, 1)).material, id("Grass"));
    assert_eq!(g.get(VoxelPos::new(1, top - 3, 1)).material, id("Ground"));
    assert_eq!(g.get(VoxelPos::new(1, 2, 1)).material, id("Rock"));
    // Flat ground above the snow line is snow.
    let high = Heightmap {
        width: 4,
        depth: 4,
        samples: vec![60000; 16],
    };
    let g = build(&high, None, [4, 4], 40).expect("builds");
    assert_eq!(g.get(VoxelPos::new(1, 35, 1)).material, id("Snow"));
    // A cliff: the steep columns are rock to the top.
    let cliff = Heightmap {
        width: 8,
        depth: 2,
        samples: (0..16).map(|i| if i % 8 < 4 { 0 } else { 30000 }).collect(),
    };
    let g = build(&cliff, None, [8, 2], 40).expect("builds");
    assert_eq!(g.get(VoxelPos::new(4, 17, 0)).material, id("Rock"));
    assert_eq!(g.get(VoxelPos::new(7, 17, 0)).material, id("Grass"));
}

#[test]
fn colour_map_materials_colour_the_surface() {
    let t = table();
    let sand = t.require("Sand").expect("sand");
    let brick = t.require("Brick").expect("brick");
    let rgb = |id: u8| {
        let (r, g, b) = t.materials[usize::from(id)].color;
        [r, g, b]
    };
    // Exact colours map to their material; a near colour to the closest; water's colour never to water.
    assert_eq!(nearest_material(&t, rgb(sand)), sand);
    let [r, g, b] = rgb(brick);
    assert_eq!(nearest_material(&t, [r + 3, g, b.saturating_sub(2)]), brick);
    let water = t.require("Water").expect("water");
    assert_ne!(nearest_material(&t, rgb(water)), water);
    // Left half sand, right half brick.
    let pixels: Vec<u8> = (0..16)
        .flat_map(|i| rgb(if i % 4 < 2 { sand } else { brick }))
        .collect();
    let materials = colormap_materials(&t, &pixels);
    let map = Heightmap {
        width: 4,
        depth: 4,
        samples: vec![20000; 16],
    };
    let g = build(&map, Some(&materials), [8, 8], 32).expect("builds");
    let top = (20000.0 / 65535.0 * 32.0f32).floor() as i32;
    assert_eq!(g.get(VoxelPos::new(1, top, 5)).material, sand);
    assert_eq!(g.get(VoxelPos::new(6, top, 5)).material, brick);
    assert_eq!(
        g.get(VoxelPos::new(6, 1, 5)).material,
        t.require("Rock").expect("rock")
    );
}

#[test]
fn bad_inputs_are_errors() {
    let map = ramp(8, 8);
    assert!(build(
        &Heightmap {
            width: 0,
            depth: 8,
            samples: vec![]
        },
        None,
        [8, 8],
        8
    )
    .is_err());
    let short = Heightmap {
        width: 8,
        depth: 8,
        samples: vec![0; 63],
    };
    assert!(build(&short, None, [8, 8], 8).is_err());
    assert!(build(&map, Some(&[2; 10]), [8, 8], 8).is_err());
    assert!(
        build(&map, Some(&[63; 64]), [8, 8], 8).is_err(),
        "unknown id"
    );
    assert!(build(&map, None, [0, 8], 8).is_err());
    assert!(build(&map, None, [8, 8], 0).is_err());
    assert!(build(&map, None, [8, 8], MAX_VERTICAL_SIZE + 1).is_err());
    let p = Progress::new();
    p.cancel();
    let settings = HeightmapSettings {
        size: [8, 8],
        height: 8,
        smooth_radius: 0,
    };
    let r = heightmap_grid(&map, None, &settings, &table(), &p);
    assert!(matches!(r, Err(Error::Cancelled)));
    // A map larger than the largest world, and a smoothing radius out of range.
    let wide = Heightmap {
        width: MAX_HORIZONTAL_SIZE + 1,
        depth: 1,
        samples: vec![0; MAX_HORIZONTAL_SIZE as usize + 1],
    };
    match build(&wide, None, [8, 8], 8) {
        Err(Error::Invalid(msg)) => assert!(msg.contains("at most 16384"), "{msg}"),
        other => panic!("{other:?}"),
    }
    let rough = HeightmapSettings {
        smooth_radius: MAX_SMOOTHING_RADIUS + 1,
        ..settings
    };
    let r = heightmap_grid(&map, None, &rough, &table(), &Progress::new());
    assert!(matches!(r, Err(Error::Invalid(_))));
}

#[test]
fn black_pixels_keep_a_floor_and_leave_no_hole() {
    // A map of pure black with a raised block: every column keeps a full bottom voxel.
    let (w, d) = (40u32, 40u32);
    let samples = (0..w * d)
        .map(|i| {
            let (x, z) = (i % w, i / w);
            if (10..30).contains(&x) && (10..30).contains(&z) && !(18..22).contains(&x) {
                40000
            } else {
                0
            }
        })
        .collect();
    let map = Heightmap {
        width: w,
        depth: d,
        samples,
    };
    let g = build(&map, None, [w, d], 64).expect("builds");
    g.assert_valid();
    for z in 0..d as i32 {
        for x in 0..w as i32 {
            let v = g.get(VoxelPos::new(x, 0, z));
            assert_eq!(v.occupancy_f32(), 1.0, "hole at ({x}, {z})");
            assert!(column_height(&g, x, z, 64) >= 1.0);
        }
    }
}

#[test]
fn smoothing_removes_eight_bit_terraces() {
    // A gentle 8-bit ramp in a tall world: each grey level is 2 voxels, one level per 8 samples.
    let (w, d) = (96u32, 8u32);
    let samples: Vec<u16> = (0..w * d).map(|i| ((i % w) / 8 * 257) as u16).collect();
    let map = Heightmap {
        width: w,
        depth: d,
        samples,
    };
    let height = 512;
    let steps = |radius| {
        let settings = HeightmapSettings {
            size: [w, d],
            height,
            smooth_radius: radius,
        };
        let g = heightmap_grid(&map, None, &settings, &table(), &Progress::new()).expect("builds");
        let h: Vec<f32> = (16..80)
            .map(|x| column_height(&g, x, 4, height as i32))
            .collect();
        // The largest rise from one column to the next: a terrace riser, or the even slope.
        h.windows(2).map(|p| p[1] - p[0]).fold(0.0f32, f32::max)
    };
    let (raw, smooth) = (steps(0), steps(8));
    assert!(raw > 1.5, "the raw map should step by a grey level: {raw}");
    assert!(smooth < 0.5, "terraces remain after smoothing: {smooth}");
}
