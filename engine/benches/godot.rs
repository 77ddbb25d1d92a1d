//! godot_voxel region forests: export (grid → region files) and import (region files → grid)
//! throughput on `canyons 256,128,256 seed 3`, in voxels of the world per second, for LZ4 and zstd;
//! plus the forest's size beside the `.strata` file's (printed once, before the timings).
//!
//! Both directions run in memory (no file system), on all cores through rayon as the CLI does.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use strata_engine::format::godot::container::Compression;
use strata_engine::format::godot::{
    decode_forest, encode_forest, forest_meta, EncodedRegion, ForestOptions, ImportRules,
    RegionSource,
};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::MaterialTable;

fn world() -> (GeneratorSettings, Grid) {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size: [256, 128, 256],
        seed: 3,
    };
    let grid = generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates");
    (settings, grid)
}

fn options(compression: Compression, lods: u8) -> ForestOptions {
    ForestOptions { compression, lods }
}

fn sources(regions: &[EncodedRegion]) -> Vec<RegionSource<'_>> {
    regions
        .iter()
        .filter(|r| r.lod == 0)
        .map(|r| RegionSource {
            pos: r.pos,
            bytes: &r.bytes,
            path: r.relative_path(),
        })
        .collect()
}

fn print_sizes(settings: &GeneratorSettings, grid: &Grid) {
    let mut header = ProjectHeader::new("bench", settings.bounds());
    header.generator = Some(settings.clone());
    let strata = Project::new(header, grid.clone())
        .to_bytes()
        .expect("encodes")
        .len();
    println!("canyons 256x128x256 seed 3: .strata {strata} bytes");
    for (name, c) in [
        ("lz4", Compression::Lz4),
        ("zstd", Compression::Zstd),
        ("none", Compression::None),
    ] {
        for lods in [1u8, 4] {
            let regions =
                encode_forest(grid, &options(c, lods), &Progress::new()).expect("encodes");
            let meta = forest_meta(&options(c, lods), Some(settings.bounds()))
                .to_json()
                .len();
            let total: usize = regions.iter().map(|r| r.bytes.len()).sum::<usize>() + meta;
            println!(
                "  vxr {name:4} lods {lods}: {total} bytes in {} files ({:.1}x the .strata)",
                regions.len(),
                total as f64 / strata as f64
            );
        }
    }
}

fn forest(c: &mut Criterion) {
    let (settings, grid) = world();
    print_sizes(&settings, &grid);
    let voxels = settings.bounds().volume() as u64;
    let meta = forest_meta(&ForestOptions::default(), None);
    let rules = ImportRules::default();

    let mut g = c.benchmark_group("godot_export");
    g.throughput(Throughput::Elements(voxels));
    for (name, o) in [
        ("lz4_lod0", options(Compression::Lz4, 1)),
        ("lz4_lods4", options(Compression::Lz4, 4)),
        ("zstd_lod0", options(Compression::Zstd, 1)),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| black_box(encode_forest(&grid, &o, &Progress::new()).expect("encodes")))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("godot_import");
    g.throughput(Throughput::Elements(voxels));
    for (name, compression) in [("lz4", Compression::Lz4), ("zstd", Compression::Zstd)] {
        let regions =
            encode_forest(&grid, &options(compression, 1), &Progress::new()).expect("encodes");
        let src = sources(&regions);
        g.bench_function(name, |b| {
            b.iter(|| {
                let back = decode_forest(&meta, &src, &rules, &Progress::new()).expect("decodes");
                black_box(back.grid.chunk_count())
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = forest
}
criterion_main!(benches);
