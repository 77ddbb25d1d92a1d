//! Simulation tests: drops on slabs (every shape, no tunnelling), resting and sleeping, water, stacking,
//! waking on edits, determinism, and drops on every generator preset.

use super::math::quat_from_axis_angle;
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::physics::world::{PhysicsWorld, RayFilter, DEFAULT_CACHE_BYTES};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::vec3::{length, V3};
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// Rock filling y in 0..4 over x, z in −16..16, with water above it up to `water_top` (if any).
fn slab(water_top: Option<i32>) -> (Grid, MaterialTable) {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-16, 0, -16), VoxelPos::new(16, 4, 16)),
        Voxel::filled(table.require("Rock").expect("rock")),
    );
    if let Some(top) = water_top {
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-16, 4, -16), VoxelPos::new(16, top, 16)),
            Voxel::filled(table.require("Water").expect("water")),
        );
    }
    (grid, table)
}

/// The slab's top surface height, by a ray straight down.
fn ground_y(world: &mut PhysicsWorld, grid: &Grid, x: f32, z: f32) -> f32 {
    let solid = RayFilter {
        solid: true,
        water: false,
    };
    world
        .raycast_with(grid, [x, 50.0, z], [0.0, -1.0, 0.0], f32::INFINITY, solid)
        .expect("ray")
        .expect("ground below")
        .point[1]
}

fn material(density: f32) -> BodyMaterial {
    BodyMaterial {
        density,
        ..BodyMaterial::default()
    }
}

/// Step `seconds`, returning the simulation.
fn run(grid: &Grid, table: &MaterialTable, bodies: &[Body], seconds: f32) -> Simulation {
    let mut world = PhysicsWorld::new(grid, table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(table, SimSettings::default());
    for b in bodies {
        sim.add(*b).expect("add");
    }
    let steps = (seconds / sim.settings().dt).round() as usize;
    for _ in 0..steps {
        sim.step(&mut world, grid).expect("step");
    }
    sim
}

/// The lowest point of a body below its centre (how far its bottom reaches down).
fn half_height(b: &Body) -> f32 {
    let (lo, _) = b.aabb();
    b.position[1] - lo[1]
}

fn shapes() -> [Shape; 3] {
    [
        Shape::Sphere { radius: 0.5 },
        Shape::Box {
            half: [0.5, 0.4, 0.6],
        },
        Shape::Capsule {
            radius: 0.4,
            half_height: 0.5,
        },
    ]
}

#[test]
fn fast_drops_from_100_voxels_stop_on_the_slab() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let top = ground_y(&mut world, &grid, 0.3, -0.7);
    for shape in shapes() {
        // No bounce: a 200 voxel/s impact with any restitution rightly bounces high.
        let dead = BodyMaterial {
            restitution: 0.0,
            ..material(2.0)
        };
        let mut b = Body::new(shape, dead, [0.3, top + 100.0, -0.7]);
        // Terminal-like speed: 200 voxels/s, ~1.7 voxels per 1/120 s step.
        // Level: a tilted box or capsule hitting at this speed rightly tumbles away across the slab.
        b.velocity = [0.0, -200.0, 0.0];
        let sim = run(&grid, &table, &[b], 4.0);
        let end = sim.bodies()[0];
        let bottom = end.position[1] - half_height(&end);
        assert!(
            (bottom - top).abs() < 0.05 * shape.size(),
            "{}: bottom {bottom} vs ground {top}: {end:?}",
            shape.name()
        );
        assert!(
            sim.stats()[0].max_penetration < 0.05 * shape.size(),
            "{}: penetration {}",
            shape.name(),
            sim.stats()[0].max_penetration
        );
        assert!(
            end.asleep,
            "{} should rest and sleep: {end:?}",
            shape.name()
        );
    }
}

#[test]
fn resting_bodies_sleep_and_an_edit_wakes_them() {
    let (mut grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    let id = sim
        .add(Body::new(shapes()[1], material(1.5), [2.0, 6.0, 2.0]))
        .expect("add");
    for _ in 0..360 {
        sim.step(&mut world, &grid).expect("step");
    }
    assert!(sim.bodies()[id].asleep, "{:?}", sim.bodies()[id]);
    let rest = sim.bodies()[id].position;
    // Asleep: further steps change nothing and cost no substeps of work.
    let s = sim.step(&mut world, &grid).expect("step");
    assert_eq!(s.awake, 0);
    assert_eq!(sim.bodies()[id].position, rest);
    // Dig a pit under it: the edit wakes it and it falls in.
    let pit = VoxelBox::new(VoxelPos::new(-2, 1, -2), VoxelPos::new(6, 4, 6));
    grid.fill_box(pit, Voxel::AIR);
    sim.on_edit(&mut world, &grid, pit).expect("edit");
    assert!(!sim.bodies()[id].asleep);
    for _ in 0..240 {
        sim.step(&mut world, &grid).expect("step");
    }
    assert!(
        sim.bodies()[id].position[1] < rest[1] - 2.0,
        "{:?} vs {rest:?}",
        sim.bodies()[id]
    );
}

#[test]
fn light_bodies_float_and_heavy_ones_sink() {
    let (grid, table) = slab(Some(12));
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let floor = ground_y(&mut world, &grid, 0.0, 0.0);
    for shape in shapes() {
        let light = Body::new(shape, material(0.5), [-4.0, 16.0, 0.0]);
        let heavy = Body::new(shape, material(2.0), [4.0, 16.0, 0.0]);
        let sim = run(&grid, &table, &[light, heavy], 12.0);
        let (l, h) = (sim.bodies()[0], sim.bodies()[1]);
        // Floating: between half and fully above the water line (y = 12) at rest, wet but not under.
        let f = sim.stats()[0].water_fraction;
        assert!(
            f > 0.2 && f < 0.8,
            "{}: light fraction {f}: {l:?}",
            shape.name()
        );
        assert!(
            (l.position[1] - 12.0).abs() < 1.0,
            "{} floats at the surface: {l:?}",
            shape.name()
        );
        assert!(length(l.velocity) < 0.3, "{} settles: {l:?}", shape.name());
        // Sinking: on the floor, fully under water.
        let bottom = h.position[1] - half_height(&h);
        assert!(
            (bottom - floor).abs() < 0.1,
            "{} sinks to the floor {floor}: {h:?}",
            shape.name()
        );
        assert!(sim.stats()[1].water_fraction > 0.99);
    }
}

#[test]
fn bodies_stack_on_each_other() {
    let (grid, table) = slab(None);
    let mut bottom = Body::new(
        Shape::Box { half: [1.0; 3] },
        material(2.0),
        [0.0, 5.5, 0.0],
    );
    bottom.orientation = quat_from_axis_angle([0.0, 1.0, 0.0], 0.2);
    let mut bodies = vec![bottom];
    for (i, shape) in shapes().into_iter().enumerate() {
        let mut b = Body::new(
            shape,
            material(1.0),
            [0.1 * i as f32, 8.0 + 2.0 * i as f32, 0.0],
        );
        if i == 2 {
            // The capsule lies down so it stays on the box.
            b.orientation = quat_from_axis_angle([1.0, 0.0, 0.0], std::f32::consts::FRAC_PI_2);
        }
        bodies.push(b);
    }
    let sim = run(&grid, &table, &bodies[..2], 4.0);
    let (base, top) = (sim.bodies()[0], sim.bodies()[1]);
    assert!((base.position[1] - 5.0).abs() < 0.05, "{base:?}");
    assert!(
        (top.position[1] - 6.0 - 0.5).abs() < 0.06 && top.position[0].abs() < 1.0,
        "sphere on the box: {top:?}"
    );
    // Box on box and capsule on box.
    for k in [2, 3] {
        let sim = run(&grid, &table, &[bodies[0], bodies[k]], 6.0);
        let top = sim.bodies()[1];
        let expect = 6.0 + half_height(&top);
        assert!(
            (top.position[1] - expect).abs() < 0.06,
            "{} on the box: {top:?} (expected y {expect})",
            top.shape.name()
        );
        assert!(top.asleep, "{top:?}");
    }
}

#[test]
fn same_world_same_seed_same_bits() {
    let table = MaterialTable::builtin();
    let gen = GeneratorSettings {
        preset: Preset::Hills,
        size: [48, 32, 48],
        seed: 3,
    };
    let grid = generate(&gen, &table, &Progress::new()).expect("generate");
    let settings = DropSettings {
        count: 12,
        seconds: 2.0,
        seed: 9,
        ..DropSettings::default()
    };
    let once = || {
        let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        run_drop(&mut world, &grid, &table, &settings, &Progress::new()).expect("drop")
    };
    let (a, b) = (once(), once());
    let bits = |r: &DropReport| -> Vec<u32> {
        r.bodies
            .iter()
            .flat_map(|b| b.final_position.into_iter().chain([b.max_penetration]))
            .map(f32::to_bits)
            .collect()
    };
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a, b);
    // A different seed drops elsewhere.
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let other = DropSettings {
        seed: 10,
        ..settings
    };
    let c = run_drop(&mut world, &grid, &table, &other, &Progress::new()).expect("drop");
    assert_ne!(bits(&a), bits(&c));
}

/// No body ends inside the terrain: straight down from its centre there is an up-facing surface at
/// least (almost) its half height away, and when the first surface seen from high above is over the
/// body, the body sits in a cave (straight up from it is a down-facing ceiling).
pub(super) fn assert_above_terrain(
    world: &mut PhysicsWorld,
    grid: &Grid,
    b: &DropBody,
    top: f32,
    what: &str,
) {
    let solid = RayFilter {
        solid: true,
        water: false,
    };
    let p = b.final_position;
    let down = world
        .raycast_with(grid, p, [0.0, -1.0, 0.0], f32::INFINITY, solid)
        .expect("ray");
    let Some(down) = down else {
        panic!("{what}: nothing below {b:?}");
    };
    assert!(
        down.normal[1] > 0.0,
        "{what}: the surface below faces down (inside rock): {b:?} {down:?}"
    );
    let from_above = world
        .raycast_with(
            grid,
            [p[0], top, p[2]],
            [0.0, -1.0, 0.0],
            f32::INFINITY,
            solid,
        )
        .expect("ray")
        .expect("hits the ground");
    if from_above.point[1] > p[1] + 1e-3 {
        let up = world
            .raycast_with(grid, p, [0.0, 1.0, 0.0], f32::INFINITY, solid)
            .expect("ray")
            .expect("a ceiling");
        assert!(
            up.normal[1] < 0.0,
            "{what}: under the surface, not in a cave: {b:?} {up:?}"
        );
    }
    assert!(
        down.t >= 0.2 * b.size,
        "{what}: the centre is {} above the ground: {b:?}",
        down.t
    );
}

#[test]
fn drops_on_every_preset_stay_on_the_surface() {
    let table = MaterialTable::builtin();
    for preset in Preset::ALL {
        let gen = GeneratorSettings {
            preset,
            size: [64, 48, 64],
            seed: 1,
        };
        let grid = generate(&gen, &table, &Progress::new()).expect("generate");
        let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        let settings = DropSettings {
            count: 16,
            seconds: 10.0,
            ..DropSettings::default()
        };
        let report =
            run_drop(&mut world, &grid, &table, &settings, &Progress::new()).expect("drop");
        assert_eq!(report.bodies.len(), 16);
        let (mut resting, mut left) = (0, 0);
        for (i, b) in report.bodies.iter().enumerate() {
            let what = format!("{preset} body {i} ({})", b.shape.name());
            assert!(
                b.max_penetration < 0.05 * b.size,
                "{what}: penetration {} of size {}",
                b.max_penetration,
                b.size
            );
            // No energy from nowhere: nothing ends higher than it started, unless water lifted it.
            assert!(
                b.in_water || b.final_position[1] <= b.start[1] + 0.1,
                "{what}: rose: {b:?}"
            );
            let p = b.final_position;
            if !(p[0] > 0.0 && p[0] < 64.0 && p[2] > 0.0 && p[2] < 64.0) {
                // Rolled off the edge of this small world: nothing to stand on there.
                left += 1;
                continue;
            }
            assert_above_terrain(&mut world, &grid, b, 100.0, &what);
            resting += usize::from(b.at_rest || b.in_water);
        }
        // Steep presets in a 64-voxel world shed some bodies over the edge; most must stay, and most
        // of those (two thirds: mountain slopes keep balls rolling) must rest or float within the 10 s.
        let stayed = 16 - left;
        assert!(stayed >= 8, "{preset}: {left} of 16 rolled off the world");
        assert!(
            resting * 3 >= stayed * 2,
            "{preset}: only {resting} of {stayed} at rest or in water: {report:?}"
        );
    }
}

#[test]
fn bad_drop_settings_are_errors() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let p = Progress::new();
    let bad = [
        DropSettings {
            count: 0,
            ..DropSettings::default()
        },
        DropSettings {
            seconds: f32::NAN,
            ..DropSettings::default()
        },
        DropSettings {
            at: Some([f32::INFINITY, 0.0, 0.0]),
            ..DropSettings::default()
        },
    ];
    for s in bad {
        assert!(
            run_drop(&mut world, &grid, &table, &s, &p).is_err(),
            "{s:?}"
        );
    }
    let empty = Grid::new();
    let mut w2 = PhysicsWorld::new(&empty, &table, DEFAULT_CACHE_BYTES);
    assert!(run_drop(&mut w2, &empty, &table, &DropSettings::default(), &p).is_err());
    assert!(ShapeChoice::from_name("cone").is_err());
    assert_eq!(
        ShapeChoice::from_name(" Box ").expect("box"),
        ShapeChoice::Box
    );
    // --at drops land around the point.
    let at = DropSettings {
        count: 9,
        seconds: 3.0,
        at: Some([0.0, 10.0, 0.0]),
        shape: ShapeChoice::Sphere,
        ..DropSettings::default()
    };
    let r = run_drop(&mut world, &grid, &table, &at, &p).expect("drop");
    for b in &r.bodies {
        let v: V3 = b.final_position;
        assert!(
            v[0].abs() < 12.0 && v[2].abs() < 12.0 && v[1] > 4.0,
            "{b:?}"
        );
        assert!(b.at_rest, "{b:?}");
    }
}
