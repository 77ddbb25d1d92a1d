//! Bit broadphase benches on `canyons` (seed 1).
//!
//! - Memory in bits per voxel, on the 1024×256×1024 world (skipped with `STRATA_BENCH_SMALL=1`) and on
//!   the 256×128×256 timing world, with the build time; the full build (a chunk at a time, in
//!   parallel) against the reference build (a cell at a time) on the timing world.
//! - Query time for random AABBs of edge 4, 8 and 16 voxels against two naive queries with the same
//!   answer: `naive bits` tests the same stored bits one voxel at a time (same cells, same expansion),
//!   and `voxel scan` has no broadphase at all: it reads the voxels around the expanded AABB from the
//!   grid and dilates each covered voxel by looking at its 27 neighbours.
//!
//! Ratios are printed once (best of several interleaved rounds) before the criterion groups. With
//! `STRATA_BROADPHASE_PROFILE=N` the bench only runs the bit queries of every box set `N` times and
//! exits, for `perf record` or `valgrind --tool=callgrind` (`cargo bench --bench broadphase --no-run`,
//! then run the printed binary with `--bench`); `STRATA_BROADPHASE_EDGE=4` (or 8, 16) keeps one box set.

mod common;

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use strata_engine::physics::broadphase::{
    expanded_voxel_range, physics_cell_of, BuildScratch, PHYSICS_CELL_BITS,
};
use strata_engine::physics::broadphase::{Matter, MatterTable};
use strata_engine::physics::{Broadphase, CellBits, Touch};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

type Aabb = ([f32; 3], [f32; 3]);

/// The naive query: the same stored data, one bit test per covered voxel.
fn naive_query(bp: &Broadphase, min: [f32; 3], max: [f32; 3], out: &mut Vec<Touch>) {
    let (vlo, vhi) = expanded_voxel_range(min, max);
    let clo = vlo.map(physics_cell_of);
    let chi = vhi.map(physics_cell_of);
    for cz in clo[2]..=chi[2] {
        for cy in clo[1]..=chi[1] {
            for cx in clo[0]..=chi[0] {
                let Some(bits) = bp.cell([cx, cy, cz]) else {
                    continue;
                };
                let c = [cx, cy, cz];
                let o = c.map(|v| v << PHYSICS_CELL_BITS);
                let lo: [i32; 3] = std::array::from_fn(|a| vlo[a].max(o[a]) - o[a]);
                let hi: [i32; 3] = std::array::from_fn(|a| vhi[a].min(o[a] + 7) - o[a]);
                let (mut solid, mut water) = (false, false);
                for z in lo[2]..=hi[2] {
                    for y in lo[1]..=hi[1] {
                        for x in lo[0]..=hi[0] {
                            let bit = 1u64 << (z * 8 + x);
                            let (s, w) = match bits {
                                CellBits::Solid => (true, false),
                                CellBits::Water => (false, true),
                                CellBits::Masks(m) => (
                                    m.solid[y as usize] & bit != 0,
                                    m.water[y as usize] & bit != 0,
                                ),
                            };
                            solid |= s;
                            water |= w;
                        }
                    }
                }
                if solid || water {
                    out.push(Touch {
                        cell_pos: c,
                        solid,
                        water,
                    });
                }
            }
        }
    }
}

/// The query without a broadphase: read the voxels and dilate every covered voxel on the spot.
fn voxel_scan(
    grid: &Grid,
    matter: &MatterTable,
    (min, max): Aabb,
    buf: &mut Vec<Voxel>,
    out: &mut Vec<Touch>,
) {
    let (vlo, vhi) = expanded_voxel_range(min, max);
    let b = VoxelBox::new(
        VoxelPos::new(vlo[0] - 1, vlo[1] - 1, vlo[2] - 1),
        VoxelPos::new(vhi[0] + 2, vhi[1] + 2, vhi[2] + 2),
    );
    buf.clear();
    buf.resize(b.volume(), Voxel::AIR);
    grid.read_box(b, buf);
    let [sx, sy, _] = b.size();
    let at = |x: i32, y: i32, z: i32| {
        (((z - b.min.z) as usize * sy) + (y - b.min.y) as usize) * sx + (x - b.min.x) as usize
    };
    let clo = vlo.map(physics_cell_of);
    let chi = vhi.map(physics_cell_of);
    for cz in clo[2]..=chi[2] {
        for cy in clo[1]..=chi[1] {
            for cx in clo[0]..=chi[0] {
                let c = [cx, cy, cz];
                let lo: [i32; 3] = std::array::from_fn(|a| vlo[a].max(c[a] * 8));
                let hi: [i32; 3] = std::array::from_fn(|a| vhi[a].min(c[a] * 8 + 7));
                let (mut solid, mut water) = (false, false);
                for z in lo[2]..=hi[2] {
                    for y in lo[1]..=hi[1] {
                        for x in lo[0]..=hi[0] {
                            for dz in -1..=1 {
                                for dy in -1..=1 {
                                    for dx in -1..=1 {
                                        match matter.of(buf[at(x + dx, y + dy, z + dz)]) {
                                            Matter::Air => {}
                                            Matter::Solid => solid = true,
                                            Matter::Water => water = true,
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                if solid || water {
                    out.push(Touch {
                        cell_pos: c,
                        solid,
                        water,
                    });
                }
            }
        }
    }
}

fn aabbs(size: [u32; 3], edge: f32, n: usize) -> Vec<Aabb> {
    let mut rng = ChaCha8Rng::seed_from_u64(edge as u64);
    (0..n)
        .map(|_| {
            let min: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(0.0..size[a] as f32 - edge));
            (min, min.map(|v| v + edge))
        })
        .collect()
}

fn run(bp: &Broadphase, boxes: &[Aabb], naive: bool, out: &mut Vec<Touch>) -> usize {
    let mut n = 0;
    for (min, max) in boxes {
        out.clear();
        if naive {
            naive_query(bp, *min, *max, out);
        } else {
            bp.query(*min, *max, out);
        }
        n += out.len();
    }
    n
}

fn run_scan(grid: &Grid, matter: &MatterTable, boxes: &[Aabb], buf: &mut Vec<Voxel>) -> usize {
    let mut out = Vec::new();
    let mut n = 0;
    for b in boxes {
        out.clear();
        voxel_scan(grid, matter, *b, buf, &mut out);
        n += out.len();
    }
    n
}

/// Best wall time of each closure over `runs` rounds, in seconds. The closures take turns within each
/// round, so a burst of load from other processes hits all of them alike.
fn best_of_each(runs: usize, fs: &mut [&mut dyn FnMut() -> usize]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; fs.len()];
    for _ in 0..runs {
        for (b, f) in best.iter_mut().zip(fs.iter_mut()) {
            let t = Instant::now();
            black_box(f());
            *b = b.min(t.elapsed().as_secs_f64());
        }
    }
    best
}

fn memory_figure(name: &str, grid: &Grid, size: [u32; 3], table: &MaterialTable) -> Broadphase {
    let t = Instant::now();
    let bp = Broadphase::build(grid, table, &mut BuildScratch::default());
    let build = t.elapsed().as_secs_f64();
    let mem = bp.memory();
    let world = size.iter().map(|&s| u64::from(s)).product::<u64>();
    let stored = bp.cell_count() as u64 * 512;
    let nonair = grid.stats().nonair_voxels;
    println!(
        "broadphase {name}: {} cells ({} masked, {} tagged), {} bytes, build {:.3} s",
        bp.cell_count(),
        mem.masked_cells,
        mem.tagged_cells,
        mem.total_bytes,
        build
    );
    println!(
        "  bits per voxel: {:.4} per world voxel, {:.4} per non-air voxel, {:.4} per voxel of stored cells (masks alone {:.4})",
        mem.bits_per_voxel(world),
        mem.bits_per_voxel(nonair),
        mem.bits_per_voxel(stored),
        mem.mask_bytes as f64 * 8.0 / stored.max(1) as f64
    );
    bp
}

/// The full build (a chunk at a time, in parallel) against the reference build (a cell at a time,
/// one thread): best of 5 interleaved rounds each, wall clock and this process's CPU time.
fn build_figure(grid: &Grid, table: &MaterialTable) {
    let mut scratch = BuildScratch::default();
    let mut cpu = [0.0f64; 2];
    let mut best = [f64::INFINITY; 2];
    for _ in 0..5 {
        for k in 0..2 {
            let (t, c) = (Instant::now(), common::cpu_seconds());
            let bp = if k == 0 {
                Broadphase::build(grid, table, &mut scratch)
            } else {
                let mut bp = Broadphase::new(table);
                bp.rebuild_cell_by_cell(grid, &mut scratch);
                bp
            };
            black_box(bp.cell_count());
            best[k] = best[k].min(t.elapsed().as_secs_f64());
            cpu[k] += common::cpu_seconds() - c;
        }
    }
    println!(
        "  build: chunk at a time {:.1} ms, cell by cell {:.1} ms ({:.2}x faster by the wall clock, {:.2}x less CPU time)",
        best[0] * 1e3,
        best[1] * 1e3,
        best[1] / best[0],
        cpu[1] / cpu[0].max(1e-9)
    );
}

fn bench(c: &mut Criterion) {
    let table = MaterialTable::builtin();
    if std::env::var_os("STRATA_BENCH_SMALL").is_none() {
        let size = [1024, 256, 1024];
        let grid = common::canyons(size);
        memory_figure("canyons 1024×256×1024", &grid, size, &table);
    }
    let size = common::timing_size();
    let grid = common::canyons(size);
    let bp = memory_figure("canyons 256×128×256", &grid, size, &table);
    let mut out = Vec::new();
    let sets: Vec<(f32, Vec<Aabb>)> = [4.0, 8.0, 16.0]
        .into_iter()
        .map(|e| (e, aabbs(size, e, 20_000)))
        .collect();
    if let Some(n) = std::env::var("STRATA_BROADPHASE_PROFILE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let edge = std::env::var("STRATA_BROADPHASE_EDGE")
            .ok()
            .and_then(|v| v.parse::<f32>().ok());
        for _ in 0..n {
            for (_, boxes) in sets.iter().filter(|(e, _)| edge.is_none_or(|x| x == *e)) {
                black_box(run(&bp, boxes, false, &mut out));
            }
        }
        std::process::exit(0);
    }
    build_figure(&grid, &table);
    let matter = MatterTable::new(&table);
    let mut buf = Vec::new();
    for (edge, boxes) in &sets {
        let fast = run(&bp, boxes, false, &mut out);
        let naive = run(&bp, boxes, true, &mut out);
        assert_eq!(fast, naive, "naive and bit queries disagree");
        let scan = run_scan(&grid, &matter, boxes, &mut buf);
        assert_eq!(fast, scan, "voxel scan and bit queries disagree");
        let per = |t: f64| t / boxes.len() as f64 * 1e9;
        let mut out2 = Vec::new();
        let t = best_of_each(
            7,
            &mut [&mut || run(&bp, boxes, false, &mut out), &mut || {
                run(&bp, boxes, true, &mut out2)
            }],
        );
        let (t_bits, t_naive) = (t[0], t[1]);
        let t_scan = best_of_each(3, &mut [&mut || run_scan(&grid, &matter, boxes, &mut buf)])[0];
        println!(
            "  query {edge}³ AABBs ({fast} touches over {} queries), ns per query: bits {:.1}, naive bits {:.1} ({:.1}x), voxel scan {:.1} ({:.1}x)",
            boxes.len(),
            per(t_bits),
            per(t_naive),
            t_naive / t_bits,
            per(t_scan),
            t_scan / t_bits
        );
    }
    for (edge, boxes) in &sets {
        let mut g = c.benchmark_group(format!("broadphase_query_{edge}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(boxes.len() as u64));
        g.bench_function("bits", |b| {
            b.iter(|| black_box(run(&bp, boxes, false, &mut out)))
        });
        g.bench_function("naive_bits", |b| {
            b.iter(|| black_box(run(&bp, boxes, true, &mut out)))
        });
        g.bench_function("voxel_scan", |b| {
            b.iter(|| black_box(run_scan(&grid, &matter, boxes, &mut buf)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
