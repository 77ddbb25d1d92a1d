//! Script-call costs on one seeded generated level (canyons, 256³, seed 1): Roblox's
//! `ReadVoxels` / `WriteVoxels` of 64³, a 256³ `strata.read` + `strata.write` round trip against the
//! same box through the Rust API (the ratio is printed), and `FillBall` calls per second.
//!
//! Each measurement runs inside one script that times its own loop with `os.clock` and prints the
//! seconds, so Luau start-up and the world copy stay outside the timing.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};
use strata_script::{run, RunOptions, Script, ScriptWorld};

const SIZE: [u32; 3] = [256, 256, 256];

fn level() -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size: SIZE,
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

fn bounds() -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(0, 0, 0),
        VoxelPos::new(SIZE[0] as i32, SIZE[1] as i32, SIZE[2] as i32),
    )
}

/// Run `body` (`iters` times inside `for i = 1, N`, with `prepare` before the loop) and return
/// the loop's seconds as the script measured them.
fn timed(grid: &Grid, prepare: &str, body: &str, iters: u64) -> Duration {
    let source = format!(
        "{prepare}\nlocal t0 = os.clock()\nfor i = 1, {iters} do\n{body}\nend\nprint(os.clock() - t0)"
    );
    let script = Script {
        name: "bench.luau".into(),
        source,
    };
    let world = ScriptWorld::new(grid.clone(), MaterialTable::builtin(), bounds(), u64::MAX);
    let out = run(&script, world, RunOptions::default());
    if let Some(e) = out.error {
        panic!("bench script failed: {e}");
    }
    let secs: f64 = out
        .output
        .last()
        .and_then(|l| l.parse().ok())
        .expect("seconds printed");
    Duration::from_secs_f64(secs)
}

const REGION64: &str =
    "local T = workspace.Terrain\nlocal r = Region3.new(Vector3.new(256, 256, 256), Vector3.new(512, 512, 512))";

fn bench(c: &mut Criterion) {
    let grid = level();
    let mut g = c.benchmark_group("script");
    g.sample_size(10);
    g.throughput(Throughput::Elements(64 * 64 * 64));
    g.bench_function("ReadVoxels 64³", |b| {
        b.iter_custom(|n| timed(&grid, REGION64, "local m, o = T:ReadVoxels(r, 4)", n));
    });
    g.bench_function("WriteVoxels 64³", |b| {
        let prepare = format!("{REGION64}\nlocal m, o = T:ReadVoxels(r, 4)");
        b.iter_custom(|n| timed(&grid, &prepare, "T:WriteVoxels(r, 4, m, o)", n));
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("FillBall r 12 studs", |b| {
        b.iter_custom(|n| {
            timed(
                &grid,
                "local T = workspace.Terrain",
                "T:FillBall(Vector3.new((i * 37) % 1000 + 12, 500, (i * 91) % 1000 + 12), 12, Enum.Material.Rock)",
                n,
            )
        });
    });
    g.throughput(Throughput::Elements(256 * 256 * 256));
    g.bench_function("strata.read + strata.write 256³", |b| {
        b.iter_custom(|n| {
            timed(
                &grid,
                "local box = {0, 0, 0, 256, 256, 256}",
                "strata.write(box, strata.read(box))",
                n,
            )
        });
    });
    g.bench_function("Rust read_box + write_box 256³", |b| {
        let mut copy = grid.clone();
        b.iter(|| {
            let v = copy.read_box_vec(bounds());
            copy.write_box(bounds(), &v);
        });
    });
    g.finish();
    ratio(&grid);
}

/// The 256³ round trip through a script against the Rust API, printed.
fn ratio(grid: &Grid) {
    let reps = 3;
    let script = timed(
        grid,
        "local box = {0, 0, 0, 256, 256, 256}",
        "strata.write(box, strata.read(box))",
        reps,
    );
    let mut copy = grid.clone();
    let start = Instant::now();
    for _ in 0..reps {
        let v = copy.read_box_vec(bounds());
        copy.write_box(bounds(), &v);
    }
    let rust = start.elapsed();
    println!(
        "256³ round trip: script {:.1} ms, Rust API {:.1} ms, ratio {:.2}",
        script.as_secs_f64() * 1e3 / f64::from(reps as u32),
        rust.as_secs_f64() * 1e3 / f64::from(reps as u32),
        script.as_secs_f64() / rust.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
