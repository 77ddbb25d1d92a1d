//! What an editor does with a running simulation: edits and undo during play (dig under a resting box,
//! raise ground under a floating one), adding bodies while it runs, reset, clear, real-time play
//! under a budget, states and contact points for drawing, and bad input.

use std::time::Duration;

use super::super::shape::Lost;
use super::super::solver::Mass;
use super::super::spawn::{drop_bodies, rain_bodies, DropSpec, RainSpec, ShapeChoice};
use super::super::{Body, BodyMaterial, Shape};
use super::*;
use crate::history::History;
use crate::physics::world::PhysicsWorld;
use crate::physics::world::DEFAULT_CACHE_BYTES;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// Rock filling y in 0..4 over x, z in −16..16, water above it up to y = `water_top` when given.
fn slab(water_top: Option<i32>) -> (Grid, MaterialTable) {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    let rock = Voxel::filled(table.require("Rock").expect("rock"));
    grid.fill_box(boxed([-16, 0, -16], [16, 4, 16]), rock);
    if let Some(top) = water_top {
        let water = Voxel::filled(table.require("Water").expect("water"));
        grid.fill_box(boxed([-16, 4, -16], [16, top, 16]), water);
    }
    (grid, table)
}

fn boxed(lo: [i32; 3], hi: [i32; 3]) -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(lo[0], lo[1], lo[2]),
        VoxelPos::new(hi[0], hi[1], hi[2]),
    )
}

fn world_box() -> VoxelBox {
    boxed([-16, 0, -16], [16, 32, 16])
}

fn cube(density: f32, at: [f32; 3]) -> Body {
    let m = BodyMaterial {
        density,
        ..BodyMaterial::default()
    };
    Body::new(Shape::Box { half: [0.5; 3] }, m, at)
}

fn steps(sim: &mut Simulation, world: &mut PhysicsWorld, grid: &Grid, n: usize) {
    for _ in 0..n {
        sim.step(world, grid).expect("step");
    }
}

fn bottom(b: &Body) -> f32 {
    b.aabb().0[1]
}

#[test]
fn digging_under_a_resting_box_drops_it_and_undo_lifts_it_back() {
    let (mut grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    let id = sim.add(cube(2.0, [0.3, 6.0, 0.2])).expect("add");
    steps(&mut sim, &mut world, &grid, 240);
    assert_eq!(sim.state(id), BodyState::Asleep);
    assert!((bottom(&sim.bodies()[id]) - 4.0).abs() < 0.05);
    // Dig a pit under it, as an undoable edit.
    let mut history = History::default();
    let pit = boxed([-3, 1, -3], [4, 4, 4]);
    history.apply(&mut grid, pit, "dig", |g| g.fill_box(pit, Voxel::AIR));
    sim.on_edit(&mut world, &grid, pit).expect("edit");
    assert_eq!(sim.state(id), BodyState::Moving);
    steps(&mut sim, &mut world, &grid, 240);
    let fallen = sim.bodies()[id];
    assert!((bottom(&fallen) - 1.0).abs() < 0.05, "{fallen:?}");
    // Undo fills the pit around the box: the box is lifted back onto the ground, not left inside.
    let region = history.undo_region().expect("undo");
    history.undo(&mut grid).expect("undo");
    let lifted = sim.on_edit(&mut world, &grid, region).expect("edit");
    assert_eq!(lifted, 1);
    steps(&mut sim, &mut world, &grid, 240);
    let back = sim.bodies()[id];
    assert!((bottom(&back) - 4.0).abs() < 0.05, "{back:?}");
    assert!(sim.stats()[id].penetration < 0.05, "{:?}", sim.stats()[id]);
}

#[test]
fn raising_ground_under_a_floating_body_pushes_it_up() {
    let (mut grid, table) = slab(Some(12));
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    let id = sim.add(cube(0.5, [0.2, 14.0, -0.3])).expect("add");
    steps(&mut sim, &mut world, &grid, 720);
    let floating = sim.bodies()[id];
    assert!((floating.position[1] - 12.0).abs() < 0.5, "{floating:?}");
    assert!(sim.stats()[id].water_fraction > 0.2);
    // A dab up to the water line, which cuts through the body's lower half, then a raise that buries
    // it whole.
    for top in [12, 15] {
        let raised = boxed([-3, 4, -3], [4, top, 4]);
        grid.fill_box(raised, Voxel::filled(table.require("Rock").expect("rock")));
        sim.on_edit(&mut world, &grid, raised).expect("edit");
        steps(&mut sim, &mut world, &grid, 360);
        let b = sim.bodies()[id];
        let ground = top as f32;
        assert!((bottom(&b) - ground).abs() < 0.05, "raised to {top}: {b:?}");
        assert!(sim.stats()[id].penetration < 0.05, "{:?}", sim.stats()[id]);
    }
    assert_eq!(sim.state(id), BodyState::Asleep);
}

#[test]
fn bodies_join_a_running_simulation_and_reset_puts_them_back() {
    let (grid, table) = slab(Some(8));
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    let spec = DropSpec {
        at: [0.0, 4.0, 0.0],
        shape: ShapeChoice::Mixed,
        size: 1.0,
        density: 0.6,
        count: 6,
        spread: 4.0,
        seed: 3,
    };
    let first = drop_bodies(&mut world, &grid, &world_box(), &spec, sim.bodies()).expect("drop");
    let a = sim.add_all(&first).expect("add");
    steps(&mut sim, &mut world, &grid, 120);
    // A second drop on the same spot while the first bodies move: placed clear of them.
    let heavy = DropSpec {
        density: 3.0,
        seed: 4,
        ..spec
    };
    let second = drop_bodies(&mut world, &grid, &world_box(), &heavy, sim.bodies()).expect("drop");
    for n in &second {
        for o in sim.bodies() {
            let d = crate::vec3::length(crate::vec3::sub(n.position, o.position));
            assert!(
                d >= n.shape.bounding_radius() + o.shape.bounding_radius(),
                "{n:?} {o:?}"
            );
        }
    }
    let b = sim.add_all(&second).expect("add");
    assert_eq!((a.clone(), b.clone()), (0..6, 6..12));
    steps(&mut sim, &mut world, &grid, 1200);
    // Light ones float at the water line (y = 8), heavy ones rest on the floor (y = 4).
    for i in a {
        let p = sim.bodies()[i];
        assert!((p.position[1] - 8.0).abs() < 1.0, "light {i}: {p:?}");
    }
    for i in b {
        let p = sim.bodies()[i];
        assert!((bottom(&p) - 4.0).abs() < 0.1, "heavy {i}: {p:?}");
    }
    let status = sim.status();
    assert_eq!(status.bodies, 12);
    assert!(status.in_water >= 6 && status.lost == 0, "{status:?}");
    sim.reset();
    assert_eq!(sim.bodies(), sim.starts());
    assert_eq!(sim.steps(), 0);
    assert!(sim
        .bodies()
        .iter()
        .all(|b| !b.asleep && b.velocity == [0.0; 3]));
    sim.clear();
    assert!(sim.bodies().is_empty() && sim.status().bodies == 0);
}

#[test]
fn resting_contacts_are_there_to_draw_while_paused() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    sim.add(cube(1.0, [0.3, 6.0, 0.2])).expect("add");
    sim.add(cube(1.0, [0.3, 8.0, 0.2])).expect("add");
    steps(&mut sim, &mut world, &grid, 480);
    let mut points = Vec::new();
    sim.contact_points(&mut world, &grid, 0.05, &mut points)
        .expect("contacts");
    let ground: Vec<_> = points.iter().filter(|c| c.other.is_none()).collect();
    let stacked: Vec<_> = points.iter().filter(|c| c.other.is_some()).collect();
    // One manifold of up to 4 points per physics cell the box's bottom spans.
    assert!((4..=16).contains(&ground.len()), "{points:?}");
    assert!(!stacked.is_empty(), "{points:?} {:?}", sim.bodies());
    for c in ground {
        assert_eq!(c.body, 0);
        assert!(
            (c.point[1] - 4.0).abs() < 0.05 && c.normal[1] > 0.99,
            "{c:?}"
        );
    }
    for c in stacked {
        assert_eq!((c.body, c.other), (0, Some(1)));
        assert!(
            (c.point[1] - 5.0).abs() < 0.05 && c.normal[1] < -0.99,
            "{c:?}"
        );
    }
}

#[test]
fn real_time_play_runs_the_steps_owed_within_the_budget() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    sim.add(cube(1.0, [0.0, 10.0, 0.0])).expect("add");
    let roomy = Duration::from_secs(1);
    let a = sim
        .advance(&mut world, &grid, 1.0 / 60.0, roomy)
        .expect("play");
    assert_eq!((a.steps, a.dropped_seconds), (2, 0.0));
    // A long hitch is not caught up in one frame.
    let a = sim.advance(&mut world, &grid, 5.0, roomy).expect("play");
    assert_eq!(a.steps, 30);
    // No budget at all: nothing runs and the owed time is dropped (the simulation slows).
    let a = sim
        .advance(&mut world, &grid, 1.0 / 30.0, Duration::ZERO)
        .expect("play");
    assert_eq!(a.steps, 0);
    assert!(a.dropped_seconds > 0.0);
    assert_eq!(sim.steps(), 32);
}

#[test]
fn bad_input_is_an_error_never_a_body() {
    let (grid, table) = slab(Some(8));
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let bounds = world_box();
    let good = DropSpec {
        at: [0.0, 4.0, 0.0],
        ..DropSpec::default()
    };
    let bad = [
        (
            "outside",
            DropSpec {
                at: [500.0, 4.0, 0.0],
                ..good
            },
        ),
        (
            "below",
            DropSpec {
                at: [0.0, -50.0, 0.0],
                ..good
            },
        ),
        (
            "far above",
            DropSpec {
                at: [0.0, 1e6, 0.0],
                ..good
            },
        ),
        (
            "nan point",
            DropSpec {
                at: [f32::NAN, 4.0, 0.0],
                ..good
            },
        ),
        ("size 0", DropSpec { size: 0.0, ..good }),
        (
            "size nan",
            DropSpec {
                size: f32::NAN,
                ..good
            },
        ),
        (
            "huge",
            DropSpec {
                size: 1000.0,
                ..good
            },
        ),
        (
            "negative density",
            DropSpec {
                density: -1.0,
                ..good
            },
        ),
        (
            "zero density",
            DropSpec {
                density: 0.0,
                ..good
            },
        ),
        (
            "inf density",
            DropSpec {
                density: f32::INFINITY,
                ..good
            },
        ),
        (
            "10000 bodies",
            DropSpec {
                count: 10_000,
                ..good
            },
        ),
        ("no bodies", DropSpec { count: 0, ..good }),
        (
            "negative spread",
            DropSpec {
                spread: -2.0,
                ..good
            },
        ),
    ];
    for (what, spec) in bad {
        let e = drop_bodies(&mut world, &grid, &bounds, &spec, &[]).expect_err(what);
        assert!(!e.to_string().is_empty(), "{what}");
    }
    let mut msg = |s: DropSpec| {
        drop_bodies(&mut world, &grid, &bounds, &s, &[])
            .expect_err("bad")
            .to_string()
    };
    assert!(msg(DropSpec {
        at: [500.0, 4.0, 0.0],
        ..good
    })
    .contains("outside the world"));
    assert!(msg(DropSpec {
        density: -1.0,
        ..good
    })
    .contains("density -1"));
    assert!(msg(DropSpec {
        count: 10_000,
        ..good
    })
    .contains("500"));
    assert!(msg(DropSpec { size: 0.0, ..good }).contains("size"));
    let rain = RainSpec::default();
    for bad in [
        RainSpec {
            min: [100.0, 100.0],
            max: [200.0, 200.0],
            ..rain
        },
        RainSpec {
            min: [5.0, 0.0],
            max: [0.0, 5.0],
            ..rain
        },
        RainSpec {
            sizes: [2.0, 1.0],
            ..rain
        },
        RainSpec {
            densities: [-1.0, 1.0],
            ..rain
        },
        RainSpec {
            count: 10_000,
            ..rain
        },
    ] {
        assert!(
            rain_bodies(&mut world, &grid, &bounds, &bad, &[]).is_err(),
            "{bad:?}"
        );
    }
    // A simulation refuses broken bodies and more than its cap, all or nothing.
    let mut sim = Simulation::new(&table, SimSettings::default());
    let mut nan = cube(1.0, [0.0, 6.0, 0.0]);
    nan.velocity[1] = f32::NAN;
    assert!(sim.add(nan).is_err());
    let mut fast = cube(1.0, [0.0, 6.0, 0.0]);
    fast.velocity[0] = 1e9;
    assert!(sim.add(fast).is_err());
    assert!(Body::checked(
        Shape::Sphere { radius: 0.0 },
        BodyMaterial::default(),
        [0.0; 3]
    )
    .is_err());
    let many = vec![cube(1.0, [0.0, 6.0, 0.0]); MAX_SIM_BODIES + 1];
    assert!(sim.add_all(&many).is_err());
    assert!(sim.bodies().is_empty());
    let bad_settings = SimSettings {
        dt: -1.0,
        ..SimSettings::default()
    };
    assert!(bad_settings.check().is_err());
    // A valid rain over part of the world lands inside it.
    let bodies = rain_bodies(
        &mut world,
        &grid,
        &bounds,
        &RainSpec {
            min: [-8.0, -8.0],
            max: [8.0, 8.0],
            count: 20,
            ..rain
        },
        &[],
    )
    .expect("rain");
    assert_eq!(bodies.len(), 20);
    assert!(bodies
        .iter()
        .all(|b| b.position[0].abs() <= 8.0 && b.position[1] > 4.0));
}

#[test]
fn bodies_that_leave_the_world_are_lost_not_falling_forever() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let settings = SimSettings {
        floor_y: Some(0.0),
        ..SimSettings::default()
    };
    let mut sim = Simulation::new(&table, settings);
    let on = sim.add(cube(1.0, [0.0, 6.0, 0.0])).expect("add");
    let off = sim.add(cube(1.0, [40.0, 6.0, 0.0])).expect("add");
    steps(&mut sim, &mut world, &grid, 600);
    assert_eq!(sim.state(on), BodyState::Asleep);
    assert_eq!(sim.state(off), BodyState::Lost(Lost::FellOut));
    let y = sim.bodies()[off].position[1];
    assert!(y < -FALL_LIMIT && y > -FALL_LIMIT - 10.0, "{y}");
    steps(&mut sim, &mut world, &grid, 10);
    assert_eq!(sim.bodies()[off].position[1], y, "a lost body stays put");
    assert_eq!(sim.status().lost, 1);
}

#[test]
fn a_sleeper_woken_by_one_body_is_movable_in_every_constraint_of_the_substep() {
    let (grid, table) = slab(None);
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut sim = Simulation::new(&table, SimSettings::default());
    // A sleeping ball between a slow box (sorted first along X) and a fast ball.
    let slow = sim.add(cube(1.0, [-1.0, 4.5, 0.0])).expect("add");
    let ball = |x: f32| {
        let m = BodyMaterial::default();
        Body::new(Shape::Sphere { radius: 0.5 }, m, [x, 4.5, 0.0])
    };
    let sleeper = sim.add(ball(0.0)).expect("add");
    let fast = sim.add(ball(1.0)).expect("add");
    sim.bodies[sleeper].asleep = true;
    sim.bodies[fast].velocity = [-3.0, 0.0, 0.0];
    let h = sim.settings.dt;
    sim.masses.clear();
    sim.masses.extend(sim.bodies.iter().map(|b| Mass {
        inv_mass: if b.asleep { 0.0 } else { b.inv_mass },
        inv_inertia_scale: if b.asleep { 0.0 } else { 1.0 },
    }));
    sim.constraints.clear();
    sim.body_contacts(h, 9.81);
    assert!(!sim.bodies[sleeper].asleep, "the fast ball wakes it");
    let with_slow = sim
        .constraints
        .iter()
        .filter(|c| c.a == slow && c.b == Some(sleeper))
        .count();
    assert!(with_slow > 0, "the slow box touches it");
    for c in &sim.constraints {
        assert!(
            c.mass_matches(&sim.bodies, &sim.masses),
            "{}",
            c.describe(&sim.bodies)
        );
    }
    steps(&mut sim, &mut world, &grid, 1);
}
