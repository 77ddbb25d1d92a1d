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
//! A figure table prints before the criterion groups: for each operation the fastest and the median
//! wall time of interleaved runs and the mean CPU time (all threads, from `/proc/self/stat`, which a
//! loaded machine does not inflate the way it inflates wall time), each as strata / dense from the
//! same run. `cargo bench -p strata-engine --bench region -- nomatch` prints only the table.

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

/// Process CPU time (all threads, user + system) from `/proc/self/stat`, in clock ticks of 10 ms;
/// `None` off Linux. Summed over many runs it measures work without the waiting a loaded machine adds.
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Wall times and CPU ticks of one operation over several runs.
#[derive(Default, Clone)]
struct Sample {
    wall: Vec<Duration>,
    ticks: u64,
}

impl Sample {
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let c = cpu_ticks();
        let t = Instant::now();
        let out = f();
        self.wall.push(t.elapsed());
        if let (Some(a), Some(b)) = (c, cpu_ticks()) {
            self.ticks += b - a;
        }
        out
    }

    /// (fastest wall ms, median wall ms, mean CPU ms per run).
    fn stats(&self) -> (f64, f64, f64) {
        let mut v = self.wall.clone();
        v.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        (
            ms(v[0]),
            ms(v[v.len() / 2]),
            self.ticks as f64 * 10.0 / v.len() as f64,
        )
    }
}

fn line(what: &str, s: &Sample, d: &Sample) {
    let (a, b) = (s.stats(), d.stats());
    println!(
        "  {what:<12} fastest {:7.2} / {:7.2} ms = {:.2} | median {:7.2} / {:7.2} ms = {:.2} | CPU {:7.2} / {:7.2} ms = {:.2}",
        a.0,
        b.0,
        a.0 / b.0,
        a.1,
        b.1,
        a.1 / b.1,
        a.2,
        b.2,
        a.2 / b.2
    );
}

/// Interleaved runs of every operation and its dense peer; prints strata / dense figures.
fn figures(c: &Case) {
    let (copy_runs, paste_runs) = (301, 11);
    let [mut copy_s, mut copy_d, mut paste_s, mut paste_u, mut paste_d] =
        std::array::from_fn(|_| Sample::default());
    let region = Region::copy(&c.grid, c.b).expect("copies");
    let dense = c.grid.read_box_vec(c.b);
    let at = target(c.b);
    for _ in 0..copy_runs {
        black_box(copy_s.time(|| Region::copy(&c.grid, c.b).expect("copies")));
        black_box(copy_d.time(|| c.grid.read_box_vec(c.b)));
    }
    for _ in 0..paste_runs {
        let mut g = c.grid.clone();
        paste_s.time(|| strata_paste(&mut g, &region, at, None));
        drop(g);
        let (mut g, mut h) = (c.grid.clone(), History::default());
        paste_u.time(|| strata_paste(&mut g, &region, at, Some(&mut h)));
        drop((g, h));
        let mut g = c.grid.clone();
        paste_d.time(|| dense_paste(&mut g, &dense, c.b));
    }
    let held = region.heap_bytes() as f64;
    let dense_bytes = (dense.capacity() * 2) as f64;
    let form = if region.is_pieces() {
        format!(
            "{} chunk pieces, {} of them as runs",
            region.piece_count(),
            region.encoded_piece_count()
        )
    } else {
        format!("{} runs", region.run_count())
    };
    println!(
        "region {} 256x128x256: bytes held strata {:.0} KiB, dense {:.0} KiB, ratio {:.4} ({form}); \
         {copy_runs} copies and {paste_runs} pastes each, interleaved; strata / dense",
        c.name,
        held / 1024.0,
        dense_bytes / 1024.0,
        held / dense_bytes,
    );
    line("copy", &copy_s, &copy_d);
    line("paste", &paste_s, &paste_d);
    line("paste + undo", &paste_u, &paste_d);
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
