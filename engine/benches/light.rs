//! Light bake benches on the default world (`hills`, 256×96×256, seed 1), default settings:
//!
//! - `light_walk_one_core`: walk steps per second on one thread (`Walker::light_voxel` over 2000
//!   surface voxels spread over the world), against the RNG alone drawing as many 64-bit numbers as
//!   there are steps (a step is a draw of 10 random bits, three to a 64-bit draw, a position update
//!   and one bit test, or a skipped one); goal ≥ 200 M steps/s. The
//!   summary times it by the thread's CPU time (so other processes' time slices do not count) and
//!   by the wall clock, and says what fraction of the steps tested a bit.
//! - `light_bake_threads`: the bake of a 128×96×128 corner on a 1-thread and a 2-thread rayon pool;
//!   goal ≥ 1.8× from the second thread. The summary alternates the two and keeps the fastest run
//!   of each, and prints the load average: on a shared machine the ratio means little under load.
//! - `light_full_bake`: `bake_grid` of the whole default world (volume, surface, walks).
//! - `light_rebake_sphere_r4`: what Live mode does after a stroke: a radius-4 rock sphere on the
//!   surface, then `SolidVolume::patch`, `LightMap::stale_request`, `rebake` and `LightMap::apply`;
//!   goal ≤ 50 ms.
//!
//! A summary line with the measured ratios is printed before the criterion groups
//! (`STRATA_LIGHT_NO_SUMMARY=1` skips it, for profiling one group under callgrind:
//! `valgrind --tool=callgrind target/release/deps/light-* --bench light_walk_one_core/walk --profile-time 1`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::light::{
    bake, bake_grid, rebake, LightSettings, SolidVolume, SurfaceVoxel, Walker,
};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

fn hills(size: [u32; 3]) -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size,
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

fn default_world() -> Grid {
    hills([256, 96, 256])
}

/// 2000 surface voxels spread evenly over the list.
fn sample_surface(vol: &SolidVolume) -> Vec<SurfaceVoxel> {
    let all = vol.surface_in(vol.bounds());
    let step = (all.len() / 2000).max(1);
    all.into_iter().step_by(step).take(2000).collect()
}

/// Steps drawn and steps that tested a bit.
fn walk_all(walker: &Walker, voxels: &[SurfaceVoxel]) -> [u64; 2] {
    voxels.iter().fold([0, 0], |a, &v| {
        let w = walker.light_voxel(v);
        [a[0] + w.steps, a[1] + w.tested]
    })
}

fn rng_alone(draws: u64) -> u64 {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut acc = 0u64;
    for _ in 0..draws {
        acc ^= rng.u64(..);
    }
    acc
}

/// Alternating runs of the 1- and 2-thread bakes in the summary.
const THREAD_RUNS: usize = 5;

/// The system's 1-minute load average (Linux), for the summary.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// Runs of the walk sample the summary times (about 20 ms each).
const WALK_RUNS: u32 = 10;

/// CPU time the calling thread has run, in seconds (Linux `schedstat`), if the system says: a
/// figure for one core that time slices given to other processes on a loaded machine do not inflate.
fn thread_cpu_s() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
}

fn two_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool")
}

/// The top solid voxel of column (`x`, `z`).
fn surface_y(vol: &SolidVolume, x: i32, z: i32) -> i32 {
    let b = vol.bounds();
    (b.min.y..b.max.y)
        .rev()
        .find(|&y| vol.is_solid(VoxelPos::new(x, y, z)))
        .unwrap_or(0)
}

/// Add a rock sphere of radius 4 centred on the surface at (`x`, `z`); returns the changed box.
fn sphere_edit(grid: &mut Grid, vol: &SolidVolume, x: i32, z: i32) -> VoxelBox {
    let y = surface_y(vol, x, z) + 1;
    let r = 4;
    let b = VoxelBox::new(
        VoxelPos::new(x - r, y - r, z - r),
        VoxelPos::new(x + r + 1, y + r + 1, z + r + 1),
    );
    grid.modify_box(b, |p, v| {
        let d2 = (p.x - x).pow(2) + (p.y - y).pow(2) + (p.z - z).pow(2);
        if d2 <= r * r {
            Voxel::filled(7)
        } else {
            v
        }
    });
    b
}

fn median_ms(mut f: impl FnMut() -> Duration, runs: usize) -> f64 {
    let mut t: Vec<f64> = (0..runs).map(|_| f().as_secs_f64() * 1000.0).collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn summary() {
    let load_before = load_average();
    let table = MaterialTable::builtin();
    let settings = LightSettings::default();
    let grid = default_world();
    let vol = SolidVolume::from_grid(&grid, &table).expect("volume");
    let voxels = sample_surface(&vol);
    let walker = Walker::new(&vol, &settings);
    let pool = one_thread();
    let ([steps, tested], wall_s, cpu_s) = pool.install(|| {
        let (started, cpu) = (Instant::now(), thread_cpu_s());
        let counts = (0..WALK_RUNS).fold([0, 0], |_, _| walk_all(&walker, &voxels));
        let runs = f64::from(WALK_RUNS);
        let cpu = cpu.zip(thread_cpu_s()).map(|(a, b)| (b - a) / runs);
        (counts, started.elapsed().as_secs_f64() / runs, cpu)
    });
    let walk_s = cpu_s.unwrap_or(wall_s);
    let started = Instant::now();
    black_box(rng_alone(steps * u64::from(WALK_RUNS)));
    let rng_s = started.elapsed().as_secs_f64() / f64::from(WALK_RUNS);
    let corner = hills([128, 96, 128]);
    let cvol = SolidVolume::from_grid(&corner, &table).expect("volume");
    // 1 and 2 threads alternate, and the fastest run of each counts: on a shared machine the
    // fastest run is the one other processes disturbed least.
    // Each run also reads every worker's CPU time: the busiest worker's share is what the run
    // would take on idle cores (rayon's workers sleep when out of work), a figure other processes
    // cannot stretch the way they stretch the wall clock.
    let time_pool = |p: &rayon::ThreadPool| {
        let cpu = || p.broadcast(|_| thread_cpu_s());
        let before = cpu();
        let t = Instant::now();
        p.install(|| bake(&cvol, &settings, &Progress::new()).expect("bake"));
        let wall = t.elapsed().as_secs_f64() * 1000.0;
        let busiest = before
            .iter()
            .zip(cpu())
            .map(|(a, b)| a.zip(b).map_or(f64::NAN, |(a, b)| (b - a) * 1000.0))
            .fold(0f64, f64::max);
        (wall, busiest)
    };
    let pool2 = two_threads();
    let (mut t1, mut t2) = (
        (f64::INFINITY, f64::INFINITY),
        (f64::INFINITY, f64::INFINITY),
    );
    for _ in 0..THREAD_RUNS {
        let (a, b) = (time_pool(&pool), time_pool(&pool2));
        t1 = (t1.0.min(a.0), t1.1.min(a.1));
        t2 = (t2.0.min(b.0), t2.1.min(b.1));
    }
    let started = Instant::now();
    let (light, stats) = bake_grid(&grid, &table, &[], &settings, &Progress::new()).expect("bake");
    let full_s = started.elapsed().as_secs_f64();
    // The sphere lands on five spots in turn (hill tops, slopes, valleys).
    let spots = [(128, 128), (64, 64), (192, 80), (80, 200), (200, 200)];
    let mut rewalked = Vec::new();
    let mut worst = 0f64;
    let live = median_ms(
        || {
            let mut g = grid.clone();
            let mut v = vol.clone();
            let mut l = light.clone();
            let (x, z) = spots[rewalked.len() % spots.len()];
            let b = sphere_edit(&mut g, &v, x, z);
            let t = Instant::now();
            v.patch(&g, &table, b).expect("patch");
            l.mark_stale(b);
            let (patch, s) = rebake(&v, &l.stale_request(), &Progress::new()).expect("rebake");
            l.apply(patch).expect("apply");
            let took = t.elapsed();
            rewalked.push(s.surface_voxels);
            worst = worst.max(took.as_secs_f64() * 1000.0);
            took
        },
        2 * spots.len() + 1,
    );
    rewalked.sort_unstable();
    println!(
        "light summary: walk {:.0} M steps/s on one core (thread CPU time; {:.0} M/s by the wall \
         clock; {:.2} ns a step; {steps} steps, {:.0} % \
         of them tested a bit: {:.2} ns per tested step if the others were free), RNG alone \
         {:.0} M draws/s (a step costs {:.2} draws); bake of 128x96x128: 1 thread {:.0} ms, \
         2 threads {:.0} ms ({:.2}x by the wall clock; by the busiest worker's CPU time {:.0} ms \
         against {:.0} ms, {:.2}x); full default world {full_s:.2} s ({} surface voxels, {} \
         steps, {:.0} % tested, {:.0} M steps/s over the whole bake); radius-4 sphere re-bake \
         median {live:.1} ms, slowest {worst:.1} ms ({}–{} voxels re-walked); solidity volume \
         {:.2} MB; load average {load_before} before, {} after",
        steps as f64 / walk_s / 1e6,
        steps as f64 / wall_s / 1e6,
        walk_s * 1e9 / steps as f64,
        tested as f64 * 100.0 / steps as f64,
        walk_s * 1e9 / tested as f64,
        steps as f64 / rng_s / 1e6,
        walk_s / rng_s,
        t1.0,
        t2.0,
        t1.0 / t2.0,
        t1.1,
        t2.1,
        t1.1 / t2.1,
        stats.surface_voxels,
        stats.walk_steps,
        stats.tested_steps as f64 * 100.0 / stats.walk_steps as f64,
        stats.steps_per_second() / 1e6,
        rewalked[0],
        rewalked[rewalked.len() - 1],
        vol.heap_bytes() as f64 / 1e6,
        load_average(),
    );
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("STRATA_LIGHT_NO_SUMMARY").is_none() {
        summary();
    }
    let table = MaterialTable::builtin();
    let settings = LightSettings::default();
    let grid = default_world();
    let vol = SolidVolume::from_grid(&grid, &table).expect("volume");
    let voxels = sample_surface(&vol);
    let walker = Walker::new(&vol, &settings);
    let [steps, _] = walk_all(&walker, &voxels);

    let mut g = c.benchmark_group("light_walk_one_core");
    g.throughput(Throughput::Elements(steps));
    g.sample_size(20);
    let pool = one_thread();
    g.bench_function("walk_steps", |b| {
        b.iter(|| pool.install(|| black_box(walk_all(&walker, &voxels))))
    });
    g.bench_function("rng_alone", |b| b.iter(|| black_box(rng_alone(steps))));
    g.finish();

    let corner = hills([128, 96, 128]);
    let cvol = SolidVolume::from_grid(&corner, &table).expect("volume");
    let mut g = c.benchmark_group("light_bake_threads");
    g.sample_size(10);
    for (name, p) in [("1_thread", one_thread()), ("2_threads", two_threads())] {
        g.bench_function(name, |b| {
            b.iter(|| p.install(|| bake(&cvol, &settings, &Progress::new()).expect("bake")))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("light_full_bake");
    g.sample_size(10);
    g.bench_function("hills_256x96x256", |b| {
        b.iter(|| bake_grid(&grid, &table, &[], &settings, &Progress::new()).expect("bake"))
    });
    g.finish();

    let (light, _) = bake(&vol, &settings, &Progress::new()).expect("bake");
    let mut edited = grid.clone();
    let changed = sphere_edit(&mut edited, &vol, 128, 128);
    let mut g = c.benchmark_group("light_rebake_sphere_r4");
    g.sample_size(20);
    g.bench_function("patch_rebake_apply", |b| {
        b.iter_batched(
            || (vol.clone(), light.clone()),
            |(mut v, mut l)| {
                v.patch(&edited, &table, changed).expect("patch");
                l.mark_stale(changed);
                let (patch, _) = rebake(&v, &l.stale_request(), &Progress::new()).expect("rebake");
                l.apply(patch).expect("apply");
                l
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(light, benches);
criterion_main!(light);
