//! Voxel detail enhancement on the default world (`hills` 256×96×256, seed 1).
//!
//! Printed before the criterion groups (medians; ratios are within one run):
//! - **Kernel**: recursive subdivision of one 32³ chunk (plus its 2-voxel border) on one thread, in
//!   output fragments per second: the fast kernel (AVX2 where the processor has it), the portable
//!   table kernel and their scalar twin, against plain nearest-neighbour upsampling of the same chunk
//!   into the same byte volume (the peer: each row widened once, then copied). Three chunks: the
//!   surface chunk with the most surface voxels, a chunk of 50 % random noise (almost no cell sits in
//!   a uniform window) and, at 4 levels, the surface chunk again; then every stored chunk.
//! - **Surface only vs full volume** at 2 and 4 levels: `Enhanced::build` (surface voxels only, stored
//!   sparsely) against `Enhancer::enhance_dense` of every voxel of the same chunks (every fragment
//!   computed; its memory is what the fragments take at one byte each, the raw form; a bit each would
//!   be an eighth). Both use rayon over chunks.
//! - **Incremental update** after a radius-4 Add dab at a surface point, at 2 levels: the time of
//!   `Enhanced::update` for the dab's changed box (goal ≤ 16 ms).
//!
//! `STRATA_BENCH_QUICK=1` skips the 4-level full-volume pass (about 26 G fragments).
//! `STRATA_ENHANCE_PROFILE=table|noise|nearest|all|build|update` runs only that work (for a profiler;
//! `all` is every stored chunk) and skips everything else; `STRATA_ENHANCE_PROFILE=kernel` prints
//! only the kernel figures.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use strata_engine::enhance::{Enhanced, Enhancer, Kernel, Method, SubdivideParams};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::tools::{apply_dab, Brush, Tool, ToolKind};
use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};

fn default_world() -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: [256, 96, 256],
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

fn subdivide(levels: u32) -> Method {
    Method::Subdivide(SubdivideParams {
        levels,
        ..SubdivideParams::default()
    })
}

/// The padded cells (chunk + 2) of `pos`.
fn chunk_cells(e: &Enhancer, grid: &Grid, pos: ChunkPos) -> (Vec<u8>, [usize; 3], i32) {
    let b = pos.voxel_box();
    let g = VoxelBox::new(
        VoxelPos::new(b.min.x - 2, b.min.y - 2, b.min.z - 2),
        VoxelPos::new(b.max.x + 2, b.max.y + 2, b.max.z + 2),
    );
    let mut voxels = Vec::new();
    let mut cells = Vec::new();
    e.gather(grid, g, &mut voxels, &mut cells);
    (cells, [36; 3], g.min.y)
}

/// The chunk with the most voxels whose 3×3×3 window is not uniform.
fn surface_chunk(e: &Enhancer, grid: &Grid) -> ChunkPos {
    let mut best = (0, ChunkPos::new(0, 0, 0));
    for pos in grid.sorted_positions() {
        let (cells, d, _) = chunk_cells(e, grid, pos);
        let solid = |x: usize, y: usize, z: usize| cells[(z * d[1] + y) * d[0] + x] != 0;
        let mut n = 0;
        for z in 2..34 {
            for y in 2..34 {
                for x in 2..34 {
                    let c = solid(x, y, z);
                    let mixed = (z - 1..=z + 1).any(|zz| {
                        (y - 1..=y + 1).any(|yy| (x - 1..=x + 1).any(|xx| solid(xx, yy, zz) != c))
                    });
                    n += usize::from(mixed);
                }
            }
        }
        if n > best.0 {
            best = (n, pos);
        }
    }
    best.1
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn times(runs: usize, mut f: impl FnMut()) -> Vec<Duration> {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect()
}

/// Median wall time of `runs`.
fn time(runs: usize, f: impl FnMut()) -> Duration {
    median(times(runs, f))
}

/// Fastest of `runs`: on a shared machine the run least disturbed by other processes.
fn best(runs: usize, f: impl FnMut()) -> Duration {
    times(runs, f).into_iter().min().unwrap_or_default()
}

fn kernel_figures(grid: &Grid, table: &MaterialTable) {
    let fast_kernel = Kernel::best();
    println!(
        "\nsubdivision kernel, one thread: output fragments/s (best of 15; 9 at 4 levels); \
         fast = {fast_kernel:?}, table = the portable kernel"
    );
    println!(
        "{:<28} {:>10} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}",
        "chunk",
        "fragments",
        "fast G/s",
        "table",
        "scalar",
        "nearest",
        "÷nearest",
        "table ÷",
        "÷scalar"
    );
    let e2 = Enhancer::new(&subdivide(2), table).expect("valid");
    let e4 = Enhancer::new(&subdivide(4), table).expect("valid");
    let pos = surface_chunk(&e2, grid);
    let (surface, dims, y0) = chunk_cells(&e2, grid, pos);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let noise: Vec<u8> = (0..surface.len())
        .map(|_| if rng.random_bool(0.5) { 7 } else { 0 })
        .collect();
    let mut out = Vec::new();
    for (name, e, cells, runs) in [
        (
            format!("surface ({},{},{}), 2 levels", pos.x, pos.y, pos.z),
            &e2,
            &surface,
            15,
        ),
        ("50 % noise, 2 levels".to_string(), &e2, &noise, 15),
        ("surface, 4 levels".to_string(), &e4, &surface, 9),
    ] {
        let with = |k: Kernel, out: &mut Vec<u8>| {
            best(runs, || e.subdivide_cells_with(k, cells, dims, y0, out))
        };
        let fast = with(fast_kernel, &mut out);
        let n = out.len() as f64;
        let portable = with(Kernel::Table, &mut out);
        let scalar = with(Kernel::Scalar, &mut out);
        let nearest = best(runs, || e.upsample_cells(cells, dims, &mut out));
        let g = |d: Duration| n / d.as_secs_f64() / 1e9;
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        println!(
            "{:<28} {:>10} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>7.2}× {:>7.2}× {:>7.2}×",
            name,
            n,
            g(fast),
            g(portable),
            g(scalar),
            g(nearest),
            ratio(fast, nearest),
            ratio(portable, nearest),
            ratio(fast, scalar),
        );
    }
    // Every stored chunk of the world, each side at its best of 5, summed.
    let (mut fast, mut portable, mut nearest, mut n) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0usize);
    for pos in grid.sorted_positions() {
        let (cells, dims, y0) = chunk_cells(&e2, grid, pos);
        fast += best(5, || {
            e2.subdivide_cells_with(fast_kernel, &cells, dims, y0, &mut out)
        });
        n += out.len();
        portable += best(5, || {
            e2.subdivide_cells_with(Kernel::Table, &cells, dims, y0, &mut out)
        });
        nearest += best(5, || e2.upsample_cells(&cells, dims, &mut out));
    }
    let g = |d: Duration| n as f64 / d.as_secs_f64() / 1e9;
    println!(
        "{:<28} {:>10} {:>9.2} {:>9.2} {:>9} {:>9.2} {:>7.2}× {:>7.2}×",
        format!("all {} chunks, 2 levels", grid.chunk_count()),
        n,
        g(fast),
        g(portable),
        "",
        g(nearest),
        fast.as_secs_f64() / nearest.as_secs_f64(),
        portable.as_secs_f64() / nearest.as_secs_f64(),
    );
}

fn volume_figures(grid: &Grid, table: &MaterialTable) {
    let quick = std::env::var_os("STRATA_BENCH_QUICK").is_some();
    println!("\nsurface only vs full volume, hills 256×96×256 seed 1 (rayon, 2 cores)");
    println!(
        "{:<7} {:>12} {:>14} {:>12} {:>16} {:>8} {:>10} {:>8}",
        "levels",
        "surface ms",
        "surface bytes",
        "full ms",
        "full bytes",
        "time ÷",
        "memory ÷",
        "blocks"
    );
    for levels in [2, 4] {
        let method = subdivide(levels);
        // The same chunks on both sides: those that can hold surface (stored chunks and neighbours).
        let chunks = Enhanced::new(table, &method, None)
            .expect("valid")
            .chunks_to_compute(grid);
        let runs = if levels == 2 { 5 } else { 3 };
        let mut e = None;
        let surface = time(runs, || {
            e = Some(
                Enhanced::build(grid, table, &method, None, &Progress::new()).expect("builds"),
            );
        });
        let stats = e.expect("built").stats();
        let f = 1usize << levels;
        let full_bytes = chunks.len() * 32 * 32 * 32 * f * f * f;
        let (full_ms, ratio) = if levels == 4 && quick {
            (f64::NAN, f64::NAN)
        } else {
            let enhancer = Enhancer::new(&method, table).expect("valid");
            let full = time(if levels == 2 { 3 } else { 1 }, || {
                chunks.par_iter().for_each_init(Vec::new, |buf, &pos| {
                    enhancer.enhance_dense(grid, pos.voxel_box(), buf);
                    black_box(&buf[..]);
                });
            });
            (
                full.as_secs_f64() * 1e3,
                full.as_secs_f64() / surface.as_secs_f64(),
            )
        };
        println!(
            "{:<7} {:>12.1} {:>14} {:>12.1} {:>16} {:>7.1}× {:>9.0}× {:>8}",
            levels,
            surface.as_secs_f64() * 1e3,
            stats.memory_bytes,
            full_ms,
            full_bytes,
            ratio,
            full_bytes as f64 / stats.memory_bytes as f64,
            stats.blocks,
        );
    }
}

/// Where a radius-4 dab lands: the top of the column at (x, z), and the voxels around it to restore.
struct Spot {
    centre: [f32; 3],
    keep: VoxelBox,
    saved: Vec<Voxel>,
}

fn spot(grid: &Grid, x: i32, z: i32) -> Spot {
    let top = (0..96)
        .rev()
        .find(|&y| !grid.get(VoxelPos::new(x, y, z)).is_air())
        .unwrap_or(0);
    let keep = VoxelBox::new(
        VoxelPos::new(x - 8, top - 8, z - 8),
        VoxelPos::new(x + 9, top + 9, z + 9),
    );
    Spot {
        centre: [x as f32 + 0.5, top as f32 + 1.0, z as f32 + 0.5],
        keep,
        saved: grid.read_box_vec(keep),
    }
}

/// One timed incremental update after a dab (the restore and its update are not timed).
fn dab_update(grid: &mut Grid, e: &mut Enhanced, table: &MaterialTable, sp: &Spot) -> Duration {
    grid.write_box(sp.keep, &sp.saved);
    e.update(grid, sp.keep);
    let tool = Tool::new(ToolKind::Add, table.require("Grass").expect("grass"));
    let brush = Brush {
        size: 8.0,
        ..Brush::default()
    };
    let changed = apply_dab(grid, table, &tool, &brush, sp.centre).expect("the dab changes voxels");
    let t = Instant::now();
    black_box(e.update(grid, changed));
    t.elapsed()
}

fn update_figures(grid: &mut Grid, table: &MaterialTable) {
    println!("\nincremental update after a radius-4 Add dab (median of 40)");
    for levels in [2, 4] {
        let mut e = Enhanced::build(grid, table, &subdivide(levels), None, &Progress::new())
            .expect("builds");
        for (name, x, z) in [("mid-chunk", 80, 80), ("chunk corner", 128, 128)] {
            let sp = spot(grid, x, z);
            let t = median(
                (0..40)
                    .map(|_| dab_update(grid, &mut e, table, &sp))
                    .collect(),
            );
            println!(
                "{levels} levels, {name:<13} {:>8.2} ms",
                t.as_secs_f64() * 1e3
            );
            grid.write_box(sp.keep, &sp.saved);
            e.update(grid, sp.keep);
        }
    }
}

/// One piece of work, repeated, for a profiler.
fn profile(what: &str, grid: &mut Grid, table: &MaterialTable) {
    let e2 = Enhancer::new(&subdivide(2), table).expect("valid");
    let pos = surface_chunk(&e2, grid);
    let (cells, dims, y0) = chunk_cells(&e2, grid, pos);
    let mut out = Vec::new();
    match what {
        "kernel" => kernel_figures(grid, table),
        "all" => {
            let all: Vec<_> = grid
                .sorted_positions()
                .into_iter()
                .map(|pos| chunk_cells(&e2, grid, pos))
                .collect();
            for _ in 0..20 {
                for (cells, dims, y0) in &all {
                    e2.subdivide_cells(cells, *dims, *y0, &mut out);
                }
            }
        }
        "table" => (0..20).for_each(|_| e2.subdivide_cells(&cells, dims, y0, &mut out)),
        "noise" => {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let noise: Vec<u8> = (0..cells.len())
                .map(|_| if rng.random_bool(0.5) { 7 } else { 0 })
                .collect();
            (0..20).for_each(|_| e2.subdivide_cells(&noise, dims, y0, &mut out));
        }
        "nearest" => (0..20).for_each(|_| e2.upsample_cells(&cells, dims, &mut out)),
        "build" => (0..20).for_each(|_| {
            black_box(
                Enhanced::build(grid, table, &subdivide(2), None, &Progress::new())
                    .expect("builds"),
            );
        }),
        _ => {
            let mut e = Enhanced::build(grid, table, &subdivide(2), None, &Progress::new())
                .expect("builds");
            let sp = spot(grid, 80, 80);
            (0..20).for_each(|_| {
                dab_update(grid, &mut e, table, &sp);
            });
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut grid = default_world();
    let table = MaterialTable::builtin();
    if let Ok(what) = std::env::var("STRATA_ENHANCE_PROFILE") {
        profile(&what, &mut grid, &table);
        return;
    }
    kernel_figures(&grid, &table);
    volume_figures(&grid, &table);
    update_figures(&mut grid, &table);

    let e2 = Enhancer::new(&subdivide(2), &table).expect("valid");
    let pos = surface_chunk(&e2, &grid);
    let (cells, dims, y0) = chunk_cells(&e2, &grid, pos);
    let mut g = c.benchmark_group("enhance_chunk_2_levels");
    g.throughput(Throughput::Elements(128 * 128 * 128));
    let mut out = Vec::new();
    g.bench_function("subdivide", |b| {
        b.iter(|| e2.subdivide_cells(&cells, dims, y0, &mut out))
    });
    g.bench_function("subdivide_table", |b| {
        b.iter(|| e2.subdivide_cells_with(Kernel::Table, &cells, dims, y0, &mut out))
    });
    g.bench_function("subdivide_scalar", |b| {
        b.iter(|| e2.subdivide_cells_with(Kernel::Scalar, &cells, dims, y0, &mut out))
    });
    g.bench_function("nearest_neighbour", |b| {
        b.iter(|| e2.upsample_cells(&cells, dims, &mut out))
    });
    g.finish();

    let mut g = c.benchmark_group("enhance_world_2_levels");
    g.sample_size(10);
    let method = subdivide(2);
    g.bench_function("surface_only_build", |b| {
        b.iter(|| Enhanced::build(&grid, &table, &method, None, &Progress::new()).expect("builds"))
    });
    g.finish();

    let mut e = Enhanced::build(&grid, &table, &method, None, &Progress::new()).expect("builds");
    let sp = spot(&grid, 80, 80);
    let mut g = c.benchmark_group("enhance_update_2_levels");
    g.bench_function("radius_4_dab", |b| {
        b.iter_custom(|n| {
            (0..n)
                .map(|_| dab_update(&mut grid, &mut e, &table, &sp))
                .sum()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
