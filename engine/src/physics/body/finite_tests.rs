//! Seeded property test of drops: on every preset and a rolling basin world, at two sizes, with and
//! without water, with every shape choice, every body stays finite, no body ends below the terrain
//! surface, and no body ever sinks into the terrain by 5 % of its size.
//!
//! 6 worlds × 2 sizes × 2 (water or not) × 4 shape choices × 5 seeds = 480 drops of a few bodies for a
//! few simulated seconds, run in parallel. A debug build also stops at the assertion inside the step
//! where a state turns non-finite, naming the contact.

use rayon::prelude::*;

use super::body_tests::assert_above_terrain;
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::physics::world::{PhysicsWorld, DEFAULT_CACHE_BYTES};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// World sizes (X, Y, Z).
const SIZES: [[u32; 3]; 2] = [[40, 40, 40], [72, 48, 72]];
/// Seeds per world and shape choice.
const SEEDS: u64 = 5;
/// Bodies per drop.
const BODIES: usize = 6;
/// Simulated seconds per drop: falling, landing, settling.
const SECONDS: f32 = 3.0;

/// The worlds: every preset, plus rolling ground around a flat basin.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Preset(Preset),
    Basin,
}

/// Rolling grass hills around a flat-floored basin in the middle; with water, the basin is full to
/// the brim.
fn basin(size: [u32; 3], table: &MaterialTable) -> Grid {
    let (grass, water) = (
        table.require("Grass").expect("grass"),
        table.require("Water").expect("water"),
    );
    let mut grid = Grid::new();
    let [sx, sy, sz] = size.map(|s| s as i32);
    let (cx, cz, radius) = (sx as f32 / 2.0, sz as f32 / 2.0, sx.min(sz) as f32 / 4.0);
    let base = sy as f32 / 3.0;
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(sx, sy, sz));
    grid.modify_box(b, |p, _| {
        let (x, y, z) = (p.x as f32, p.y as f32, p.z as f32);
        let mut h = base + 3.0 * (x / 9.0).sin() * (z / 11.0).cos() + 2.0 * ((x + z) / 17.0).sin();
        let d = ((x - cx).powi(2) + (z - cz).powi(2)).sqrt();
        if d < radius {
            h = h.min(base - 6.0 + (d - radius + 4.0).max(0.0) * 2.0);
        }
        if y < h {
            Voxel::from_fraction(grass, h - y)
        } else if d < radius && y < base - 1.0 {
            Voxel::filled(water)
        } else {
            Voxel::AIR
        }
    });
    grid
}

/// Turn every liquid voxel to Air.
fn drain(grid: &mut Grid, table: &MaterialTable) {
    let boxes: Vec<VoxelBox> = grid.chunks().map(|(p, _)| p.voxel_box()).collect();
    for b in boxes {
        grid.modify_box(b, |_, v| {
            let liquid = table.get(v.material).is_some_and(|m| m.liquid);
            if liquid {
                Voxel::AIR
            } else {
                v
            }
        });
    }
}

/// A pool of water 3 voxels deep over the middle of a world without any (the flat preset).
fn flood(grid: &mut Grid, table: &MaterialTable, size: [u32; 3]) {
    let water = Voxel::filled(table.require("Water").expect("water"));
    let [sx, sy, sz] = size.map(|s| s as i32);
    let b = VoxelBox::new(
        VoxelPos::new(sx / 4, 0, sz / 4),
        VoxelPos::new(3 * sx / 4, sy, 3 * sz / 4),
    );
    // The lowest air voxel of each column, up 3.
    grid.modify_box(b, |_, v| v);
    let mut tops = Vec::new();
    for z in b.min.z..b.max.z {
        for x in b.min.x..b.max.x {
            let top = (0..sy)
                .rev()
                .find(|&y| !grid.get(VoxelPos::new(x, y, z)).is_air())
                .map_or(0, |y| y + 1);
            tops.push((x, z, top));
        }
    }
    for (x, z, top) in tops {
        for y in top..(top + 3).min(sy) {
            grid.set(VoxelPos::new(x, y, z), water);
        }
    }
}

fn world(kind: Kind, size: [u32; 3], wet: bool, table: &MaterialTable) -> Grid {
    let mut grid = match kind {
        Kind::Basin => basin(size, table),
        Kind::Preset(preset) => generate(
            &GeneratorSettings {
                preset,
                size,
                seed: size[0],
            },
            table,
            &Progress::new(),
        )
        .expect("generate"),
    };
    match (wet, kind) {
        (false, _) => drain(&mut grid, table),
        (true, Kind::Preset(Preset::Flat)) => flood(&mut grid, table, size),
        (true, _) => {}
    }
    grid
}

#[test]
fn bodies_stay_finite_above_the_surface_and_barely_sink_in() {
    let table = MaterialTable::builtin();
    let kinds: Vec<Kind> = Preset::ALL
        .into_iter()
        .map(Kind::Preset)
        .chain([Kind::Basin])
        .collect();
    let mut cases = Vec::new();
    for &kind in &kinds {
        for size in SIZES {
            for wet in [true, false] {
                cases.push((kind, size, wet));
            }
        }
    }
    let shapes = [
        ShapeChoice::Sphere,
        ShapeChoice::Box,
        ShapeChoice::Capsule,
        ShapeChoice::Mixed,
    ];
    let outcomes: Vec<(usize, Vec<String>)> = cases
        .par_iter()
        .map(|&(kind, size, wet)| {
            let grid = world(kind, size, wet, &table);
            let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
            let (mut n, mut problems) = (0, Vec::new());
            for (s, &shape) in shapes.iter().enumerate() {
                for k in 0..SEEDS {
                    let seed = 1000 * u64::from(size[0]) + 100 * s as u64 + 10 * k + u64::from(wet);
                    let settings = DropSettings {
                        count: BODIES,
                        shape,
                        seed,
                        seconds: SECONDS,
                        ..DropSettings::default()
                    };
                    let what = format!("{kind:?} {size:?} water {wet} {shape:?} seed {seed}");
                    let report = run_drop(&mut world, &grid, &table, &settings, &Progress::new())
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    check(&mut world, &grid, &report, size, &what, &mut problems);
                    n += 1;
                }
            }
            (n, problems)
        })
        .collect();
    let drops: usize = outcomes.iter().map(|(n, _)| n).sum();
    let problems: Vec<&String> = outcomes.iter().flat_map(|(_, p)| p).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{problems:#?}",
        problems.len()
    );
    assert_eq!(drops, kinds.len() * 2 * 2 * shapes.len() * SEEDS as usize);
}

fn check(
    world: &mut PhysicsWorld,
    grid: &Grid,
    report: &DropReport,
    size: [u32; 3],
    what: &str,
    problems: &mut Vec<String>,
) {
    for (i, b) in report.bodies.iter().enumerate() {
        let what = format!("{what} body {i} ({})", b.shape.name());
        assert_ne!(b.lost, Some(Lost::NonFinite), "{what}: {b:?}");
        assert!(
            b.final_position.iter().all(|c| c.is_finite()),
            "{what}: {b:?}"
        );
        if b.max_penetration >= 0.05 * b.size {
            problems.push(format!(
                "{what}: penetration {} is {:.1} % of its size {}",
                b.max_penetration,
                100.0 * b.max_penetration / b.size,
                b.size
            ));
        }
        let p = b.final_position;
        let inside = p[0] > 0.0 && p[0] < size[0] as f32 && p[2] > 0.0 && p[2] < size[2] as f32;
        if b.lost.is_none() && inside {
            assert_above_terrain(world, grid, b, size[1] as f32 + 50.0, &what);
        }
    }
}
