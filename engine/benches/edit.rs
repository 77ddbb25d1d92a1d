//! One brush dab as the editor runs it in a frame, on the 256×128×256 `canyons` world (seed 1).
//!
//! A frame with a dab does: `apply_dab` (radius 8, strength 1) at a surface point found by a
//! downward raycast, remesh every chunk `dirty_chunks` names (LOD 0, `mesh_chunk` into reusable
//! `MeshBuffer`s, one buffer per chunk), and `PhysicsWorld::on_edit`. The goal
//! is a median of at most 16 ms (one frame at 60 Hz).
//!
//! Each iteration first restores the voxels around the dab (outside the timing), so every dab does the
//! same work instead of converging to a no-op. Two points are measured: the middle of a chunk column
//! and a chunk corner (x = z = 128), where the dab's box plus the mesher border spans up to eight
//! chunks (the worst case for this radius).
//!
//! Remeshing runs both serially and with rayon (`par_iter_mut` over the buffers): on a machine
//! shared by many processes, waking the pool can cost more than meshing two chunks, so both are shown.
//! A figure table (medians of 60 runs per stage, the slowest serial frame of the 30, and the next
//! hover raycast, which rebuilds the physics shapes the edit invalidated) is printed before the
//! criterion groups. The editor meshes up to eight dirty chunks serially, so "frame serial" is the
//! editor's frame.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use rayon::prelude::*;
use strata_engine::mesh::{mesh_chunk, MeshBuffer};
use strata_engine::physics::{PhysicsWorld, DEFAULT_CACHE_BYTES};
use strata_engine::storage::Grid;
use strata_engine::tools::{apply_dab, dirty_chunks, Brush, BrushShape, Tool, ToolKind};
use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};

struct Scene {
    grid: Grid,
    table: MaterialTable,
    physics: PhysicsWorld,
    buffers: Vec<MeshBuffer>,
}

/// Where a dab lands: the surface under `(x, z)`, and the voxels to restore around it.
struct Spot {
    name: &'static str,
    hit: [f32; 3],
    keep: VoxelBox,
    saved: Vec<Voxel>,
}

const RADIUS: f32 = 8.0;

fn scene() -> Scene {
    let grid = common::canyons(common::timing_size());
    let table = MaterialTable::builtin();
    let physics = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    Scene {
        grid,
        table,
        physics,
        buffers: Vec::new(),
    }
}

fn spot(s: &mut Scene, name: &'static str, x: f32, z: f32) -> Spot {
    let hit = s
        .physics
        .raycast(&s.grid, [x, 400.0, z], [0.0, -1.0, 0.0], 1000.0)
        .expect("valid ray")
        .expect("the world has ground everywhere")
        .point;
    let r = RADIUS as i32 + 3;
    let c = hit.map(|v| v.floor() as i32);
    let keep = VoxelBox::new(
        VoxelPos::new(c[0] - r, c[1] - r, c[2] - r),
        VoxelPos::new(c[0] + r + 1, c[1] + r + 1, c[2] + r + 1),
    );
    let saved = s.grid.read_box_vec(keep);
    Spot {
        name,
        hit,
        keep,
        saved,
    }
}

fn tool(kind: ToolKind, table: &MaterialTable) -> Tool {
    let material = match kind {
        ToolKind::Paint => table.require("Snow"),
        _ => table.require("Grass"),
    };
    Tool::new(kind, material.expect("builtin material"))
}

/// Stage times of one frame.
#[derive(Default, Clone, Copy)]
struct Stages {
    dab: Duration,
    remesh: Duration,
    physics: Duration,
    chunks: usize,
}

impl Stages {
    fn total(&self) -> Duration {
        self.dab + self.remesh + self.physics
    }
}

/// Put the spot's voxels back (untimed part of every iteration).
fn restore(s: &mut Scene, sp: &Spot) {
    s.grid.write_box(sp.keep, &sp.saved);
    s.physics.on_edit(&s.grid, sp.keep);
}

fn remesh(s: &mut Scene, dirty: &[ChunkPos], parallel: bool) {
    if s.buffers.len() < dirty.len() {
        s.buffers.resize_with(dirty.len(), MeshBuffer::new);
    }
    let (grid, table) = (&s.grid, &s.table);
    let buffers = &mut s.buffers[..dirty.len()];
    if parallel {
        buffers
            .par_iter_mut()
            .zip(dirty.par_iter())
            .for_each(|(buf, &c)| {
                mesh_chunk(grid, c, 0, table, buf).expect("lod 0");
            });
    } else {
        for (buf, &c) in buffers.iter_mut().zip(dirty) {
            mesh_chunk(grid, c, 0, table, buf).expect("lod 0");
        }
    }
}

/// One frame: dab, remesh, physics. Returns the stage times.
fn frame(s: &mut Scene, sp: &Spot, tool: &Tool, brush: &Brush, parallel: bool) -> Stages {
    let t0 = Instant::now();
    let changed = apply_dab(&mut s.grid, &s.table, tool, brush, sp.hit);
    let t1 = Instant::now();
    let Some(changed) = changed else {
        return Stages {
            dab: t1 - t0,
            ..Stages::default()
        };
    };
    let dirty = dirty_chunks(changed);
    remesh(s, &dirty, parallel);
    let t2 = Instant::now();
    s.physics.on_edit(&s.grid, changed);
    let t3 = Instant::now();
    Stages {
        dab: t1 - t0,
        remesh: t2 - t1,
        physics: t3 - t2,
        chunks: dirty.len(),
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_figures(s: &mut Scene, spots: &[Spot], brush: &Brush) {
    const RUNS: usize = 60;
    println!(
        "\nedit: radius-8 dab + remesh of dirty chunks + PhysicsWorld::on_edit (median of {RUNS})"
    );
    let header = |cells: [&str; 11]| {
        println!(
            "{:<7} {:<7} {:>6} {:>7} {:>10} {:>10} {:>8} {:>10} {:>10} {:>10} {:>8}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            cells[6],
            cells[7],
            cells[8],
            cells[9],
            cells[10]
        );
    };
    header([
        "spot", "tool", "chunks", "dab", "remesh", "remesh", "physics", "frame", "frame", "frame",
        "hover",
    ]);
    header([
        "",
        "",
        "",
        "ms",
        "serial ms",
        "rayon ms",
        "ms",
        "serial ms",
        "ser. worst",
        "rayon ms",
        "ray ms",
    ]);
    for sp in spots {
        for kind in [ToolKind::Add, ToolKind::Smooth, ToolKind::Paint] {
            let t = tool(kind, &s.table);
            let mut serial = Vec::new();
            let mut par = Vec::new();
            let mut hover = Vec::new();
            let mut chunks = 0;
            for k in 0..RUNS {
                restore(s, sp);
                let st = frame(s, sp, &t, brush, k % 2 == 1);
                chunks = chunks.max(st.chunks);
                if k % 2 == 1 {
                    par.push(st);
                } else {
                    serial.push(st);
                }
                // The next frame's hover raycast rebuilds the invalidated physics shapes.
                let h0 = Instant::now();
                let above = [sp.hit[0] + 0.3, sp.hit[1] + 40.0, sp.hit[2] - 0.2];
                black_box(
                    s.physics
                        .raycast(&s.grid, above, [0.0, -1.0, 0.0], 100.0)
                        .ok(),
                );
                hover.push(h0.elapsed());
            }
            let m = |v: &[Stages], f: fn(&Stages) -> Duration| median(v.iter().map(f).collect());
            let worst = serial.iter().map(Stages::total).max().unwrap_or_default();
            println!(
                "{:<7} {:<7} {:>6} {:>7.2} {:>10.2} {:>10.2} {:>8.3} {:>10.2} {:>10.2} {:>10.2} {:>8.2}",
                sp.name,
                kind.name(),
                chunks,
                ms(m(&serial, |x| x.dab)),
                ms(m(&serial, |x| x.remesh)),
                ms(m(&par, |x| x.remesh)),
                ms(m(&serial, |x| x.physics)),
                ms(m(&serial, Stages::total)),
                ms(worst),
                ms(m(&par, Stages::total)),
                ms(median(hover)),
            );
        }
    }
    restore(s, &spots[0]);
    restore(s, &spots[1]);
}

fn bench(c: &mut Criterion) {
    let mut s = scene();
    let spots = [
        spot(&mut s, "middle", 144.3, 143.6),
        spot(&mut s, "corner", 128.2, 127.7),
    ];
    let brush = Brush::new(BrushShape::Sphere, 2.0 * RADIUS, 1.0);
    print_figures(&mut s, &spots, &brush);
    let mut group = c.benchmark_group("edit_frame");
    for sp in &spots {
        for kind in [ToolKind::Add, ToolKind::Smooth, ToolKind::Paint] {
            let t = tool(kind, &s.table);
            for (mode, parallel) in [("serial", false), ("rayon", true)] {
                let name = format!("{}_{}_r8_{mode}", kind.name().to_lowercase(), sp.name);
                group.bench_function(name, |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            restore(&mut s, sp);
                            total += frame(&mut s, sp, &t, &brush, parallel).total();
                        }
                        total
                    });
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
