//! Region copy and paste of a 256×128×256 box of `canyons` (seed 1), against a plain 2-byte dense
//! copy of the same box (`Grid::read_box_vec`) and a dense paste of it (`Grid::write_box`), in the
//! same run. Goal: the region holds at most 0.25× the dense bytes and takes at most 1.5× its time.
//!
//! Two boxes: chunk-aligned (the whole 256×128×256 world) and the same size shifted by (37, 5, 29)
//! in a 320×160×320 world, so no edge falls on a chunk border. A paste writes the copy 64 voxels east
//! and 48 south of where it came from (part of the target is open air past the world's edge), into a
//! fresh clone of the world each time (cloning is outside the timing). "paste + undo" also records
//! the undo step the editor and CLI keep; the dense peer records nothing.
//!
//! A figure table (medians of interleaved runs) prints before the criterion groups; ratios are
//! strata / dense from the same run.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::history::History;
use strata_engine::progress::Progress;
use strata_engine::region::{PasteMode, Region, RegionEdit};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

const SIZE: [u32; 3] = [256, 128, 256];
const SHIFT: VoxelPos = VoxelPos::new(64, 0, 48);

struct Case {
    name: &'static str,
    grid: Grid,
    b: VoxelBox,
}

fn cases() -> Vec<Case> {
    let unaligned = generate(
        &GeneratorSettings {
            preset: Preset::Canyons,
            size: [320, 160, 320],
            seed: 1,
        },
        &MaterialTable::builtin(),
        &Progress::new(),
    )
    .expect("generates");
    vec![
        Case {
            name: "aligned",
            grid: common::canyons(common::timing_size()),
            b: VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), SIZE),
        },
        Case {
            name: "unaligned",
            grid: unaligned,
            b: VoxelBox::from_min_size(VoxelPos::new(37, 5, 29), SIZE),
        },
    ]
}

fn target(b: VoxelBox) -> VoxelPos {
    VoxelPos::new(b.min.x + SHIFT.x, b.min.y + SHIFT.y, b.min.z + SHIFT.z)
}

fn strata_paste(grid: &mut Grid, region: &Region, at: VoxelPos, history: Option<&mut History>) {
    let progress = Progress::new();
    let mut edit = RegionEdit::begin(grid, history, "Paste", &progress);
    edit.paste(region, at, PasteMode::Replace).expect("pastes");
    black_box(edit.finish());
}

fn dense_paste(grid: &mut Grid, voxels: &[strata_engine::voxel::Voxel], b: VoxelBox) {
    grid.write_box(VoxelBox::from_min_size(target(b), SIZE), voxels);
}

/// (fastest, median) of a set of timings.
fn stats(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort_unstable();
    (v[0], v[v.len() / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Interleaved runs of the four operations; prints medians and ratios.
fn figures(c: &Case) {
    let runs = 9;
    let copy_runs = 41;
    let (mut copy_s, mut copy_d, mut paste_s, mut paste_u, mut paste_d) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let region = Region::copy(&c.grid, c.b).expect("copies");
    let dense = c.grid.read_box_vec(c.b);
    let at = target(c.b);
    for _ in 0..copy_runs {
        let t = Instant::now();
        black_box(Region::copy(&c.grid, c.b).expect("copies"));
        copy_s.push(t.elapsed());
        let t = Instant::now();
        black_box(c.grid.read_box_vec(c.b));
        copy_d.push(t.elapsed());
    }
    for _ in 0..runs {
        let mut g = c.grid.clone();
        let t = Instant::now();
        strata_paste(&mut g, &region, at, None);
        paste_s.push(t.elapsed());
        drop(g);
        let mut g = c.grid.clone();
        let mut h = History::default();
        let t = Instant::now();
        strata_paste(&mut g, &region, at, Some(&mut h));
        paste_u.push(t.elapsed());
        drop((g, h));
        let mut g = c.grid.clone();
        let t = Instant::now();
        dense_paste(&mut g, &dense, c.b);
        paste_d.push(t.elapsed());
    }
    let (cs, cd, ps, pu, pd) = (
        stats(copy_s),
        stats(copy_d),
        stats(paste_s),
        stats(paste_u),
        stats(paste_d),
    );
    let held = region.heap_bytes() as f64;
    let dense_bytes = (dense.capacity() * 2) as f64;
    println!(
        "region {} 256x128x256: bytes held strata {:.0} KiB, dense {:.0} KiB, ratio {:.4} ({} runs); {copy_runs} copies and {runs} pastes each, interleaved",
        c.name,
        held / 1024.0,
        dense_bytes / 1024.0,
        held / dense_bytes,
        region.run_count()
    );
    let line = |what: &str, s: (Duration, Duration), d: (Duration, Duration)| {
        println!(
            "  {what:<12} fastest strata {:7.2} ms dense {:7.2} ms ratio {:.2} | median strata {:7.2} ms dense {:7.2} ms ratio {:.2}",
            ms(s.0),
            ms(d.0),
            ms(s.0) / ms(d.0),
            ms(s.1),
            ms(d.1),
            ms(s.1) / ms(d.1)
        );
    };
    line("copy", cs, cd);
    line("paste", ps, pd);
    line("paste + undo", pu, pd);
    let both = |a: (Duration, Duration), b: (Duration, Duration)| (a.0 + b.0, a.1 + b.1);
    line("copy + paste", both(cs, ps), both(cd, pd));
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    for case in &cases {
        figures(case);
    }
    for case in &cases {
        let region = Region::copy(&case.grid, case.b).expect("copies");
        let dense = case.grid.read_box_vec(case.b);
        let at = target(case.b);
        let mut g = c.benchmark_group(format!("region_copy_{}", case.name));
        g.sample_size(10);
        g.bench_function("strata", |bch| {
            bch.iter(|| black_box(Region::copy(&case.grid, case.b).expect("copies")))
        });
        g.bench_function("dense", |bch| {
            bch.iter(|| black_box(case.grid.read_box_vec(case.b)))
        });
        g.finish();
        let mut g = c.benchmark_group(format!("region_paste_{}", case.name));
        g.sample_size(10);
        g.bench_function("strata", |bch| {
            bch.iter_batched(
                || case.grid.clone(),
                |mut grid| {
                    strata_paste(&mut grid, &region, at, None);
                    grid
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("strata_with_undo", |bch| {
            bch.iter_batched(
                || (case.grid.clone(), History::default()),
                |(mut grid, mut history)| {
                    strata_paste(&mut grid, &region, at, Some(&mut history));
                    (grid, history)
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("dense", |bch| {
            bch.iter_batched(
                || case.grid.clone(),
                |mut grid| {
                    dense_paste(&mut grid, &dense, case.b);
                    grid
                },
                BatchSize::LargeInput,
            )
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
