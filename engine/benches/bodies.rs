//! Rigid-body benches on the 256×128×256 `canyons` world (seed 1).
//!
//! - `drop_steps/N`: the first simulated second (120 fixed steps) of a drop of N mixed bodies over the
//!   whole world, from placement: falling, landing, settling. Throughput is in steps, so criterion's
//!   elements/s is steps per second. The narrowphase cache stays warm across iterations.
//! - `editor_frame/64`: the editor's frame budget. 64 mixed bodies rained over a 48×48 patch play in
//!   real time while the terrain under them is edited: each iteration is one 60 Hz frame, that is a
//!   hover raycast, one radius-3 dab (Add and Subtract in turn, at spots spread over the patch)
//!   reported through `Simulation::on_edit`, and the two fixed steps the frame owes. Real time on
//!   one core means a frame under 16.7 ms; the summary prints the ratio.
//! - `box_triangle`: box–triangle contacts on terrain triangles: strata's SAT + clipping (a manifold of
//!   up to 4 points) against `parry3d::query::contact` (GJK/EPA, one deepest point) on the same poses.
//!
//! Before the groups, one full 10 s drop of 64 bodies and 600 editor frames are timed and summarized.

mod common;

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry3d::math::{Pose, Rot3, Vector};
use parry3d::shape::{Cuboid, Triangle};
use strata_engine::physics::body::drop::place_bodies;
use strata_engine::physics::body::math::{axes, quat_from_axis_angle};
use strata_engine::physics::body::sat::{box_contacts, BoxGeom, Other};
use strata_engine::physics::body::{
    rain_bodies, run_drop, Body, DropSettings, RainSpec, SimSettings, Simulation,
};
use strata_engine::physics::{PhysicsWorld, DEFAULT_CACHE_BYTES};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::tools::{apply_dab, Brush, Tool, ToolKind};
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

fn drop_settings(count: usize) -> DropSettings {
    DropSettings {
        count,
        seconds: 1.0,
        ..DropSettings::default()
    }
}

fn first_second(
    world: &mut PhysicsWorld,
    grid: &Grid,
    table: &MaterialTable,
    bodies: &[Body],
) -> u64 {
    let mut sim = Simulation::new(table, SimSettings::default());
    for b in bodies {
        sim.add(*b).expect("add");
    }
    let mut substeps = 0;
    for _ in 0..120 {
        substeps += sim.step(world, grid).expect("step").substeps as u64;
    }
    substeps
}

/// The editor scene: 64 bodies rained over the middle of the world, landed for one second.
struct Editing {
    sim: Simulation,
    frame: u64,
    tools: [Tool; 2],
    brush: Brush,
}

fn editing(world: &mut PhysicsWorld, grid: &Grid, table: &MaterialTable) -> Editing {
    let bounds = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), common::timing_size());
    let rain = RainSpec {
        min: [104.0, 104.0],
        max: [152.0, 152.0],
        count: 64,
        ..RainSpec::default()
    };
    let bodies = rain_bodies(world, grid, &bounds, &rain, &[]).expect("rain");
    let mut sim = Simulation::new(table, SimSettings::default());
    sim.add_all(&bodies).expect("add");
    for _ in 0..120 {
        sim.step(world, grid).expect("step");
    }
    let grass = table.require("Grass").expect("grass");
    Editing {
        sim,
        frame: 0,
        tools: [
            Tool::new(ToolKind::Add, grass),
            Tool::new(ToolKind::Subtract, grass),
        ],
        brush: Brush::default(),
    }
}

/// One 60 Hz frame of play while editing: hover ray, dab, `on_edit`, two fixed steps.
fn editor_frame(e: &mut Editing, world: &mut PhysicsWorld, grid: &mut Grid, table: &MaterialTable) {
    let k = e.frame;
    e.frame += 1;
    // Spots spread over the patch; each spot gets Add, then (next visit) Subtract.
    let (x, z) = (
        106.0 + ((k / 2) * 7 % 44) as f32,
        106.0 + ((k / 2) * 13 % 44) as f32,
    );
    let hit = world
        .raycast(grid, [x, 200.0, z], [0.0, -1.0, 0.0], 400.0)
        .expect("ray");
    if let Some(hit) = hit {
        let tool = &e.tools[(k % 2) as usize];
        if let Some(changed) = apply_dab(grid, table, tool, &e.brush, hit.point) {
            e.sim.on_edit(world, grid, changed).expect("edit");
        }
    }
    for _ in 0..2 {
        e.sim.step(world, grid).expect("step");
    }
}

/// (box, triangle) pairs: boxes of 0.5..1 half extents sitting on terrain triangles, gaps −0.2..0.2.
fn contact_cases(world: &mut PhysicsWorld, grid: &Grid) -> Vec<(BoxGeom, [[f32; 3]; 3])> {
    let mut tris = Vec::new();
    world
        .solid_triangles_in(grid, [64.0, 0.0, 64.0], [96.0, 128.0, 96.0], &mut tris)
        .expect("triangles");
    let mut out = Vec::new();
    for (i, t) in tris.iter().enumerate().step_by(7).take(2000) {
        let c: [f32; 3] = std::array::from_fn(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
        let f = i as f32;
        let q = quat_from_axis_angle([0.6, 0.0, 0.8], (f * 0.37) % std::f32::consts::TAU);
        let half = [0.5 + (f * 0.13) % 0.5, 0.5, 0.5 + (f * 0.29) % 0.5];
        let lift = 0.5 + ((f * 0.71) % 0.4 - 0.2);
        out.push((
            BoxGeom {
                center: [c[0], c[1] + lift, c[2]],
                axes: axes(q),
                half,
            },
            *t,
        ));
    }
    out
}

fn bench(c: &mut Criterion) {
    let grid = common::canyons(common::timing_size());
    let table = MaterialTable::builtin();
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);

    // One full drop, timed once.
    let full = DropSettings {
        count: 64,
        ..DropSettings::default()
    };
    let t = Instant::now();
    let r = run_drop(&mut world, &grid, &table, &full, &Progress::new()).expect("drop");
    let secs = t.elapsed().as_secs_f64();
    let rest = r.bodies.iter().filter(|b| b.at_rest).count();
    let pen = r
        .bodies
        .iter()
        .map(|b| b.max_penetration / b.size)
        .fold(0.0f32, f32::max);
    println!(
        "drop 64 mixed, 10 s: {} steps, {} substeps in {:.3} s -> {:.0} steps/s ({:.1}x real time); \
         {rest}/64 at rest, max penetration {:.2}% of size",
        r.steps,
        r.substeps,
        secs,
        r.steps as f64 / secs,
        r.seconds / secs,
        pen * 100.0
    );

    // 600 editor frames (10 s of play), timed once.
    let mut scene_grid = grid.clone();
    let mut scene_world = PhysicsWorld::new(&scene_grid, &table, DEFAULT_CACHE_BYTES);
    let mut e = editing(&mut scene_world, &scene_grid, &table);
    let mut frames: Vec<f64> = (0..600)
        .map(|_| {
            let t = Instant::now();
            editor_frame(&mut e, &mut scene_world, &mut scene_grid, &table);
            t.elapsed().as_secs_f64()
        })
        .collect();
    frames.sort_by(f64::total_cmp);
    let (median, p95, worst) = (frames[300], frames[570], frames[599]);
    let status = e.sim.status();
    println!(
        "editor frames, 64 bodies + a radius-3 dab per frame + 2 steps: median {:.2} ms, 95th          percentile {:.2} ms, worst {:.2} ms -> {:.1}x real time at the median on one core ({}/{}          asleep at the end, {} lost)",
        median * 1e3,
        p95 * 1e3,
        worst * 1e3,
        (1.0 / 60.0) / median,
        status.asleep,
        status.bodies,
        status.lost
    );

    let mut g = c.benchmark_group("drop_steps");
    g.sample_size(10);
    g.throughput(Throughput::Elements(120));
    for n in [16usize, 64, 256] {
        let bodies = place_bodies(&mut world, &grid, &drop_settings(n)).expect("place");
        g.bench_function(format!("{n}"), |b| {
            b.iter(|| black_box(first_second(&mut world, &grid, &table, &bodies)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("editor_frame");
    g.sample_size(20);
    g.throughput(Throughput::Elements(2));
    let mut scene_grid = grid.clone();
    let mut scene_world = PhysicsWorld::new(&scene_grid, &table, DEFAULT_CACHE_BYTES);
    let mut e = editing(&mut scene_world, &scene_grid, &table);
    g.bench_function("64", |b| {
        b.iter(|| editor_frame(&mut e, &mut scene_world, &mut scene_grid, &table))
    });
    g.finish();

    let cases = contact_cases(&mut world, &grid);
    let mut g = c.benchmark_group("box_triangle");
    g.throughput(Throughput::Elements(cases.len() as u64));
    let mut out = Vec::new();
    g.bench_function("strata_sat_manifold", |b| {
        b.iter(|| {
            let mut n = 0;
            for (geom, t) in &cases {
                out.clear();
                box_contacts(geom, &Other::Triangle(*t), 0.05, &mut out);
                n += out.len();
            }
            black_box(n)
        })
    });
    let parry: Vec<(Pose, Cuboid, Triangle)> = cases
        .iter()
        .map(|(geom, t)| {
            let m = [geom.axes[0], geom.axes[1], geom.axes[2]];
            let rot = Rot3::from_mat3(&parry3d::glamx::Mat3::from_cols(
                Vector::from(m[0]),
                Vector::from(m[1]),
                Vector::from(m[2]),
            ));
            (
                Pose::from_parts(Vector::from(geom.center), rot),
                Cuboid::new(Vector::from(geom.half)),
                Triangle::new(Vector::from(t[0]), Vector::from(t[1]), Vector::from(t[2])),
            )
        })
        .collect();
    let identity = Pose::IDENTITY;
    g.bench_function("parry3d_contact", |b| {
        b.iter(|| {
            let mut n = 0;
            for (pose, cube, tri) in &parry {
                if let Ok(Some(_)) = parry3d::query::contact(pose, cube, &identity, tri, 0.05) {
                    n += 1;
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
