//! Floating-terrain search on the editor's default world (`hills`, 256×96×256, seed 1), with a few
//! dozen floating pieces carved into it so the search has pieces to collect.
//!
//! - `floating/search`: `find_floating` as the editor and `strata floating` run it (rayon over chunks).
//! - `floating/search_one_thread`: the same inside a one-thread pool (the parallel speed-up).
//! - `floating/flood_fill_dense`: the peer: read the world into one dense array and flood-fill it from
//!   every unvisited matter voxel (6-neighbour stack), the obvious implementation.
//!
//! A summary line with the pieces found and the ratios prints before the groups.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use strata_engine::floating::{find_floating, matter_table};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

const SIZE: [u32; 3] = [256, 96, 256];

fn world(table: &MaterialTable) -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: SIZE,
        seed: 1,
    };
    let mut grid = generate(&settings, table, &Progress::new()).expect("generates");
    // 36 floating rock blocks of 2..7 voxels a side, 20 voxels above the top of the hills.
    let rock = Voxel::filled(table.require("Rock").expect("rock"));
    for k in 0..36 {
        let (x, z) = (8 + (k % 6) * 40, 8 + (k / 6) * 40);
        let s = 2 + (k as u32 % 6);
        grid.fill_box(
            VoxelBox::from_min_size(VoxelPos::new(x, 70, z), [s, s, s]),
            rock,
        );
    }
    grid
}

/// The peer: one dense read, then a stack flood fill; returns (pieces, voxels in pieces).
fn flood_fill_dense(grid: &Grid, table: &MaterialTable) -> (usize, u64) {
    let matter = matter_table(table);
    let b = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), SIZE);
    let [sx, sy, sz] = b.size();
    let solid: Vec<bool> = grid
        .read_box_vec(b)
        .iter()
        .map(|v| matter[usize::from(v.material)])
        .collect();
    let mut seen = vec![false; solid.len()];
    let (mut pieces, mut voxels) = (0, 0u64);
    let mut stack = Vec::new();
    for start in 0..solid.len() {
        if !solid[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut n, mut ground) = (0u64, false);
        while let Some(i) = stack.pop() {
            let (x, y, z) = (i % sx, (i / sx) % sy, i / (sx * sy));
            n += 1;
            ground |= y == 0;
            let mut visit = |j: usize| {
                if solid[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < sx {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - sx);
            }
            if y + 1 < sy {
                visit(i + sx);
            }
            if z > 0 {
                visit(i - sx * sy);
            }
            if z + 1 < sz {
                visit(i + sx * sy);
            }
        }
        if !ground {
            pieces += 1;
            voxels += n;
        }
    }
    (pieces, voxels)
}

fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
        .install(f)
}

fn bench(c: &mut Criterion) {
    let table = MaterialTable::builtin();
    let grid = world(&table);
    let search = || find_floating(&grid, &table, 0, &Progress::new()).expect("search");
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        for _ in 0..5 {
            f();
        }
        t.elapsed().as_secs_f64() / 5.0
    };
    let pieces = search();
    let (peer_pieces, peer_voxels) = flood_fill_dense(&grid, &table);
    assert_eq!(pieces.len(), peer_pieces);
    assert_eq!(pieces.voxels(), peer_voxels);
    let t_par = time(&|| {
        black_box(search());
    });
    let t_one = one_thread(|| {
        time(&|| {
            black_box(search());
        })
    });
    let t_peer = time(&|| {
        black_box(flood_fill_dense(&grid, &table));
    });
    println!(
        "floating, hills 256x96x256 seed 1 + 36 blocks: {} pieces, {} voxels; search {:.1} ms \
         ({:.1}x the dense flood fill's {:.1} ms), one thread {:.1} ms (parallel speed-up {:.2}x)",
        pieces.len(),
        peer_voxels,
        t_par * 1e3,
        t_peer / t_par,
        t_peer * 1e3,
        t_one * 1e3,
        t_one / t_par
    );

    let mut g = c.benchmark_group("floating");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(SIZE[0] * SIZE[1] * SIZE[2])));
    g.bench_function("search", |b| b.iter(|| black_box(search())));
    g.bench_function("search_one_thread", |b| {
        one_thread(|| b.iter(|| black_box(search())))
    });
    g.bench_function("flood_fill_dense", |b| {
        b.iter(|| black_box(flood_fill_dense(&grid, &table)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
