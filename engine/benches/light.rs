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
//! - the lights summary (`lights_summary`), each against the sun+sky bake of the same world in the
//!   same run, medians of `SCENE_RUNS` alternating runs: 64 point lights of range 16 scattered over
//!   the default world (goal ≤ 1.5×); emission on a lavascape world whose CrackedLava glows, against
//!   the same bake with emission off (≤ 1.2×); one bounce (≤ 2.2×); the filter's share of a bake
//!   (≤ 10 %); a Draft bake of the default world (≤ 0.5 s); moving a range-16 light by 4 voxels:
//!   scene update, stale request, re-bake and apply (≤ 100 ms); and the standard deviation of the
//!   light over a flat, evenly lit 64×64 patch without and with the filter.
//!
//! A summary line with the measured ratios is printed before the criterion groups
//! (`STRATA_LIGHT_NO_SUMMARY=1` skips it, for profiling one group under callgrind:
//! `valgrind --tool=callgrind target/release/deps/light-* --bench light_walk_one_core/walk --profile-time 1`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use strata_engine::gen::{
    generate, generate_world, Biome, BiomeSettings, GeneratorSettings, Preset, WorldSettings,
};
use strata_engine::light::{
    bake, bake_grid, bake_scene, rebake, rebake_scene, LightMap, LightScene, LightSettings,
    PlacedLight, Quality, SolidVolume, SurfaceVoxel, Walker,
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

/// Alternating runs of each bake the lights summary compares.
const SCENE_RUNS: usize = 3;

/// Median wall time of `f`, in seconds.
fn median_s(f: &mut dyn FnMut()) -> f64 {
    median_ms(
        || {
            let t = Instant::now();
            f();
            t.elapsed()
        },
        1,
    ) / 1000.0
}

/// 64 point lights of range 16, 3 voxels above the surface on a seeded 8×8 grid.
fn scattered_lights(vol: &SolidVolume) -> Vec<PlacedLight> {
    let mut rng = fastrand::Rng::with_seed(11);
    (0..64)
        .map(|i| {
            let (x, z) = (
                16 + (i % 8) * 32 + rng.i32(-8..8),
                16 + (i / 8) * 32 + rng.i32(-8..8),
            );
            PlacedLight {
                position: [
                    x as f32 + 0.5,
                    (surface_y(vol, x, z) + 4) as f32,
                    z as f32 + 0.5,
                ],
                color: [1.0, 0.8, 0.6],
                range: 16.0,
                ..PlacedLight::default()
            }
        })
        .collect()
}

/// A lavascape world of the default size whose CrackedLava glows, and its table.
fn lava_world() -> (Grid, MaterialTable) {
    let mut table = MaterialTable::builtin();
    let lava = usize::from(table.id_of("CrackedLava").expect("lava"));
    table.materials[lava].emission = Some(strata_engine::voxel::Emission {
        color: (255, 110, 30),
        strength: 3.0,
    });
    let biomes = BiomeSettings {
        biomes: vec![Biome::Lavascape],
        ..BiomeSettings::default()
    };
    let world = WorldSettings::with_biomes([256, 96, 256], 1, biomes);
    let grid = generate_world(&world, &table, &Progress::new()).expect("generates");
    (grid, table)
}

/// Standard deviation of the green light over the 64×64 middle of a flat world's top.
fn flat_std_dev(light: &LightMap, vol: &SolidVolume) -> f64 {
    let v: Vec<f64> = (96..160)
        .flat_map(|x| (96..160).map(move |z| (x, z)))
        .filter_map(|(x, z)| {
            light
                .light(VoxelPos::new(x, surface_y(vol, x, z), z))
                .map(|c| f64::from(c[1]))
        })
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
}

fn lights_summary() {
    let table = MaterialTable::builtin();
    let base = LightSettings::default();
    let grid = default_world();
    let vol = SolidVolume::from_grid(&grid, &table).expect("volume");
    let lamps = scattered_lights(&vol);
    let plain = LightScene::new(&grid, &table, &vol, &[], &base);
    let lit = LightScene::new(&grid, &table, &vol, &lamps, &base);
    let bounced = LightSettings { bounce: 1, ..base };
    let filtered = LightSettings {
        denoise: true,
        ..base
    };
    let with_materials = LightScene::new(&grid, &table, &vol, &[], &bounced);
    let run = |scene: &LightScene, s: &LightSettings| {
        black_box(bake_scene(&vol, scene, s, &Progress::new()).expect("bake"));
    };
    let (mut t_base, mut t_lamps, mut t_bounce, mut t_denoise) = (vec![], vec![], vec![], vec![]);
    for _ in 0..SCENE_RUNS {
        t_base.push(median_s(&mut || run(&plain, &base)));
        t_lamps.push(median_s(&mut || run(&lit, &base)));
        t_bounce.push(median_s(&mut || run(&with_materials, &bounced)));
        // The filter's share of the same bake, timed inside it (a difference of two loaded bakes
        // is mostly noise).
        let (_, s) = bake_scene(&vol, &with_materials, &filtered, &Progress::new()).expect("bake");
        t_denoise.push(s.denoise_seconds / s.seconds);
    }
    let (lava, lava_table) = lava_world();
    let lvol = SolidVolume::from_grid(&lava, &lava_table).expect("volume");
    let off = LightSettings {
        emission: false,
        ..base
    };
    let glow = LightScene::new(&lava, &lava_table, &lvol, &[], &base);
    let dark = LightScene::new(&lava, &lava_table, &lvol, &[], &off);
    let (mut t_off, mut t_on) = (vec![], vec![]);
    for _ in 0..SCENE_RUNS {
        t_off.push(median_s(&mut || {
            black_box(bake_scene(&lvol, &dark, &off, &Progress::new()).expect("bake"));
        }));
        t_on.push(median_s(&mut || {
            black_box(bake_scene(&lvol, &glow, &base, &Progress::new()).expect("bake"));
        }));
    }
    let draft = Quality::Draft.apply(&base);
    let t_draft: Vec<f64> = (0..SCENE_RUNS)
        .map(|_| {
            median_s(&mut || {
                black_box(bake_grid(&grid, &table, &[], &draft, &Progress::new()).expect("bake"));
            })
        })
        .collect();
    // Moving one range-16 light by 4 voxels, as the editor does it.
    let (light, _) = bake_scene(&vol, &lit, &base, &Progress::new()).expect("bake");
    let mut moves = Vec::new();
    let mut rewalked = 0;
    for k in 0..5 {
        let mut scene = lit.clone();
        let mut l = light.clone();
        let mut after = lamps.clone();
        after[k * 9].position[0] += 4.0;
        let t = Instant::now();
        l.mark_light_changed(&lamps[k * 9]);
        l.mark_light_changed(&after[k * 9]);
        scene.set_lights(&after);
        let (patch, s) =
            rebake_scene(&vol, &scene, &l.stale_request(), &Progress::new()).expect("rebake");
        l.apply(patch).expect("apply");
        moves.push(t.elapsed().as_secs_f64() * 1000.0);
        rewalked = rewalked.max(s.surface_voxels);
    }
    moves.sort_by(f64::total_cmp);
    let flat = hills_flat();
    let fvol = SolidVolume::from_grid(&flat, &table).expect("volume");
    let (raw, _) = bake(&fvol, &base, &Progress::new()).expect("bake");
    let fscene = LightScene::new(&flat, &table, &fvol, &[], &filtered);
    let (smooth, _) = bake_scene(&fvol, &fscene, &filtered, &Progress::new()).expect("bake");
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let b = med(&mut t_base);
    let ratio = |v: &mut Vec<f64>| med(v) / b;
    let (r_lamps, r_bounce, r_denoise) = (
        ratio(&mut t_lamps),
        ratio(&mut t_bounce),
        med(&mut t_denoise),
    );
    println!(
        "lights summary (medians of {SCENE_RUNS} runs; sun+sky bake of the default world {b:.2} s): \
         64 point lights range 16 {r_lamps:.2}x (goal <= 1.5); emission on a lava world {:.2}x \
         against off ({:.2} s; goal <= 1.2); one bounce {r_bounce:.2}x (goal <= 2.2); denoise \
         {:.1} % of the bake (goal <= 10); draft bake {:.2} s (goal <= 0.5); range-16 light move \
         re-bake median {:.1} ms, slowest {:.1} ms ({rewalked} voxels re-walked at most; goal <= \
         100); flat patch light std-dev {:.4} raw, {:.4} denoised; load average {}",
        med(&mut t_on) / med(&mut t_off),
        med(&mut t_off),
        r_denoise * 100.0,
        med(&mut t_draft.clone()),
        moves[moves.len() / 2],
        moves[moves.len() - 1],
        flat_std_dev(&raw, &fvol),
        flat_std_dev(&smooth, &fvol),
        load_average(),
    );
}

/// The flat preset of the default world's size.
fn hills_flat() -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [256, 96, 256],
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("STRATA_LIGHT_NO_SUMMARY").is_none() {
        summary();
    }
    if std::env::var_os("STRATA_LIGHT_NO_LIGHTS").is_none() {
        lights_summary();
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
